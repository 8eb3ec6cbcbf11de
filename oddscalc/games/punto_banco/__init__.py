"""Punto banco and its side bets."""
