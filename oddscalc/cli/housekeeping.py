"""Housekeeping a user expects: ``cache`` shows where the on-disk stores are and what they hold, and clears them.
Registered on the group in ``cli.main`` (:data:`COMMANDS`)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from oddscalc.cli.options import EXIT_INPUT, Failure


def _size(n: int) -> str:
    """Bytes as a reader says them: 950 bytes, 1.2 kB, 268.4 MB (powers of 1000, as disks are sold)."""
    if n < 1000:
        return f"{n} byte{'' if n == 1 else 's'}"
    value = float(n)
    for unit in ("kB", "MB", "GB"):
        value /= 1000
        if value < 999.95:
            return f"{value:.1f} {unit}"
    return f"{value / 1000:.1f} TB"


def _files(n: int) -> str:
    return f"{n:,} file{'' if n == 1 else 's'}"


def _where(base: Path) -> str:
    """The stores' folder and what chose it."""
    if os.environ.get("ODDSCALC_CACHE_DIR"):
        return f"{base} (set by ODDSCALC_CACHE_DIR)"
    return f"{base} (the platform's user cache folder; ODDSCALC_CACHE_DIR names another)"


@click.command()
@click.option("--clear", is_flag=True,
              help="Remove the stores' files (the counts and the reports kept): later runs count again. Removes "
                   "nothing else, and asks nothing.")
def cache(clear: bool) -> None:
    """Where oddscalc keeps its stores (the pay-free counts of every game, and the reports asked for before), how
    much each holds, and with --clear remove them. The folder: ODDSCALC_CACHE_DIR, else the platform's user cache
    folder (~/.cache/oddscalc on Linux, ~/Library/Caches/oddscalc on macOS, %LOCALAPPDATA%\\oddscalc\\oddscalc\\Cache
    on Windows)."""
    from oddscalc import cache as stores
    from oddscalc.files import cache_dir

    base = cache_dir()
    try:
        if clear:
            found, failed = stores.clear(base)
        else:
            found, failed = stores.kept(base), []
        left = stores.others(base)
    except OSError as e:
        raise Failure(f"the stores' folder {_where(base)}: {e.strerror or e}", EXIT_INPUT) from None
    click.echo(f"The stores' folder: {_where(base)}")
    for k in found:
        if k.linked:
            click.echo(f"  {k.name}: {k.folder} is a symbolic link, left alone (its files are elsewhere)")
        elif clear:
            click.echo(f"  {k.name}: removed {_files(len(k.files))} ({_size(k.size)}) from {k.folder}")
        else:
            click.echo(f"  {k.name}: {_files(len(k.files))}, {_size(k.size)} in {k.folder} ({k.what})")
        if k.busy:
            click.echo(f"  {k.name}: {_files(k.busy)} being written now by a run under way, left")
    total = sum(len(k.files) for k in found)
    size = sum(k.size for k in found)
    if clear:
        click.echo(f"Removed {_files(total)}, {_size(size)}." if total else "Nothing to remove: the stores are empty.")
    else:
        click.echo(f"In all {_files(total)}, {_size(size)}; `oddscalc cache --clear` removes them (later runs count "
                   "again).")
    if left:
        click.echo(f"Not the stores' and never removed: {_files(left)} or folders in {base}.")
    if os.environ.get("ODDSCALC_NO_CACHE") == "1":
        click.echo("ODDSCALC_NO_CACHE=1: runs here neither read nor write these stores.")
    if failed:
        first, why = failed[0]
        raise Failure(f"could not remove {_files(len(failed))} of the stores (first {first}: {why})", EXIT_INPUT)


COMMANDS = (cache,)
