"""The command line: parse, call, render, write. Errors become exit codes in one place; no game logic."""
