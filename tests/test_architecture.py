"""The shape of the code, checked from its source: no import cycle; no module imports another module's
``_private`` name, nor from a package above it; the top level and ``oddscalc/games/`` hold only what the issue
says they hold; no module over 500 lines; no game module writes Markdown, no renderer imports the verifier; and
no test file imports another test file. Each check is a function of a folder, run here on the code and, beside
it, on a toy folder that breaks it, so that a check that cannot fail would be seen."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "oddscalc"
TESTS = ROOT / "tests"

MAX_LINES = 500
MAX_TOP_LEVEL = 20
GAME_PACKAGES = {"caribbean", "let_it_ride", "punto_banco", "house_baccarat", "stud"}  # stud: the game-file engine
SHARED_BY_GAMES = {"__init__.py", "shoe.py", "strategy_card.py", "progressive.py", "ev.py", "card_synthesis.py",
                   "card_report.py", "poker_side_bets.py", "poker_side_count.py",
                   "poker_side_kernel.py", "poker_side_envy.py"}


# --- reading the imports ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    """One import statement's target, resolved to an absolute dotted name."""

    line: int
    module: str  # ``from module import names``; for ``import module``, the module and no names
    names: tuple[str, ...]


def sources(package: Path) -> dict[str, Path]:
    """Every module of the package folder by dotted name (a package by its own name, for its ``__init__``)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(path: Path, module: str) -> Iterator[Imported]:
    """Every import of the file at any depth (function-level and ``TYPE_CHECKING`` imports included), relative
    ones resolved against ``module``, the file's dotted name."""
    return iter(_imports(path.read_text(), str(path), module, path.name == "__init__.py"))


@functools.cache
def _imports(text: str, filename: str, module: str, is_init: bool) -> tuple[Imported, ...]:
    # Keyed by the file's text: five checks walk the package's imports, and parsing it all was 1.5 s of CPU each
    return tuple(_walk_imports(text, filename, module, is_init))


def _walk_imports(text: str, filename: str, module: str, is_init: bool) -> Iterator[Imported]:
    package = module if is_init else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(text, filename)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Imported(node.lineno, alias.name, ())
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            yield Imported(node.lineno, target, tuple(a.name for a in node.names))


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _containing(module: str, modules: Mapping[str, Path]) -> str | None:
    """The module a dotted name falls in (a name imported from a module is the module's)."""
    while module not in modules and "." in module:
        module = module.rpartition(".")[0]
    return module if module in modules else None


def import_graph(package: Path) -> dict[str, set[str]]:
    """Each module of the package and the modules of it that it imports (``from pkg import mod`` imports the
    module ``pkg.mod``, ``from pkg import name`` the package's ``__init__``)."""
    modules = sources(package)
    graph: dict[str, set[str]] = {}
    for m, path in modules.items():
        deps = set()
        for imp in imports(path, m):
            for target in [f"{imp.module}.{n}" for n in imp.names] or [imp.module]:
                d = _containing(target, modules)
                if d is not None and d != m:
                    deps.add(d)
        graph[m] = deps
    return graph


# --- the checks, each a function of a folder -----------------------------------------------------


def find_cycle(graph: Mapping[str, set[str]]) -> list[str]:
    """An import cycle of the graph (its modules, the first repeated at the end), or [] if it has none."""
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> list[str]:
        state[m] = 1
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                return path[path.index(d):] + [d]
            if d not in state and (cycle := visit(d, path + [d])):
                return cycle
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state and (cycle := visit(m, [m])):
            return cycle
    return []


def private_imports(package: Path) -> list[str]:
    """Every import of another module's private name: ``from a.b import _name`` where ``_name`` (one leading
    underscore) is not the importer's own, or any import of a private module ``a._b`` (or what is in it) from
    outside the package ``a`` that holds it. A package's private modules are its own modules' to import; its
    ``__init__`` re-exports their public face."""
    modules = sources(package)
    found = []
    for m, path in modules.items():
        for imp in imports(path, m):
            if not imp.module.startswith(package.name):
                continue
            for target in [f"{imp.module}.{n}" for n in imp.names] or [imp.module]:
                parts = target.split(".")
                for k, part in enumerate(parts[1:], start=1):
                    if not _is_private(part):
                        continue
                    owner = ".".join(parts[:k])  # the module or package the private name belongs to
                    is_module = ".".join(parts[:k + 1]) in modules
                    inside = m == owner or m.startswith(owner + ".") if is_module else m == owner
                    if not inside:
                        found.append(f"{path.relative_to(package.parent)}:{imp.line} imports {target}")
                    break
    return found


