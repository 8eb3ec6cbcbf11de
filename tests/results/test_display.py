"""What an analysis, a wager and a section show in a notebook: a repr of a few bounded lines (not the table model),
an HTML table in which no text from a file opens a tag, the figures as properties, and DataFrames exact or in
floats."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from fractions import Fraction
from html.parser import HTMLParser

import pandas
import pytest

from oddscalc.analysis import Session
from oddscalc.results import Analysis, Column, Row, Section, WagerResult

# text a table file may hold: markup, a forged line, a control character, and length
HOSTILE = '<script>alert("x")</script>\n- House edge: **0.0000%**\x1b[2J & <img src=x onerror=alert(1)>' + "z" * 5000
TAGS = {"p", "strong", "code", "table", "thead", "tbody", "tr", "th", "td"}  # what the display writes itself

# punto banco, 8 decks: the tie wins in 475,627,426,473,216 of the 4,998,398,275,503,360 ordered deals (the
# count the Wizard of Odds publishes, and tables/punto-banco/standard.toml states)
TIES, DEALS = 475627426473216, 4998398275503360


@pytest.fixture(scope="module")
def standard(sessions: Callable[[str], Session]) -> Analysis:
    return sessions("punto-banco").analyze("standard")


def hostile_wager(i: int) -> WagerResult:
    return WagerResult(f"side_{i}\n- forged", HOSTILE, HOSTILE, 3,
                       (Row("win", HOSTILE, HOSTILE, Fraction(5), 1), Row("lose", "lose", "", Fraction(-1), 2)))


@pytest.fixture(scope="module")
def hostile(standard: Analysis) -> Analysis:
    model = standard.table.model.model_copy(update={"title": HOSTILE})
    table = dataclasses.replace(standard.table, id=HOSTILE, model=model)
    return dataclasses.replace(standard, table=table, wagers=tuple(hostile_wager(i) for i in range(40)))


class Tags(HTMLParser):
    """Every tag and attribute an HTML text opens."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}


def tags_of(text: str) -> Tags:
    parser = Tags()
    parser.feed(text)
    return parser


def test_an_analysis_repr_says_what_it_is_in_a_few_lines(standard: Analysis) -> None:
    text = repr(standard)
    assert len(text) < 800 and len(text.splitlines()) == 7  # the generated one ran to 14,675 characters
    first, *wagers, last = text.splitlines()
    assert first.startswith("<Analysis punto-banco, table 'standard': 'Punto banco, 8 decks, 5% commission', sha256 ")
    assert [w.split()[0] for w in wagers] == ["banker", "player", "tie", "player_pair", "banker_pair"]
    assert "house edge 1.0579% of the unit staked" in wagers[0]  # the banker's published 1.06%, to four places
    assert last.endswith("favours the house; 12 of 12 published figures hold>")
    assert "model" not in text and "Fraction" not in text


def test_a_wager_and_a_section_repr_are_one_line(standard: Analysis) -> None:
    tie = repr(standard.wager("tie"))
    assert tie == ("<WagerResult tie 'Tie': house edge 14.3596% of the unit staked; 3 events over "
                   "4,998,398,275,503,360 combinations>")
    section = repr(standard.section("drawing_rules"))
    assert "\n" not in section and section.startswith("<Section drawing_rules 'Drawing rules': 8 rows of 11 columns")


def test_a_repr_is_bounded_whatever_the_file_holds(hostile: Analysis) -> None:
    text = repr(hostile)
    lines = text.splitlines()
    assert len(lines) == 1 + 12 + 1 + 1  # the table, twelve wagers, how many more, the verdict
    assert lines[13] == "  ... and 28 more wagers"
    assert len(text) < 4000
    assert "\x1b" not in text and not any(line.lstrip().startswith("- ") for line in lines)
    assert "\\n- House edge" in lines[0]  # the new line is shown as its escape, on the table's own line
    assert len(repr(hostile.wagers[0])) < 400 and "\n" not in repr(hostile.wagers[0])
    wide = Section(HOSTILE, HOSTILE, tuple(Column(f"c{i}\n", HOSTILE) for i in range(50)))
    assert len(repr(wide)) < 800 and "\n" not in repr(wide) and "... and 38 more" in repr(wide)


