"""The workbench's Flask application: routes only (what each does is in :mod:`~oddscalc.web.actions`).

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

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from markupsafe import Markup
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from oddscalc.cache import Store
from oddscalc.cards import CardError
from oddscalc.datafile import MAX_TABLE_BYTES, TableError
from oddscalc.protocol import OptionError
from oddscalc.web import actions, views
from oddscalc.web.bench import MOST_MB, Bench, Workbench

INPUT_ERRORS = (TableError, OptionError, CardError)


routes = Blueprint("workbench", __name__)


def create_app(folder: Path | None = None, store: Store | None = None, most_mb: int = MOST_MB) -> Flask:
    """The application, its state in a :class:`Workbench` over ``folder`` (a new temporary folder by default):
    the only folder it writes in; it holds at most ``most_mb`` MB of counts in memory."""
    app = Flask("oddscalc.web", static_folder="static", template_folder="templates")
    app.config["MAX_CONTENT_LENGTH"] = MAX_TABLE_BYTES + 64 * 1024  # a table file and the form around it
    app.jinja_env.autoescape = True
    app.extensions["oddscalc"] = Workbench(folder if folder is not None
                                           else Path(tempfile.mkdtemp(prefix="oddscalc-serve-")), store,
                                           most_bytes=most_mb * 1_000_000)
    for kind in INPUT_ERRORS:
        app.register_error_handler(kind, _bad_input)
    app.register_error_handler(LookupError, _unknown)
    app.register_error_handler(413, _too_large)
    app.register_blueprint(routes)
    app.after_request(_headers)
    return app


def workbench_of(app: Flask) -> Workbench:
    """The state of an application :func:`create_app` made."""
    wb = app.extensions["oddscalc"]
    assert isinstance(wb, Workbench)
    return wb


def _wb() -> Workbench:
    return workbench_of(current_app)


def _bench(tab: str) -> Bench:
    try:
        return _wb().bench(tab)
    except KeyError:
        raise LookupError("this tab is no longer known to the server (it restarted, or the tab was idle among "
                          "many): reload the page") from None


def _bad_input(e: Exception) -> tuple[Response, int]:
    wb = _wb()
    return jsonify(problems=views.error(wb.named(str(e), wb.folder, "(upload)"))), 422


def _unknown(e: LookupError) -> tuple[Response, int]:
    return jsonify(problems=views.error(str(e.args[0]) if e.args else "not found")), 404


def _too_large(e: Exception) -> tuple[Response, int]:
    return jsonify(problems=views.error(f"too large: a table or card file is at most {MAX_TABLE_BYTES:,} bytes")), 413


def _headers(response: Response) -> Response:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                                           "img-src 'self' data:; script-src 'self'")
    return response


@routes.get("/")
def page() -> str:
    """A new tab: the page on ``?game=`` and ``?table=`` (a shipped id)."""
    wb = _wb()
    tab, bench = wb.open(request.args.get("game") or None, request.args.get("table") or None)
    context = actions.page_context(wb, tab, bench)
    text: str = render_template("page.html.j2", **{k: Markup(v) if k in ("forms", "results") else v
                                                   for k, v in context.items()})
    return text


@routes.post("/api/<tab>/edit")
def edit(tab: str) -> Response:
    """The form's pays, rules and strategy: the figures, or a job to poll."""
    return jsonify(actions.edit(_wb(), _bench(tab), _form()))


@routes.get("/api/<tab>/job/<ident>")
def job(tab: str, ident: str) -> Response:
    """A job's progress, or its answer once done."""
    j = _wb().job(_bench(tab), ident)
    if not j.done:
        return jsonify(done=False, elapsed=j.elapsed(), percent=j.percent())
    if j.error is not None:
        return jsonify(done=True, problems=views.error(j.error))
    return jsonify(done=True, **j.result)


@routes.post("/api/<tab>/upload/<what>")
def upload(tab: str, what: str) -> Response:
    """A table file or a strategy card (the form's field ``file``)."""
    bench = _bench(tab)
    given = request.files.get("file")
    if given is None:
        raise OptionError("no file given (the form's field is 'file')")
    name = actions.safe_name(given.filename or "upload.toml")
    data = given.stream.read(MAX_TABLE_BYTES + 1)
    return jsonify(actions.upload(_wb(), bench, what, name, data))


@routes.post("/api/<tab>/variants/add")
def add_variant(tab: str) -> Response:
    """The table on screen kept; the variants compared."""
    return jsonify(actions.add_variant(_wb(), _bench(tab)))


@routes.post("/api/<tab>/variants/clear")
def clear_variants(tab: str) -> Response:
    """The variants forgotten."""
    bench = _bench(tab)
    with bench.lock:
        bench.variants.clear()
    return jsonify(variants=0)


@routes.post("/api/<tab>/solve")
def solve(tab: str) -> Response:
    """A pay solved for an edge."""
    form = _form()
    return jsonify(answer=actions.solve(_wb(), _bench(tab), form.get("pay", ""), form.get("edge", "")))


@routes.post("/api/<tab>/hand")
def hand(tab: str) -> Response:
    """What a hand is worth."""
    return jsonify(answer=actions.hand(_wb(), _bench(tab), _form()))


@routes.get("/download/<tab>/<fmt>")
def download(tab: str, fmt: str) -> Response:
    """What is on screen as a file."""
    data, name = actions.download(_wb(), _bench(tab), fmt)
    return Response(data, mimetype=actions.MEDIA.get(fmt, "application/octet-stream"),
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


class _Quiet(WSGIRequestHandler):
    """Werkzeug's request handler without a line per request (a page typed into sends one per key)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return None


def server(app: Flask, host: str, port: int) -> BaseWSGIServer:
    """``app`` on werkzeug's threaded WSGI server (a thread per request: tabs answered while a count runs), bound
    to ``host:port`` (port 0: a free one, ``server_port`` says which); ``serve_forever()`` runs it. OSError when
    it cannot listen there."""
    made: BaseWSGIServer = make_server(host, port, app, threaded=True, request_handler=_Quiet)
    return made


def _form() -> dict[str, Any]:
    return {k: v for k, v in request.form.items()}

