"""Text from a file in the PDF: a control character shown, markup printed as it is, a line break never a new line,
a text too long for a page cut with a note, and a table too wide for the page shown in parts (issue 41)."""

from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from oddscalc.cli.main import main
from oddscalc.report.document import Document, Table
from oddscalc.report.pdf import pdf_of

ROOT = Path(__file__).resolve().parents[2]
PUNTO = ROOT / "tables" / "punto-banco"
TITLE = 'title = "Dragon 7"'
LABEL = 'label = "Banker wins with a three-card 7"'
WORDS = 20_000


def _ez(tmp_path: Path, name: str, title: str = "Dragon 7", label: str = "Banker wins with a three-card 7") -> Path:
    text = (PUNTO / "ez-baccarat.toml").read_text()
    assert TITLE in text and LABEL in text
    text = text.replace(TITLE, f"title = {json.dumps(title)}", 1)  # a JSON string is a TOML one
    text = text.replace(LABEL, f"label = {json.dumps(label)}", 1)
    path = tmp_path / "punto-banco" / f"{name}.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def _pages(data: bytes) -> list[str]:
    assert data.startswith(b"%PDF")
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def _cli_pdf(tmp_path: Path, args: list[str]) -> list[str]:
    out = tmp_path / "out.pdf"
    r = CliRunner().invoke(main, [*args, "--format", "pdf", "-o", str(out)])
    assert r.exit_code == 0, r.output
    return _pages(out.read_bytes())


def test_a_control_character_in_a_title_is_shown_and_markup_is_printed_as_it_is(tmp_path: Path) -> None:
    title = "Dragon\x07\x1b\x00\x9b 7 <script>alert(1)</script> **bold**\n- House edge: 0.0000% of the stake"
    pages = _cli_pdf(tmp_path, ["report", "punto-banco", "--table", str(_ez(tmp_path, "ctrl", title))])
    text = "\n".join(pages)
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", text)  # none reaches the page, not even C1
    # each of the four shown where it was (the font has no U+FFFD: "?" is its mark for a character it cannot show),
    # the markup literal, and the line break a space: no line of the PDF begins with the forged figure
    shown = "Dragon???? 7 <script>alert(1)</script> **bold** - House edge: 0.0000% of the stake"
    assert f"{shown} (dragon_7)" in text
    assert not [s for s in text.splitlines() if s.startswith("- House edge: 0.0000%")]


def test_a_twenty_thousand_word_label_is_cut_with_a_note(tmp_path: Path) -> None:
    label = " ".join(f"w{i}" for i in range(WORDS))  # each word different: what is shown is the label's beginning
    pages = _cli_pdf(tmp_path, ["report", "punto-banco", "--table", str(_ez(tmp_path, "long", label=label))])
    text = " ".join(" ".join(pages).split())
    note = re.search(r"\[cut: ([\d,]+) characters, the first ([\d,]+) shown\]", text)
    assert note is not None and int(note[1].replace(",", "")) == len(label)
    shown = int(note[2].replace(",", ""))
    assert 200 < shown < 10_000 and f"w{WORDS - 1}" not in text
    assert text.index("w0 w1 w2") < note.start()


def _wide(columns: int, long_cell: int) -> Document:
    header = ("Key", *(f"Column {j}" for j in range(1, columns)))
    rows = tuple((f"key {i}", *(f"value {i}.{j}" for j in range(1, columns))) for i in range(5))
    rows += (("long", "x" * long_cell, *("" for _ in range(2, columns))),)  # one word: no space to break it at
    doc = Document("wide")
    doc.add("table", table=Table(header, rows, (False,) * columns))
    return doc


def test_a_table_too_wide_for_the_page_is_shown_in_parts_and_a_row_too_high_is_cut() -> None:
    pages = _pages(pdf_of(_wide(40, 50_000)))
    text = " ".join(" ".join(pages).split())  # the note may wrap in its cell
    parts = int(re.search(r"This table's 40 columns are shown in (\d+) parts", text)[1])  # type: ignore[index]
    assert parts > 1
    assert all(f"Column {j}" in text for j in range(1, 40)) and all(f"value 4.{j}" in text for j in range(1, 40))
    assert text.count("key 4 ") == parts  # each part begins with the names of the rows
    assert "[cut: 50,000 characters, the first" in text


@pytest.mark.parametrize("tables", [
    ["dragon-bonus", "ez-baccarat", "standard"],
    pytest.param(sorted(p.stem for p in PUNTO.glob("*.toml")), marks=pytest.mark.deep, id="all"),
])
def test_compare_as_pdf_lays_out_every_table(tmp_path: Path, tables: list[str]) -> None:
    long = _ez(tmp_path, "ez-baccarat", label=" ".join(["word"] * WORDS))  # a rule's row far taller than a page
    paths = [str(long) if t == "ez-baccarat" else str(PUNTO / f"{t}.toml") for t in tables]
    start = time.monotonic()
    pages = _cli_pdf(tmp_path, ["compare", "punto-banco", *paths])
    text = " ".join(" ".join(pages).split())
    assert "Rule and pay differences" in text and "[cut: " in text
    if len(tables) == 10:  # the differences of ten tables are too wide for one page
        assert re.search(r"This table's 11 columns are shown in \d+ parts", text)
        assert time.monotonic() - start < 120
