"""The suite's two tiers: which cases only the deep checks run (``make verify``), read from ``tests/tiers.toml``.

``make test`` must stay under two minutes on two cores, so a large case of a check runs in the deep tier while a
smaller case of the same check, against the same oracle, stays in the fast one. The file says which, one entry per
test function, and why:

- ``fast = [ids]``: the function's parameter ids that stay fast (its cover); every other id is deep;
- ``covered_by = "tests/file.py::test_name"``: the whole function is deep, and the named fast test runs the same
  code against the same oracle in small.

Entries are checked whenever the files they name are collected whole: a function or id that no longer exists,
or a cover that is itself deep, stops the run with the entry's name (so a renamed test cannot leave the list
silently wrong).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

TIERS = Path(__file__).resolve().parent.parent / "tiers.toml"


@dataclass(frozen=True)
class Entry:
    """One test function's tiering: the ids kept fast, or the fast test that covers it whole."""

    test: str
    fast: tuple[str, ...]
    covered_by: str
    why: str


def read(path: Path = TIERS) -> list[Entry]:
    """The entries of ``path``, each with exactly one of ``fast`` and ``covered_by``, and a reason."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    entries = []
    seen = set()
    for i, raw in enumerate(data.get("deep", [])):
        where = f"{path.name}: deep entry {i + 1}"
        unknown = set(raw) - {"test", "fast", "covered_by", "why"}
        if unknown:
            raise pytest.UsageError(f"{where}: unknown keys {sorted(unknown)}")
        test, fast, cover, why = raw.get("test", ""), raw.get("fast"), raw.get("covered_by"), raw.get("why", "")
        if "::" not in test or "[" in test:
            raise pytest.UsageError(f"{where}: test must name a function as tests/file.py::test_name")
        if (fast is None) == (cover is None):
            raise pytest.UsageError(f"{where} ({test}): give exactly one of fast and covered_by")
        if fast is not None and not (isinstance(fast, list) and fast and all(isinstance(f, str) for f in fast)):
            raise pytest.UsageError(f"{where} ({test}): fast must list the parameter ids kept fast")
        if not why.strip():
            raise pytest.UsageError(f"{where} ({test}): say why the fast cases cover the deep ones")
        if test in seen:
            raise pytest.UsageError(f"{where}: {test} is listed twice")
        seen.add(test)
        entries.append(Entry(test, tuple(fast or ()), cover or "", why))
    return entries


def _split(nodeid: str) -> tuple[str, str | None]:
    base, bracket, rest = nodeid.partition("[")
    return base, (rest[:-1] if bracket else None)


def apply(items: Sequence[pytest.Item], entries: Sequence[Entry], strict: bool) -> None:
    """Mark deep the cases ``entries`` send there; with ``strict`` (whole files collected), check every entry
    whose file was collected against what was."""
    by_test = {e.test: e for e in entries}
    ids: dict[str, set[str | None]] = {}
    for item in items:
        base, param = _split(item.nodeid)
        ids.setdefault(base, set()).add(param)
        entry = by_test.get(base)
        if entry is not None and (entry.covered_by or param not in entry.fast):
            item.add_marker(pytest.mark.deep)
    if not strict:
        return
    files = {base.split("::")[0] for base in ids}
    deep_whole = {e.test for e in entries if e.covered_by}
    for e in entries:
        if e.test.split("::")[0] not in files:
            continue
        if e.test not in ids:
            raise pytest.UsageError(f"tests/tiers.toml: {e.test} names no test collected (renamed or removed?)")
        missing = [f for f in e.fast if f not in ids[e.test]]
        if missing:
            raise pytest.UsageError(f"tests/tiers.toml: {e.test} keeps fast ids it does not have: {missing}")
        if e.covered_by and e.covered_by.split("::")[0] in files:
            if e.covered_by not in ids:
                raise pytest.UsageError(f"tests/tiers.toml: the cover of {e.test}, {e.covered_by}, is not a test")
            if e.covered_by in deep_whole:
                raise pytest.UsageError(f"tests/tiers.toml: the cover of {e.test}, {e.covered_by}, is deep itself")
