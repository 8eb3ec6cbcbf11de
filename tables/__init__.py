"""The shipped table files, installed as the package data ``oddscalc.shipped`` (see setup.cfg)."""
