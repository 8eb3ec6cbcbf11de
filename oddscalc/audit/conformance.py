"""Conformance: did the table deal and pay what the approved math says?

Read a hand log once, a chunk of rounds at a time (bounded memory whatever its length), and for each round: settle
it again by the table (``resettle``: the engine's event vocabulary), list it by LINE when what the log says was paid
is not what the table pays on those cards and that decision, count the event of every wager it settles, and count
the cards dealt at each position. Then test:

- per wager, the events' counts against the engine's exact distribution (``stats.fit``: Pearson and G on merged
  cells, and each rare event's exact Poisson tail);
- per wager staked, the players' net result (the table's hold, negated) against its exact expectation
  (rounds x stake x EV) and variance (stake^2 x the wager's exact variance per unit): a z score;
- at each position, the cards against a uniform shuffle of the table's deck or shoe (every card equally likely
  there, in proportion to its copies): Pearson's X^2 with one degree fewer than the cards.

Each test is judged at ``level`` divided by the number of tests (Bonferroni), so the audit as a whole flags an
honest log with probability at most ``level``. The main wager's distribution depends on the player's decisions:
it is compared with the strategy named (the table's, optimal, by default); the shuffle test and the re-settlement
do not depend on them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from oddscalc.audit import spread
from oddscalc.audit.logformat import Header, Round, amount
from oddscalc.audit.reader import header as read_header
from oddscalc.audit.reader import rounds as read_rounds
from oddscalc.audit.resettle import RESETTLERS, Resettler, units_by_event
from oddscalc.audit.stats import Fit, fit, merge, normal_sf, poisson_upper
from oddscalc.cards import card_str
from oddscalc.progress import Progress
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, WagerResult
from oddscalc.tables import Table

CHUNK = 50_000  # rounds settled at a time
MOST_LISTED = 1_000  # mispaid or unreadable rounds listed by line (all are counted)
DEFAULT_LEVEL = Fraction(1, 100)


@dataclass(frozen=True)
class WagerFit:
    """One wager's events: (event, exact probability, observed count, Poisson upper tail) and the test."""

    wager: str
    rounds: int
    rows: tuple[tuple[str, Fraction, int, float], ...]
    test: Fit
    merged: tuple[str, ...]


@dataclass(frozen=True)
class Hold:
    """One wager's money: rounds staked, total staked, the players' net, its exact expectation and variance."""

    wager: str
    rounds: int
    staked: Fraction
    net: Fraction
    expected: Fraction
    variance: Fraction

    @property
    def z(self) -> float:
        """(net - expected) / sd."""
        return float(self.net - self.expected) / math.sqrt(float(self.variance)) if self.variance else 0.0

    @property
    def p(self) -> float:
        """Two-sided normal p-value of z."""
        return min(1.0, 2 * normal_sf(abs(self.z)))


@dataclass(frozen=True)
class PositionFit:
    """The cards at one position against a uniform shuffle: rounds, X^2, df, p, and the card furthest off."""

    position: str
    rounds: int
    chi2: float
    df: int
    p: float
    worst: str  # e.g. "As: 0 seen, 192.3 expected"


@dataclass(frozen=True)
class Mispaid:
    """A round paid otherwise than the table pays."""

    line: int
    round: int
    wager: str
    event: str
    paid: Fraction
    due: Fraction


