"""How results meet a notebook and other code: short reprs, small HTML tables (``_repr_html_``), DataFrames.

A result's ``repr`` says what it is in a few bounded lines, never the whole table model (an analysis holds
its table file's model, every row and every decision point: its generated repr ran to 14,675 characters). The
text that comes from a file (a title, a label, an id) is hostile: in a repr it is put on one line with every
character that is not printable written as its escape (a new line cannot start a forged line) and clipped, a title
in quotes as ``repr`` writes a string; in
HTML it is also escaped with :func:`html.escape`, as ``report.svg`` escapes it, so no title opens a tag.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas

TEXT_LIMIT = 60  # characters of a file's text (a title) in a repr, before an ellipsis
LINES_SHOWN = 12  # wagers listed in an analysis's repr, rows in an HTML table, before "... and N more"


def one_line(text: str, limit: int = TEXT_LIMIT) -> str:
    r"""A file's text on one line: each character that is not printable (a new line, a control) as its escape,
    clipped to ``limit`` characters with an ellipsis.

    >>> one_line("Dragon 7\n- House edge: 0%")
    'Dragon 7\\n- House edge: 0%'
    >>> one_line("x" * 80, 10)
    'xxxxxxxxx…'
    """
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


def quoted(text: str, limit: int = TEXT_LIMIT) -> str:
    r"""A file's text in quotes, as Python's ``repr`` writes a string (every character that is not printable as its
    escape, so on one line), clipped to about ``limit`` characters of the text with an ellipsis.

    >>> print(quoted("Dragon 7\n- House edge: 0%"))
    'Dragon 7\n- House edge: 0%'
    """
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")


def escape(text: str, limit: int = TEXT_LIMIT) -> str:
    """A file's text for HTML: :func:`one_line`, then escaped (``<``, ``>``, ``&`` and both quotes).

    >>> escape('<script>alert("x")</script>')
    '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'
    """
    return html.escape(one_line(text, limit), quote=True)


def missing(kind: str, name: str, known: Sequence[str]) -> KeyError:
    """A KeyError that lists the ids there are (a bare ``KeyError('jackpots')`` leaves one guessing)."""
    return KeyError(f"no {kind} {name!r}; there are: {', '.join(known) or 'none'}")


def more(shown: int, total: int, what: str) -> str:
    """The line that says how many were left out ("" when none were)."""
    return f"... and {total - shown} more {what}" if total > shown else ""


def listed(ids: Sequence[str], limit: int = LINES_SHOWN) -> str:
    r"""Ids from a file, each on one line and clipped, at most ``limit`` of them, then how many more.

    >>> listed(["a", "b\nc", "d"], 2)
    'a, b\\nc, ... and 1 more'
    """
    shown = [one_line(x, 40) for x in ids[:limit]]
    return ", ".join([*shown, more(len(shown), len(ids), "").rstrip()] if len(ids) > limit else shown)


def html_table(header: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[bool] = (),
               total: int | None = None, what: str = "rows") -> str:
    """A small HTML table of text cells (escaped here; numeric columns aligned right), at most LINES_SHOWN rows
    with a last line saying how many of ``total`` were left out."""
    right = ' style="text-align:right"'

    def cells(tag: str, values: Sequence[str]) -> str:
        return "".join(f"<{tag}{right if i < len(numeric) and numeric[i] else ''}>{escape(v, 200)}</{tag}>"
                       for i, v in enumerate(values))

    body = [f"<tr>{cells('td', r)}</tr>" for r, _ in zip(rows, range(LINES_SHOWN))]
    out = ["<table>", f"<thead><tr>{cells('th', header)}</tr></thead>", "<tbody>", *body, "</tbody>", "</table>"]
    left = more(len(body), total if total is not None else len(body), what)
    return "\n".join([*out, f"<p>{escape(left)}</p>"] if left else out)


def frame(records: Sequence[Mapping[str, Any]], floats: bool = False) -> pandas.DataFrame:
    """``records`` as a pandas DataFrame (pandas is optional: the ``pandas`` extra brings it). Exact by default:
    a ``Fraction`` stays a ``Fraction`` (an ``object`` column); with ``floats`` every ``Fraction`` becomes the
    nearest float, so its column is ``float64`` (integers, text and missing cells stay as they are)."""
    try:
        import pandas
    except ImportError:
        raise ImportError("to_frame() needs pandas: pip install 'oddscalc[pandas]'") from None
    rows = [{k: float(v) if isinstance(v, Fraction) else v for k, v in r.items()} for r in records] if floats \
        else list(records)
    return pandas.DataFrame.from_records(rows)
