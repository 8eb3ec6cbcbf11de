"""HTML report: the document blocks through a Jinja2 template, charts inline as SVG; printable (the summary ends
the first printed page). Bold is ``<strong>`` around a bold run of the document (the verdict, the headline
figures); every text is escaped by the template, so a text from a file never becomes a tag."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from oddscalc import __version__
from oddscalc.report.cells import no_controls
from oddscalc.report.document import Document, Prepared, document
from oddscalc.report.svg import render_chart
from oddscalc.results import Analysis, Chart


def needs(name: str) -> Any:
    """An optional library of the filing formats, or a clear error naming the extra that brings it."""
    import importlib

    from oddscalc.protocol import OptionError

    try:
        return importlib.import_module(name)
    except ImportError:
        raise OptionError(f"this format needs {name}: pip install 'oddscalc[filing]'") from None


@cache
def _template() -> Any:
    jinja2 = needs("jinja2")
    env = jinja2.Environment(loader=jinja2.PackageLoader("oddscalc.report", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]), keep_trailing_newline=True)
    return env.get_template("report.html.j2")


def html_of(doc: Document) -> str:
    """A document as a standalone HTML page: text escaped by the template, and a control character from a file
    (which HTML may not carry) shown as U+FFFD."""
    markup = needs("markupsafe").Markup
    text: str = _template().render(doc=doc, version=__version__, svg=lambda c: markup(render_chart(c)))
    return no_controls(text)


def render_html(a: Analysis, charts: Sequence[Chart] = (), prepared: Prepared | None = None) -> str:
    """The whole report as HTML (``prepared``: when, by and for whom; by default made now)."""
    return html_of(document(a, charts, prepared))