@dataclass
class Conformance:
    """Everything the conformance audit found in one log."""

    path: Path
    header: Header
    table: Table
    strategy: str
    rounds: int = 0
    wagers: list[WagerFit] = field(default_factory=list)
    holds: list[Hold] = field(default_factory=list)
    positions: list[PositionFit] = field(default_factory=list)
    mispaid: list[Mispaid] = field(default_factory=list)
    mispaid_count: int = 0
    unreadable: list[tuple[int, str]] = field(default_factory=list)
    unreadable_count: int = 0
    unknown: Counter[str] = field(default_factory=Counter)  # staked wagers the table does not have
    level: Fraction = DEFAULT_LEVEL

    @property
    def tests(self) -> int:
        """How many tests the level is shared between."""
        return max(1, len(self.wagers) + len(self.holds) + len(self.positions))

    @property
    def threshold(self) -> float:
        """Each test's level (Bonferroni)."""
        return float(self.level) / self.tests

    def failures(self) -> list[str]:
        """Each finding, in words (empty: the log conforms)."""
        t = self.threshold
        out = [f"{w.wager}: outcomes p = {w.test.p_chi2:.3g}" for w in self.wagers if w.test.p_chi2 < t]
        out += [f"{w.wager}: {e} seen {o:,} times, probability 0" for w in self.wagers for e, p, o, _ in w.rows
                if p == 0 and o]
        out += [f"{h.wager}: hold z = {h.z:+.2f} (p = {h.p:.3g})" for h in self.holds if h.p < t]
        out += [f"cards at {f.position}: p = {f.p:.3g} ({f.worst})" for f in self.positions if f.p < t]
        if self.mispaid_count:
            out.append(f"{self.mispaid_count:,} mispaid wager(s)")
        if self.unreadable_count:
            out.append(f"{self.unreadable_count:,} round(s) the table cannot settle")
        if self.unknown:
            out.append("wagers the table does not have: " + ", ".join(sorted(self.unknown)))
        return out


def chunks(items: Iterable[tuple[int, Round]], size: int = CHUNK) -> Iterator[list[tuple[int, Round]]]:
    """The rounds in lists of ``size`` (the last shorter)."""
    batch: list[tuple[int, Round]] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def check_table(head: Header, table: Table, path: Path) -> None:
    """Refuse a table other than the log's: its file's sha256 must be the one the log names."""
    if table.sha256 != head.table_sha256:
        raise OptionError(f"{path}: the log was dealt under table {head.table!r} with sha256 "
                          f"{head.table_sha256[:12]}..., not {table.id!r} ({table.sha256[:12]}...): audit it against "
                          "that table file (--table)")


@dataclass
class Tally:
    """What reading part of a log found, before any test: tallies that add up across parts."""

    rounds: int = 0
    counts: dict[str, Counter[str]] = field(default_factory=dict)  # wager -> event -> rounds
    settled: Counter[str] = field(default_factory=Counter)  # wager -> rounds with an event
    by_position: np.ndarray | None = None  # (positions, 52) cards seen
    # (wager, stake, paid) as written -> rounds
    money: Counter[tuple[str, int | str, int | str]] = field(default_factory=Counter)
    mispaid: list[Mispaid] = field(default_factory=list)
    mispaid_count: int = 0
    unreadable: list[tuple[int, str]] = field(default_factory=list)
    unreadable_count: int = 0
    unknown: Counter[str] = field(default_factory=Counter)
    first_line: int = 0  # of the part's first round
    first_round: int = 0
    last_round: int = 0

    def add(self, other: Tally) -> None:
        """Add a later part's tallies to this one."""
        self.rounds += other.rounds
        for wager, c in other.counts.items():
            self.counts.setdefault(wager, Counter()).update(c)
        self.settled.update(other.settled)
        if other.by_position is not None:
            self.by_position = other.by_position if self.by_position is None else self.by_position + other.by_position
        self.money.update(other.money)
        self.mispaid = (self.mispaid + other.mispaid)[:MOST_LISTED]
        self.mispaid_count += other.mispaid_count
        self.unreadable = (self.unreadable + other.unreadable)[:MOST_LISTED]
        self.unreadable_count += other.unreadable_count
        self.unknown.update(other.unknown)


