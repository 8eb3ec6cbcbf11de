"""docs/hardening.md, the register of hostile-input classes, held to the tests it names: every node id names a test
function that exists, "(deep)" is said of exactly the tests marked deep, every test of the hardening files is
named, every class names a test, and no placeholder is left. Read with ``ast``, never imported: fast."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from oracles import tiers

ROOT = Path(__file__).resolve().parents[1]
REGISTER = ROOT / "docs" / "hardening.md"
PLACEHOLDER = "PENDING"
# the files that exist to hold hostile input off: each of their tests must be in the register
HARDENING_FILES = ("tests/cli/test_hardening.py", "tests/cli/test_outputs.py", "tests/cli/test_numbers.py",
                   "tests/cli/test_fuzz.py", "tests/cli/test_locale.py", "tests/cli/test_register_gaps.py",
                   "tests/report/test_escaping.py", "tests/report/test_pdf_text.py")
GAPS = "tests/cli/test_register_gaps.py"
NODE = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)(?:\[([^\]`]*)\])?`( \*\(deep\)\*)?")
DEEP_MARK = "pytest.mark.deep"


@dataclass(frozen=True)
class Cited:
    """One node id as the register writes it."""

    module: str
    function: str
    param: str | None
    said_deep: bool

    def __str__(self) -> str:
        return f"{self.module}::{self.function}" + (f"[{self.param}]" if self.param is not None else "")


@dataclass(frozen=True)
class Found:
    """What the register needs of a test function: whether it is deep, and which of its named params are."""

    deep: bool
    deep_params: frozenset[str]


def cited(text: str) -> list[Cited]:
    """Every node id in the register's text."""
    return [Cited(m[1], m[2], m[3], bool(m[4])) for m in NODE.finditer(text)]


@cache
def functions_of(source: str) -> dict[str, Found]:
    """The module-level test functions of a test file's source, with their deep marks (on the function, or on a
    ``pytest.param(..., marks=pytest.mark.deep, id=...)`` of its parametrization)."""
    found = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.name.startswith("test_"):
            continue
        deep = any(ast.unparse(d) == DEEP_MARK for d in node.decorator_list)
        params = set()
        for call in (c for d in node.decorator_list for c in ast.walk(d) if isinstance(c, ast.Call)):
            keywords = {k.arg: k.value for k in call.keywords}
            marks = keywords.get("marks")
            if ast.unparse(call.func) == "pytest.param" and marks is not None and DEEP_MARK in ast.unparse(marks):
                ident = keywords.get("id")
                if isinstance(ident, ast.Constant) and isinstance(ident.value, str):
                    params.add(ident.value)
        found[node.name] = Found(deep, frozenset(params))
    return found


def problems(text: str, root: Path) -> list[str]:
    """What is wrong with a register's node ids, read against the test files under ``root`` and the deep tier's
    list there (``tests/tiers.toml``: a function covered whole is deep, and so are the ids it does not keep fast)."""
    listed = root / "tests" / "tiers.toml"
    tiered = {e.test: e for e in tiers.read(listed)} if listed.is_file() else {}
    wrong = []
    for c in cited(text):
        path = root / c.module
        if not path.is_file():
            wrong.append(f"{c}: no such test file")
            continue
        fn = functions_of(path.read_text()).get(c.function)
        if fn is None:
            wrong.append(f"{c}: no such test function")
            continue
        deep = fn.deep or (c.param is not None and c.param in fn.deep_params)
        entry = tiered.get(f"{c.module}::{c.function}")
        if entry is not None:
            deep = deep or bool(entry.covered_by) or (c.param is not None and c.param not in entry.fast)
        if deep != c.said_deep:
            wrong.append(f"{c}: {'deep' if deep else 'not deep'}, said {'deep' if c.said_deep else 'not deep'}")
    return wrong


def unnamed(text: str, root: Path, files: tuple[str, ...]) -> list[str]:
    """Tests of the hardening files that the register does not name."""
    named = {(c.module, c.function) for c in cited(text)}
    return [f"{f}::{name}" for f in files for name in functions_of((root / f).read_text()) if (f, name) not in named]


def rows(text: str) -> dict[str, list[list[str]]]:
    """The register's table rows (class, what oddscalc does, tests), by campaign (its level-2 heading)."""
    by: dict[str, list[list[str]]] = {}
    campaign = ""
    for line in text.splitlines():
        if line.startswith("## "):
            campaign = line[3:]
        elif line.startswith("| ") and not line.startswith("| Class |"):
            by.setdefault(campaign, []).append([cell.strip() for cell in line.strip("|").split(" | ")])
    return by


def _register() -> str:
    return REGISTER.read_text()


