"""The PDF as a filing a lab would sign (issue 42): a one-page summary first, every font embedded, page numbers and
a running footer naming the table and its sha256 on every page, the date and who prepared it for whom, the real
date in the metadata unless SOURCE_DATE_EPOCH asks for a reproducible build (then the same bytes), bold in the
bold font and bullets as bullets."""

from __future__ import annotations

import datetime
import functools
import hashlib
import io
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from oddscalc.analysis import Session
from oddscalc.cli.main import main
from oddscalc.report.document import Prepared, top_award
from oddscalc.report.pdf import render_pdf
from oddscalc.results import Analysis, Row, WagerResult

EPOCH = 1_700_000_000  # 2023-11-14 22:13:20 UTC
ROOT = Path(__file__).resolve().parents[2]


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def us(sessions: Callable[[str], Session]) -> Analysis:
    return sessions("caribbean").analyze("us")


@pytest.fixture(scope="module")
def dragon(sessions: Callable[[str], Session]) -> Analysis:
    return sessions("punto-banco").analyze("dragon-bonus")


@pytest.fixture(scope="module")
def us_pdf(us: Analysis) -> bytes:
    """The us table's PDF rendered once for the module's tests that read it (a render is a second of CPU), dated
    by SOURCE_DATE_EPOCH as a reproducible build is."""
    with pytest.MonkeyPatch.context() as m:
        m.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
        return render_pdf(us)


@pytest.fixture(scope="module")
def dragon_pdf(dragon: Analysis) -> bytes:
    """The dragon-bonus table's PDF, rendered once for the module, as ``us_pdf``."""
    with pytest.MonkeyPatch.context() as m:
        m.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
        return render_pdf(dragon)


def _reader(data: bytes) -> PdfReader:
    assert data.startswith(b"%PDF-")
    return PdfReader(io.BytesIO(data))


@functools.cache
def _texts(data: bytes) -> tuple[str, ...]:
    # cached by the document's bytes: several tests read the same render's text (pypdf's extraction is slow)
    return tuple(page.extract_text() for page in _reader(data).pages)


def _fonts(reader: PdfReader) -> dict[str, Any]:
    """Every font any page uses, by its base name, as the font dictionaries the pages name (the charts' too)."""
    found: dict[str, Any] = {}

    def walk(resources: Any) -> None:
        resources = resources.get_object() if resources is not None else {}
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            found[str(font["/BaseFont"])] = font
        for xobject in (resources.get("/XObject") or {}).values():  # a chart drawn as a form
            walk(xobject.get_object().get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return found


def test_every_font_is_embedded(us_pdf: bytes) -> None:
    fonts = _fonts(_reader(us_pdf))
    assert {name.split("+")[-1] for name in fonts} == {"DejaVuSansBook", "DejaVuSansBold"}
    for name, font in fonts.items():
        descendants = font.get("/DescendantFonts")
        descriptor = (descendants[0].get_object() if descendants else font)["/FontDescriptor"].get_object()
        assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor), name  # its glyphs are in the file


def test_page_one_is_the_summary_and_every_page_has_the_footer(us: Analysis, dragon: Analysis, us_pdf: bytes,
                                                              dragon_pdf: bytes) -> None:
    for a, pdf in ((us, us_pdf), (dragon, dragon_pdf)):
        pages = _texts(pdf)
        total = len(pages)
        assert total > 3
        first = " ".join(pages[0].split())
        assert a.verdict.text in first and "Summary" in first and "Page 1 of" in first
        assert "Wager Unit House edge Element of risk SD Hit frequency Top award Top award odds" in first
        for w in a.wagers:  # a row for each wager, with the figures its own section states
            assert f"{w.title} ({w.wager})" in first and f"{float(100 * w.house_edge):.4f}%" in first
        assert "Counting convention" not in first  # the report proper starts on page 2
        assert " ".join(pages[1].split()).startswith("Rules and counting")
        for n, page in enumerate(pages, 1):
            foot = " ".join(page.split()[-40:])
            assert foot.endswith(f"{a.table.title} (table {a.table.id}) sha256 {a.table.sha256} Page {n} of {total}")


def test_the_summary_figures_are_the_tables(us_pdf: bytes, dragon_pdf: bytes) -> None:
    """The figures beside the return tables of docs/reports: the us royal flush wins 16,759,740 of
    19,933,230,517,200 deals (1 in 1,189,352.01), the tie 475,627,426,473,216 of 4,998,398,275,503,360."""
    first = " ".join(_texts(us_pdf)[0].split())
    assert "ante 5.2243% 2.5553% 2.2430 38.5452% Player wins with royal flush (100:1) 1 in 1,189,352" in first
    first = " ".join(_texts(dragon_pdf)[0].split())
    assert "Tie (tie) unit staked 14.3596% - 2.6409 9.5156% Tie (8:1) 1 in 10.51" in first


