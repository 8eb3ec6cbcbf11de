"""The shipped compliance profiles, installed as the package data ``oddscalc.profiles``."""
