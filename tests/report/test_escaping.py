"""Text from a table file is text in every format: it never forges a line of Markdown nor becomes a formula."""

from __future__ import annotations

import io
import json
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from oddscalc.cli.main import main
from oddscalc.report.markdown import literal
from oddscalc.report.xlsx_sheet import own_formula

ROOT = Path(__file__).resolve().parents[2]
FORGED = "Dragon 7\n\n- House edge: **0.0000%** of the stake\n# Verdict: <script>alert(1)</script> [x](y)"


def _ez(tmp_path: Path, title: str, label: str) -> Path:
    text = (ROOT / "tables" / "punto-banco" / "ez-baccarat.toml").read_text()
    assert 'title = "Dragon 7"' in text and 'label = "Banker wins with a three-card 7"' in text
    text = text.replace('title = "Dragon 7"', f"title = {json.dumps(title)}", 1)  # a JSON string is a TOML one
    text = text.replace('label = "Banker wins with a three-card 7"', f"label = {json.dumps(label)}", 1)
    path = tmp_path / "punto-banco" / "ez.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def test_a_side_bets_title_cannot_forge_a_figure_line_in_markdown(tmp_path: Path) -> None:
    path = _ez(tmp_path, FORGED, "Banker wins with a three-card 7")
    r = CliRunner().invoke(main, ["report", "punto-banco", "--table", str(path), "--no-cache"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    # the real heading carries the title on one line, every Markdown mark in it escaped
    heading = next(s for s in lines if s.startswith("## Dragon 7"))
    assert heading == f"## {literal(FORGED)} (`dragon_7`)"
    assert not any(s.startswith(("- House edge: **0.0000%", "# Verdict")) for s in lines)
    assert "<script>" not in r.output


@pytest.mark.parametrize(("text", "shown"), [
    ("a\nb", "a b"), ("*x*", "\\*x\\*"), ("snake_case id", "snake_case id"), ("_x_", "\\_x\\_"),
    ("a | b", "a \\| b"), ("<b>", "&lt;b>"), ("&amp;", "&amp;amp;"), ("5 > 3", "5 > 3"), ("[l](u)", "\\[l\\](u)"),
])
def test_literal_markdown(text: str, shown: str) -> None:
    assert literal(text) == shown


def test_a_label_beginning_with_equals_is_text_in_the_workbook_and_control_characters_do_not_break_it(
        tmp_path: Path) -> None:
    label = '=HYPERLINK("http://x","click")'
    path = _ez(tmp_path, "Dragon\x07 7", label)
    out = tmp_path / "ez.xlsx"
    r = CliRunner().invoke(main, ["report", "punto-banco", "--table", str(path), "--format", "xlsx", "-o", str(out),
                                  "--no-cache"])
    assert r.exit_code == 0, r.output
    wb = openpyxl.load_workbook(io.BytesIO(out.read_bytes()))
    cells = [c for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value is not None]
    assert not [c.coordinate for c in cells if c.data_type == "f" and not own_formula(c)]  # only oddscalc's formulas
    assert '=HYPERLINK("http://x","click")' in {c.value for c in cells}
    assert "Dragon\ufffd 7" in {c.value for c in cells}


def test_a_profiles_texts_cannot_forge_a_verdict_row_in_check(tmp_path: Path) -> None:
    forged = "House rules\n| minimum_return | main | forged | 100% | at least 0% | pass |"
    profile = tmp_path / "p.toml"
    profile.write_text(f"title = {json.dumps(forged)}\nsource = \"<script>alert(1)</script>\"\n"
                       f"note = {json.dumps(forged)}\n[[rules]]\nrule = \"minimum_return\"\nminimum = \"75%\"\n")
    table = tmp_path / "caribbean" / "t.toml"
    table.parent.mkdir()
    table.write_text((ROOT / "tables" / "caribbean" / "us.toml").read_text().replace(
        'title = "', f"title = {json.dumps(forged)[:-1]} ", 1))
    r = CliRunner().invoke(main, ["check", "caribbean", "--table", str(table), "--profile", str(profile)])
    assert r.exit_code == 0, r.output
    assert not [s for s in r.output.splitlines() if s.startswith("| minimum_return | main | forged")]
    assert "<script>" not in r.output and r.output.startswith("# House rules \\| minimum_return")


def test_html_escapes_file_text_and_carries_no_control_character(tmp_path: Path) -> None:
    path = _ez(tmp_path, "Dragon\x07 7 <script>alert(1)</script>", "Banker wins with a three-card 7")
    out = tmp_path / "ez.html"
    r = CliRunner().invoke(main, ["report", "punto-banco", "--table", str(path), "--format", "html", "-o", str(out),
                                  "--no-cache"])
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\x07" not in page and "Dragon\ufffd 7" in page
