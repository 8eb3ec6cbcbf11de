"""Reading the workbench's answers in tests: a tab opened, the exact edges a page shows, an edit's answer waited
for (shared by tests/web and the benchmark)."""

from __future__ import annotations

import re
import time
from fractions import Fraction
from typing import Any

from flask.testing import FlaskClient

FIGURE = re.compile(r'<tr data-wager="([^"]+)">(.*?)</tr>', re.S)
EXACT = re.compile(r'data-figure="([a-z_]+)" data-exact="([^"]*)"')
TAB = re.compile(r'data-tab="([^"]+)"')


def open_tab(client: FlaskClient, game: str, table: str | None = None) -> tuple[str, str]:
    """A new tab on ``game`` (and a shipped ``table``): its id and its page."""
    page = client.get("/", query_string={"game": game, **({"table": table} if table else {})})
    assert page.status_code == 200, page.text
    m = TAB.search(page.text)
    assert m is not None
    return m.group(1), page.text


def edges(html: str) -> dict[str, Fraction]:
    """Each wager's exact house edge as the page shows it (its ``data-exact``)."""
    out = {}
    for wager, row in FIGURE.findall(html):
        figures = dict(EXACT.findall(row))
        out[wager] = Fraction(figures["house_edge"])
    assert out, "no figures in the page"
    return out


def answered(client: FlaskClient, tab: str, data: dict[str, Any], url: str = "edit") -> dict[str, Any]:
    """An edit's answer, waiting for its job when the counts had to be counted."""
    r = client.post(f"/api/{tab}/{url}", data=data)
    body: dict[str, Any] = r.get_json()
    assert r.status_code == 200, body
    return finished(client, tab, body)


def finished(client: FlaskClient, tab: str, body: dict[str, Any]) -> dict[str, Any]:
    """An answer, or the answer of the job it names once done."""
    deadline = time.monotonic() + 120
    while "job" in body:
        assert time.monotonic() < deadline, "the job never finished"
        time.sleep(0.05)
        polled = client.get(f"/api/{tab}/job/{body['job']}").get_json()
        if polled["done"]:
            body = polled
    return body
