"""Conformance: every registered game through the protocol, and the shape of the code around it."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from oddscalc.analysis import Session, settle
from oddscalc.cache import Store
from oddscalc.cards import reduced_deck
from oddscalc.catalog import resolve_table, shipped_tables
from oddscalc.games import GAMES
from oddscalc.report import RENDERERS
from oddscalc.results import Analysis, RunOptions

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "oddscalc"
# options small enough to count from nothing in a test: reduced decks for the poker games
FRESH = {"let-it-ride": RunOptions(deck=reduced_deck("8", 3)), "caribbean": RunOptions(deck=reduced_deck("8", 2)),
         "punto-banco": RunOptions(decks=1), "house-baccarat": RunOptions(decks=1, players=2)}


@pytest.fixture(scope="module", params=list(GAMES))
def default(request: pytest.FixtureRequest, sessions: Callable[[str], Session]) -> Analysis:
    game: str = request.param
    return sessions(game).analyze(None)


def test_registry() -> None:
    assert list(GAMES) == ["let-it-ride", "caribbean", "punto-banco", "house-baccarat"]
    for key, g in GAMES.items():
        assert g.key == key and g.table_model.GAME == key
        assert g.default_table in [p.stem for p in shipped_tables(key)]
        assert g.options <= {"strategy", "decks", "players"}


def test_probabilities_sum_to_one_and_totals_as_stated(default: Analysis) -> None:
    for w in default.wagers:
        assert sum((w.probability(r) for r in w.rows), Fraction(0)) == 1
        assert all(r.combinations >= 0 for r in w.rows)
    assert f"{default.wagers[0].total_combinations:,}" in default.convention


def test_sections_have_stable_unique_ids(default: Analysis) -> None:
    ids = [s.id for s in default.sections]
    assert ids and len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids)
    for s in default.sections:
        assert all(len(r) == len(s.columns) for r in s.rows)


def test_same_inputs_same_bytes(default: Analysis, sessions: Callable[[str], Session]) -> None:
    again = sessions(default.game).analyze(None)
    for fmt, render in RENDERERS.items():
        assert render(default) == render(again), fmt


def test_published_figures_are_part_of_the_analysis(default: Analysis) -> None:
    assert default.published_applies
    model = default.table.model
    assert bool(default.sources) == (model.published is not None or model.claimed is not None)
    assert all(c.ok for c in default.checks)


@pytest.mark.parametrize("game", list(GAMES))
def test_settle_from_a_stored_count_equals_settle_from_a_fresh_count(game: str, tmp_path: Path) -> None:
    g = GAMES[game]
    rules = g.resolve(resolve_table(game), FRESH[game])
    fresh = settle(g, g.count(rules, Store(tmp_path)), rules)
    assert list(tmp_path.glob("*.counts")) or game == "house-baccarat"
    stored = settle(g, g.count(rules, Store(tmp_path)), rules)
    assert list(tmp_path.glob("*.counts"))
    for fmt, render in RENDERERS.items():
        assert render(fresh) == render(stored), fmt


@pytest.mark.parametrize("game", list(GAMES))
def test_one_count_settles_many_tables(game: str) -> None:
    # a session counts once per count key: every shipped table with the same counting rules shares it
    session = Session(game, FRESH[game], Store(None))
    keys = set()
    for path in shipped_tables(game):
        rules = session.resolve(path.stem)
        keys.add(repr(sorted(rules.count_key().items())))
        session.analyze(path.stem)
    assert len(session.counted) == len(keys) <= len(shipped_tables(game))


# --- the shape of the code ----------------------------------------------------------------------


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every oddscalc module this file imports, at any depth (function-level imports included)."""
    mod = _module(path)
    package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("oddscalc")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("oddscalc"):
                continue
            for a in node.names:  # "from . import dealer_counts" imports a module, not the package's names
                sub = PACKAGE.parent / (target + "." + a.name).replace(".", "/")
                out.add(f"{target}.{a.name}" if sub.with_suffix(".py").exists() or sub.is_dir() else target)
    return out


def _graph() -> dict[str, set[str]]:
    files = [p for p in PACKAGE.rglob("*.py")]
    mods = {_module(p): p for p in files}
    graph: dict[str, set[str]] = {}
    for m, p in mods.items():
        deps = set()
        for d in _imports(p):
            while d not in mods and "." in d:
                d = d.rsplit(".", 1)[0]
            if d in mods and d != m:
                deps.add(d)
        graph[m] = deps
    return graph


def test_no_import_cycle() -> None:
    graph = _graph()
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path[path.index(d):] + [d]) if d in path
                                     else f"import cycle through {d}")
            if d not in state:
                visit(d, path + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])


def _strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


@pytest.mark.parametrize("path", sorted((PACKAGE / "games").glob("*.py")), ids=lambda p: p.name)
def test_no_game_module_writes_markdown(path: Path) -> None:
    markup = [s for s in _strings(path) if re.search(r"\|---|\*\*|`|^#+ |\n\|", s)]
    assert not markup, markup


def test_no_renderer_imports_verify() -> None:
    for path in (PACKAGE / "report").glob("*.py"):
        assert "oddscalc.verify" not in _imports(path), path.name


def test_the_cycle_check_can_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the same walk over a toy graph with a cycle
    graph: dict[str, Any] = {"a": {"b"}, "b": {"a"}}
    monkeypatch.setattr(f"{__name__}._graph", lambda: graph)
    with pytest.raises(AssertionError, match="import cycle"):
        test_no_import_cycle()
