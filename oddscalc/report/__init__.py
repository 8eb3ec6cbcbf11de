"""Pure renderers: the same Analysis always gives the same bytes."""

from __future__ import annotations

from collections.abc import Callable

from oddscalc.report.csv import render_csv
from oddscalc.report.json import render_json, to_data
from oddscalc.report.markdown import render_markdown
from oddscalc.results import Analysis

RENDERERS: dict[str, Callable[[Analysis], str]] = {
    "md": render_markdown,
    "csv": render_csv,
    "json": render_json,
}

__all__ = ["RENDERERS", "render_csv", "render_json", "render_markdown", "to_data"]
