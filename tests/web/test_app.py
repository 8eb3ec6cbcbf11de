"""The workbench through its test client: every route, the figures against the analysis the library gives, tab
isolation, escaping, upload limits and validation, and that nothing is written outside the server's folder. Each
test has an application of its own over a folder of its own (its answers read with ``oracles.workbench_pages``)."""

from __future__ import annotations

import functools
import io
import json
import threading
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from oracles.workbench_pages import answered, edges, finished, open_tab

from oddscalc.analysis import Session
from oddscalc.catalog import changeable, load_table, resolve_table, with_pays
from oddscalc.cli.main import main
from oddscalc.datafile import MAX_TABLE_BYTES, TableError
from oddscalc.games import GAME_KEYS
from oddscalc.progress import Progress
from oddscalc.results import RunOptions
from oddscalc.tables import Table
from oddscalc.web.app import create_app, workbench_of
from oddscalc.web.bench import MOST_MB, Held, paid, size_of

STANDARD = resolve_table("punto-banco", "standard")


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    made = tmp_path / "server"
    made.mkdir()
    return made


@pytest.fixture()
def app(folder: Path) -> Iterator[Flask]:
    app = create_app(folder)
    app.config["TESTING"] = True
    yield app


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def report_edges(game: str, table: str | Table | None, strategy: str | None = None) -> dict[str, Fraction]:
    """Each wager's house edge as the report gives it (a session of its own, the published figures compared)."""
    a = Session(game, RunOptions(strategy=strategy)).analyze(table)
    return {w.wager: w.house_edge for w in a.wagers}


@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_page_of_every_game_shows_the_reports_figures(client: FlaskClient, game: str) -> None:
    _, page = open_tab(client, game)
    assert edges(page) == report_edges(game, None)
    table = resolve_table(game)
    for key in (f"pay:{ref}" for ref in changeable(table.model)):
        assert f'name="{key}"' in page  # a field for every pay pays= takes


def test_a_pay_edit_answers_the_edge_the_report_gives(client: FlaskClient) -> None:
    tab, _ = open_tab(client, "punto-banco", "standard")
    body = answered(client, tab, {"pay:tie.win": "9:1", "pay:banker.commission": "5%"})
    assert edges(body["results"]) == report_edges("punto-banco", with_pays(STANDARD, {"tie.win": "9:1"}))
    assert edges(body["results"])["tie"] != report_edges("punto-banco", STANDARD)["tie"]
    assert "us with" not in body["results"] and "standard with tie.win = 9:1" in body["results"]


def test_a_bad_pay_is_refused_naming_its_key_and_the_bench_stays(client: FlaskClient) -> None:
    tab, page = open_tab(client, "punto-banco", "standard")
    r = client.post(f"/api/{tab}/edit", data={"pay:tie.win": "<b>nine</b>"})
    assert r.status_code == 422
    problems = r.get_json()["problems"]
    assert "pays.tie.win" in problems and "&lt;b&gt;nine&lt;/b&gt;" in problems and "<b>" not in problems
    assert edges(answered(client, tab, {})["results"]) == edges(page)  # the last good table still stands


def test_huge_numbers_are_refused_naming_their_key_before_any_arithmetic(client: FlaskClient) -> None:
    tab, page = open_tab(client, "punto-banco", "standard")
    for data, said in (({"pay:tie.win": "9" * 41 + ":1"}, "pays.tie.win: &#39;" + "9" * 41 + ":1&#39; has 42 digits"),
                       ({"pay:tie.win": "1e400:1"}, "pays.tie.win: bad ratio"),
                       ({"rule:decks": "1" + "0" * 30}, "rules.decks: a shoe has 1 to 10,000 decks"),
                       ({"rule:decks": "1e300"}, "rules.decks: must be a whole number")):
        r = client.post(f"/api/{tab}/edit", data=data)
        assert r.status_code == 422 and said in r.get_json()["problems"], (data, r.text)
    r = client.post(f"/api/{tab}/solve", data={"pay": "tie.win", "edge": "1e700"})
    assert r.status_code == 422 and "edge: not a number" in r.get_json()["problems"]
    house, _ = open_tab(client, "house-baccarat")
    for players in ("9" * 40, "9" * 5000):
        r = client.post(f"/api/{house}/hand", data={"players": players, "hand": "As 9d"})
        assert r.status_code == 422 and len(r.get_json()["problems"]) < 200, r.text[:300]
    assert edges(answered(client, tab, {})["results"]) == edges(page)  # and the bench is as it was


def test_tabs_are_isolated(client: FlaskClient) -> None:
    one, page = open_tab(client, "punto-banco", "standard")
    two, _ = open_tab(client, "punto-banco", "standard")
    changed = answered(client, one, {"pay:tie.win": "9:1"})["results"]
    assert edges(changed) != edges(page)
    assert edges(answered(client, two, {})["results"]) == edges(page)
    assert edges(answered(client, one, {"pay:tie.win": "9:1"})["results"]) == edges(changed)