def defined_in(init: Path) -> set[str]:
    """The names a package's ``__init__`` defines itself (assigned, or a def or class, at its top level, inside
    ``if`` and ``try`` blocks too), as opposed to the names it imports."""
    names: set[str] = set()
    body = list(ast.parse(init.read_text(), str(init)).body)
    while body:
        node = body.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.If | ast.Try):
            body += node.body + node.orelse + getattr(node, "finalbody", [])
            body += [s for h in getattr(node, "handlers", []) for s in h.body]
    return names


def ancestor_imports(package: Path) -> list[str]:
    """Every import from a package above the importer. The rule: a module never takes a name from the
    ``__init__`` of a package that contains it (``oddscalc``, ``oddscalc.games``, ``oddscalc.games.caribbean`` for
    ``oddscalc/games/caribbean/game.py``; for a package's own ``__init__``, the packages above that one) unless
    that ``__init__`` defines the name itself (``oddscalc.__version__``). A name the ``__init__`` imports is a
    re-export of something below it: the module reading it back depends on its own package's loading order, and
    should import it from the module that defines it. Importing a submodule by its name from an ancestor
    (``from oddscalc.games import shoe``) names a module, not a re-export, and is allowed; so is
    ``import oddscalc.games.shoe``. ``import oddscalc.games`` (the package and all it re-exports) is not."""
    modules = sources(package)
    found = []
    for m, path in modules.items():
        parts = m.split(".")
        above = {".".join(parts[:k]) for k in range(1, len(parts))}
        for imp in imports(path, m):
            if imp.module not in above:
                continue
            where = f"{path.relative_to(package.parent)}:{imp.line}"
            own = defined_in(modules[imp.module])
            if not imp.names:
                found.append(f"{where} imports {imp.module}, a package above it")
            elif names := [n for n in imp.names if f"{imp.module}.{n}" not in modules and n not in own]:
                found.append(f"{where} imports {', '.join(names)} from {imp.module}, a package above it, which "
                             "does not define it")
    return found


def long_modules(package: Path, limit: int = MAX_LINES) -> list[str]:
    """Every module of the package over ``limit`` lines, with its length."""
    found = []
    for path in sorted(package.rglob("*.py")):
        lines = len(path.read_text().splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(package.parent)}: {lines} lines")
    return found


def top_level_modules(package: Path) -> list[str]:
    """The modules directly in the package folder (``__init__`` and ``__main__`` included; packages are not
    modules)."""
    return sorted(p.name for p in package.glob("*.py"))


def strangers_in_games(games: Path) -> list[str]:
    """What ``games/`` holds beside the game packages and the pieces several games share."""
    found = []
    for entry in sorted(games.iterdir()):
        if entry.name == "__pycache__":
            continue
        if entry.is_dir():
            if entry.name not in GAME_PACKAGES or not (entry / "__init__.py").exists():
                found.append(entry.name + "/")
        elif entry.suffix == ".py" and entry.name not in SHARED_BY_GAMES:
            found.append(entry.name)
    return found


def imports_of_test_files(tests: Path) -> list[str]:
    """Every import in the tests folder of a test file (``test_*.py``, ``conftest.py``) by any of its module names:
    a dotted name (imported, or imported from, or a name imported from a module) one of whose parts is the stem
    of a test file there. Shared oracles and fixtures live in named helper modules (``tests/oracles/``) or in
    ``conftest.py`` as fixtures, which pytest hands to the tests without an import."""
    stems = {p.stem for p in tests.rglob("*.py") if p.name.startswith("test_") or p.name == "conftest.py"}
    found = []
    for path in sorted(tests.rglob("*.py")):
        for imp in imports(path, path.stem):
            for target in [f"{imp.module}.{n}" for n in imp.names] or [imp.module]:
                hit = [part for part in target.split(".") if part in stems]
                if hit:
                    found.append(f"{path.relative_to(tests)}:{imp.line} imports the test file {hit[0]}")
    return found


