"""What the workbench holds: one :class:`Bench` per browser tab, the server's folder, and the sessions whose counts
every tab shares.

A tab's answer depends on its own bench alone (its game, table, pays and strategy): two tabs never see each
other's edits. The counts are shared: they carry no pays and never change once counted, so a second tab on the same
rules settles from the first tab's counts (one :class:`~oddscalc.analysis.Session` per game, held for the server's
life).

A pay edit is answered from the counts held in memory: the table with the new pays (:func:`with_pays`, validated as
its file would be), then the game's own settlement, which chooses the best decisions again for the new pays. So the
figures are those of ``oddscalc report`` for the same table, exactly, whatever the edit does to the optimal strategy;
the settlement is cheap, and the report's sections only a reader needs (``brief``) are left for a download.
A rule that changes the counts is counted through the store, in a :class:`Job` the page polls; the job tells its
share done where the count reports one (:func:`~oddscalc.progress.listening`).

Every file the server makes of what a user gives (an upload, a table with its rules edited) is written in its own
folder, named by its content; nothing is written anywhere else (the count store is the command line's own cache).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.catalog import load_table, resolve_table, with_pays
from oddscalc.datafile import MAX_TABLE_BYTES, Problem, TableError
from oddscalc.games import DEFAULT_TABLES, GAME_KEYS
from oddscalc.progress import listening
from oddscalc.protocol import OptionError, Rules
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import Table

MOST_TABS = 64  # benches held at once; the oldest unused goes first (a tab reloaded gets a new one)


@dataclass
class Bench:
    """One tab's work: a game, a table file (shipped, uploaded or with its rules edited), the pays typed over it,
    and the strategy (a named one, or an uploaded card's path)."""

    game: str
    base: Table
    pays: dict[str, str] = field(default_factory=dict)
    strategy: str | None = None
    origin: str = ""  # what the table is, for the page: a shipped id, an upload's name, "... with its rules changed"
    card: bool = False  # ``strategy`` is an uploaded card's path
    variants: list[tuple[str, Table]] = field(default_factory=list)  # side by side: (label, table) as kept
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self.origin = self.origin or self.base.id

    def table(self) -> Table:
        """The table on screen: the file's, with the pays typed over it (validated as the file would be)."""
        return with_pays(self.base, self.pays)

    def options(self, brief: bool = True) -> RunOptions:
        """The run options of this bench's analyses."""
        return RunOptions(strategy=self.strategy, brief=brief)


@dataclass
class Job:
    """Counting in the background for a rule that changes the counts: the page polls it for progress."""

    bench: int  # the id() of the bench it works for: a tab reads only its own jobs
    started: float
    done: bool = False
    error: str | None = None
    result: Any = None
    share: tuple[int, int] | None = None  # (done, total) as the count last reported it; None: it reports none

    def percent(self) -> int | None:
        """The share done in whole percent, where the count reports one."""
        if self.share is None:
            return None
        done, total = self.share
        return 100 * done // max(total, 1)

    def elapsed(self) -> float:
        """Seconds since it started."""
        return time.monotonic() - self.started


class Workbench:
    """The server's state: its folder, the tabs' benches, the shared sessions and the running jobs."""

    def __init__(self, folder: Path, store: Store | None = None, most_tabs: int = MOST_TABS):
        self.folder = folder
        self.store = store if store is not None else Store.default()
        self.most_tabs = most_tabs
        self.benches: OrderedDict[str, Bench] = OrderedDict()
        self.sessions: dict[str, Session] = {}
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.counting = threading.Lock()  # one count at a time: the machine's cores are the kernels'

    # --- tabs ---------------------------------------------------------------------------------------------------

    def open(self, game: str | None = None, table: str | None = None) -> tuple[str, Bench]:
        """A new tab's bench on ``game`` and a shipped ``table`` (by id; default: the game's), and its id."""
        key = game if game is not None else GAME_KEYS[0]
        if key not in GAME_KEYS:
            raise OptionError(f"unknown game {key!r}; one of: {', '.join(GAME_KEYS)}")
        bench = Bench(key, self.shipped(key, table))
        tab = secrets.token_urlsafe(12)
        with self.lock:
            self.benches[tab] = bench
            while len(self.benches) > self.most_tabs:
                self.benches.popitem(last=False)
        return tab, bench

    def bench(self, tab: str) -> Bench:
        """The bench of a tab (KeyError: no such tab, or one dropped as the oldest)."""
        with self.lock:
            bench = self.benches[tab]
            self.benches.move_to_end(tab)
            return bench

    def shipped(self, game: str, table: str | None) -> Table:
        """A shipped table of ``game`` by id (never a path: a page names no file of the machine)."""
        ident = table or DEFAULT_TABLES[game]
        if "/" in ident or "\\" in ident or ident.endswith(".toml"):
            raise TableError([Problem(ident, None, "", "a shipped table's id, not a path")])
        return resolve_table(game, ident)

    # --- files made of what a user gives -------------------------------------------------------------------------

    def keep(self, data: bytes, suffix: str = ".toml") -> Path:
        """``data`` written in the server's folder, named by its sha256 (the same upload twice is one file)."""
        if len(data) > MAX_TABLE_BYTES:
            raise TableError([Problem("upload", None, "", f"too large for a table file ({len(data):,} bytes; at "
                                                          f"most {MAX_TABLE_BYTES:,})")])
        path = self.folder / f"{hashlib.sha256(data).hexdigest()}{suffix}"
        if not path.exists():
            partial = path.with_suffix(".partial")
            partial.write_bytes(data)
            partial.replace(path)
        return path

    # --- analyses -----------------------------------------------------------------------------------------------

    def session(self, game: str) -> Session:
        """The game's session, shared by every tab (its counts are pay-free and never change)."""
        with self.lock:
            if game not in self.sessions:
                self.sessions[game] = Session(game, RunOptions(), self.store)
            return self.sessions[game]

    def rules(self, bench: Bench, table: Table | None = None) -> Rules:
        """The game's rules for the bench's table (or ``table``) and strategy."""
        return self.session(bench.game).resolve(table if table is not None else bench.table(), bench.options())

    def counted(self, game: str, rules: Rules) -> bool:
        """Whether the counts for ``rules`` are held in memory (a settlement alone answers)."""
        return repr(sorted(rules.count_key().items())) in self.session(game).counted

    def analyze(self, bench: Bench, table: Table | None = None, brief: bool = True) -> Analysis:
        """The report of the bench's table (or ``table``), as ``oddscalc report`` makes it (its published figures
        compared): from the counts in memory, or counted now."""
        session = self.session(bench.game)
        with self.counting if not self.counted(bench.game, self.rules(bench, table)) else _NO_LOCK:
            return session.analyze(table if table is not None else bench.table(), bench.options(brief))

    def live(self, bench: Bench, table: Table | None = None) -> Analysis:
        """The figures the page shows as you type: the game's own settlement of the bench's table (or ``table``),
        brief, without the published figures (compared in a download's report, which takes longer): every wager and
        figure is the report's, exactly; only the sections a reader needs are left out."""
        t = table if table is not None else bench.table()
        bare = Table(t.id, t.path, t.sha256, t.model.model_copy(update={"published": None, "claimed": None}))
        session = self.session(bench.game)
        rules = session.resolve(bare, bench.options(brief=True))
        with self.counting if not self.counted(bench.game, rules) else _NO_LOCK:
            counts = session.counts(rules)
        analysis: Analysis = session.game.settle(counts, rules)
        return analysis

    def load_upload(self, path: Path, game: str, name: str) -> Table:
        """A table file the server keeps (an upload, an edit), validated as any file is, its problems naming
        ``name`` rather than the server's folder."""
        try:
            return load_table(path, expect_game=game)
        except TableError as e:
            raise TableError([Problem(p.file.replace(str(path), name), p.line, p.key, p.message)
                              for p in e.problems], e.what) from None

    def named(self, message: str, path: Path, name: str) -> str:
        """A message about a kept file, naming it as the user did."""
        return message.replace(str(path), name).replace(str(self.folder), "(upload)")

    def start(self, bench: Bench, work: Callable[[], Any]) -> str:
        """Run ``work`` in the background for ``bench``'s tab; the id the page polls (:meth:`job`)."""
        ident = secrets.token_urlsafe(8)
        job = Job(id(bench), time.monotonic())

        def hear(done: int, total: int) -> None:
            job.share = (done, total)

        def run() -> None:
            try:
                with listening(hear):
                    job.result = work()
            except (TableError, OptionError) as e:
                job.error = str(e)
            except Exception as e:  # a bug: the page says so rather than polling for ever
                job.error = f"internal error: {type(e).__name__}: {e}"
            finally:
                job.done = True

        with self.lock:
            self.jobs[ident] = job
        threading.Thread(target=run, name=f"oddscalc-job-{ident}", daemon=True).start()
        return ident

    def job(self, bench: Bench, ident: str) -> Job:
        """A job of ``bench`` by id (KeyError: none); a finished job is forgotten once read."""
        with self.lock:
            job = self.jobs[ident]
            if job.bench != id(bench):
                raise KeyError(ident)
            if job.done:
                del self.jobs[ident]
            return job


class _NoLock:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_NO_LOCK = _NoLock()