def test_a_rule_that_changes_the_counts_is_counted_in_a_job(client: FlaskClient) -> None:
    tab, _ = open_tab(client, "punto-banco", "standard")
    r = client.post(f"/api/{tab}/edit", data={"rule:decks": "3"})
    assert r.status_code == 200 and "job" in r.get_json()  # three decks: counted, not settled from memory
    body = finished(client, tab, r.get_json())
    six = load_table(Path(STANDARD.path))
    expected = Session("punto-banco").analyze(six, RunOptions(decks=3))
    assert edges(body["results"]) == {w.wager: w.house_edge for w in expected.wagers}
    assert 'value="3"' in body["forms"]
    bad = client.post(f"/api/{tab}/edit", data={"rule:decks": "-1"})
    assert bad.status_code == 422 and "rules.decks" in bad.get_json()["problems"]


def test_a_named_strategy_is_played(client: FlaskClient) -> None:
    tab, _ = open_tab(client, "let-it-ride", "standard")
    body = answered(client, tab, {"strategy": "optimal"})
    assert edges(body["results"]) == report_edges("let-it-ride", "standard", "optimal")
    r = client.post(f"/api/{tab}/edit", data={"strategy": "<nonsense>"})
    assert r.status_code == 422 and "&lt;nonsense&gt;" in r.get_json()["problems"]


def hostile_table(title: str) -> bytes:
    text = STANDARD.path.read_text(encoding="utf-8")
    return text.replace('title = "Punto banco, 8 decks, 5% commission"', f"title = {json.dumps(title)}").encode()


def test_an_uploaded_table_is_validated_and_its_text_escaped(client: FlaskClient) -> None:
    tab, _ = open_tab(client, "punto-banco")
    hostile = "<script>alert('x')</script> & <img src=x onerror=alert(1)>"
    r = client.post(f"/api/{tab}/upload/table",
                    data={"file": (io.BytesIO(hostile_table(hostile)), "<b>mine</b>.toml")})
    assert r.status_code == 200, r.text
    body = r.get_json()
    for html in (body["results"], body["forms"]):
        assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;" in body["results"]
    assert edges(body["results"]) == report_edges("punto-banco", STANDARD)


def test_an_upload_is_refused_when_invalid_or_too_large(client: FlaskClient, folder: Path) -> None:
    tab, _ = open_tab(client, "punto-banco")
    bad = STANDARD.path.read_text(encoding="utf-8").replace('win = "8:1"', 'win = "-8:1"').encode()
    r = client.post(f"/api/{tab}/upload/table", data={"file": (io.BytesIO(bad), "mine.toml")})
    assert r.status_code == 422
    problems = r.get_json()["problems"]
    assert "mine.toml" in problems and "pays.tie.win" in problems and str(folder) not in problems
    other = resolve_table("caribbean", "us").path.read_bytes()
    r = client.post(f"/api/{tab}/upload/table", data={"file": (io.BytesIO(other), "us.toml")})
    assert r.status_code == 422 and "not a &#39;punto-banco&#39; table" in r.get_json()["problems"]
    big = b"# " + b"x" * MAX_TABLE_BYTES + b"\n"  # a byte past the limit of a table file
    r = client.post(f"/api/{tab}/upload/table", data={"file": (io.BytesIO(big), "big.toml")})
    assert r.status_code == 422 and "too large for a table file" in r.get_json()["problems"]
    huge = big * 2  # past what the server reads of a request at all
    r = client.post(f"/api/{tab}/upload/table", data={"file": (io.BytesIO(huge), "huge.toml")})
    assert r.status_code == 413 and "too large" in r.get_json()["problems"]
    r = client.post(f"/api/{tab}/upload/table", data={"file": (io.BytesIO(b"\xff\xfe[[["), "garbage.toml")})
    assert r.status_code == 422 and "not UTF-8" in r.get_json()["problems"]
    r = client.post(f"/api/{tab}/upload/card", data={"file": (io.BytesIO(b"x"), "card.toml")})
    assert r.status_code == 422 and "takes no strategy card" in r.get_json()["problems"]


def test_a_strategy_card_is_uploaded_and_played(client: FlaskClient) -> None:
    root = Path(__file__).resolve().parents[2]
    card = next((root / "cards" / "caribbean").glob("*.toml"))
    tab, _ = open_tab(client, "let-it-ride")
    lir_card = next((root / "cards" / "let-it-ride").glob("*.toml"))
    body = answered(client, tab, {"file": (io.BytesIO(lir_card.read_bytes()), lir_card.name)}, "upload/card")
    assert edges(body["results"]) == report_edges("let-it-ride", None, str(lir_card))
    assert "the card uploaded" in body["forms"]
    r = client.post(f"/api/{tab}/upload/card", data={"file": (io.BytesIO(card.read_bytes()), card.name)})
    assert r.status_code == 422  # a Caribbean card is no Let It Ride card