# --- the register ---------------------------------------------------------------------------------------------------

def test_every_node_id_names_a_test_and_says_deep_of_exactly_the_deep_ones() -> None:
    text = _register()
    assert len(cited(text)) > 100
    assert problems(text, ROOT) == []


def test_every_test_of_the_hardening_files_is_in_the_register() -> None:
    assert unnamed(_register(), ROOT, HARDENING_FILES) == []


def test_every_class_of_both_campaigns_names_its_tests() -> None:
    by = rows(_register())
    campaigns = [c for c in by if c.startswith("Issue ")]
    assert [c.split(":")[0] for c in campaigns] == [f"Issue {n}" for n in (9, 41, 42, 43, 45, 46, 47)]
    for campaign in campaigns:
        for row in by[campaign]:
            assert len(row) == 3, row
            assert NODE.search(row[2]) or row[2] == PLACEHOLDER, f"{campaign}: {row[0]}: no test named"


def test_the_gap_tests_named_in_prose_exist() -> None:
    gaps = _register().split("## Classes that had no test of their own", 1)[1].split("\n## ", 1)[0]
    names = set(re.findall(r"`(test_\w+)`", gaps))
    assert names and names <= set(functions_of((ROOT / GAPS).read_text()))


def test_no_class_is_left_without_its_test_id() -> None:
    # a class listed before its test exists says PLACEHOLDER; it must name its test before it lands
    left = [row[0] for campaign in rows(_register()).values() for row in campaign if PLACEHOLDER in row[2]]
    assert left == []


# --- the checks can fail ----------------------------------------------------------------------------------------------

TOY = '''
import pytest
from oracles import tiers

def test_plain() -> None: ...

@pytest.mark.deep
def test_slow() -> None: ...

@pytest.mark.parametrize("n", [1, pytest.param(2, marks=pytest.mark.deep, id="big")])
def test_sized(n: int) -> None: ...
'''


def test_the_checks_find_a_missing_test_a_wrong_deep_and_an_unnamed_test(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_toy.py").write_text(TOY)
    good = ("`tests/test_toy.py::test_plain`, `tests/test_toy.py::test_slow` *(deep)*, "
            "`tests/test_toy.py::test_sized[1]`, `tests/test_toy.py::test_sized[big]` *(deep)*")
    assert problems(good, tmp_path) == []
    assert unnamed(good, tmp_path, ("tests/test_toy.py",)) == []
    bad = ("`tests/test_toy.py::test_gone`, `tests/test_toy.py::test_slow`, `tests/test_toy.py::test_plain` *(deep)*, "
           "`tests/test_toy.py::test_sized[big]`, `tests/test_nope.py::test_plain`")
    assert problems(bad, tmp_path) == [
        "tests/test_toy.py::test_gone: no such test function",
        "tests/test_toy.py::test_slow: deep, said not deep",
        "tests/test_toy.py::test_plain: not deep, said deep",
        "tests/test_toy.py::test_sized[big]: deep, said not deep",
        "tests/test_nope.py::test_plain: no such test file",
    ]
    assert unnamed("`tests/test_toy.py::test_plain`", tmp_path, ("tests/test_toy.py",)) == [
        "tests/test_toy.py::test_slow", "tests/test_toy.py::test_sized"]
    # the tier list sends a test deep as its mark does
    (tmp_path / "tests" / "tiers.toml").write_text(
        '[[deep]]\ntest = "tests/test_toy.py::test_plain"\ncovered_by = "tests/test_toy.py::test_sized"\nwhy = "w"\n'
        '[[deep]]\ntest = "tests/test_toy.py::test_sized"\nfast = ["1"]\nwhy = "w"\n')
    assert problems("`tests/test_toy.py::test_plain`, `tests/test_toy.py::test_sized[2]`", tmp_path) == [
        "tests/test_toy.py::test_plain: deep, said not deep", "tests/test_toy.py::test_sized[2]: deep, said not deep"]
    assert problems("`tests/test_toy.py::test_plain` *(deep)*, `tests/test_toy.py::test_sized[1]`", tmp_path) == []


def test_rows_are_read_by_campaign_and_a_placeholder_is_seen() -> None:
    text = ("## Issue 9: a\n| Class | Now | Tests |\n|---|---|---|\n| a | b | `tests/x.py::test_y` |\n"
            f"## Issue 41: b\n| Class | Now | Tests |\n|---|---|---|\n| c | d | {PLACEHOLDER} |\n")
    by = rows(text)
    assert by == {"Issue 9: a": [["a", "b", "`tests/x.py::test_y`"]], "Issue 41: b": [["c", "d", PLACEHOLDER]]}
