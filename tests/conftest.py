"""Test-run fixtures: an isolated on-disk store, and one analysis session per game for the whole run."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from oracles import shared, tiers

from oddscalc import cache
from oddscalc.analysis import Session

ROOT = Path(__file__).resolve().parent.parent

# pytest rewrites each test module's asserts on import and keeps the rewritten bytecode only where bytecode may be
# written: with PYTHONDONTWRITEBYTECODE set (as on this machine and on CI) every xdist worker rewrote and compiled
# all the test modules again on every run, 7 s of CPU a worker (a collection took 13.6 s of CPU, 6.2 s with the
# rewritten modules kept). They are kept beside the sources, as `make test`'s compileall keeps the package's.
sys.dont_write_bytecode = False


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # Tests never read a developer's cache: a stale entry must not make them pass.
    before = os.environ.get("ODDSCALC_CACHE_DIR")
    if "ODDSCALC_TEST_CACHE_DIR" in os.environ:
        os.environ["ODDSCALC_CACHE_DIR"] = os.environ["ODDSCALC_TEST_CACHE_DIR"]
    elif "PYTEST_XDIST_WORKER" in os.environ:
        # One store for the run's workers, as one process has: a count made by one is read by the other
        # (entries are written atomically), which saves the second cold count of each game.
        shared = tmp_path_factory.getbasetemp().parent / "oddscalc-cache"
        shared.mkdir(exist_ok=True)
        os.environ["ODDSCALC_CACHE_DIR"] = str(shared)
        # and the reference runs and brute forces several tests read, made by one worker for both (oracles.shared)
        fixtures = tmp_path_factory.getbasetemp().parent / "shared-fixtures"
        fixtures.mkdir(exist_ok=True)
        os.environ["ODDSCALC_TEST_SHARED"] = str(fixtures)
    else:
        os.environ["ODDSCALC_CACHE_DIR"] = str(tmp_path_factory.mktemp("oddscalc-cache"))
    yield
    os.environ.pop("ODDSCALC_TEST_SHARED", None)
    if before is None:
        os.environ.pop("ODDSCALC_CACHE_DIR", None)
    else:
        os.environ["ODDSCALC_CACHE_DIR"] = before


@pytest.fixture(autouse=True, scope="session")
def _counted_once(_isolated_cache: None) -> Iterator[None]:
    # The run's workers share one store: a count missing from it is made by the first worker to ask while the other
    # waits and then reads it (oracles.shared.counting_once), as one process would; not two counts of it at once.
    if shared.SHARED not in os.environ:
        yield
        return
    with pytest.MonkeyPatch.context() as m:
        m.setattr(cache.Store, "get", shared.counting_once(cache.Store.get))
        yield


@pytest.fixture(scope="session")
def sessions(_isolated_cache: None) -> Callable[[str], Session]:
    """One Session per game for the whole run, so the cold Caribbean count happens once."""
    made: dict[str, Session] = {}

    def get(game: str) -> Session:
        if game not in made:
            made[game] = Session(game)
        return made[game]

    return get


@pytest.hookimpl(tryfirst=True)  # before `-m "not deep"` deselects: it must see the marks added here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Send to the deep tier the larger cases tests/tiers.toml names (oracles.tiers says how)."""
    whole = not config.getoption("keyword") and not any("::" in str(a) for a in config.args)
    tiers.apply(items, tiers.read(), strict=whole)