def _strings(path: Path) -> list[str]:
    """The string constants of a file, docstrings left out."""
    tree = ast.parse(path.read_text())
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def markdown_in(path: Path) -> list[str]:
    """The strings of a file that are Markdown markup (a table rule, bold, code, a heading, a table row)."""
    return [s for s in _strings(path) if re.search(r"\|---|\*\*|`|^#+ |\n\|", s)]


# --- the checks on the code ----------------------------------------------------------------------


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph(PACKAGE))
    assert not cycle, "import cycle: " + " -> ".join(cycle)


def test_no_module_imports_another_modules_private_name() -> None:
    assert private_imports(PACKAGE) == []


def test_no_module_imports_from_a_package_above_it() -> None:
    assert ancestor_imports(PACKAGE) == []


def test_no_test_file_imports_another_test_file() -> None:
    assert imports_of_test_files(TESTS) == []


def test_at_most_twenty_modules_at_the_top_level() -> None:
    top = top_level_modules(PACKAGE)
    assert len(top) <= MAX_TOP_LEVEL, top


def test_no_module_over_500_lines() -> None:
    assert long_modules(PACKAGE) == []


def test_games_holds_only_the_games_and_what_they_share() -> None:
    assert strangers_in_games(PACKAGE / "games") == []
    assert {p.name for p in (PACKAGE / "games").iterdir() if p.is_dir() and p.name != "__pycache__"} == GAME_PACKAGES


