"""The ``serve`` command: the local web workbench (:mod:`oddscalc.web`), on 127.0.0.1 unless told otherwise.
Registered on the group in ``cli.main`` (:data:`COMMANDS`). Flask is loaded only when the command runs."""

from __future__ import annotations

import ipaddress
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import click

from oddscalc.cli.options import EXIT_INPUT, Failure, Whole
from oddscalc.protocol import OptionError

if TYPE_CHECKING:
    from flask import Flask

DEFAULT_PORT = 8765
MOST_MB = 512  # the workbench's own default (oddscalc.web.bench.MOST_MB), here so that --help needs no Flask


def _host(text: str) -> str:
    """``localhost`` or an IP address (a name is not looked up: the server says where it listens)."""
    if text == "localhost":
        return text
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise OptionError(f"--host: an IP address such as 127.0.0.1, not {text!r}") from None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on. The workbench has no login: keep it on this machine.")
@click.option("--port", type=Whole(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the workbench in the browser.")
@click.option("--memory", "memory_mb", type=Whole(1, 1_000_000), default=MOST_MB, show_default=True, metavar="MB",
              help="The counts held in memory, at most this many MB all games together; the least recently used is "
                   "dropped and read back from the store when asked again (the same figures). A Caribbean Stud count "
                   "is about 137 MB, Let It Ride's about 1 MB, the baccarats' less.")
@click.option("--check", is_flag=True,
              help="Build the workbench and load its page once, print where it would listen, and exit.")
def serve(host: str, port: int, open_browser: bool, memory_mb: int, check: bool) -> None:
    """The local web workbench: pick a table, edit its pays, rules and strategy, see the figures as you type."""
    address = _host(host)
    try:
        from oddscalc.web.app import create_app
    except ImportError as e:
        raise OptionError(f"oddscalc serve needs {e.name or 'Flask'}: pip install 'oddscalc[serve]'") from None
    with tempfile.TemporaryDirectory(prefix="oddscalc-serve-") as folder:
        app = create_app(Path(folder), most_mb=memory_mb)
        if check:
            page = app.test_client().get("/")
            if page.status_code != 200:
                raise Failure(f"the workbench's page answered {page.status_code}", 1)
            click.echo(f"oddscalc workbench: ok; would listen on http://{_shown(address)}:{port}/")
            return
        _run(app, address, port, open_browser)


def _shown(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def _run(app: Flask, address: str, port: int, open_browser: bool) -> None:
    """Serve ``app`` until interrupted, with werkzeug's threaded WSGI server (one thread a request: several tabs at
    once each get their own answer while a count runs)."""
    import threading
    import webbrowser

    from oddscalc.web.app import server as make_server

    try:
        server = make_server(app, address, port)
    except OSError as e:
        raise Failure(f"cannot listen on {_shown(address)}:{port}: {e.strerror or e}", EXIT_INPUT) from None
    url = f"http://{_shown(address)}:{server.server_port}/"
    click.echo(f"oddscalc workbench: {url} (Ctrl-C stops it)")
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever()
    finally:
        server.server_close()


COMMANDS = (serve,)