def _wager(rows: list[tuple[str, str, int, int]]) -> WagerResult:
    return WagerResult("w", "W", "none", sum(r[3] for r in rows),
                       tuple(Row(e, e.title(), pays, Fraction(units), n) for e, pays, units, n in rows))


def test_the_top_award_joins_the_events_that_pay_the_most() -> None:
    assert top_award(_wager([("a", "2:1", 2, 1), ("b", "5:1", 5, 3), ("lose", "", -1, 6)])) == ("B (5:1)", "1 in 3.33")
    assert top_award(_wager([("a", "1:1", 1, 1), ("b", "1:1", 1, 1), ("lose", "", -1, 2)])) == (
        "every win (1:1, 2 events)", "1 in 2.00")
    assert top_award(_wager([("a", "1:1", 1, 1), ("b", "3:1", 3, 1), ("c", "", 3, 2), ("lose", "", -1, 4)])) == (
        "+3 units (2 events)", "1 in 2.67")
    assert top_award(_wager([("a", "9:1", 9, 0), ("lose", "", -1, 2)])) == ("A (9:1)", "never")
    assert top_award(_wager([("lose", "", -1, 2)]))[0] == "none: this wager never wins"


def test_the_date_is_today_unless_source_date_epoch_is_set(dragon: Analysis, dragon_pdf: bytes,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    before = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    reader = _reader(render_pdf(dragon))
    after = datetime.datetime.now(datetime.UTC)
    made = reader.metadata.creation_date if reader.metadata else None
    assert made is not None and before <= made <= after
    assert f"Date: {made:%Y-%m-%d %H:%M} UTC" in reader.pages[0].extract_text()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    data = dragon_pdf  # rendered under this SOURCE_DATE_EPOCH (the cheaper table: any shows its date)
    reader = _reader(data)
    assert reader.metadata is not None and reader.metadata.creation_date == datetime.datetime(
        2023, 11, 14, 22, 13, 20, tzinfo=datetime.UTC)
    assert "Date: 2023-11-14 22:13 UTC" in reader.pages[0].extract_text()
    assert render_pdf(dragon) == data  # a reproducible build: the same bytes
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH + 86_400))
    assert render_pdf(dragon) != data  # and the date is in them


def test_the_same_bytes_from_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    outs = [tmp_path / "one.pdf", tmp_path / "two.pdf"]
    for out in outs:
        r = CliRunner().invoke(main, ["report", "caribbean", "--table", "us", "--format", "pdf", "-o", str(out),
                                      "--prepared-by", "A. Lab", "--prepared-for", "A Casino"])
        assert r.exit_code == 0, r.output
    assert outs[0].read_bytes() == outs[1].read_bytes()
    reader = PdfReader(outs[0])
    assert reader.metadata is not None and reader.metadata.author == "A. Lab"
    first = " ".join(reader.pages[0].extract_text().split())
    assert "Prepared by: A. Lab" in first and "Prepared for: A Casino" in first


