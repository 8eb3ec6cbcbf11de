"""The docs build: links, byte-identical output, staleness, and loud failures.

Generation tests use Let It Ride (seconds); the committed-docs tests cover every game in GAMES,
one test per game, so a game whose reports were not regenerated is named.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from oddscalc import catalog
from oddscalc.catalog import shipped_tables
from oddscalc.games import GAMES
from oddscalc.report import site as docs
from oddscalc.report.keys import reference_markdown

ROOT = Path(__file__).resolve().parents[2]
GAME = "let-it-ride"


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@cache  # one build per game per session, shared by the tests below
def _built(game: str) -> tuple[list[docs.TableDoc], dict[str, str]]:
    return _build_game(game)


_build_game = docs.build_game  # kept: a test swaps docs.build_game for _built


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The docs of one game generated twice under different hash seeds: in a fresh process, and meanwhile in this
    one (a second process would pay its start and kernel loads again for nothing the first does not show)."""
    outs = [tmp_path_factory.mktemp("docs-a"), tmp_path_factory.mktemp("docs-b")]
    # this process's seed is random unless PYTHONHASHSEED fixes it: the fresh one's is then another
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    proc = subprocess.Popen([sys.executable, "-m", "oddscalc.report.site", "--game", GAME, "--out", str(outs[0])],
                            env={**os.environ, "PYTHONHASHSEED": seed}, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(docs, "build_game", _built)  # this process's build, made once for the tests below that read it
        here = docs.main(["--game", GAME, "--out", str(outs[1])])
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 == here, err
    return outs[0], outs[1]


def test_index_links_every_shipped_table_report(two_runs: tuple[Path, Path]) -> None:
    out = two_runs[0]
    index = (out / "index.md").read_text()
    links = set(re.findall(r"\]\((reports/[^)]+)\)", index))
    expected = {f"reports/{GAME}-{p.stem}.{ext}" for p in shipped_tables(GAME) for ext in ("md", "csv", "json")}
    assert links == expected
    assert {f"reports/{p.name}" for p in (out / "reports").iterdir()} == expected
    for p in shipped_tables(GAME):
        title = catalog.load_table(p).title
        assert f"| {title} |" in index
        assert title in (out / "reports" / f"{GAME}-{p.stem}.md").read_text()
    assert "Counting convention: one combination is one deal" in index
    assert "| 3.5057% | 2.8648% | 3.5057% (`main`) | 56 of 56 hold |" in index  # standard: edge, EoR, lowest, published
    charts = set(re.findall(r"\]\((charts/[^)]+\.svg)\)", index))
    assert charts == {f"charts/{p.name}" for p in (out / "charts").iterdir()} and charts


def test_output_is_byte_identical_across_runs(two_runs: tuple[Path, Path]) -> None:
    a, b = (_tree(d) for d in two_runs)
    assert len([f for f in a if not f.startswith("charts/")]) == 3 * len(shipped_tables(GAME)) + 2  # index, keys
    assert a == b


def test_check_lists_stale_and_missing_files(two_runs: tuple[Path, Path], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "docs"
    for name, data in _tree(two_runs[0]).items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    (out / "reports" / f"{GAME}-standard.md").write_text("edited by hand\n")
    (out / "reports" / f"{GAME}-royal-500.csv").unlink()
    monkeypatch.setattr(docs, "build_game", _built)  # the build itself is tested above; reuse it
    assert docs.main(["--check", "--game", GAME, "--out", str(out)]) == docs.EXIT_STALE
    listed = [ln.strip() for ln in capsys.readouterr().err.splitlines()[1:]]
    assert listed == [f"reports/{GAME}-royal-500.csv", f"reports/{GAME}-standard.md"]
    assert (out / "reports" / f"{GAME}-standard.md").read_text() == "edited by hand\n"  # --check writes nothing


def test_full_build_removes_leftover_reports(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "let-it-ride-gone.md").write_text("a table that was removed\n")
    files = {"index.md": "x\n"}
    assert docs.stale(files, tmp_path, prune=False) == ["index.md"]
    assert docs.write(files, tmp_path, prune=True) == ["index.md", "reports/let-it-ride-gone.md"]
    assert _tree(tmp_path) == {"index.md": b"x\n"}


def test_a_failing_game_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("kernel exploded")

    monkeypatch.setattr(GAMES[GAME], "settle", broken)
    with pytest.raises(RuntimeError, match="kernel exploded") as info:
        docs.build([GAME])
    first = shipped_tables(GAME)[0]
    assert info.value.__notes__ == [f"while analysing {first} for the docs"]


def test_a_bad_shipped_table_stops_the_build(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "tables" / GAME / "standard.toml"
    bad.parent.mkdir(parents=True)
    bad.write_text((ROOT / "tables" / GAME / "standard.toml").read_text().replace('flush = "8:1"', 'flush = -8'))
    monkeypatch.setattr(catalog, "tables_dir", lambda: tmp_path / "tables")
    assert docs.main(["--game", GAME, "--out", str(tmp_path / "docs")]) == docs.EXIT_TABLE
    assert "pays.main.flush: negative pay -8" in capsys.readouterr().err
    assert not (tmp_path / "docs").exists()


# --- the committed docs/ are what the code generates ----------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_committed_reports_are_current(game: str) -> None:
    _, files = _built(game)
    assert docs.stale(files, docs.DOCS_DIR, prune=False) == [], "docs/ is stale: run `make docs`"


def test_committed_index_is_current() -> None:
    entries: list[docs.TableDoc] = []
    files: dict[str, str] = {}
    for game in GAMES:
        d, f = _built(game)
        entries += d
        files |= f
    files[docs.INDEX] = docs.render_index(entries, docs.charts_in(files))
    files[docs.KEYS] = reference_markdown()
    assert docs.stale(files, docs.DOCS_DIR, prune=True) == [], "docs/ is stale: run `make docs`"


def _section_ids() -> set[str]:
    """Every report section id the package makes with a literal or an f-string (each formatted part as <...>)."""
    import ast

    package = Path(catalog.__file__).resolve().parent
    found: set[str] = set()
    for path in package.rglob("*.py"):
        text = path.read_text()
        if "Section(" not in text:  # parsing only the modules that can make one: a sixth of the package
            continue
        for node in ast.walk(ast.parse(text)):
            if not (isinstance(node, ast.Call) and node.args
                    and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Section"):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
            elif isinstance(first, ast.JoinedStr):
                found.add("".join(str(v.value) if isinstance(v, ast.Constant) else "<>" for v in first.values))
    return found


def test_the_verification_page_names_every_section_and_real_tests() -> None:
    """docs/verification.md lists each report section's independent check: every section the code makes is there,
    every section there is one the code makes, and every test it names exists."""
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "verification.md").read_text()
    listed = {re.sub(r"<[a-z]+>", "<>", s) for row in page.splitlines() if row.startswith("| `")
              for s in re.findall(r"`([a-z0-9_<>]+)`", row.split("|")[1])}
    made = _section_ids()
    assert made - listed == set(), "sections made but not on the verification page"
    source = "\n".join(p.read_text() for p in (root / "oddscalc").rglob("*.py"))
    for sid in listed - made:  # ids passed through a helper (ride_holdings, ride_wording, paired, shoe)
        assert f'"{sid}"' in source, f"{sid}: on the verification page, made nowhere"
    named = re.findall(r"`((?:[a-z_]+/)*test_[a-z0-9_]+\.py)::(test_[a-z0-9_]+)`", page)
    assert len(named) > 40
    for module, test in named:
        assert re.search(rf"^def {test}\(", (root / "tests" / module).read_text(), re.M), f"{module}::{test}"
