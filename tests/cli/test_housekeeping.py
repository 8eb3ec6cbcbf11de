"""oddscalc cache (issue 42): where the stores are and what they hold, and --clear removing them, in a folder of the
test's own (ODDSCALC_CACHE_DIR); never a file that is not the stores', wherever it is."""

from __future__ import annotations

import hashlib
import os
import re
import time
from pathlib import Path

import numpy as np
import platformdirs
import pytest
from click.testing import CliRunner, Result

from oddscalc import replay
from oddscalc.cache import STALE_SECONDS, Store
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT


def run(args: list[str], code: int = 0) -> Result:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == code, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def digests(root: Path) -> dict[str, str]:
    """Every file under ``root`` (links as links) and its sha256."""
    out = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            p = Path(dirpath) / name
            out[str(p.relative_to(root))] = ("link:" + os.readlink(p)) if p.is_symlink() else \
                hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture
def stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stores' folder with two entries of counts and a report, written by the stores' own code, beside files that
    are not theirs: some in the folder, one outside it that a link in the folder names like an entry."""
    base = tmp_path / "store"
    monkeypatch.setenv("ODDSCALC_CACHE_DIR", str(base))
    monkeypatch.delenv("ODDSCALC_NO_CACHE", raising=False)
    monkeypatch.delenv("ODDSCALC_NO_REPLAY", raising=False)
    store = Store.default()
    store.store({"game": "test", "n": 1}, {"a": np.arange(1000)})
    store.store({"game": "test", "n": 2}, {"b": np.arange(10, dtype=np.int8)})
    replay.keep("0123456789abcdef0123456789abcdef01234567", "# a report\n")
    (base / "notes.txt").write_text("mine")
    (base / "reports" / "mine.txt").write_text("mine too")
    (base / ("f" * 32 + ".counts.keep")).write_text("not an entry")
    (base / ("e" * 40 + ".txt")).write_text("an entry's name, another's bytes: a counts folder is no reports folder")
    (base / ("d" * 32 + "-old.counts")).write_text("a digest's name without the store's first bytes")
    (base / "sub").mkdir()
    (base / "sub" / ("a" * 32 + ".counts")).write_bytes(b"oddscalc-counts\n")  # in a folder that is no store's
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.counts").write_bytes(b"oddscalc-counts\nsomeone's")
    (base / ("b" * 32 + ".counts")).symlink_to(outside / "precious.counts")
    return base


def test_cache_shows_each_store_its_folder_and_size(stores: Path) -> None:
    counts = [p for p in stores.iterdir() if re.fullmatch(r"[0-9a-f]{32}\.counts", p.name) and not p.is_symlink()]
    report = stores / "reports" / "0123456789abcdef0123456789abcdef01234567.txt"
    assert len(counts) == 2 and report.is_file()
    said = run(["cache"]).output
    assert said.splitlines()[0] == f"The stores' folder: {stores} (set by ODDSCALC_CACHE_DIR)"
    size = sum(p.stat().st_size for p in counts)
    assert f"  counts: 2 files, {size / 1000:.1f} kB in {stores} (" in said
    assert f"  reports: 1 file, {report.stat().st_size} bytes in {stores / 'reports'} (" in said
    assert f"In all 3 files, {(size + report.stat().st_size) / 1000:.1f} kB" in said
    # notes.txt, reports/mine.txt, the .keep, the e*40.txt, the d*32-old.counts, sub/ and the link
    assert "Not the stores' and never removed: 7 files or folders" in said
    assert all(p.is_file() for p in [*counts, report])  # showing removes nothing


def test_clear_removes_the_stores_files_and_nothing_else(stores: Path, tmp_path: Path) -> None:
    stale = stores / f".{'c' * 32}.counts.k2j4_x.tmp"  # a killed writer's
    stale.write_bytes(b"half")
    os.utime(stale, (time.time() - STALE_SECONDS - 60,) * 2)
    busy = stores / f".{'9' * 32}.counts.ab12cd.tmp"  # a write under way
    busy.write_bytes(b"being written")
    earlier = stores / "reports" / ("1" * 40 + "-warnings.txt")  # an earlier version's report, with its bytes
    earlier.write_bytes(replay.MAGIC + b"0" * 64 + b"\nwarning: ...\n")
    before = digests(tmp_path)
    theirs = {"store/" + name for name in ("notes.txt", "reports/mine.txt", "f" * 32 + ".counts.keep",
                                           "e" * 40 + ".txt", "d" * 32 + "-old.counts", "sub/" + "a" * 32 + ".counts",
                                           "b" * 32 + ".counts", f".{'9' * 32}.counts.ab12cd.tmp")}
    said = run(["cache", "--clear"]).output
    after = digests(tmp_path)
    assert {k: v for k, v in before.items() if k in after} == after  # nothing left was changed
    removed = set(before) - set(after)
    assert removed == {k for k in before if k.startswith("store/") and k not in theirs}
    assert len(removed) == 5  # two entries, the stale temporary file, the report and the earlier version's
    assert "outside/precious.counts" in after and (stores / ("b" * 32 + ".counts")).is_symlink()
    assert "  counts: removed 3 files (" in said and "  reports: removed 2 files (" in said
    assert "  counts: 1 file being written now by a run under way, left" in said
    assert run(["cache", "--clear"]).output.count("removed 0 files") == 2
    assert "Nothing to remove: the stores are empty." in run(["cache", "--clear"]).output
    assert digests(tmp_path) == after


def test_a_reports_folder_that_is_a_link_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base, elsewhere = tmp_path / "store", tmp_path / "elsewhere"
    base.mkdir()
    elsewhere.mkdir()
    kept = elsewhere / ("0" * 40 + ".txt")
    kept.write_bytes(replay.MAGIC + b"x\n")
    (base / "reports").symlink_to(elsewhere)
    monkeypatch.setenv("ODDSCALC_CACHE_DIR", str(base))
    said = run(["cache", "--clear"]).output
    assert kept.read_bytes() == replay.MAGIC + b"x\n" and (base / "reports").is_symlink()
    assert f"reports: {base / 'reports'} is a symbolic link, left alone" in said


def test_the_default_folder_is_the_platforms_and_a_missing_one_is_not_made(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ODDSCALC_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # where platformdirs puts it on Linux and BSD
    folder = Path(platformdirs.user_cache_dir("oddscalc"))
    said = run(["cache"]).output
    assert said.startswith(f"The stores' folder: {folder} (the platform's user cache folder; ODDSCALC_CACHE_DIR "
                           "names another)\n")
    assert "In all 0 files, 0 bytes" in said and not folder.exists()
    assert "Nothing to remove" in run(["cache", "--clear"]).output and not folder.exists()


def test_a_stores_folder_that_is_a_file_or_cannot_be_cleared_fails_in_one_line(
        stores: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ODDSCALC_CACHE_DIR", str(stores / "notes.txt"))
    r = run(["cache"], EXIT_INPUT)
    assert r.output == f"oddscalc: the stores' folder {stores / 'notes.txt'} (set by ODDSCALC_CACHE_DIR): " \
                       f"{stores / 'notes.txt'}: not a folder\n"
    monkeypatch.setenv("ODDSCALC_CACHE_DIR", str(stores))
    real = Path.unlink

    def refused(self: Path, missing_ok: bool = False) -> None:
        if self.suffix == ".txt":
            raise PermissionError(13, "Permission denied")
        real(self, missing_ok)

    monkeypatch.setattr(Path, "unlink", refused)
    r = run(["cache", "--clear"], EXIT_INPUT)
    report = stores / "reports" / "0123456789abcdef0123456789abcdef01234567.txt"
    assert r.output.splitlines()[-1] == f"oddscalc: could not remove 1 file of the stores (first {report}: " \
                                        "Permission denied)"
    # the counts went all the same: what is left of *.counts is no entry (a link, another's file)
    assert sorted(p.name for p in stores.glob("*.counts")) == ["b" * 32 + ".counts", "d" * 32 + "-old.counts"]
