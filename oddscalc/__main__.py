"""``python -m oddscalc``: the command line."""

from oddscalc.cli.main import main

main(prog_name="oddscalc")
