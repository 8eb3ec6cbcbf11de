"""``python -m oddscalc``: the command line."""

from .cli import main

main(prog_name="oddscalc")
