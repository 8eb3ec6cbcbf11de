"""Charts (``results.Heatmap``, ``Bars``, ``Lines``) drawn as plain SVG.

Hand-written SVG rather than a plotting library: the output is byte-for-byte the same on
every machine and version (so the docs-are-current test covers the charts too), and the docs
build needs nothing beyond the package's own dependencies.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from html import escape

from oddscalc.report.cells import no_controls
from oddscalc.results import Bars, Chart, Heatmap

FONT = "font-family='DejaVu Sans, Arial, sans-serif'"


def _text(text: str) -> str:
    """Text for SVG: escaped, and each control character a "?" (XML may not carry one: a chart titled from a table
    file's text would not parse; and the PDF's fonts draw a "?" where U+FFFD may have no glyph)."""
    return escape(no_controls(text, "?"))


def _svg(width: int, height: int, body: list[str], title: str) -> str:
    head = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}' {FONT} font-size='12'>")
    return "\n".join([head, f"<title>{_text(title)}</title>",
                      f"<rect width='{width}' height='{height}' fill='white'/>",
                      f"<text x='{width // 2}' y='20' text-anchor='middle' font-size='14' font-weight='bold'>"
                      f"{_text(title)}</text>", *body, "</svg>"]) + "\n"


def _shade(share: float) -> str:
    """White (0) to a strong green (1), as a hex colour."""
    lo, hi = (247, 247, 247), (26, 128, 60)
    r, g, b = (round(a + (h - a) * share) for a, h in zip(lo, hi))
    return f"#{r:02x}{g:02x}{b:02x}"


def heatmap(title: str, row_labels: Sequence[str], col_labels: Sequence[str],
            cells: Sequence[Sequence[Fraction | None]], x_title: str, y_title: str) -> str:
    """A grid of shares (0..1, None for no data), each cell shaded and labelled in percent."""
    cw, ch, left, top = 44, 26, 90, 60
    width = left + cw * len(col_labels) + 20
    height = top + ch * len(row_labels) + 50
    mid = left + cw * len(col_labels) // 2
    body = [f"<text x='{mid}' y='{top - 22}' text-anchor='middle'>{_text(x_title)}</text>",
            f"<text x='16' y='{top + ch * len(row_labels) // 2}' text-anchor='middle' "
            f"transform='rotate(-90 16 {top + ch * len(row_labels) // 2})'>{_text(y_title)}</text>"]
    for j, c in enumerate(col_labels):
        body.append(f"<text x='{left + cw * j + cw // 2}' y='{top - 6}' text-anchor='middle'>{_text(c)}</text>")
    for i, r in enumerate(row_labels):
        y = top + ch * i
        body.append(f"<text x='{left - 8}' y='{y + ch // 2 + 4}' text-anchor='end'>{_text(r)}</text>")
        for j, v in enumerate(cells[i]):
            x = left + cw * j
            if v is None:
                body.append(f"<rect x='{x}' y='{y}' width='{cw}' height='{ch}' fill='#dddddd' stroke='white'/>")
                continue
            share = float(v)
            body.append(f"<rect x='{x}' y='{y}' width='{cw}' height='{ch}' fill='{_shade(share)}' stroke='white'/>")
            colour = "white" if share > 0.55 else "black"
            label = "all" if v == 1 else "-" if v == 0 else f"{round(share * 100)}%"
            body.append(f"<text x='{x + cw // 2}' y='{y + ch // 2 + 4}' text-anchor='middle' "
                        f"fill='{colour}'>{label}</text>")
    return _svg(width, height, body, title)


def bars(title: str, labels: Sequence[str], shares: Sequence[Fraction], note: str) -> str:
    """Horizontal bars of shares (0..1), one per label."""
    bw, bh, left, top = 360, 18, 330, 40
    width = left + bw + 70
    height = top + (bh + 4) * len(labels) + 40
    body = []
    for i, (label, v) in enumerate(zip(labels, shares)):
        y = top + (bh + 4) * i
        body.append(f"<text x='{left - 8}' y='{y + bh - 5}' text-anchor='end'>{_text(label)}</text>")
        body.append(f"<rect x='{left}' y='{y}' width='{bw}' height='{bh}' fill='#eeeeee'/>")
        body.append(f"<rect x='{left}' y='{y}' width='{round(bw * float(v), 1)}' height='{bh}' fill='{_shade(1.0)}'/>")
        body.append(f"<text x='{left + bw + 6}' y='{y + bh - 5}'>{round(float(v) * 100)}%</text>")
    body.append(f"<text x='{left}' y='{height - 12}' font-size='11'>{_text(note)}</text>")
    return _svg(width, height, body, title)


# the 1-2-5 steps of a chart's value axis: a reader reads 0.5%, 1%, 1.5% where 13.284%, 9.000% meant nothing
NICE_STEPS = (1, 2, 5)
MAX_TICKS = 10
# one colour and dash per series: no two lines alike, on paper in grey too (Okabe-Ito, readable by the colour-blind)
PALETTE = ("#000000", "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442")
DASHES = ("", "", "", "6 3", "6 3", "2 2", "2 2", "8 2 2 2")


def nice_ticks(lo: Fraction, hi: Fraction, most: int = MAX_TICKS) -> list[Fraction]:
    """Round ticks covering [lo, hi]: the multiples of one step (1, 2 or 5 times a power of ten, the finest that
    needs at most ``most`` ticks) from the last at or below ``lo`` to the first at or above ``hi``; exact, so that
    a tick prints as the round number it is."""
    if not lo < hi:
        lo, hi = lo - 1, hi + 1
    power = Fraction(10) ** (math.floor(math.log10(hi - lo)) - 1)
    while True:
        for m in NICE_STEPS:
            step = m * power
            first, last = math.floor(lo / step), math.ceil(hi / step)
            if last - first + 1 <= most:
                return [k * step for k in range(first, last + 1)]
        power *= 10


def tick_label(v: Fraction, step: Fraction) -> str:
    """A tick in percent with as many decimals as its step needs and thousands separators (-12,000%, 0.25%)."""
    places = 0
    while (step * 10**places).denominator != 1:
        places += 1
    return f"{float(v):,.{places}f}%" if v else "0%"


def lines(title: str, xs: Sequence[int], series: Mapping[str, Sequence[Fraction]], x_title: str, y_title: str,
          x_labels: Sequence[str] | None = None) -> str:
    """Line chart of percentages against an integer axis: round ticks (1-2-5 steps), each series in its own colour
    and dash, named in a legend beside the plot (a swatch of its line and its name)."""
    values = [Fraction(v) * 100 for s in series.values() for v in s]
    ticks = nice_ticks(min(values), max(values))
    step = ticks[1] - ticks[0]
    labels = [tick_label(t, step) for t in ticks]
    names = list(series)
    left = 24 + 7 * max(len(t) for t in labels)
    top, pw, ph = 40, 480, 260
    legend_w = 36 + 7 * max((len(n) for n in names), default=0)
    width, height = left + pw + legend_w + 20, top + ph + 60
    lo, hi = float(ticks[0]), float(ticks[-1])

    def px(x: float) -> float:
        return left + (x - xs[0]) / max(xs[-1] - xs[0], 1) * pw

    def py(v: float) -> float:
        return top + ph - (v - lo) / (hi - lo) * ph

    body = [f"<rect x='{left}' y='{top}' width='{pw}' height='{ph}' fill='none' stroke='#888888'/>"]
    for t, label in zip(ticks, labels):
        y = py(float(t))
        body.append(f"<line x1='{left}' x2='{left + pw}' y1='{y:.1f}' y2='{y:.1f}' stroke='"
                    f"{'#999999' if t == 0 else '#e4e4e4'}'/>")
        body.append(f"<text x='{left - 6}' y='{y + 4:.1f}' text-anchor='end'>{label}</text>")
    for i, x in enumerate(xs):
        text = x_labels[i] if x_labels else str(x)
        body.append(f"<text x='{px(x):.1f}' y='{top + ph + 16}' text-anchor='middle'>{_text(text)}</text>")
    body.append(f"<text x='{left + pw // 2}' y='{top + ph + 36}' text-anchor='middle'>{_text(x_title)}</text>")
    body.append(f"<text x='14' y='{top + ph // 2}' text-anchor='middle' "
                f"transform='rotate(-90 14 {top + ph // 2})'>{_text(y_title)}</text>")
    lx = left + pw + 14
    for n, (name, s) in enumerate(series.items()):
        colour, dash = PALETTE[n % len(PALETTE)], DASHES[n % len(DASHES)]
        style = f"stroke='{colour}' stroke-width='2'" + (f" stroke-dasharray='{dash}'" if dash else "")
        pts = " ".join(f"{px(x):.1f},{py(float(v) * 100):.1f}" for x, v in zip(xs, s))
        body.append(f"<polyline points='{pts}' fill='none' {style}/>")
        for x, val in zip(xs, s):
            body.append(f"<circle cx='{px(x):.1f}' cy='{py(float(val) * 100):.1f}' r='2.5' fill='{colour}'/>")
        ly = top + 12 + 20 * n
        body.append(f"<line x1='{lx}' x2='{lx + 24}' y1='{ly}' y2='{ly}' {style}/>")
        body.append(f"<text x='{lx + 30}' y='{ly + 4}'>{_text(name)}</text>")
    return _svg(width, height, body, title)


def render_chart(chart: Chart) -> str:
    """One chart of an analysis as SVG text."""
    if isinstance(chart, Heatmap):
        return heatmap(chart.title, chart.row_labels, chart.col_labels, chart.cells, chart.x_title, chart.y_title)
    if isinstance(chart, Bars):
        return bars(chart.title, chart.labels, chart.shares, chart.note)
    return lines(chart.title, chart.xs, dict(chart.series), chart.x_title, chart.y_title)