@pytest.mark.parametrize("path", sorted((PACKAGE / "games").rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_game_module_writes_markdown(path: Path) -> None:
    markup = markdown_in(path)
    assert not markup, markup


def test_no_renderer_imports_verify() -> None:
    graph = import_graph(PACKAGE)
    assert any(m.startswith("oddscalc.report.") for m in graph)
    for m, deps in graph.items():
        if m.startswith("oddscalc.report."):
            assert "oddscalc.verify" not in deps, m


# --- each check can fail -------------------------------------------------------------------------


def packages_not_shipped(package: Path, setup_cfg: str) -> list[str]:
    """The packages under ``package`` (folders with an ``__init__.py``) that setup.cfg's ``packages`` list leaves
    out: a wheel would be built without them (as it once was without ``oddscalc.audit``)."""
    listed = set(re.findall(r"^\s+([a-z_][a-z0-9_.]*)\s*$", setup_cfg.split("packages =", 1)[1].split("\n\n")[0]
                            .split("package_dir", 1)[0], flags=re.M))
    found = {".".join(p.parent.relative_to(package.parent).parts) for p in package.rglob("__init__.py")
             if "__pycache__" not in p.parts}
    return sorted(found - listed)


def test_every_package_is_in_the_wheel() -> None:
    assert packages_not_shipped(PACKAGE, (ROOT / "setup.cfg").read_text()) == []


def _toy(tmp_path: Path, files: Mapping[str, str]) -> Path:
    """A toy package ``toy`` of the given files (path inside it: source); a folder given no ``__init__`` gets an
    empty one."""
    package = tmp_path / "toy"
    for name, text in files.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    for folder in [package, *(p for p in package.rglob("*") if p.is_dir())]:
        if not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text("")
    return package


def test_the_cycle_check_can_fail(tmp_path: Path) -> None:
    toy = _toy(tmp_path, {"a.py": "from toy.b import f\n", "b.py": "def f() -> None:\n    from toy import a\n",
                          "c.py": "from toy import a\n"})
    assert find_cycle(import_graph(toy)) == ["toy.a", "toy.b", "toy.a"]
    assert find_cycle({"x": {"y"}, "y": set()}) == []


def test_the_private_import_check_can_fail(tmp_path: Path) -> None:
    toy = _toy(tmp_path, {
        "a.py": "_ONE = 1\nfrom toy.a import _ONE as again\n",  # its own: allowed
        "b.py": "from toy.a import _ONE\n",  # another module's private name
        "c.py": "import toy.p._impl\n",  # a private module from outside its package
        "p/_impl.py": "X = 1\n",
        "p/face.py": "from toy.p._impl import X\nfrom toy.p import _impl\n",  # its package's own: allowed
        "p/__init__.py": "from toy.p._impl import X\n",
        "d.py": "from toy.p import __doc__\n",  # a dunder is not private
    })
    assert private_imports(toy) == ["toy/b.py:1 imports toy.a._ONE", "toy/c.py:1 imports toy.p._impl"]


def test_the_ancestor_import_check_can_fail(tmp_path: Path) -> None:
    toy = _toy(tmp_path, {
        "__init__.py": "from toy.g.one import ONE as TOP\nVERSION = 1\n",
        "g/__init__.py": "from toy.g.one import ONE\ntry:\n    FAST = True\nexcept ImportError:\n    pass\n",
        "g/one.py": "ONE = 1\n",
        "g/two.py": "from toy.g import ONE\nfrom toy.g import one\nimport toy.g.one\nfrom toy import VERSION, TOP\n"
                    "from toy.g import FAST\n",
        "g/deep/__init__.py": "from toy.g import one\nimport toy.g\n",
        "h.py": "from toy.g import ONE\n",  # toy.g is not above toy.h: allowed
    })
    assert ancestor_imports(toy) == [
        "toy/g/deep/__init__.py:2 imports toy.g, a package above it",
        "toy/g/two.py:1 imports ONE from toy.g, a package above it, which does not define it",
        "toy/g/two.py:4 imports TOP from toy, a package above it, which does not define it",
    ]


def test_the_test_file_import_check_can_fail(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    (tests / "oracles").mkdir(parents=True)
    (tests / "deep").mkdir()
    (tests / "oracles" / "__init__.py").write_text("")
    (tests / "oracles" / "brute.py").write_text("def brute() -> int:\n    return 1\n")
    (tests / "deep" / "test_one.py").write_text("from oracles.brute import brute\n\ndef test_one() -> None:\n"
                                                "    assert brute()\n")
    (tests / "test_two.py").write_text("import pytest\nfrom test_one import test_one\n")
    (tests / "test_three.py").write_text("def test_three() -> None:\n    from deep import test_one\n")
    assert imports_of_test_files(tests) == ["test_three.py:2 imports the test file test_one",
                                        "test_two.py:2 imports the test file test_one"]


def test_the_size_checks_can_fail(tmp_path: Path) -> None:
    toy = _toy(tmp_path, {f"m{i}.py": "" for i in range(MAX_TOP_LEVEL)} | {"sub/long.py": "x = 1\n" * 501,
                                                                          "sub/short.py": "x = 1\n" * 500})
    assert len(top_level_modules(toy)) == MAX_TOP_LEVEL + 1  # the twenty and the __init__
    assert long_modules(toy) == ["toy/sub/long.py: 501 lines"]


def test_the_games_check_can_fail(tmp_path: Path) -> None:
    games = _toy(tmp_path, {"caribbean/game.py": "", "shoe.py": "", "flash_kernels.py": "", "seats/game.py": "",
                            "house_baccarat/game.py": ""})
    (games / "notes").mkdir()
    assert strangers_in_games(games) == ["flash_kernels.py", "notes/", "seats/"]


def test_the_markdown_check_can_fail(tmp_path: Path) -> None:
    path = tmp_path / "game.py"
    path.write_text('"""A docstring may say **this**."""\nROW = "| a | b |\\n|---|---|"\nPLAIN = "a, b"\n')
    assert markdown_in(path) == ["| a | b |\n|---|---|"]


def test_the_wheel_check_can_fail(tmp_path: Path) -> None:
    toy = _toy(tmp_path, {"a/x.py": "", "b/y.py": ""})
    assert packages_not_shipped(toy, "[options]\npackages =\n    toy\n    toy.a\npackage_dir =\n    x = y\n") == [
        "toy.b"]
