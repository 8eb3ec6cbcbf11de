"""The examples in the package's docstrings run: a doctest that is never run is prose that can be wrong."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "oddscalc"
WITH_EXAMPLES = sorted(p for p in PACKAGE.rglob("*.py") if ">>> " in p.read_text())


def test_the_package_has_examples() -> None:
    assert WITH_EXAMPLES


@pytest.mark.parametrize("path", WITH_EXAMPLES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_docstring_examples(path: Path) -> None:
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed, result
