"""The workbench in a real browser: headless Chromium (Debian's ``chromium``) driven by Selenium through
``chromedriver``, against the real server on a free port. A user's session: load the page, change a pay and see
the edge change to the exact figure the command line gives for the same table, ask what a hand is worth by
clicking its cards, download the table and validate it.

CI installs Chromium and sets CI (``.ci/run``): there a missing browser fails the test instead of skipping it.
A screenshot of each step is left in the test's folder (``ODDSCALC_SCREENSHOTS=DIR`` keeps them there).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from oddscalc.cli.main import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif((CHROMIUM is None or DRIVER is None) and not os.environ.get("CI"),
                                    reason="Chromium and chromedriver are not installed; CI installs them")


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[str]:
    from oddscalc.web.app import create_app
    from oddscalc.web.app import server as serving

    folder = tmp_path / "server"
    folder.mkdir()
    httpd = serving(create_app(folder), "127.0.0.1", 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture()
def browser(tmp_path: Path) -> Iterator[Any]:
    assert CHROMIUM is not None and DRIVER is not None, "apt-get install chromium chromium-driver"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                "--disable-gpu"):
        options.add_argument(arg)
    options.binary_location = CHROMIUM
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.downloads = downloads  # type: ignore[attr-defined]
    try:
        yield driver
    finally:
        driver.quit()


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
