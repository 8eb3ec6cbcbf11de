"""The workbench's Flask application: routes only (what each does is in :mod:`~oddscalc.workbench.actions`).

Flask, because it is the most used of the well-kept Python web libraries, synchronous (the work is CPU-bound
counting and settling, which an async framework would only move to a thread), typed, and brings its test client,
request size limit and multipart parsing; templates and static files are package data (no build step).

Every answer to the page is JSON holding HTML fragments the server rendered (escaped there). A bad value answers
422 with the problems, an upload too large 413, an unknown tab or job 404; an error inside is a 500 whose text
says it is a bug. Each page load is a tab of its own: its id is in the page, and every request names it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from markupsafe import Markup

from oddscalc.cards import CardError
from oddscalc.cache import Store
from oddscalc.datafile import MAX_TABLE_BYTES, TableError
from oddscalc.protocol import OptionError
from oddscalc.workbench import actions, views
from oddscalc.workbench.bench import Bench, Workbench

INPUT_ERRORS = (TableError, OptionError, CardError)


def create_app(folder: Path | None = None, store: Store | None = None) -> Flask:
    """The application, its state in a :class:`Workbench` over ``folder`` (a new temporary folder by default):
    the only folder it writes in."""
    app = Flask("oddscalc.workbench", static_folder="static", template_folder="templates")
    app.config["MAX_CONTENT_LENGTH"] = MAX_TABLE_BYTES + 64 * 1024  # a table file and the form around it
    app.jinja_env.autoescape = True
    wb = Workbench(folder if folder is not None else Path(tempfile.mkdtemp(prefix="oddscalc-serve-")), store)
    app.extensions["oddscalc"] = wb

    def bench_of(tab: str) -> Bench:
        try:
            return wb.bench(tab)
        except KeyError:
            raise LookupError("this tab is no longer known to the server (it restarted, or the tab was idle "
                              "among many): reload the page") from None

    def bad_input(e: Exception) -> tuple[Response, int]:
        return jsonify(problems=views.error(wb.named(str(e), wb.folder, "(upload)"))), 422

    for kind in INPUT_ERRORS:
        app.register_error_handler(kind, bad_input)

    @app.errorhandler(LookupError)
    def unknown(e: LookupError) -> tuple[Response, int]:
        return jsonify(problems=views.error(str(e.args[0]) if e.args else "not found")), 404

    @app.errorhandler(413)
    def too_large(e: Exception) -> tuple[Response, int]:
        return jsonify(problems=views.error(f"too large: a table or card file is at most {MAX_TABLE_BYTES:,} "
                                            "bytes")), 413

    @app.get("/")
    def page() -> str:
        tab, bench = wb.open(request.args.get("game") or None, request.args.get("table") or None)
        context = actions.page_context(wb, tab, bench)
        text: str = render_template("page.html.j2", **{k: Markup(v) if k in ("forms", "results") else v
                                                       for k, v in context.items()})
        return text

    @app.post("/api/<tab>/edit")
    def edit(tab: str) -> Response:
        return jsonify(actions.edit(wb, bench_of(tab), _form()))

    @app.get("/api/<tab>/job/<ident>")
    def job(tab: str, ident: str) -> Response:
        j = wb.job(bench_of(tab), ident)
        if not j.done:
            return jsonify(done=False, elapsed=j.elapsed())
        if j.error is not None:
            return jsonify(done=True, problems=views.error(j.error))
        return jsonify(done=True, **j.result)

    @app.post("/api/<tab>/upload/<what>")
    def upload(tab: str, what: str) -> Response:
        bench = bench_of(tab)
        given = request.files.get("file")
        if given is None:
            raise OptionError("no file given (the form's field is 'file')")
        name = actions.safe_name(given.filename or "upload.toml")
        data = given.stream.read(MAX_TABLE_BYTES + 1)
        return jsonify(actions.upload(wb, bench, what, name, data))

    @app.post("/api/<tab>/variants/add")
    def add_variant(tab: str) -> Response:
        return jsonify(actions.add_variant(wb, bench_of(tab)))

    @app.post("/api/<tab>/variants/clear")
    def clear_variants(tab: str) -> Response:
        bench = bench_of(tab)
        with bench.lock:
            bench.variants.clear()
        return jsonify(variants=0)

    @app.post("/api/<tab>/solve")
    def solve(tab: str) -> Response:
        form = _form()
        return jsonify(answer=actions.solve(wb, bench_of(tab), form.get("pay", ""), form.get("edge", "")))

    @app.post("/api/<tab>/hand")
    def hand(tab: str) -> Response:
        return jsonify(answer=actions.hand(wb, bench_of(tab), _form()))

    @app.get("/download/<tab>/<fmt>")
    def download(tab: str, fmt: str) -> Response:
        data, name = actions.download(wb, bench_of(tab), fmt)
        return Response(data, mimetype=actions.MEDIA.get(fmt, "application/octet-stream"),
                        headers={"Content-Disposition": f'attachment; filename="{name}"',
                                 "X-Content-Type-Options": "nosniff"})

    @app.after_request
    def no_sniffing(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                                               "img-src 'self' data:; script-src 'self'")
        return response

    return app


def _form() -> dict[str, Any]:
    return {k: v for k, v in request.form.items()}


def workbench_of(app: Flask) -> Workbench:
    """The state of an application :func:`create_app` made."""
    wb = app.extensions["oddscalc"]
    assert isinstance(wb, Workbench)
    return wb