def test_side_by_side_solve_and_a_hand(client: FlaskClient) -> None:
    tab, _ = open_tab(client, "punto-banco", "standard")
    assert client.post(f"/api/{tab}/variants/add").get_json()["variants"] == 1
    answered(client, tab, {"pay:tie.win": "9:1"})
    compared = client.post(f"/api/{tab}/variants/add").get_json()
    assert compared["variants"] == 2
    assert 'data-section="differences"' in compared["compare"] and "pays.tie.win" in compared["compare"]
    tie = compared["compare"].split('data-section="figures_tie"')[1].split("</section>")[0]
    banker = compared["compare"].split('data-section="figures_banker"')[1].split("</section>")[0]
    assert 'class="differs"' in tie and 'class="differs"' not in banker  # the rows that change, marked
    assert client.post(f"/api/{tab}/variants/clear").get_json()["variants"] == 0
    solved = client.post(f"/api/{tab}/solve", data={"pay": "tie.win", "edge": "5%"}).get_json()["answer"]
    assert "22254431954453/2477226179548" in solved  # as oddscalc.solve's doctest gives it
    bad = client.post(f"/api/{tab}/solve", data={"pay": "tie.win", "edge": "five"})
    assert bad.status_code == 422
    hand = client.post(f"/api/{tab}/hand", data={"removed": "5s 5h Kd"})
    assert hand.status_code == 200 and 'data-column="ev_exact"' in hand.get_json()["answer"]
    assert client.post(f"/api/{tab}/hand", data={"removed": "Zz"}).status_code == 422


def test_downloads(client: FlaskClient, tmp_path: Path) -> None:
    tab, _ = open_tab(client, "punto-banco", "standard")
    shown = edges(answered(client, tab, {"pay:tie.win": "9:1"})["results"])
    r = client.get(f"/download/{tab}/toml")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    path = tmp_path / "downloaded" / "mine.toml"
    path.parent.mkdir()
    path.write_bytes(r.data)
    assert "# Made by the oddscalc workbench" in r.text and "# D = the banker draws" in r.text  # comments kept
    assert "[published" not in r.text
    assert report_edges("punto-banco", load_table(path)) == shown
    data = json.loads(client.get(f"/download/{tab}/json").data)
    assert {w["wager"]: Fraction(w["house_edge"]) for w in data["wagers"]} == shown
    assert client.get(f"/download/{tab}/md").text.startswith("# ")
    assert client.get(f"/download/{tab}/csv").status_code == 200
    assert client.get(f"/download/{tab}/pdf").data[:5] == b"%PDF-"
    assert client.get(f"/download/{tab}/xlsx").data[:2] == b"PK"
    assert "<svg" in client.get(f"/download/{tab}/html").text
    assert client.get(f"/download/{tab}/exe").status_code == 422


def test_unknown_tabs_and_jobs(client: FlaskClient) -> None:
    assert client.post("/api/nosuchtab/edit", data={}).status_code == 404
    tab, _ = open_tab(client, "punto-banco")
    assert client.get(f"/api/{tab}/job/nosuchjob").status_code == 404
    assert client.get("/", query_string={"game": "baccarat"}).status_code == 422
    assert client.get("/", query_string={"game": "punto-banco", "table": "../../etc/passwd"}).status_code == 422


def test_a_job_says_the_share_its_count_reports_and_none_where_it_reports_none(app: Flask,
                                                                                client: FlaskClient) -> None:
    wb = workbench_of(app)
    tab, _ = open_tab(client, "punto-banco")
    bench = wb.bench(tab)
    stepped, go = threading.Event(), threading.Event()

    def counting(steps: tuple[tuple[int, int], ...]) -> dict[str, str]:
        progress = Progress(False, "a count")  # as a game's count makes one: printing nothing
        for done, total in steps:
            progress.step(done, total)
        stepped.set()
        assert go.wait(30)
        return {"results": "counted"}

    for steps, percent in ((((0, 8), (3, 8)), 37), ((), None)):
        stepped.clear()
        go.clear()
        job = wb.start(bench, functools.partial(counting, steps))
        assert stepped.wait(30)
        running = client.get(f"/api/{tab}/job/{job}").get_json()
        assert running["done"] is False and running["percent"] == percent and running["elapsed"] >= 0
        go.set()
        assert finished(client, tab, {"job": job})["results"] == "counted"
    Progress(False, "outside a job").step(1, 2)  # a step outside any job is heard by none (and fails nothing)


