"""The workbench in a real browser: headless Chromium (Debian's ``chromium``) driven by Selenium through
``chromedriver``, against the real server on a free port. A user's session: load the page, change a pay and see
the edge change to the exact figure the command line gives for the same table, ask what a hand is worth by
clicking its cards, download the table and validate it; change a rule that changes the counts (progress shown,
then the command line's figure for that rule); upload a table file (a valid one answered, hostile ones refused or
escaped); keep variants side by side (what ``oddscalc compare`` prints); two tabs at once, each its own answer.

Every expected figure comes from the command line run here on a table file the test writes itself (by text, from
the shipped file), never from the workbench's code.

CI installs Chromium and sets CI (``.ci/run``): there a missing browser fails the test instead of skipping it.
A screenshot of each step is left in the test's folder (``ODDSCALC_SCREENSHOTS=DIR`` keeps them there).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from oddscalc.catalog import resolve_table
from oddscalc.cli.main import main
from oddscalc.tables import without_figures
from oddscalc.web.bench import Workbench

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif((CHROMIUM is None or DRIVER is None) and not os.environ.get("CI"),
                                    reason="Chromium and chromedriver are not installed; CI installs them")


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, Workbench]]:
    """The real server on a free port, and its state."""
    from oddscalc.web.app import create_app, workbench_of
    from oddscalc.web.app import server as serving

    folder = tmp_path / "server"
    folder.mkdir()
    app = create_app(folder)
    httpd = serving(app, "127.0.0.1", 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}", workbench_of(app)
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture()
def server(served: tuple[str, Workbench]) -> str:
    return served[0]


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One headless Chromium for the module's tests (each start costs 0.8 s of CPU): every test has a download
    folder of its own and leaves one tab on a blank page (each test's server has a port, so an origin, of its own;
    the workbench keeps nothing in the browser)."""
    assert CHROMIUM is not None and DRIVER is not None, "apt-get install chromium chromium-driver"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                "--disable-gpu"):
        options.add_argument(arg)
    options.binary_location = CHROMIUM
    options.add_experimental_option("prefs", {"download.default_directory": str(tmp_path_factory.mktemp("dl")),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture()
def browser(chromium: Any, tmp_path: Path) -> Iterator[Any]:
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    # where this test's downloads land, in every tab it opens
    chromium.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    chromium.downloads = downloads
    try:
        yield chromium
    finally:
        first, *others = chromium.window_handles
        for handle in others:  # the tabs the test opened, closed
            chromium.switch_to.window(handle)
            chromium.close()
        chromium.switch_to.window(first)
        chromium.get("about:blank")


def wait(what: Callable[[], Any], seconds: float = 60) -> Any:
    """``what()`` once it is truthy (an assertion error after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            got = what()
        except Exception:  # the element not there yet, or being replaced
            got = None
        if got:
            return got
        assert time.monotonic() < deadline, f"waited {seconds} s in vain"
        time.sleep(0.05)


def shot(driver: Any, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("ODDSCALC_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(folder / f"{name}.png"))


def cli_json(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def cli_edges(game: str, table: Path | str) -> dict[str, Fraction]:
    """Each wager's exact house edge as ``oddscalc report --format json`` gives it."""
    report = cli_json("report", game, "--table", str(table), "--format", "json")
    return {w["wager"]: Fraction(w["house_edge"]) for w in report["wagers"]}


def page_edges(driver: Any) -> dict[str, Fraction]:
    """Each wager's exact house edge as the page shows it (its ``data-exact``)."""
    from selenium.webdriver.common.by import By

    rows = driver.find_elements(By.CSS_SELECTOR, "#figures tr[data-wager]")
    return {r.get_attribute("data-wager"): Fraction(r.find_element(By.CSS_SELECTOR, "td[data-figure=house_edge]")
                                                    .get_attribute("data-exact")) for r in rows}


def made_table(tmp_path: Path, game: str, ident: str, name: str, *changes: tuple[str, str]) -> Path:
    """A table file written here from a shipped one's text, each (old, new) replaced once, without its published
    figures (they describe the shipped file)."""
    text = resolve_table(game, ident).path.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "made" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(without_figures(text), encoding="utf-8")
    return path


def watch_status(driver: Any) -> None:
    """Every text the status line shows from now on, kept in the page (read by :func:`seen_status`)."""
    driver.execute_script("""
        window.seenStatus = [];
        const s = document.getElementById("status");
        new MutationObserver(() => window.seenStatus.push(s.textContent))
            .observe(s, {childList: true, characterData: true, subtree: true});""")


def seen_status(driver: Any) -> list[str]:
    seen: list[str] = driver.execute_script("return window.seenStatus;")
    return seen


def type_into(driver: Any, name: str, value: str) -> None:
    from selenium.webdriver.common.by import By

    field = driver.find_element(By.NAME, name)
    field.clear()
    field.send_keys(value)


@needs_chromium
def test_a_user_edits_a_pay_asks_a_hand_and_downloads_the_table(server: str, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    def edge() -> Fraction:
        cell = browser.find_element(By.CSS_SELECTOR, "tr[data-wager=main] td[data-figure=house_edge]")
        return Fraction(cell.get_attribute("data-exact"))

    browser.get(f"{server}/?game=let-it-ride&table=standard")
    before = wait(edge)
    report = cli_json("report", "let-it-ride", "--table", "standard", "--format", "json")
    assert before == Fraction(report["wagers"][0]["house_edge"])
    shot(browser, tmp_path, "1-loaded")

    flush = browser.find_element(By.NAME, "pay:main.flush")
    assert flush.get_attribute("value") == "8:1"
    flush.clear()
    flush.send_keys("9:1")
    after = wait(lambda: edge() != before and edge())
    assert wait(lambda: browser.find_element(By.ID, "status").text.startswith("Answered in"))
    assert "standard with main.flush = 9:1" in browser.find_element(By.ID, "results").text
    shot(browser, tmp_path, "2-pay-edited")

    flush.send_keys("x")  # 9:1x: refused, and the figures kept from 9:1 are dimmed until the pay reads again
    assert wait(lambda: "main.flush" in browser.find_element(By.ID, "problems").text)
    assert "stale" in browser.find_element(By.ID, "results").get_attribute("class")
    shot(browser, tmp_path, "3-refused")
    flush.send_keys("\b")
    assert wait(lambda: "stale" not in browser.find_element(By.ID, "results").get_attribute("class"))
    assert edge() == after

    browser.find_element(By.CSS_SELECTOR, "a.download[data-format=toml]").click()
    downloads: Path = browser.downloads
    table = wait(lambda: next((p for p in downloads.glob("*.toml")), None))
    validated = CliRunner().invoke(main, ["validate", str(table)])
    assert validated.exit_code == 0, validated.output
    mine = cli_json("report", "let-it-ride", "--table", str(table), "--format", "json")
    assert after == Fraction(mine["wagers"][0]["house_edge"])  # the exact figure the command line gives

    browser.find_element(By.NAME, "hand").click()
    for card in ("As", "Ks", "Qs"):
        browser.find_element(By.CSS_SELECTOR, f"button.card[data-card={card}]").click()
    assert browser.find_element(By.NAME, "hand").get_attribute("value") == "As Ks Qs"
    browser.find_element(By.ID, "hand-button").click()
    cells = wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#hand-answer td[data-column=ev_exact]"))
    shot(browser, tmp_path, "4-hand")
    ev = cli_json("ev", "let-it-ride", "--table", str(table), "--hand", "As Ks Qs", "--format", "json")
    expected = [row["ev_exact"] for section in ev["sections"].values() for row in section["rows"]
                if "ev_exact" in row]
    assert [c.text for c in cells] == expected


@needs_chromium
def test_a_rule_that_changes_the_counts_shows_progress_then_the_command_lines_figure(
        server: str, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{server}/?game=punto-banco&table=standard")
    before = wait(lambda: page_edges(browser))
    watch_status(browser)
    decks = browser.find_element(By.NAME, "rule:decks")
    decks.clear()
    decks.send_keys("3")
    decks.send_keys("\t")  # a rule is sent when its field is left (a change event), not on every key
    three = cli_edges("punto-banco", made_table(tmp_path, "punto-banco", "standard", "three.toml",
                                                ("decks = 8", "decks = 3")))
    assert three != before
    wait(lambda: page_edges(browser) == three)
    assert wait(lambda: browser.find_element(By.ID, "status").text.startswith("Counted and answered"))
    seen = seen_status(browser)
    assert any(text.startswith("Counting") for text in seen), seen  # the page said it was counting
    # a punto banco count reports no share: the page says only how long it has taken, if it took a second
    assert not any("%" in text for text in seen if text.startswith("Counting")), seen
    assert browser.find_element(By.NAME, "rule:decks").get_attribute("value") == "3"
    # the header no longer names the shipped table; the memory line counts the new count
    assert browser.find_element(By.ID, "table").get_attribute("value") == ""
    assert browser.find_element(By.ID, "memory").text.startswith("counts held in memory: 2, under 1 MB")
    shot(browser, tmp_path, "rule-counted")


HOSTILE_TITLE = "<script>document.title='pwned'</script> \u202e%5.0 & <img src=x onerror=\"document.title='pwned'\">"


@needs_chromium
def test_an_uploaded_table_is_answered_and_hostile_ones_are_refused_or_escaped(
        server: str, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{server}/?game=punto-banco&table=standard")
    standard = wait(lambda: page_edges(browser))
    upload = browser.find_element(By.ID, "upload-table")
    status = browser.find_element(By.ID, "status")

    mine = made_table(tmp_path, "punto-banco", "standard", "mine.toml", ('win = "8:1"', 'win = "9:1"'))
    upload.send_keys(str(mine))
    assert wait(lambda: status.text == "Taken: mine.toml.")
    assert page_edges(browser) == cli_edges("punto-banco", mine) != standard
    assert browser.find_element(By.ID, "table").get_attribute("value") == ""  # no longer "standard"
    answered = page_edges(browser)

    def refused(name: str, text: str | bytes, *said: str) -> str:
        path = tmp_path / "hostile" / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        browser.find_element(By.ID, "upload-table").send_keys(str(path))
        problems = wait(lambda: status.text.startswith(f"Not taken: {name}: ")
                        and browser.find_element(By.ID, "problems").text)
        for words in said:
            assert words in problems, (words, problems)
        assert str(tmp_path) not in problems  # the server's folder is never named
        assert "stale" in browser.find_element(By.ID, "results").get_attribute("class")
        assert page_edges(browser) == answered  # the last good table stands, dimmed
        return str(problems)

    shipped = resolve_table("punto-banco", "standard").path.read_text(encoding="utf-8")
    refused("bad.toml", 'game = "punto-banco"\ntitle = "x"\n[rules\n', "bad.toml:3", "not valid TOML")
    refused("unknown.toml", shipped.replace("decks = 8", 'decks = 8\ncolour = "red"', 1),
            "unknown.toml:10", "rules.colour", "unknown key")
    shot(browser, tmp_path, "upload-refused")  # the error a user sees: file, line and key
    refused("negative.toml", shipped.replace('win = "8:1"', 'win = "-8:1"', 1), "negative.toml", "pays.tie.win")
    refused("big.toml", b"# " + b"x" * (1 << 20) + b"\n", "too large")
    refused("huge.toml", b"# " + b"x" * (3 << 20) + b"\n", "too large")

    hostile = made_table(tmp_path, "punto-banco", "standard", "hostile.toml",
                         ('title = "Punto banco, 8 decks, 5% commission"', f"title = {json.dumps(HOSTILE_TITLE)}"))
    upload.send_keys(str(hostile))
    assert wait(lambda: status.text == "Taken: hostile.toml.")
    results = browser.find_element(By.ID, "results")
    assert browser.title != "pwned" and not browser.find_elements(By.CSS_SELECTOR, "#results script, #results img")
    assert "<script>document.title='pwned'</script>" in results.text  # shown as the text it is
    assert "\u202e" not in results.text and "\ufffd%5.0" in results.text  # a bidi override shown as U+FFFD
    assert page_edges(browser) == cli_edges("punto-banco", hostile)


@needs_chromium
def test_side_by_side_highlights_the_differences_oddscalc_compare_prints(
        server: str, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{server}/?game=punto-banco&table=standard")
    before = wait(lambda: page_edges(browser))
    browser.find_element(By.ID, "add-variant").click()
    assert wait(lambda: browser.find_element(By.ID, "variant-count").text == "1 kept")
    type_into(browser, "pay:tie.win", "9:1")
    wait(lambda: page_edges(browser) != before)
    browser.find_element(By.ID, "add-variant").click()
    assert wait(lambda: browser.find_element(By.ID, "variant-count").text == "2 kept")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#compare section[data-section=figures_tie]"))
    shot(browser, tmp_path, "side-by-side")  # the comparison scrolled into view

    nine = made_table(tmp_path, "punto-banco", "standard", "nine.toml", ('win = "8:1"', 'win = "9:1"'))
    printed = cli_json("compare", "punto-banco", "standard", str(nine), "--format", "json")["sections"]
    shown = {s.get_attribute("data-section"): s
             for s in browser.find_elements(By.CSS_SELECTOR, "#compare section[data-section]")}
    compared = [k for k in printed if k.startswith(("differences", "figures_", "stakes_", "changed_rows_"))]
    assert "differences" in compared and "figures_tie" in compared
    for key in compared:  # every cell the page shows is the exact value compare prints
        rows = shown[key].find_elements(By.CSS_SELECTOR, "tr:has(td)")
        assert len(rows) == len(printed[key]["rows"]), key
        for row, expected in zip(rows, printed[key]["rows"]):
            cells = row.find_elements(By.CSS_SELECTOR, "td[data-column]")
            assert {c.get_attribute("data-column"): json.loads(c.get_attribute("data-exact")) for c in cells} \
                == expected, key
    assert printed["differences"]["rows"] == [{"key": "pays.tie.win", "A": "8:1", "B": "9:1"}]
    # the differences marked: the section, and the tie's rows that change; nothing of the banker's
    assert "highlight" in shown["differences"].get_attribute("class")
    assert shown["figures_tie"].find_elements(By.CSS_SELECTOR, "tr.differs")
    assert not shown["figures_banker"].find_elements(By.CSS_SELECTOR, "tr.differs")


@needs_chromium
def test_two_tabs_at_once_each_get_their_own_answer(server: str, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{server}/?game=punto-banco&table=standard")
    standard = wait(lambda: page_edges(browser))
    one = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(f"{server}/?game=punto-banco&table=standard")
    wait(lambda: page_edges(browser))
    two = browser.current_window_handle
    # both typed before either is read: the server answers each tab from its own bench
    browser.switch_to.window(one)
    type_into(browser, "pay:tie.win", "9:1")
    browser.switch_to.window(two)
    type_into(browser, "pay:tie.win", "7:1")
    seven = cli_edges("punto-banco", made_table(tmp_path, "punto-banco", "standard", "seven.toml",
                                                ('win = "8:1"', 'win = "7:1"')))
    nine = cli_edges("punto-banco", made_table(tmp_path, "punto-banco", "standard", "nine.toml",
                                               ('win = "8:1"', 'win = "9:1"')))
    assert len({frozenset(x.items()) for x in (standard, seven, nine)}) == 3
    assert wait(lambda: page_edges(browser) == seven)
    assert browser.find_element(By.NAME, "pay:tie.win").get_attribute("value") == "7:1"
    browser.switch_to.window(one)
    assert wait(lambda: page_edges(browser) == nine)
    assert browser.find_element(By.NAME, "pay:tie.win").get_attribute("value") == "9:1"
    browser.find_element(By.CSS_SELECTOR, "a.download[data-format=toml]").click()  # each tab downloads its own
    downloads: Path = browser.downloads
    table = wait(lambda: next((p for p in downloads.glob("*.toml")), None))
    assert cli_edges("punto-banco", table) == nine


@pytest.mark.deep
@needs_chromium
def test_a_caribbean_recount_shows_its_share_done(served: tuple[str, Workbench], browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    server, wb = served
    browser.get(f"{server}/?game=caribbean&table=us")
    before = wait(lambda: page_edges(browser))
    wb.store.read = wb.store.write = False  # the new qualifier's dealer hands counted here, not read: ~10 s
    watch_status(browser)
    field = browser.find_element(By.NAME, "rule:dealer_qualifier")
    field.clear()
    field.send_keys('"pair of fours"\t')
    fours = cli_edges("caribbean", made_table(tmp_path, "caribbean", "us", "fours.toml",
                                              ('dealer_qualifier = "ace-king"', 'dealer_qualifier = "pair of fours"')))
    assert fours != before
    wait(lambda: page_edges(browser) == fours, 600)
    shares = [int(m[1]) for text in seen_status(browser) if (m := re.match(r"Counting: (\d+)% done", text))]
    assert shares and shares == sorted(shares) and shares[-1] > 0, seen_status(browser)
