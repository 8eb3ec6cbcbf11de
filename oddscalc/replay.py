"""Rendered reports kept for an identical request: the same table bytes, options and code give the same bytes.

A report is a pure function of the code, the table file and the run options (a test holds the
renderers to byte-identical output). So the text of a report is kept in the store folder under a
key made of a digest of the package's source files' contents, the table file's sha256, the game and the
options; asking again answers from it without importing the games, numpy or pydantic. The text
is kept with its own sha256 and checked on every read; anything off is recomputed. Like the store
of counts this is a speed-up, subject to the same threat model, and ``--no-cache`` skips it.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path

from oddscalc.files import cache_dir, note_read, write_atomic

MAGIC = b"oddscalc-report "
_PACKAGE = Path(__file__).resolve().parent


@cache
def code_digest(module: str | None = None) -> str:
    """The :func:`contents_digest` of every source file of the package (a changed line is a different engine), or
    with ``module`` (dotted, inside the package) of the files it needs: :func:`closure`."""
    return contents_digest(sorted(_PACKAGE.rglob("*.py")) if module is None else closure(module))


def contents_digest(paths: Iterable[Path]) -> str:
    """sha256 of the files' contents only, in no order: of the sorted sha256 of each file's bytes.

    Where a file lives is not part of it, so a pure move (a module to another package, its bytes unchanged) keeps
    the digest, and a proof of days under way is not orphaned by one; nor is the order the files are listed in.
    Any byte changed in any file changes it, and so does a file added or removed (each file counts once per copy).
    """
    h = hashlib.sha256(b"oddscalc code contents 1\0")
    for digest in sorted(hashlib.sha256(path.read_bytes()).hexdigest() for path in paths):
        h.update(digest.encode() + b"\0")
    return h.hexdigest()


def _file(module: str) -> Path | None:
    parts = module.split(".")
    if parts[0] != _PACKAGE.name:
        return None
    base = _PACKAGE.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def closure(module: str) -> list[Path]:
    """The package's source files ``module`` runs or may run: itself, the packages holding it, and what they
    import from the package, at any depth and anywhere in the file (a function's import, a type checker's),
    read off the source, not by importing. A result that depends on ``module`` alone changes only with these."""
    seen: dict[str, Path] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for k in range(1, len(parts) + 1):  # importing a.b.c runs a and a.b first
            head = ".".join(parts[:k])
            path = _file(head)
            if path is None or head in seen:
                continue
            seen[head] = path
            package = head if path.name == "__init__.py" else head.rpartition(".")[0]
            for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
                if isinstance(node, ast.Import):
                    todo += [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                    stem = ".".join(base + ([node.module] if node.module else []))
                    todo += [stem] + [f"{stem}.{a.name}" for a in node.names]  # a name may be a module
    return sorted(set(seen.values()))


def folder() -> Path | None:
    """Where reports are kept (None when the stores are off, or ``ODDSCALC_NO_REPLAY=1`` turns this one off)."""
    if os.environ.get("ODDSCALC_NO_CACHE") == "1" or os.environ.get("ODDSCALC_NO_REPLAY") == "1":
        return None
    return cache_dir() / "reports"


def _digest(path: Path) -> str | None:
    note_read(path)  # a report answered from the store read its table and card all the same
    try:
        if not path.is_file() or path.stat().st_size > 1 << 20:
            return None
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def key(game: str, table: Path, request: Mapping[str, object], also: Sequence[Path] = ()) -> str | None:
    """The key of a report of ``table`` and the files ``also`` read (a strategy card); None when one
    cannot be read: the full path says why."""
    digests = [_digest(p) for p in (table, *also)]
    if any(d is None for d in digests):
        return None
    text = json.dumps({"code": code_digest(), "game": game, "table": digests[0], "also": digests[1:], **request},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def lookup(report_key: str) -> str | None:
    """The report kept under ``report_key``, if it is whole."""
    base = folder()
    if base is None:
        return None
    try:
        blob = (base / f"{report_key}.txt").read_bytes()
    except OSError:
        return None
    head, _, body = blob.partition(b"\n")
    if not head.startswith(MAGIC) or head[len(MAGIC):].decode(errors="replace") != hashlib.sha256(body).hexdigest():
        return None
    return body.decode("utf-8")


def keep(report_key: str, text: str) -> None:
    """Keep a report (failing to is not an error: this is only a speed-up)."""
    base = folder()
    if base is None:
        return
    body = text.encode("utf-8")
    try:
        write_atomic(base / f"{report_key}.txt", MAGIC + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    except OSError:
        pass
