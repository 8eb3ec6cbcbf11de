"""oddscalc: exact combinatorial odds for casino table card games."""

__version__ = "0.1.0"
