"""The command group loads each command's module only when asked for: a cold ``report`` imports only what it uses,
while help still lists every command with its help line."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from oddscalc.cli.main import LAZY, Commands, main

CLI = Path(__file__).resolve().parents[2] / "oddscalc" / "cli"


def test_the_lazy_names_are_the_modules_own_commands() -> None:
    """Each module named in LAZY defines exactly the commands LAZY gives it, and every command module is named: a
    command added to a module and not to LAZY (or misspelt there) fails here, not silently missing from help."""
    modules = {m for m in LAZY.values()}
    declaring = {f"oddscalc.cli.{p.stem}" for p in CLI.glob("*.py") if "\nCOMMANDS = " in p.read_text()}
    assert modules == declaring
    for module in sorted(modules):
        names = {c.name for c in importlib.import_module(module).COMMANDS}
        assert names == {n for n, m in LAZY.items() if m == module}, module


def test_help_lists_every_command_with_its_help_line() -> None:
    out = CliRunner().invoke(main, ["--help"]).output
    listed = out.split("Commands:\n", 1)[1].splitlines()
    names = [line.split()[0] for line in listed if line.strip()]
    assert names == sorted({*LAZY, "report"})
    commands = main.loaded()
    for line in listed:
        name, _, shown = line.strip().partition(" ")
        help_line = commands[name].get_short_help_str(limit=1000)  # click cuts it to the terminal's width
        assert help_line and shown and help_line.startswith(shown.strip().removesuffix("...")), name


def test_an_unknown_command_is_still_a_usage_error_with_suggestions() -> None:
    fresh = Commands(commands=[main.commands["report"]])  # no lazy module loaded yet (main may have them all)
    result = CliRunner().invoke(fresh, ["repor"])
    assert result.exit_code == 2
    # the suggestions come from every command, loaded or not: 'exposure' is in a lazy module
    assert "No such command 'repor'. (Did you mean one of: 'exposure', 'report'?)" in result.output
    assert Commands().get_command(click.Context(main), "nosuch") is None


def test_a_report_imports_no_other_command_module() -> None:
    """In a new process (this one has loaded them all): the report command resolved, no other command's module
    is imported."""
    code = ("import sys, click; from oddscalc.cli.main import main; "
            "main.get_command(click.Context(main), 'report'); "
            "print(sorted(m for m in sys.modules if m.startswith('oddscalc.cli.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert eval(loaded) == ["oddscalc.cli.main", "oddscalc.cli.options"]
    assert set(LAZY.values()).isdisjoint(eval(loaded))
