"""The report package imports a renderer when its format is asked for: a JSON report does not load the Markdown
renderer and the document model it reads."""

from __future__ import annotations

import json
import subprocess
import sys

from oddscalc.report import RENDERERS, render_csv, render_json, render_markdown


def test_renderers_by_format_in_order() -> None:
    assert dict(RENDERERS) == {"md": render_markdown, "csv": render_csv, "json": render_json}


def test_a_json_render_imports_no_markdown() -> None:
    """In a new process (this one may have loaded every renderer)."""
    code = ("import json, sys; import oddscalc.report as r; before = sorted(m for m in sys.modules if "
            "m.startswith('oddscalc.report.')); r.RENDERERS['json']; "
            "print(json.dumps([before, sorted(m for m in sys.modules if m.startswith('oddscalc.report.'))]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, after = json.loads(out)
    assert before == []
    assert after == ["oddscalc.report.cells", "oddscalc.report.json"]
