"""What the page asks of a bench, as plain functions of the workbench, a bench and the form (the routes in
:mod:`~oddscalc.web.app` only call these): an edit of pays, rules and strategy; an upload; the variants side
by side; a pay solved; a hand query; a download. Each answers with data to send back (HTML fragments rendered by
:mod:`~oddscalc.web.views`), or raises ``TableError``, ``OptionError`` or ``CardError`` for bad input.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from oddscalc import __version__
from oddscalc.cards import RANK_CHARS, SUIT_CHARS, CardError
from oddscalc.catalog import load_table, shipped_tables
from oddscalc.datafile import TableError
from oddscalc.exact import frac_str, parse_fraction, percent_str
from oddscalc.games import DECLARED
from oddscalc.protocol import OptionError, load
from oddscalc.results import Analysis, RunOptions, Section
from oddscalc.tables import Table
from oddscalc.web import forms, views
from oddscalc.web.bench import Bench, Workbench

DOWNLOADS = (("toml", "table file (TOML)"), ("md", "Markdown"), ("csv", "CSV"), ("json", "JSON"), ("html", "HTML"),
             ("pdf", "PDF"), ("xlsx", "xlsx workbook"))
MEDIA = {"toml": "application/toml", "md": "text/markdown", "csv": "text/csv", "json": "application/json",
         "html": "text/html", "pdf": "application/pdf",
         "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
CARD_OPTION = "@card"  # the strategy select's value for the uploaded card


def label(bench: Bench) -> str:
    """How the page names the bench's table: its id (a shipped one's), or what it was made from."""
    return bench.origin + (" with " + ", ".join(f"{k} = {v}" for k, v in bench.pays.items()) if bench.pays else "")


def page_context(wb: Workbench, tab: str, bench: Bench) -> dict[str, Any]:
    """Everything the page template needs."""
    game = bench.game
    tables = [(p.stem, load_table(p, expect_game=game).title) for p in shipped_tables(game)]
    return dict(tab=tab, game=game, games=[(k, c.title) for k, c in DECLARED.items()], tables=tables,
                table=shipped(wb, bench), title=bench.base.title, version=__version__, forms=forms_html(bench),
                results=results_html(wb, bench), pay_fields=forms.pay_fields(bench.base),
                ev_inputs=forms.ev_inputs(game),
                cards=[r + s for s in SUIT_CHARS[::-1] for r in RANK_CHARS[::-1]], downloads=DOWNLOADS,
                variants=len(bench.variants), memory=memory(wb))


def shipped(wb: Workbench, bench: Bench) -> str:
    """The id of the shipped table the bench shows, or "" for a table uploaded or with its rules edited (kept in the
    server's folder): what the page's table menu shows."""
    return bench.origin if bench.base.path.parent != wb.folder and bench.origin == bench.base.path.stem else ""


def _mb(n: float) -> str:
    return "under 1 MB" if 0 < n < 500_000 else f"{n / 1e6:,.0f} MB"


def memory(wb: Workbench) -> str:
    """What the server holds in memory, for the page: what it holds now and its bound (``serve --memory``)."""
    held = wb.held
    return (f"counts held in memory: {len(held)}, {_mb(held.bytes())}; at most {_mb(held.most_bytes)}, the least "
            f"recently used dropped first")


def answer(wb: Workbench, bench: Bench, out: dict[str, Any]) -> dict[str, Any]:
    """``out`` with the bench's live figures, the server's memory line and the table menu's choice."""
    return {**out, "results": results_html(wb, bench), "memory": memory(wb), "table": shipped(wb, bench)}


def forms_html(bench: Bench) -> str:
    """The bench's forms: pays and rules as its table's file writes them, the strategy."""
    table = bench.table()
    written = forms.pay_fields(bench.base)
    pays = [dataclasses.replace(f, value=bench.pays.get(f.key, f.value)) for f in written]
    card = bench.strategy if bench.card else None
    return views.render("forms.html.j2", pays=pays, written={f.key: f.value for f in written},
                        rules=forms.rule_fields(table),
                        strategies=forms.strategies(bench.game), takes_card=forms.takes_card(bench.game),
                        strategy=bench.strategy or "", card=card, card_option=CARD_OPTION)


def results_html(wb: Workbench, bench: Bench) -> str:
    """The live figures of the bench's table."""
    return views.results(wb.live(bench), label(bench))


# --- an edit -------------------------------------------------------------------------------------------------


def edit(wb: Workbench, bench: Bench, form: Mapping[str, str]) -> dict[str, Any]:
    """The form's pays, rules and strategy taken (all or nothing: a bad value leaves the bench as it was); the
    answer at once when the counts are in memory, else ``{"job": id}`` to poll while they are counted."""
    base = bench.base
    written_rules = {f.name.removeprefix("rule:"): f.value for f in forms.rule_fields(base)}
    rules = {k: forms.rule_value(v) for k, v in _given(form, "rule:").items()
             if k in written_rules and v.strip() != written_rules[k]}
    origin = bench.origin
    if rules:
        header = f"# Made by the oddscalc workbench from {bench.origin}, rules changed: {', '.join(rules)}\n"
        path = wb.keep(forms.edited_text(base, {}, rules, header).encode())
        base = wb.load_upload(path, bench.game, f"{bench.origin} with its rules changed")
        origin = f"{bench.origin} (rules: {', '.join(f'{k} = {forms.written(v)}' for k, v in rules.items())})"
    written_pays = {f.key: f.value for f in forms.pay_fields(base)}
    pays = {k: v.strip() for k, v in _given(form, "pay:").items() if k in written_pays and v.strip() != written_pays[k]}
    strategy = _strategy(bench, form.get("strategy"))
    candidate = Bench(bench.game, base, pays, strategy, origin=origin, card=bench.card if strategy else False)
    table = candidate.table()  # the pays validated as the file's would be: TableError names the key
    wb.rules(candidate, table)  # the strategy checked against the game and table
    with bench.lock:
        bench.base, bench.pays, bench.strategy, bench.origin = base, pays, strategy, origin
        bench.card = candidate.card
    out: dict[str, Any] = {"forms": forms_html(bench)} if rules else {}
    if wb.counted(bench.game, wb.rules(bench)):
        return answer(wb, bench, out)
    return {"job": wb.start(bench, lambda: answer(wb, bench, out))}


def _given(form: Mapping[str, str], prefix: str) -> dict[str, str]:
    return {k.removeprefix(prefix): str(v) for k, v in form.items() if k.startswith(prefix)}


def _strategy(bench: Bench, chosen: str | None) -> str | None:
    if not chosen:
        return None
    if chosen == CARD_OPTION:
        if not bench.card:
            raise OptionError("no strategy card uploaded in this tab")
        return bench.strategy
    if chosen not in forms.strategies(bench.game):
        raise OptionError(f"unknown strategy {chosen!r}; one of: {', '.join(forms.strategies(bench.game))}")
    return chosen


# --- uploads ---------------------------------------------------------------------------------------------------


def upload(wb: Workbench, bench: Bench, what: str, name: str, data: bytes) -> dict[str, Any]:
    """A table file (it becomes the bench's table) or a strategy card (its strategy), validated as a file is."""
    path = wb.keep(data)
    if what == "table":
        table = wb.load_upload(path, bench.game, name)
        with bench.lock:
            bench.base, bench.pays, bench.origin = table, {}, name
    elif what == "card":
        if not forms.takes_card(bench.game):
            raise OptionError(f"{bench.game} takes no strategy card")
        try:
            wb.session(bench.game).resolve(bench.table(), RunOptions(strategy=str(path)))
        except TableError as e:
            raise TableError([dataclasses.replace(p, file=wb.named(p.file, path, name)) for p in e.problems],
                             e.what) from None
        except (OptionError, CardError) as e:
            raise type(e)(wb.named(str(e), path, name)) from None
        with bench.lock:
            bench.strategy, bench.card = str(path), True
    else:
        raise OptionError(f"nothing to upload as {what!r}: a table or a card")
    out = {"forms": forms_html(bench), "name": name}
    if wb.counted(bench.game, wb.rules(bench)):
        return answer(wb, bench, out)
    return {"job": wb.start(bench, lambda: answer(wb, bench, out))}


# --- side by side, solve, a hand --------------------------------------------------------------------------------


def add_variant(wb: Workbench, bench: Bench) -> dict[str, Any]:
    """The table on screen kept as a variant; the variants and the table on screen compared."""
    with bench.lock:
        bench.variants.append((label(bench), bench.table()))
        del bench.variants[:-8]  # a comparison of more than eight tables is no longer read side by side
    return {"variants": len(bench.variants), "compare": compare(wb, bench)}


def compare(wb: Workbench, bench: Bench) -> str:
    """The variants kept and the table on screen side by side (what ``oddscalc compare`` prints)."""
    from oddscalc.filing.comparison import compare as compare_analyses
    from oddscalc.filing.comparison import letter

    tables = [t for _, t in bench.variants]
    if bench.variants and bench.table().sha256 != bench.variants[-1][1].sha256:
        tables.append(bench.table())
    if len(tables) < 2:
        return views.render("error.html.j2", lines=["Keep a variant, change the table, and keep it again (or just "
                                                   "look: the table on screen is compared with the variants kept)."])
    c = compare_analyses([wb.live(bench, t) for t in tables])
    return views.sections(c.sections(), highlight=("differences",), tables=[letter(i) for i in range(len(tables))])


def solve(wb: Workbench, bench: Bench, pay: str, edge: str) -> str:
    """The exact pay that gives its wager a house edge of ``edge`` (``oddscalc solve``), from the table on screen."""
    from oddscalc.filing.paytools import resolve_pay, solve_pay

    try:
        target = parse_fraction(edge)
    except ValueError:
        raise OptionError(f"edge: not a number: {edge!r} (use e.g. 1/20, 0.05 or 5%)") from None
    table = bench.table()
    s = solve_pay(lambda t: wb.live(bench, t), table, resolve_pay(table.model, pay), target)
    rows = [(frac_str(s.pay), f"{float(s.pay):.6g}", percent_str(target), frac_str(target)),
            *((frac_str(p), f"{float(p):.6g}", percent_str(e), frac_str(e)) for p, e in s.printable)]
    # a fragment of the page, not a report section: it is rendered here and nowhere else
    return views.render("solved.html.j2", ref=s.ref, target=percent_str(target), steps=len(s.steps), rows=rows,
                        columns=("pay", "pay_decimal", "house_edge", "house_edge_exact"))


def hand(wb: Workbench, bench: Bench, form: Mapping[str, str]) -> str:
    """The hand query of the game's declaration (``oddscalc ev``): each action's EV, for the table on screen."""
    plan = DECLARED[bench.game].ev
    if plan is None:
        raise OptionError(f"{bench.game} has no hand query")
    inputs: dict[str, Any] = {name: (form.get(name) or "").strip() or None for name in plan.inputs}
    if inputs.get("players") is not None:
        try:
            inputs["players"] = int(str(inputs["players"]))
        except ValueError:
            shown = str(inputs["players"])
            shown = shown if len(shown) <= 20 else shown[:20] + "…"  # a 5000-digit text is not echoed whole
            raise OptionError(f"players: a whole number, not {shown!r}") from None
    sections: list[Section] = load(plan.run)(wb.session(bench.game), bench.table(), **inputs)
    return views.sections(sections)


# --- downloads ---------------------------------------------------------------------------------------------------


def download(wb: Workbench, bench: Bench, fmt: str) -> tuple[bytes, str]:
    """What is on screen as a file: the table (TOML, validated by reading it back) or the report in ``fmt``; the
    bytes and a file name."""
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in bench.origin)[:60].strip("-") or "table"
    if fmt == "toml":
        header = (f"# Made by the oddscalc workbench {__version__} from {bench.origin}"
                  + (f", pays changed: {', '.join(bench.pays)}" if bench.pays else "") + "\n")
        data = forms.edited_text(bench.base, bench.pays, {}, header).encode()
        table = wb.load_upload(wb.keep(data), bench.game, f"{stem}.toml")  # what is sent is a valid table
        assert table.sha256 and _same_figures(table, bench.table())
        return data, f"{stem}.toml"
    analysis = wb.analyze(bench, brief=False)
    if fmt in ("md", "csv", "json"):
        from oddscalc.report import RENDERERS

        return RENDERERS[fmt](analysis).encode(), f"{stem}.{fmt}"
    if fmt == "xlsx":
        from oddscalc.report.xlsx import render_xlsx

        return render_xlsx(analysis), f"{stem}.xlsx"
    if fmt in ("html", "pdf"):
        return _document(wb, bench, analysis, fmt), f"{stem}.{fmt}"
    raise OptionError(f"unknown format {fmt!r}; one of: {', '.join(f for f, _ in DOWNLOADS)}")


def _document(wb: Workbench, bench: Bench, analysis: Analysis, fmt: str) -> bytes:
    from oddscalc.filing import document

    charts = document.charts(wb.session(bench.game), analysis)
    if fmt == "html":
        from oddscalc.report.html import render_html

        return render_html(analysis, charts).encode()
    from oddscalc.report.pdf import render_pdf

    return render_pdf(analysis, charts)


def _same_figures(a: Table, b: Table) -> bool:
    from oddscalc.tables import rules_and_pays_sha256

    return rules_and_pays_sha256(a.model) == rules_and_pays_sha256(b.model)


def safe_name(name: str) -> str:
    """An uploaded file's name as shown: its last part, at most 80 characters."""
    return Path(name.replace("\\", "/")).name[:80] or "upload.toml"