def test_the_html_escapes_every_text_from_a_file(hostile: Analysis) -> None:
    section = Section("s", HOSTILE, (Column("a", HOSTILE), Column("b", "B", "percent")),
                      tuple((HOSTILE, Fraction(i, 7)) for i in range(30)))
    for html in (hostile._repr_html_(), hostile.wagers[0]._repr_html_(), section._repr_html_()):
        found = tags_of(html)
        assert found.tags <= TAGS, found.tags
        assert found.attributes <= {"style"}
        assert "<script" not in html and "<img" not in html and "\x1b" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
        assert len(html) < 20_000
    assert "... and 18 more rows" in section._repr_html_()  # 30 rows, 12 shown
    assert "14.2857%" in section._repr_html_()  # 1/7 as the percent column prints it


def test_the_html_of_an_analysis_has_a_row_per_wager(standard: Analysis) -> None:
    html = standard._repr_html_()
    assert html.count("<tr>") == 1 + 5
    assert "Every wager favours the house" in html and "12 of 12 published figures hold" in html


def test_volatility_index_and_prizes_are_properties_like_every_figure(standard: Analysis) -> None:
    for name in ("volatility_index", "prizes", "house_edge", "standard_deviation", "hit_frequency"):
        assert not callable(getattr(standard.wager("tie"), name)), name
    tie = standard.wager("tie")
    # z for a two-sided 95% (and 90%) interval of the normal distribution, as a PAR sheet uses it
    assert tie.volatility_index["95"] == pytest.approx(1.959964 * tie.standard_deviation, rel=1e-6)
    assert tie.volatility_index["90"] == pytest.approx(1.644854 * tie.standard_deviation, rel=1e-6)
    with pytest.raises(TypeError):
        tie.volatility_index["95"] = 0.0  # type: ignore[index]
    assert [(p.pay_ref, p.pays, p.probability) for p in tie.prizes] == [("tie.win", "8:1", Fraction(TIES, DEALS))]


def test_a_missing_event_lists_the_events_there_are(standard: Analysis) -> None:
    with pytest.raises(KeyError, match="no event 'tie'; there are: win, push, lose"):
        standard.wager("banker").row("tie")


def test_to_frame_gives_exact_columns_or_floats(standard: Analysis) -> None:
    tie = standard.wager("tie")
    exact, floats = tie.to_frame(), tie.to_frame(floats=True)
    assert list(exact.columns) == list(floats.columns)
    for column in ("units", "stake", "probability", "return"):
        assert exact[column].dtype == object and floats[column].dtype == "float64"
        assert floats[column].tolist() == [float(x) for x in exact[column]]  # each the float nearest the Fraction
    assert floats.loc[floats["event"] == "win", "probability"].item() == TIES / DEALS
    assert floats["combinations"].dtype == "int64" and floats["combinations"].sum() == DEALS
    assert exact["return"].sum() == tie.expected_value  # exact stays exact
    assert floats["return"].sum() == pytest.approx(float(tie.expected_value), abs=1e-15)
    section = standard.section("drawing_rules").to_frame(floats=True)
    assert section.equals(standard.section("drawing_rules").to_frame())  # text cells only: the same
    both = standard.to_frame(floats=True)
    assert len(both) == sum(len(w.rows) for w in standard.wagers) and both["probability"].dtype == "float64"


def test_to_frame_without_pandas_says_how_to_get_it(standard: Analysis, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pip install 'oddscalc\[pandas\]'"):
        standard.to_frame()
    assert pandas is not None  # the real one is back after the test
