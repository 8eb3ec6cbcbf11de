"""A question's report (exposure, collusion, counting, cards seen): its sections as Markdown, CSV or JSON."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from oddscalc import __version__
from oddscalc.report.cells import cell_json, cell_text
from oddscalc.report.csv import sheet_text
from oddscalc.report.json import CONTRACT, section_data
from oddscalc.report.markdown import literal, section_markdown
from oddscalc.results import Section

FORMATS = ("md", "csv", "json")


def render_sections(sections: Sequence[Section], fmt: str, heading: str, meta: dict[str, str]) -> str:
    """Markdown under ``heading``; CSV with one line per row and cell (exact and as printed); JSON with the
    contract's version (the report's vocabulary: a section is as in the report), ``meta`` and every section by id."""
    if fmt == "json":
        head = {"contract": CONTRACT, "oddscalc_version": __version__}
        return json.dumps({**head, **meta, "sections": {s.id: section_data(s) for s in sections}}, indent=2,
                          ensure_ascii=False) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        out.writerow([*meta, "section", "row", "column", "value", "shown"])
        for s in sections:
            for i, row in enumerate(s.rows):
                for c, v in zip(s.columns, row):
                    exact = cell_json(v)
                    out.writerow([*(sheet_text(x) for x in meta.values()), s.id, i + 1, c.id,
                                  "" if exact is None else sheet_text(str(exact)), sheet_text(cell_text(v, c))])
        return buf.getvalue()
    if fmt != "md":
        raise ValueError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")
    return f"# {literal(heading)}\n\n" + "\n".join(section_markdown(s) for s in sections)
