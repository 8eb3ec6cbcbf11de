"""Which arguments name files, where oddscalc keeps files, and writing them so that a full disk, a
kill or Ctrl-C leaves the old file whole.

Every write goes to a temporary file in the destination's folder and is renamed over it (an
atomic replace on POSIX and Windows); a failed write removes its temporary file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path


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


def write_atomic(path: Path, data: bytes | Sequence[bytes | memoryview]) -> None:
    """Replace ``path`` with ``data`` (bytes, or pieces written in order) in one step; raises OSError,
    leaving ``path`` as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            for piece in ([data] if isinstance(data, bytes) else data):
                f.write(piece)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
