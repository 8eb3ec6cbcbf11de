"""The workbench's pay edit, end to end: target 100 ms from the request sent to the answer read.

The real server (werkzeug's threaded WSGI server, as ``oddscalc serve`` runs it) on a free local port, a tab
opened on each game's table, then a pay typed again and again, alternating two values: each edit is one HTTP POST
of the whole form, validated as the table's file would be, settled from the counts held in memory (the optimal
strategy chosen again for the new pays), and answered as the HTML the page swaps in. Timed with the client's
clock, from the request sent to the whole answer read. The first edit of each tab is untimed (its counts are
counted, or read from the store, then).

Each figure is the best of ``repeats`` edits, the median beside it; the seconds are also shown as a ratio to the
reference workload (``common.reference_seconds``), which moves less on a busy machine.

Run: ``python benchmarks/bench_workbench.py [repeats]``
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from common import Targets

TARGET = 0.100  # seconds: the bound on a pay edit's round trip
CASES = (  # game, table, the pay typed, two values it alternates between
    ("caribbean", "us", "main.flush", ("5:1", "6:1")),
    ("let-it-ride", "standard", "main.flush", ("8:1", "9:1")),
    ("punto-banco", "standard", "tie.win", ("8:1", "9:1")),
    ("house-baccarat", "seed", "main.win", ("1:1", "19:20")),
)


def post(url: str, form: dict[str, str]) -> tuple[float, bytes]:
    """Seconds from sending the form to reading the whole answer, and the answer."""
    data = urllib.parse.urlencode(form).encode()
    start = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, data=data, method="POST"), timeout=600) as r:
        body: bytes = r.read()
    return time.perf_counter() - start, body


def main() -> int:
    from oddscalc.web.app import create_app, server

    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    out = Targets("workbench: a pay edit, end to end over HTTP")
    with tempfile.TemporaryDirectory(prefix="oddscalc-bench-serve-") as folder:
        httpd = server(create_app(Path(folder)), "127.0.0.1", 0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_port}"
        try:
            for game, table, pay, values in CASES:
                query = urllib.parse.urlencode({"game": game, "table": table})
                with urllib.request.urlopen(f"{base}/?{query}", timeout=600) as r:
                    page = r.read().decode()
                m = re.search(r'data-tab="([^"]+)"', page)
                assert m is not None
                url = f"{base}/api/{m.group(1)}/edit"
                first, body = post(url, {f"pay:{pay}": values[1]})  # untimed: the counts made or read
                assert b'"job"' not in body, "the first page load should have counted"
                runs = []
                for i in range(repeats):
                    seconds, body = post(url, {f"pay:{pay}": values[i % 2]})
                    assert b"data-figure=\\\"house_edge\\\"" in body, body[:300]
                    runs.append(seconds)
                out.seconds(f"{game} {table}: {pay} typed", min(runs), TARGET,
                            f"median {statistics.median(runs) * 1000:.0f} ms, first {first * 1000:.0f} ms")
        finally:
            httpd.shutdown()
            httpd.server_close()
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