def test_a_job_is_read_only_by_its_own_tab(client: FlaskClient) -> None:
    one, _ = open_tab(client, "punto-banco")
    two, _ = open_tab(client, "punto-banco")
    job = client.post(f"/api/{one}/edit", data={"rule:decks": "5"}).get_json()["job"]
    assert client.get(f"/api/{two}/job/{job}").status_code == 404
    answered(client, one, {"rule:decks": "5"})


# (the store of counts is the command line's own cache, outside tmp_path here: the server writes there as report does)
def test_nothing_is_written_outside_the_servers_folder(client: FlaskClient, folder: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    before = {p for p in tmp_path.rglob("*") if not p.is_relative_to(folder)}
    tab, _ = open_tab(client, "punto-banco", "standard")
    answered(client, tab, {"rule:decks": "7", "pay:tie.win": "9:1"})
    client.post(f"/api/{tab}/upload/table", data={"file": (io.BytesIO(hostile_table("x")), "../../escape.toml")})
    for fmt in ("toml", "md", "json", "pdf"):
        assert client.get(f"/download/{tab}/{fmt}").status_code == 200
    after = {p for p in tmp_path.rglob("*") if not p.is_relative_to(folder)}
    assert after == before and not any(work.iterdir())
    assert all(p.parent == folder for p in folder.rglob("*"))  # flat: named by content, never by a user's name


def test_serve_check_and_bad_options() -> None:
    runner = CliRunner()
    ok = runner.invoke(main, ["serve", "--check", "--port", "0"])
    assert ok.exit_code == 0 and "oddscalc workbench: ok" in ok.output
    bad = runner.invoke(main, ["serve", "--check", "--host", "example.com"])
    assert bad.exit_code == 4 and "--host" in bad.output


def test_the_counts_held_are_bounded_least_recently_used_first() -> None:
    held = Held(most_bytes=2_500)
    made: list[str] = []

    def count(name: str) -> np.ndarray:
        made.append(name)
        return np.zeros(1_000, dtype=np.int8)  # 1,000 bytes: two fit, not three

    assert size_of(count("probe")) == 1_000 and size_of({"x": [count("probe")] * 2}) > 1_000
    for name in ("a", "b"):
        held.get((name, "k"), functools.partial(count, name))
    assert held.get(("a", "k"), lambda: count("again")) is not None and made[-1] == "b"  # a held: not made again
    held.get(("c", "k"), lambda: count("c"))
    assert ("b", "k") not in held and ("a", "k") in held and ("c", "k") in held  # b, used least recently, went
    assert held.dropped == 1 and held.bytes() == 2_000
    big = Held(most_bytes=10)
    big.get(("x", "k"), lambda: count("x"))
    assert ("x", "k") in big and len(big) == 1  # the count asked for is kept, however large
    with pytest.raises(ValueError):
        Held(most_bytes=0)


def test_a_count_dropped_from_memory_gives_the_same_exact_figures_when_asked_again(folder: Path) -> None:
    app = create_app(folder, most_mb=1)  # under one Caribbean count: each new count drops the one before
    client = app.test_client()
    held = workbench_of(app).held
    tab, page = open_tab(client, "caribbean", "us")
    assert len(held) == 1 and held.dropped == 0
    assert "at most 1 MB" in page
    open_tab(client, "let-it-ride", "standard")
    assert len(held) == 1 and held.dropped == 1  # the Caribbean count dropped
    again = client.post(f"/api/{tab}/edit", data={})
    assert "job" in again.get_json()  # no longer in memory: read back from the store in a job
    body = finished(client, tab, again.get_json())
    assert edges(body["results"]) == edges(page) == report_edges("caribbean", "us")
    assert held.dropped == 2  # and Let It Ride's dropped in turn


def test_serve_states_its_memory_bound() -> None:
    import oddscalc.cli.serve as serve

    assert serve.MOST_MB == MOST_MB
    shown = CliRunner().invoke(main, ["serve", "--help"])
    assert "--memory MB" in shown.output and f"[default: {MOST_MB}" in shown.output
    page = create_app().test_client().get("/", query_string={"game": "punto-banco"}).text
    assert f"at most {MOST_MB} MB, the least recently used dropped first" in page


def test_a_table_with_pays_is_kept_by_its_files_digest_and_pays() -> None:
    nine = paid(STANDARD, {"tie.win": "9:1"})
    assert paid(STANDARD, {"tie.win": "9:1"}) is nine  # asked again: kept, not read and validated again
    assert nine.model == with_pays(STANDARD, {"tie.win": "9:1"}).model != STANDARD.model
    assert paid(STANDARD, {"tie.win": "7:1"}).model == with_pays(STANDARD, {"tie.win": "7:1"}).model != nine.model
    for _ in range(2):  # a refused edit is refused each time, never kept
        with pytest.raises(TableError, match="pays.tie.win"):
            paid(STANDARD, {"tie.win": "-9:1"})