class Tallier:
    """A part of a log tallied a chunk of rounds at a time (:meth:`take`), as the rounds are read: the
    re-settlement of the game, the tallies so far, and whether each distinct (wager, event, stake, paid) is
    right (decided once: a log has few)."""

    def __init__(self, game: str, table: Table, units: dict[str, dict[str, Fraction]]):
        self.settler: Resettler = RESETTLERS[game](table, units)
        self.units = units
        self.out = Tally(by_position=np.zeros((len(self.settler.positions), 52), dtype=np.int64))
        self.right_of: dict[tuple[str, str, int | str, int | str], bool] = {}

    def take(self, batch: list[tuple[int, Round]]) -> None:
        """Settle a chunk of (line, round) and add what it holds to the tallies."""
        out, units, right_of = self.out, self.units, self.right_of
        assert out.by_position is not None
        done = self.settler.settle(batch)
        if not out.first_line:
            out.first_line, out.first_round = batch[0][0], batch[0][1].round
        out.last_round = batch[-1][1].round
        out.unreadable_count += len(done.unreadable)
        out.unreadable += done.unreadable[:MOST_LISTED - len(out.unreadable)]
        dealt = done.positions
        for j in range(dealt.shape[1]):
            col = dealt[:, j]
            out.by_position[j] += np.bincount(col[col >= 0], minlength=52)
        for wager, events in done.events.items():
            c = out.counts.setdefault(wager, Counter())
            c.update(e for e in events if e is not None)
            out.settled[wager] += sum(e is not None for e in events)
        money: list[tuple[str, int | str, int | str]] = []  # counted at once after the loop (Counter.update)
        events_of = done.events
        for i, (line, r) in enumerate(batch):
            paid_of = r.paid
            for wager, stake in r.stakes.items():
                if wager not in units:
                    out.unknown[wager] += 1
                    continue
                paid = paid_of.get(wager, 0)
                money.append((wager, stake, paid))  # summed once per distinct amount at the end: a log has few
                column = events_of.get(wager)
                event = None if column is None else column[i]
                if event is None:
                    continue
                key = (wager, event, stake, paid)
                wrong = right_of.get(key)
                if wrong is None:  # decided once per distinct (wager, event, stake, paid): a log has few
                    wrong = right_of[key] = amount(paid) != units[wager][event] * amount(stake)
                if wrong:
                    due = units[wager][event] * amount(stake)
                    out.mispaid_count += 1
                    if len(out.mispaid) < MOST_LISTED:
                        out.mispaid.append(Mispaid(line, r.round, wager, event, amount(paid), due))
        out.money.update(money)
        out.rounds += len(batch)


def tally(path: Path, game: str, table: Table, units: dict[str, dict[str, Fraction]],
          part: tuple[int, int, int] | None = None) -> Tally:
    """Settle every round of the log (or of one part of it, ``reader.split``) and tally what it holds."""
    t = Tallier(game, table, units)
    for batch in chunks(read_rounds(path, part)):
        t.take(batch)
    return t.out


def _tally_part(args: tuple[Path, str, Table, dict[str, dict[str, Fraction]], spread.Part]) -> Tally:
    return tally(*args)


def audit(path: Path, table: Table, analysis: Analysis, strategy: str, level: Fraction = DEFAULT_LEVEL,
          progress: Progress | None = None, workers: int = 1, mapper: spread.Mapper | None = None) -> Conformance:
    """Read the log at ``path`` and test it (see the module): ``workers`` processes read parts of a long log side
    by side, or ``workers`` chunks of it run on the cluster of ``mapper`` (``cluster.mapper``); their tallies add
    up to the same figures as one reader's."""
    head = read_header(path)
    check_game(head, table, path)
    units = units_by_event(analysis)
    parts = spread.parts(path, workers, mapper)
    at = spread.where(path, mapper)
    found = spread.side_by_side(_tally_part, [(at, head.game, table, units, p) for p in parts], mapper)
    return judge(path, head, table, analysis, strategy, found, level, progress)


def check_game(head: Header, table: Table, path: Path) -> None:
    """Refuse a log of another table (:func:`check_table`) or of a game the audit does not settle."""
    check_table(head, table, path)
    if head.game not in RESETTLERS:
        raise OptionError(f"audit reads {', '.join(RESETTLERS)} logs, not {head.game}")


