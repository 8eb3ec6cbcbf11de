"""Charts as data (``report.svg`` draws them): a heatmap of shares, bars, lines against an integer axis."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Heatmap:
    """A grid of shares (0..1, None for no data)."""

    id: str
    title: str
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    cells: tuple[tuple[Fraction | None, ...], ...]
    x_title: str
    y_title: str


@dataclass(frozen=True)
class Bars:
    """Horizontal bars of shares (0..1), one per label."""

    id: str
    title: str
    labels: tuple[str, ...]
    shares: tuple[Fraction, ...]
    note: str


@dataclass(frozen=True)
class Lines:
    """Series of proportions (drawn as percentages) against an integer axis."""

    id: str
    title: str
    xs: tuple[int, ...]
    series: tuple[tuple[str, tuple[Fraction, ...]], ...]
    x_title: str
    y_title: str


Chart = Heatmap | Bars | Lines
