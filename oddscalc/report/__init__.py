"""Pure renderers: the same Analysis always gives the same bytes.

Each renderer's module is imported the first time it is asked for (:data:`RENDERERS`, or a name of this package):
a submodule's import runs this file first, so importing them all here cost every JSON report the Markdown
renderer and the document model it reads (tens of milliseconds of a cold run). A type checker sees the names
through the imports below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from oddscalc.results import Analysis

if TYPE_CHECKING:
    from oddscalc.report.csv import render_csv
    from oddscalc.report.json import render_json, to_data
    from oddscalc.report.markdown import render_markdown

# each public name with its module, in the order RENDERERS lists the formats
_LAZY = {"render_markdown": "oddscalc.report.markdown", "render_csv": "oddscalc.report.csv",
         "render_json": "oddscalc.report.json", "to_data": "oddscalc.report.json"}
_FORMATS = {"md": "render_markdown", "csv": "render_csv", "json": "render_json"}


def __getattr__(name: str) -> Any:
    """A renderer (or ``to_data``), its module imported the first time it is asked for."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'oddscalc.report' has no attribute {name!r}")


class _Renderers(Mapping[str, Callable[[Analysis], str]]):
    """The text renderers by format (md, csv, json), each imported when its format is asked for."""

    def __getitem__(self, fmt: str) -> Callable[[Analysis], str]:
        render: Callable[[Analysis], str] = __getattr__(_FORMATS[fmt])
        return render

    def __iter__(self) -> Iterator[str]:
        return iter(_FORMATS)

    def __len__(self) -> int:
        return len(_FORMATS)


RENDERERS: Mapping[str, Callable[[Analysis], str]] = _Renderers()

__all__ = ["RENDERERS", "render_csv", "render_json", "render_markdown", "to_data"]