def judge(path: Path, head: Header, table: Table, analysis: Analysis, strategy: str, found: list[Tally],
          level: Fraction = DEFAULT_LEVEL, progress: Progress | None = None) -> Conformance:
    """The tallies of the log's consecutive parts (in file order) joined and tested (see the module)."""
    units = units_by_event(analysis)
    for earlier, later in zip(found, found[1:]):
        if earlier.rounds and later.rounds and later.first_round < earlier.last_round:
            raise OptionError(f"{path}: rounds out of order at line {later.first_line}")
    t = Tally()
    for other in found:
        t.add(other)
    if progress is not None:
        progress.say(f"{t.rounds:,} rounds")
    out = Conformance(path, head, table, strategy, level=level)
    out.rounds, out.mispaid, out.mispaid_count = t.rounds, t.mispaid, t.mispaid_count
    out.unreadable, out.unreadable_count, out.unknown = t.unreadable, t.unreadable_count, t.unknown
    counts, settled, money = t.counts, t.settled, t.money
    by_position = t.by_position if t.by_position is not None else np.zeros((0, 52), dtype=np.int64)
    for w in analysis.wagers:
        n = settled[w.wager]
        if not n:
            continue
        c = counts[w.wager]
        rows = tuple((r.event, w.probability(r), c[r.event],
                      poisson_upper(c[r.event], float(w.probability(r) * n))) for r in w.rows)
        m = merge([(e, o, p) for e, p, o, _ in rows], n)
        out.wagers.append(WagerFit(w.wager, n, rows, fit(m.cells, m.merged), m.merged))
    moments = {w.wager: _moments(w) for w in analysis.wagers}
    sums: dict[str, list[Fraction]] = {}
    for (wager, stake_text, paid_text), k in money.items():
        stake, paid = amount(stake_text), amount(paid_text)
        ev, var = moments[wager]
        acc = sums.setdefault(wager, [Fraction(0)] * 5)
        for j, x in enumerate((Fraction(1), stake, paid, stake * ev, stake * stake * var)):
            acc[j] += k * x
    for wager, (n_staked, staked, net, expected, variance) in sums.items():
        out.holds.append(Hold(wager, int(n_staked), staked, net, expected, variance))
    shoe = RESETTLERS[head.game](table, units)
    out.positions = _positions(shoe.positions, shoe.copies, by_position)
    return out


def _moments(w: WagerResult) -> tuple[Fraction, Fraction]:
    """A wager's exact EV and variance per unit staked, from its rows (units, probability)."""
    mean = sum((w.probability(r) * r.units for r in w.rows), Fraction(0))
    square = sum((w.probability(r) * r.units ** 2 for r in w.rows), Fraction(0))
    return mean, square - mean * mean


def _positions(names: tuple[str, ...], copies: dict[int, int], counts: np.ndarray) -> list[PositionFit]:
    """Each position's cards against the shoe's proportions."""
    from oddscalc.audit.stats import chi2_sf

    size = sum(copies.values())
    out = []
    for j, name in enumerate(names):
        n = int(counts[j].sum())
        if not n:
            continue
        chi2, worst, worst_dev = 0.0, "", -1.0
        for card in range(52):
            o = int(counts[j, card])
            e = n * copies.get(card, 0) / size
            if e == 0:
                dev = math.inf if o else 0.0
                chi2 += math.inf if o else 0.0
            else:
                dev = (o - e) ** 2 / e
                chi2 += dev
            if dev > worst_dev:
                worst_dev, worst = dev, f"{card_str(card)}: {o:,} seen, {e:,.1f} expected"
        df = len(copies) - 1
        out.append(PositionFit(name, n, chi2, df, chi2_sf(chi2, df) if math.isfinite(chi2) else 0.0, worst))
    return out


__all__ = ["CHUNK", "DEFAULT_LEVEL", "Conformance", "Hold", "Mispaid", "PositionFit", "Tallier", "Tally", "WagerFit",
           "audit", "check_game", "check_table", "chunks", "judge", "tally"]
