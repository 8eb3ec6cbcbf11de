"""The SVG line chart: round ticks (1-2-5 steps) and a line of its own, named in a legend, for every series."""

from __future__ import annotations

import math
import re
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from oddscalc.report import svg

F = Fraction


def _step_is_nice(step: Fraction) -> bool:
    power = Fraction(10) ** math.floor(math.log10(step))
    return step / power in (1, 2, 5)


@given(st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**6),
       st.fractions(min_value=F(1, 10**6), max_value=10**6, max_denominator=10**6))
def test_ticks_are_round_cover_the_values_and_are_the_finest_that_fit(lo: Fraction, span: Fraction) -> None:
    hi = lo + span
    ticks = svg.nice_ticks(lo, hi)
    step = ticks[1] - ticks[0]
    assert _step_is_nice(step) and all(b - a == step for a, b in zip(ticks, ticks[1:]))
    assert all(t % step == 0 for t in ticks)
    assert ticks[0] <= lo < ticks[0] + step and ticks[-1] - step < hi <= ticks[-1]
    assert len(ticks) <= svg.MAX_TICKS
    # the next finer 1-2-5 step would need more ticks than fit
    finer = step / 2 if step / Fraction(10) ** math.floor(math.log10(step)) in (1, 2) else step * 2 / 5
    assert math.ceil(hi / finer) - math.floor(lo / finer) + 1 > svg.MAX_TICKS


def test_the_issues_odd_ticks_are_round_now() -> None:
    """The hold chart's axis read 13.284%, 9.000%, ...: from 9% to 13.284% it reads 9.0% .. 13.5% by 0.5%."""
    ticks = svg.nice_ticks(F(9), F(13284, 1000))
    assert [svg.tick_label(t, ticks[1] - ticks[0]) for t in ticks] == [
        "9.0%", "9.5%", "10.0%", "10.5%", "11.0%", "11.5%", "12.0%", "12.5%", "13.0%", "13.5%"]
    ticks = svg.nice_ticks(F(-442), F(493))
    assert [svg.tick_label(t, ticks[1] - ticks[0]) for t in ticks][::3] == ["-600%", "0%", "600%"]
    assert svg.tick_label(F(-12000), F(2000)) == "-12,000%" and svg.tick_label(F(1, 4), F(1, 20)) == "0.25%"


def test_every_series_has_a_line_of_its_own_and_a_legend_entry() -> None:
    series = {"expected": [F(1, 100)] * 3, "95% low": [F(-5, 100), F(0), F(1, 200)],
              "95% high": [F(7, 100), F(2, 100), F(3, 200)], "99% low": [F(-7, 100), F(-1, 100), F(0)],
              "99% high": [F(9, 100), F(3, 100), F(2, 100)]}
    text = svg.lines("A chart", [3, 4, 5], series, "rounds", "hold")
    strokes = re.findall(r"<polyline points='[^']*' fill='none' (stroke='[^']*' stroke-width='2'"
                         r"(?: stroke-dasharray='[^']*')?)/>", text)
    assert len(strokes) == len(series) == len(set(strokes))  # five lines, no two alike
    colours = re.findall(r"stroke='(#[0-9a-f]{6})'", " ".join(strokes))
    assert len(set(colours)) == len(series)  # and no two in one colour
    legend = re.findall(r"<line x1='[\d.]+' x2='[\d.]+' y1='[\d.]+' y2='[\d.]+' (stroke='[^']*' stroke-width='2'"
                        r"(?: stroke-dasharray='[^']*')?)/>\n<text [^>]*>([^<]*)</text>", text)
    assert [(s, name) for s, name in legend] == list(zip(strokes, series))  # each swatch drawn as its line
    labels = re.findall(r"text-anchor='end'>([^<]*%)</text>", text)
    assert labels == ["-8%", "-6%", "-4%", "-2%", "0%", "2%", "4%", "6%", "8%", "10%"]  # -7% .. 9%: by 1, 17 ticks


def test_a_title_with_control_characters_still_parses_as_xml() -> None:
    """A chart's title comes from a table file (a wager's title): a control character there is a "?" in the SVG."""
    from xml.etree import ElementTree

    text = svg.lines("Dragon\x07\x1b\x00 <7> & 8", [1, 2], {"a\x0b": [F(0), F(1, 100)]}, "x", "y")
    assert "Dragon??? &lt;7&gt; &amp; 8" in text and "a?" in text
    ElementTree.fromstring(text)