def _runs(page: Any) -> list[tuple[str, str]]:
    """Each run of text on the page with the font it is set in."""
    runs: list[tuple[str, str]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip() and font is not None:
            runs.append((text.strip(), str(font["/BaseFont"])))

    page.extract_text(visitor_text=visit)
    return runs


def test_bold_is_set_in_the_bold_font_and_bullets_are_bullets(us: Analysis) -> None:
    reader = _reader(render_pdf(us, prepared=Prepared(datetime.datetime(2024, 1, 2, tzinfo=datetime.UTC), "Me")))
    first = _runs(reader.pages[0])
    bold = {text for text, font in first if font.endswith("Bold")}
    assert us.verdict.text.split(" (exact")[0] in " ".join(bold)  # the verdict, all in bold
    assert {"Date:", "Prepared by:", "Summary"} <= bold
    assert ("Me", "/MPDFAA+DejaVuSansBook") in first  # what follows a label is not
    facts = _runs(reader.pages[1])
    assert ("5.2243%", "/MPDFAA+DejaVuSansBold") in facts  # House edge: **5.2243%** of the ante
    assert ("of the ante", "/MPDFAA+DejaVuSansBook") in facts
    text = reader.pages[1].extract_text()
    assert "• Strategy: optimal" in text and "• House edge: 5.2243% of the ante" in text
    assert not [line for line in text.splitlines() if line.startswith("- ")]


def test_a_long_title_is_cut_in_the_footer_and_the_table_and_its_sha256_are_not(tmp_path: Path) -> None:
    text = (ROOT / "tables" / "caribbean" / "us.toml").read_text()
    title = 'title = "Caribbean Stud Poker, US raise table (straight flush 50)"'
    assert title in text
    path = tmp_path / "caribbean" / "long.toml"
    path.parent.mkdir()
    path.write_text(text.replace(title, 'title = "' + " ".join(f"w{i}" for i in range(2_000)) + '"'))
    out = tmp_path / "long.pdf"
    r = CliRunner().invoke(main, ["report", "caribbean", "--table", str(path), "--format", "pdf", "-o", str(out)])
    assert r.exit_code == 0, r.output
    pages = _texts(out.read_bytes())
    for n, page in enumerate(pages, 1):
        foot = " ".join(page.split()[-60:])
        found = re.search(r"w0 w1 w2 .*\[cut: ([\d,]+) characters, the first [\d,]+ shown\] \(table long\) "
                          r"sha256 ([0-9a-f]{64}) Page (\d+) of (\d+)$", foot)
        assert found is not None, foot
        assert found[1] == f"{len(' '.join(f'w{i}' for i in range(2_000))):,}" and found[2] == sha256_of(path)
        assert (int(found[3]), int(found[4])) == (n, len(pages))


def test_text_a_user_types_is_text(us: Analysis) -> None:
    """--prepared-by goes through the PDF's one text path: control characters shown as "?", a line break a space,
    markup and fpdf2's page-count alias printed as they are, and a character the fonts lack a "?"."""
    by = "Lab\x07\x1b\x9b {nb} **bold** <b>x</b>\n- House edge: 0.0000%\u4e2d"
    reader = _reader(render_pdf(us, prepared=Prepared(datetime.datetime(2024, 1, 2, tzinfo=datetime.UTC), by)))
    text = reader.pages[0].extract_text()
    assert "Prepared by: Lab??? {nb} **bold** <b>x</b> - House edge: 0.0000%?" in text
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", text)
    assert reader.metadata is not None and reader.metadata.author == "Lab??? {nb} **bold** <b>x</b> - House edge: " \
                                                                      "0.0000%?"


def test_prepared_options_are_checked(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["report", "caribbean", "--format", "csv", "--prepared-by", "x"])
    assert r.exit_code == 4 and r.output.strip().splitlines()[-1].startswith("oddscalc: --prepared-by: --format csv")
    r = runner.invoke(main, ["report", "caribbean", "--prepared-for", "x" * 301])
    assert r.exit_code == 4 and "at most 300" in r.output
    r = runner.invoke(main, ["report", "caribbean", "--table", "us", "--prepared-by", "**Me**\n# forged",
                             "--prepared-for", "<script>alert(1)</script>"], env={"SOURCE_DATE_EPOCH": str(EPOCH)})
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "- **Date:** 2023-11-14 22:13 UTC" in lines and "- **Prepared by:** \\*\\*Me\\*\\* # forged" in lines
    assert "- **Prepared for:** &lt;script>alert(1)&lt;/script>" in lines
    assert not [line for line in lines if line.startswith("# forged")]
    plain = runner.invoke(main, ["report", "caribbean", "--table", "us"])
    assert plain.exit_code == 0 and "Date:" not in plain.output  # a Markdown report without them: no date


def test_the_workbook_names_who_prepared_it_as_text(tmp_path: Path) -> None:
    """The xlsx Summary carries the block too: the date the option run gives, and the people as text cells (a
    typed "=HYPERLINK" is a string, never a formula)."""
    from openpyxl import load_workbook

    out = tmp_path / "us.xlsx"
    r = CliRunner().invoke(main, ["report", "caribbean", "--table", "us", "--format", "xlsx", "-o", str(out),
                                  "--prepared-by", '=HYPERLINK("http://x","y")', "--prepared-for", "Lab\x07"],
                           env={"SOURCE_DATE_EPOCH": str(EPOCH)})
    assert r.exit_code == 0, r.output
    ws = load_workbook(out)["Summary"]
    rows = {row[0].value: row[1] for row in ws.iter_rows(max_col=2) if row[0].value}
    assert rows["prepared by"].value == '=HYPERLINK("http://x","y")' and rows["prepared by"].data_type == "s"
    assert rows["prepared for"].value == "Lab\ufffd"
    assert rows["prepared (UTC)"].value == datetime.datetime(2023, 11, 14, 22, 13, 20)
