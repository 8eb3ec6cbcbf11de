from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    # Tests never read a developer's cache: a stale entry must not make them pass.
    if "ODDSCALC_TEST_CACHE_DIR" in os.environ:
        os.environ["ODDSCALC_CACHE_DIR"] = os.environ["ODDSCALC_TEST_CACHE_DIR"]
    else:
        os.environ["ODDSCALC_CACHE_DIR"] = str(tmp_path_factory.mktemp("oddscalc-cache"))
