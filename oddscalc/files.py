"""Which arguments name files, where oddscalc keeps files, and writing them so that a full disk, a
kill or Ctrl-C leaves the old file whole.

Every write goes to a temporary file in the destination's folder and is renamed over it (an
atomic replace on POSIX and Windows); a failed write removes its temporary file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO


def is_path(ref: str) -> bool:
    """A reference with a path separator or a ``.toml`` ending names a file; anything else is an id."""
    return ref.endswith(".toml") or "/" in ref or os.sep in ref or (os.altsep is not None and os.altsep in ref)


def cache_dir() -> Path:
    """The folder of the stores (``ODDSCALC_CACHE_DIR``, else the platform's user cache folder)."""
    env = os.environ.get("ODDSCALC_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("oddscalc"))


def write_atomic(path: Path, data: bytes | Iterable[bytes | memoryview], mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` (bytes, or pieces written in order, made as they are written) in one step,
    with permission bits ``mode`` (set before the rename, so the new file is never seen with the temporary file's
    0600); raises OSError, leaving ``path`` as it was."""
    from oddscalc.interrupts import held

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp: str | None = None
    f: BinaryIO | None = None
    try:
        with held():  # a Ctrl-C as the temporary file is made is raised once it is known, so it is removed
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            f = os.fdopen(fd, "wb")
        with f:
            if mode is not None:
                os.fchmod(f.fileno(), mode)
            for piece in ([data] if isinstance(data, bytes) else data):
                f.write(piece)
        os.replace(tmp, path)
    except BaseException:
        if f is not None:
            f.close()
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise


def real_path(path: Path) -> Path:
    """The absolute path with every symbolic link followed as far as it goes: unlike ``Path.resolve`` it never
    raises on a loop of links (reading the file then fails with an OSError, reported like any other), nor on a name
    no file can have (a NUL byte: the absolute path, which names nothing, so reading it fails as any missing file)."""
    try:
        return Path(os.path.realpath(path))
    except ValueError:
        return Path(os.path.abspath(path))


_READ: set[Path] = set()  # every input file this command has read, by real path


def note_read(path: Path) -> None:
    """Record that the running command reads ``path`` (a table, a strategy card, a profile, a checkpoint): no
    output of the command may then be written over it (:func:`read_here`)."""
    _READ.add(real_path(path))


def read_here(path: Path) -> bool:
    """Whether ``path`` (or the file it links to) is one the running command has read."""
    return real_path(path) in _READ


def forget_reads() -> None:
    """A new command begins: nothing is read yet."""
    _READ.clear()
