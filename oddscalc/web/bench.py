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

The counts held in memory are bounded (:class:`Held`): at most ``most_bytes`` for every game together, the least
recently used dropped first. A count dropped and asked for again is read back from the store (or counted again): the
same integers, so the same figures.

Every file the server makes of what a user gives (an upload, a table with its rules edited) is written in its own
folder, named by its content; nothing is written anywhere else (the count store is the command line's own cache).
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

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
# the counts held in memory, all games together, in MB. The largest is Caribbean Stud's raise table (about 137 MB
# for a full deck; Let It Ride's about 1 MB, the baccarats' less): 512 MB holds three Caribbean qualifiers and every
# other game's counts, and a pay edit needs only the count on screen
MOST_MB = 512


_PAID: OrderedDict[tuple[str, str, tuple[tuple[str, str], ...]], Table] = OrderedDict()
_PAID_LOCK = threading.Lock()


def paid(base: Table, pays: dict[str, str]) -> Table:
    """``with_pays(base, pays)``, the last 256 kept: an edit asks for the table on screen three times (validated, its
    rules resolved, settled), and each would read and validate its file again. Keyed by the file's digest, so a
    table is never taken for another; a refused edit is never kept (it raises each time)."""
    key = (str(base.path), base.sha256, tuple(sorted(pays.items())))
    with _PAID_LOCK:
        if key in _PAID:
            _PAID.move_to_end(key)
            return _PAID[key]
    table = with_pays(base, pays)
    with _PAID_LOCK:
        _PAID[key] = table
        while len(_PAID) > 256:
            _PAID.popitem(last=False)
    return table


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
        return paid(self.base, self.pays)

    def options(self, brief: bool = True) -> RunOptions:
        """The run options of this bench's analyses."""
        return RunOptions(strategy=self.strategy, brief=brief)


def size_of(counts: Any) -> int:
    """About how many bytes ``counts`` holds in memory: its numpy arrays' data, and every other object's own size,
    through dataclasses, mappings, sequences and attributes (what every game's counts are made of); each object
    once."""
    total, todo, seen = 0, [counts], set()
    while todo:
        o = todo.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, np.ndarray):
            total += o.nbytes  # a view's bytes counted as its own: an overestimate at worst
            continue
        total += sys.getsizeof(o)
        if isinstance(o, Mapping):
            todo += [*o.keys(), *o.values()]
        elif isinstance(o, list | tuple | set | frozenset):
            todo += list(o)
        elif dataclasses.is_dataclass(o) and not isinstance(o, type):
            todo += [getattr(o, f.name) for f in dataclasses.fields(o)]
        elif hasattr(o, "__dict__") and not isinstance(o, type):
            todo += list(vars(o).values())
    return total


class Held:
    """The counts the server holds in memory, every game's together, by (game, count key): at most ``most_bytes``
    (:func:`size_of`), the least recently used dropped first; the count just made or asked for is always kept (it is
    the one a tab needs now, however large). Thread-safe; a count is made outside the lock (it may take minutes)."""

    def __init__(self, most_bytes: int = MOST_MB * 1_000_000):
        if most_bytes < 1:
            raise ValueError("a server holds at least one byte of counts")
        self.most_bytes = most_bytes
        self.dropped = 0  # counts dropped so far (for the page and the tests)
        self._counts: OrderedDict[tuple[str, str], tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def bytes(self) -> int:
        """The bytes of the counts held now."""
        with self._lock:
            return sum(size for _, size in self._counts.values())

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._counts

    def __len__(self) -> int:
        with self._lock:
            return len(self._counts)

    def get(self, key: tuple[str, str], make: Callable[[], Any]) -> Any:
        """The counts of ``key``: those held (now the most recently used), or ``make()``'s, then held, the least
        recently used dropped while more than :attr:`most_bytes` are held."""
        with self._lock:
            if key in self._counts:
                self._counts.move_to_end(key)
                return self._counts[key][0]
        made = make()
        size = size_of(made)
        with self._lock:
            self._counts[key] = (made, size)
            self._counts.move_to_end(key)
            held = sum(size for _, size in self._counts.values())
            while held > self.most_bytes and len(self._counts) > 1:
                _, (_, dropped) = self._counts.popitem(last=False)
                held -= dropped
                self.dropped += 1
        return made


class HeldSession(Session):
    """A game's session whose counts are held in the server's bounded :class:`Held` (shared by every game's session),
    not in a dict of its own that only grows: every analysis of the workbench (live figures, downloads, the charts'
    reruns, a hand query) counts through :meth:`counts`."""

    def __init__(self, game: str, held: Held, store: Store):
        super().__init__(game, RunOptions(), store)
        self.held = held

    def key(self, rules: Rules) -> tuple[str, str]:
        """Where ``rules``' counts are held."""
        return self.game.key, repr(sorted(rules.count_key().items()))

    def counts(self, rules: Rules) -> Any:
        """The pay-free counts for ``rules``: held, or read from the store (or counted) and then held."""
        return self.held.get(self.key(rules), lambda: self.game.count(rules, self.store))


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

    def __init__(self, folder: Path, store: Store | None = None, most_tabs: int = MOST_TABS,
                 most_bytes: int = MOST_MB * 1_000_000):
        self.folder = folder
        self.store = store if store is not None else Store.default()
        self.most_tabs = most_tabs
        self.held = Held(most_bytes)
        self.benches: OrderedDict[str, Bench] = OrderedDict()
        self.sessions: dict[str, HeldSession] = {}
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

    def session(self, game: str) -> HeldSession:
        """The game's session, shared by every tab (its counts are pay-free and never change), its counts held in
        :attr:`held`."""
        with self.lock:
            if game not in self.sessions:
                self.sessions[game] = HeldSession(game, self.held, self.store)
            return self.sessions[game]

    def rules(self, bench: Bench, table: Table | None = None) -> Rules:
        """The game's rules for the bench's table (or ``table``) and strategy."""
        return self.session(bench.game).resolve(table if table is not None else bench.table(), bench.options())

    def counted(self, game: str, rules: Rules) -> bool:
        """Whether the counts for ``rules`` are held in memory (a settlement alone answers)."""
        return self.session(game).key(rules) in self.held

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

