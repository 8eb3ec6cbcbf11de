"""A terminal whose encoding cannot show a character (an ISO-8859-1 locale and a euro sign in a table's title or
file name) prints it escaped, never a traceback; a file written with -o is UTF-8 whatever the locale (issue 41)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _oddscalc(*args: str) -> subprocess.CompletedProcess[bytes]:
    # what an ISO-8859-1 locale gives Python's standard streams, whether or not the machine has such a locale
    env = {**os.environ, "PYTHONIOENCODING": "latin-1", "PYTHONUTF8": "0"}
    return subprocess.run([sys.executable, "-m", "oddscalc", *args], capture_output=True, env=env, timeout=300,
                          check=False)


def test_a_euro_sign_on_a_latin1_terminal_is_escaped_and_a_file_stays_utf8(tmp_path: Path) -> None:
    text = (ROOT / "tables" / "punto-banco" / "standard.toml").read_text()
    assert '\ntitle = "Punto banco, 8 decks' in text
    table = tmp_path / "punto-banco" / "€.toml"
    table.parent.mkdir()
    table.write_text(text.replace('\ntitle = "', '\ntitle = "€ ', 1))
    bad = table.with_name("bad €.toml")
    bad.write_text("decks = \n")
    # the title on standard output, the file's error on standard error: each euro sign escaped
    r = _oddscalc("validate", str(table), str(bad))
    assert r.returncode == 3 and b"Traceback" not in r.stderr, r.stderr.decode("latin-1")
    assert b"\\u20ac.toml: ok (punto-banco, \\u20ac Punto banco, 8 decks" in r.stdout
    assert b"bad \\u20ac.toml:1: not valid TOML" in r.stderr
    out = tmp_path / "report.md"
    r = _oddscalc("report", "punto-banco", "--table", str(table), "-o", str(out))
    assert r.returncode == 0, r.stderr.decode("latin-1")
    assert out.read_bytes().startswith("# € Punto banco, 8 decks".encode())  # UTF-8, the locale notwithstanding
