"""Every ``oddscalc ...`` command line in README.md's shell blocks runs, in process, and exits as the README says.

How a README line is read (its ``# comment`` is for the reader and for this test alike):

- ``(exit N ...)`` in the comment: the exit code the line is documented to give (0 otherwise);
- ``(minutes)`` or ``(hours)`` in the comment: a long line, parsed (its command, options and values must exist and
  be valid) but never run; so is a line that names a cluster's scheduler address (``--scheduler tcp://...``);
- a line in :data:`HEAVY` (seconds to half a minute each): parsed in the fast suite, run as written in the deep
  one, so the fast suite stays within seconds;
- a line with ``--clear`` (``oddscalc cache --clear``) runs on a stores' folder of its own (ODDSCALC_CACHE_DIR).

The lines run in one folder, in README order (``tables copy`` makes the ``my-casino.toml`` the later lines read),
with the checkout's ``cards/`` and ``proofs/`` beside them, as from the top of a checkout.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from oddscalc.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
HEAVY = {
    "oddscalc counting punto-banco --table dragon-bonus --wager dragon_bonus_player": "a counting study, 20 s",
    "oddscalc seats house-baccarat --players 3": "every equilibrium of three seats, 25 s",
    "oddscalc card caribbean --table us --within 0.05% -o synthesised.toml": "a card synthesis, 30 s",
    "oddscalc report caribbean --table us --strategy synthesised.toml": "reads the card the line above writes",
    "oddscalc seats house-baccarat --players 2 --third-cards shown": "third cards shown, 30 s",
    # its figures derived again on 8 decks (cold, 18 s of CPU); the proof command on small checkpoints is the
    # suite's (tests/seats/proof/test_proof_checkpoint.py, tests/cli/test_checkpoint_inputs.py)
    "oddscalc proof proofs/house-baccarat-6-seats.checkpoint": "a proof kept, its figures derived again, 18 s",
    # lines another fast test runs as written, or in small (a few seconds of CPU each, spent once there)
    # tests/test_verify.py: the command on a folder of tables, and every shipped [published] block through its checks
    "oddscalc verify": "every shipped table's figures, 6 s",
    # tests/report/test_documents.py::test_documents_from_the_command_line runs this very line
    "oddscalc report caribbean --format pdf -o spain.pdf": "a pdf of the Spanish table, 3 s",
    # the sort search: tests/protection/test_information.py runs it (--search-sorts 2, edge-sort-first-card), and the
    # README line before this one reads the edge-sort-first-four model without it
    "oddscalc glimpse punto-banco --model edge-sort-first-four --search-sorts 5": "every sort of ten values, 3 s",
    # tests/cli/test_careless.py::test_a_card_is_named_and_the_closest_decisions_say_whose: this card on the us table
    "oddscalc report caribbean --strategy cards/caribbean/matching-rank.toml": "a report played by a card, 1.6 s",
    # tests/cli/test_tools.py::test_hold_as_json_and_csv_has_the_rows_of_the_table: these stakes, jackpot=1
    "oddscalc hold caribbean --stake main=5 --stake jackpot=0.50": "the hold of a seat playing both bets, 1.1 s",
    # tests/cli/test_register_gaps.py::test_symbolic_works_for_every_game[let-it-ride]: this command, as json
    "oddscalc report let-it-ride --symbolic": "the EV as an expression in the pays, 0.8 s",
    # tests/simulate/test_simulate.py: the command on 50,000 and 100,000 coups (seeded, and as json)
    "oddscalc simulate punto-banco -n 1000000 --seed 7": "a million coups dealt, 0.8 s",
}


def readme_lines() -> list[tuple[str, str]]:
    """Each ``oddscalc`` command line of the README's shell blocks: (command, comment)."""
    out, shell = [], False
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            shell = line.strip() in ("```sh", "```bash", "```console")
            continue
        if shell and line.startswith("oddscalc "):
            command, _, comment = line.partition(" #")
            out.append((command.strip(), comment.strip()))
    return out


LINES = readme_lines()


def expected_exit(comment: str) -> int:
    m = re.search(r"\(exit (\d+)", comment)
    return int(m.group(1)) if m else 0


def is_long(command: str, comment: str) -> bool:
    return bool(re.search(r"\((?:[^)]*\b)?(?:minutes|hours)\)", comment)) or "--scheduler tcp://" in command


def parse(args: list[str]) -> None:
    """Parse a command line as click would run it, without running it: unknown commands, options and bad values
    raise."""
    ctx = click.Context(main, info_name="oddscalc")
    command = main.get_command(ctx, args[0])
    if command is None:
        raise click.UsageError(f"no command {args[0]!r}")
    command.make_context(args[0], list(args[1:]), parent=ctx).close()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    here = tmp_path_factory.mktemp("readme")
    for name in ("cards", "proofs"):
        (here / name).symlink_to(ROOT / name)
    before = os.getcwd()
    os.chdir(here)
    try:
        yield here
    finally:
        os.chdir(before)


def test_the_readme_has_its_commands() -> None:
    commands = [c for c, _ in LINES]
    assert len(commands) > 20 and "oddscalc solve caribbean --pay main.royal_flush --edge 5%" in commands
    assert set(HEAVY) <= set(commands), "a HEAVY line is no longer in the README"


def test_every_readme_command_runs(folder: Path) -> None:
    for command, comment in LINES:
        args = shlex.split(command)[1:]
        if is_long(command, comment) or command in HEAVY:
            parse(args)
            continue
        # a line that clears the stores clears a folder of its own, never the run's (which other tests read)
        env = {"ODDSCALC_CACHE_DIR": str(folder / "stores")} if "--clear" in args else None
        r = CliRunner().invoke(main, args, env=env)
        assert r.exit_code == expected_exit(comment), f"{command}: exit {r.exit_code}\n{r.output[-2000:]}"
        assert r.exception is None or isinstance(r.exception, SystemExit), f"{command}: {r.exception!r}"
    assert (folder / "my-casino.toml").is_file()


def test_a_bad_line_would_be_seen() -> None:
    with pytest.raises(click.UsageError):
        parse(["solve", "caribbean", "--pay", "main.royal_flush", "--egde", "5%"])
    with pytest.raises(click.UsageError):
        parse(["sets", "house-baccarat"])
    assert is_long("oddscalc seats x", "the proof (minutes)") and not is_long("oddscalc report x", "a report")
    assert expected_exit("each rule (exit 6 here: ...)") == 6


# a heavy line that reads what another writes runs after it, in the same test: the two may land on different
# workers (and folders) when each is a test of its own
AFTER = {"oddscalc report caribbean --table us --strategy synthesised.toml":
         "oddscalc card caribbean --table us --within 0.05% -o synthesised.toml"}


@pytest.mark.deep
@pytest.mark.parametrize("command", sorted(set(HEAVY) - set(AFTER.values())))
def test_heavy_readme_commands(command: str, folder: Path) -> None:
    for line in (AFTER[command], command) if command in AFTER else (command,):
        r = CliRunner().invoke(main, shlex.split(line)[1:])
        assert r.exit_code == 0, f"{line}: " + r.output[-2000:]


def test_every_line_a_heavy_line_follows_is_heavy_too() -> None:
    assert set(AFTER) | set(AFTER.values()) <= set(HEAVY)
