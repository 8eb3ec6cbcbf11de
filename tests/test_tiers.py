"""The deep tier's list (tests/tiers.toml, read by oracles.tiers): what it sends deep, and that it cannot go stale."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest
from oracles import tiers


class _Item:
    """A collected test as apply() sees it: its node id, and the marks added."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid
        self.marks: list[str] = []

    def add_marker(self, mark: Any) -> None:
        self.marks.append(mark.name)


def _items(*ids: str) -> list[_Item]:
    return [_Item(i) for i in ids]


def _entries(tmp_path: Path, text: str) -> list[tiers.Entry]:
    path = tmp_path / "tiers.toml"
    path.write_text(text)
    return tiers.read(path)


def test_the_shipped_list_reads() -> None:
    entries = tiers.read()
    assert entries and all(e.why for e in entries)


def test_ids_kept_fast_stay_and_the_rest_and_covered_functions_go_deep(tmp_path: Path) -> None:
    entries = _entries(tmp_path, '''
[[deep]]
test = "tests/a.py::test_p"
fast = ["small"]
why = "the small case runs the same code"
[[deep]]
test = "tests/a.py::test_big"
covered_by = "tests/a.py::test_small"
why = "test_small is the same check in small"
''')
    items = _items("tests/a.py::test_p[small]", "tests/a.py::test_p[large]", "tests/a.py::test_big",
                   "tests/a.py::test_small", "tests/b.py::test_p[large]")
    tiers.apply(cast(list[pytest.Item], items), entries, strict=True)
    assert [i.marks for i in items] == [[], ["deep"], ["deep"], [], []]


@pytest.mark.parametrize("items, error", [
    (("tests/a.py::test_other",), "names no test collected"),
    (("tests/a.py::test_p[large]", "tests/a.py::test_small"), "keeps fast ids it does not have"),
])
def test_a_stale_entry_stops_the_run(tmp_path: Path, items: tuple[str, ...], error: str) -> None:
    entries = _entries(tmp_path, '[[deep]]\ntest = "tests/a.py::test_p"\nfast = ["small"]\nwhy = "w"\n')
    with pytest.raises(pytest.UsageError, match=error):
        tiers.apply(cast(list[pytest.Item], _items(*items)), entries, strict=True)
    tiers.apply(cast(list[pytest.Item], _items(*items)), entries, strict=False)  # one test picked: not checked


def test_a_cover_must_exist_and_stay_fast(tmp_path: Path) -> None:
    entries = _entries(tmp_path, '''
[[deep]]
test = "tests/a.py::test_big"
covered_by = "tests/a.py::test_huge"
why = "w"
[[deep]]
test = "tests/a.py::test_huge"
covered_by = "tests/a.py::test_small"
why = "w"
''')
    with pytest.raises(pytest.UsageError, match="is deep itself"):
        tiers.apply(cast(list[pytest.Item], _items("tests/a.py::test_big", "tests/a.py::test_huge",
                                                   "tests/a.py::test_small")), entries, strict=True)
    with pytest.raises(pytest.UsageError, match="is not a test"):
        tiers.apply(cast(list[pytest.Item], _items("tests/a.py::test_big")), entries[:1], strict=True)


@pytest.mark.parametrize("text, error", [
    ('[[deep]]\ntest = "tests/a.py::test_p"\nwhy = "w"\n', "exactly one of fast and covered_by"),
    ('[[deep]]\ntest = "tests/a.py::test_p"\nfast = ["x"]\n', "say why"),
    ('[[deep]]\ntest = "tests/a.py::test_p[x]"\nfast = ["x"]\nwhy = "w"\n', "must name a function"),
    ('[[deep]]\ntest = "tests/a.py::test_p"\nfast = []\nwhy = "w"\n', "fast must list"),
    ('[[deep]]\ntest = "tests/a.py::test_p"\nfast = ["x"]\nwhy = "w"\nkeep = 1\n', "unknown keys"),
    ('[[deep]]\ntest = "tests/a.py::test_p"\nfast = ["x"]\nwhy = "w"\n' * 2, "listed twice"),
])
def test_a_malformed_entry_is_refused(tmp_path: Path, text: str, error: str) -> None:
    with pytest.raises(pytest.UsageError, match=error):
        _entries(tmp_path, text)
