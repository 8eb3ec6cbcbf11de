"""The result model: what every game's analysis returns, as exact data.

A game never formats a report. It returns an :class:`Analysis`: one :class:`WagerResult` per
bet on the layout (integer combinations per event, from which every figure is derived as a
``Fraction``), structured :class:`Section` tables with stable ids, the decisions its strategy
made, and the published-figure :class:`Check` results. ``report/`` alone turns that into
Markdown, CSV and JSON; ``records()`` and ``to_frame()`` turn it into plain rows for other code.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from oddscalc.cards import Deck
from oddscalc.exact import frac_str, percent_str

if TYPE_CHECKING:
    import pandas

    from oddscalc.tables import Table

Figure = Fraction | int
Cell = str | int | Fraction | bool | None


@dataclass(frozen=True)
class RunOptions:
    """What a run may change besides the table file (each game says which apply)."""

    strategy: str | None = None
    decks: int | None = None
    players: int | None = None
    progress: bool = False  # show progress on stderr
    brief: bool = False  # skip sections only a reader needs (verify, solve and compare set it)
    deck: Deck | None = None  # a reduced deck for the poker games' checks (Python API only)


# --- wagers ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One event of a wager: what it pays and how often it happens."""

    event: str  # stable id, e.g. "royal_flush_3_bets"
    label: str  # human text, e.g. "Royal flush, 3 bets in play"
    pays: str  # pay as printed on the table, e.g. "1000:1" ("" when not a pay)
    units: Fraction  # net units won per unit base bet (negative: lost)
    combinations: int
    stake: Fraction = Fraction(1)  # total units at risk in this event
    # units depend on at most one pay of the table: units = (units at other pays) + pay_coef * pay,
    # where pay_ref names it as "<wager>.<key>" in the table's [pays]; lets EV be written symbolically
    pay_ref: str = ""
    pay_coef: Fraction = Fraction(0)


Z_SCORES = {"90": 1.6448536269514722, "95": 1.959963984540054, "99": 2.5758293035489004}  # two-sided
PRIZE_HORIZON = 100_000_000  # a prize should be expected at least once in this many games


@dataclass(frozen=True)
class Prize:
    """One pay a wager can win, with its total probability (its rows joined)."""

    pay_ref: str  # "<wager>.<key>" in the table's [pays]
    pays: str
    probability: Fraction

    @property
    def one_in(self) -> Fraction | None:
        """1 / probability (None when the prize never happens)."""
        return None if self.probability == 0 else 1 / self.probability

    @property
    def reachable(self) -> bool:
        """Expected at least once in PRIZE_HORIZON games."""
        return self.probability * PRIZE_HORIZON >= 1


@dataclass(frozen=True)
class WagerResult:
    """Exact results of one wager on the layout; every figure is derived from the integer rows.

    The sums over rows are computed once (cached_property: the instance is frozen, its rows never change).
    """

    wager: str  # "main", "jackpot", "three_card_bonus", "banker", ...
    title: str
    strategy: str  # an id: "optimal", "rules-of-thumb", a strategy card's id, "none" (no decision)
    total_combinations: int
    rows: tuple[Row, ...]
    unit: str = "unit bet"  # what EV is per ("ante", "base bet", "unit staked")
    stake_varies: bool = False  # element of risk is only meaningful when the stake can change
    extras: Mapping[str, Figure] = field(default_factory=dict)  # game-specific exact figures
    notes: tuple[str, ...] = ()
    strategy_title: str = ""  # the strategy in words, beside its id

    def __post_init__(self) -> None:
        s = sum(r.combinations for r in self.rows)
        if s != self.total_combinations:
            raise ValueError(f"{self.wager}: rows add up to {s} combinations, expected {self.total_combinations}")
        if len({r.event for r in self.rows}) != len(self.rows):
            raise ValueError(f"{self.wager}: duplicate event ids")
        if any(r.combinations < 0 for r in self.rows):
            raise ValueError(f"{self.wager}: a negative count")

    def probability(self, row: Row) -> Fraction:
        """P(row) = combinations / total."""
        return Fraction(row.combinations, self.total_combinations)

    def row_return(self, row: Row) -> Fraction:
        """The row's share of the expected value: units x probability."""
        return row.units * self.probability(row)

    @functools.cached_property
    def expected_value(self) -> Fraction:
        """Net units won per unit bet, on average."""
        return sum((Fraction(r.units * r.combinations) for r in self.rows), Fraction(0)) / self.total_combinations

    @property
    def house_edge(self) -> Fraction:
        """Minus the expected value."""
        return -self.expected_value

    @functools.cached_property
    def average_stake(self) -> Fraction:
        """Units at risk per unit bet, on average."""
        return sum((r.stake * r.combinations for r in self.rows), Fraction(0)) / self.total_combinations

    @property
    def element_of_risk(self) -> Fraction | None:
        """House edge per unit actually staked (None when the stake never varies)."""
        if not self.stake_varies:
            return None
        return self.house_edge / self.average_stake

    @functools.cached_property
    def variance(self) -> Fraction:
        """Variance of the net units won."""
        second = sum((r.units * r.units * r.combinations for r in self.rows), Fraction(0))
        return second / self.total_combinations - self.expected_value**2

    @property
    def standard_deviation(self) -> float:
        """Square root of the variance (a float: the only inexact figure, compared exactly by verify)."""
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        """P(the wager wins something)."""
        wins = sum(r.combinations for r in self.rows if r.units > 0)
        return Fraction(wins, self.total_combinations)

    def volatility_index(self, confidence: str) -> float:
        """z * SD for a two-sided confidence of "90" or "95" percent (PAR-sheet convention)."""
        return Z_SCORES[confidence] * self.standard_deviation

    def prizes(self) -> list[Prize]:
        """Each pay of the table that this wager can win, with its total probability (rows joined by pay)."""
        by: dict[str, list[Row]] = {}
        for r in self.rows:
            if r.pay_ref and r.units > 0:
                by.setdefault(r.pay_ref, []).append(r)
        out = []
        for ref, rows in by.items():
            n = sum(r.combinations for r in rows)
            out.append(Prize(ref, rows[0].pays, Fraction(n, self.total_combinations)))
        return out

    def row(self, event: str) -> Row:
        """The row with this event id."""
        for r in self.rows:
            if r.event == event:
                return r
        raise KeyError(event)

    def records(self) -> list[dict[str, Any]]:
        """One plain dict per row, exact values as Fractions and ints."""
        return [{"wager": self.wager, "event": r.event, "label": r.label, "pays": r.pays, "units": r.units,
                 "stake": r.stake, "combinations": r.combinations, "probability": self.probability(r),
                 "return": self.row_return(r)} for r in self.rows]

    def to_frame(self) -> pandas.DataFrame:
        """The rows as a pandas DataFrame (needs the optional ``pandas`` extra)."""
        return _frame(self.records())


# --- sections ---------------------------------------------------------------------------------------

COLUMN_KINDS = ("text", "int", "fraction", "decimal", "percent", "signed_percent", "share", "odds")
NUMERIC_KINDS = frozenset(COLUMN_KINDS) - {"text"}  # the kinds a table aligns right


@dataclass(frozen=True)
class Column:
    """A column of a section: its id (the JSON key), its heading, and how a renderer prints it.

    kinds: text; int (thousands separators); fraction (exact p/q); decimal and percent (rounded to
    ``places``); signed_percent (with a + on gains); share (a proportion: all, -, or a percent); odds (x to 1,
    with thousands separators, as a petition prints odds).
    """

    id: str
    title: str
    kind: str = "text"
    places: int = 4

    def __post_init__(self) -> None:
        if self.kind not in COLUMN_KINDS:
            raise ValueError(f"column {self.id}: unknown kind {self.kind!r}")


@dataclass(frozen=True)
class Section:
    """A table of a report with a stable id: intro lines, columns, rows of cells, notes (plain text)."""

    id: str
    title: str
    columns: tuple[Column, ...] = ()
    rows: tuple[tuple[Cell, ...], ...] = ()
    intro: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for r in self.rows:
            if len(r) != len(self.columns):
                raise ValueError(f"section {self.id}: a row of {len(r)} cells for {len(self.columns)} columns")

    def records(self) -> list[dict[str, Cell]]:
        """One dict per row, keyed by column id."""
        ids = [c.id for c in self.columns]
        return [dict(zip(ids, r)) for r in self.rows]

    def column(self, column_id: str) -> list[Cell]:
        """Every cell of one column."""
        i = [c.id for c in self.columns].index(column_id)
        return [r[i] for r in self.rows]

    def to_frame(self) -> pandas.DataFrame:
        """The rows as a pandas DataFrame (needs the optional ``pandas`` extra)."""
        return _frame(self.records())


def _frame(records: Sequence[Mapping[str, Any]]) -> pandas.DataFrame:
    try:
        import pandas
    except ImportError:
        raise ImportError("to_frame() needs pandas: pip install 'oddscalc[pandas]'") from None
    return pandas.DataFrame.from_records(list(records))


# --- charts (data; report.svg draws them) -------------------------------------------------------------


@dataclass(frozen=True)
class Heatmap:
    """A grid of shares (0..1, None for no data)."""

    id: str
    title: str
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    cells: tuple[tuple[Fraction | None, ...], ...]
    x_title: str
    y_title: str


@dataclass(frozen=True)
class Bars:
    """Horizontal bars of shares (0..1), one per label."""

    id: str
    title: str
    labels: tuple[str, ...]
    shares: tuple[Fraction, ...]
    note: str


@dataclass(frozen=True)
class Lines:
    """Series of proportions (drawn as percentages) against an integer axis."""

    id: str
    title: str
    xs: tuple[int, ...]
    series: tuple[tuple[str, tuple[Fraction, ...]], ...]
    x_title: str
    y_title: str


Chart = Heatmap | Bars | Lines


# --- decisions and checks ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decisions:
    """One kind of decision the strategy makes, at every decision point.

    Points are in the same order for every table of a game (same deck and rules that shape the
    enumeration), so two analyses can be compared point by point. ``keys`` names each point as
    data where the points are few (house baccarat's two-card compositions), for code that plays
    the strategy (the simulator).
    """

    name: str
    description: str
    values: Any  # numpy bool array, one per point, or a function computing it when first asked
    weights: Any  # numpy int array: combinations each point stands for (or a function computing it)
    describe: Callable[[int], str]  # a point in words
    keys: tuple[Hashable, ...] | None = None

    def array(self) -> Any:
        """The decision at every point (computed on first use when the game deferred it)."""
        if callable(self.values):
            object.__setattr__(self, "values", self.values())
        return self.values

    def weight_array(self) -> Any:
        """The combinations of every point (computed on first use when the game deferred it)."""
        if callable(self.weights):
            object.__setattr__(self, "weights", self.weights())
        return self.weights


NOT_COMPARED = "not compared"  # a Check's verdict: the block's figures were published for other rules or pays


@dataclass(frozen=True)
class Check:
    """One published or claimed figure of the table against the computed one."""

    table: str  # how the table is named to the user: "let-it-ride/standard" or its path
    block: str  # "published" or "claimed"
    wager: str
    figure: str
    expected: str
    computed: str
    verdict: str  # "ok", "MISMATCH" or "ERROR"
    message: str = ""  # why, when the verdict is ERROR, "differs" or "not compared"

    @property
    def ok(self) -> bool:
        """The figure holds, or differs from its source for the reason the table states, or the block's figures
        describe another table and were not compared."""
        return self.verdict in ("ok", "differs", NOT_COMPARED)


# --- the verdict ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """Whom the table favours, wager by wager, from the sign of each wager's exact expected value: the first line
    of every report, so that a pay typed wrong (a flush at 50:1) cannot hand the game to the player unseen."""

    favours: str  # "player" (some wager has a positive EV), "house" (every EV negative) or "neither"
    player_wagers: tuple[str, ...]  # the ids of the wagers with a positive EV, best for the player first
    even_wagers: tuple[str, ...]  # the ids of the wagers whose EV is exactly 0
    text: str


def _signed_percent(x: Fraction) -> str:
    return ("+" if x > 0 else "") + percent_str(x)


def _named(w: WagerResult) -> str:
    return f"wager {w.wager} ({w.title})" if w.title.lower() != w.wager.replace("_", " ") else f"wager {w.wager}"


def _play(w: WagerResult, play: str) -> str:
    if play:
        return f" under {play}"
    return "" if w.strategy == "none" else " under optimal play" if w.strategy == "optimal" else \
        f" under the strategy {w.strategy}"


def rarity_from_rows(w: WagerResult) -> dict[str, Fraction]:
    """Each pay of a wager whose rows are its hands (every deal in exactly one row, a pay's rows being its hand's)
    with its hand's probability: the rows of one pay summed."""
    counts: dict[str, int] = {}
    for r in w.rows:
        if r.pay_ref:
            counts[r.pay_ref] = counts.get(r.pay_ref, 0) + r.combinations
    return {ref: Fraction(n, w.total_combinations) for ref, n in counts.items()}


def verdict(wagers: Sequence[WagerResult], play: str = "") -> Verdict:
    """The verdict on these wagers (``play``: how they are played, when the strategy's id does not say it, e.g.
    house baccarat's equilibrium among several seats). One wording for every game: a wager with a positive
    expected value is named first, with the exact figure."""
    good = sorted((w for w in wagers if w.expected_value > 0), key=lambda w: -w.expected_value)
    even = [w for w in wagers if w.expected_value == 0]
    bad = [w for w in wagers if w.expected_value < 0]
    parts: list[str] = []
    if good:
        parts.append("This game favours the PLAYER: " + "; ".join(
            f"{_named(w)} has an expected value of {_signed_percent(w.expected_value)} per "
            f"{w.unit}{_play(w, play)}, a house edge of {percent_str(w.house_edge)} (exact EV "
            f"{frac_str(w.expected_value)})" for w in good) + ".")
    if even:
        parts.append(("" if good else "No wager favours the player: ") + "; ".join(
            f"{_named(w)} breaks even exactly{_play(w, play)}" for w in even) + ".")
    if bad:
        best = min(bad, key=lambda w: w.house_edge)
        figure = (f"{_named(best)}: {percent_str(best.house_edge)} of the {best.unit}"
                  f"{_play(best, play)} (exact {frac_str(best.house_edge)})")
        if len(wagers) == 1:
            parts.append(f"This game favours the house: a house edge of {percent_str(best.house_edge)} of the "
                         f"{best.unit}{_play(best, play)} (exact {frac_str(best.house_edge)}).")
        elif good or even:
            parts.append(f"Every other wager favours the house; the lowest house edge is {figure}.")
        else:
            parts.append(f"Every wager favours the house; the lowest house edge is {figure}.")
    favours = "player" if good else "house" if not even else "neither"
    return Verdict(favours, tuple(w.wager for w in good), tuple(w.wager for w in even), " ".join(parts))


# --- the analysis -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Analysis:
    """Everything a report shows about one table under one set of run options."""

    game: str
    table: Table
    rules: Mapping[str, Any]  # as resolved (after --decks, --strategy, ...)
    convention: str  # what one combination is
    wagers: tuple[WagerResult, ...]
    headline: tuple[str, ...] = ()  # the game's own first lines of a report, after the verdict
    sections: tuple[Section, ...] = ()
    assumptions: tuple[str, ...] = ()
    decisions: tuple[Decisions, ...] = ()
    published_applies: bool = True  # False when options override the table (decks, players, strategy)
    checks: tuple[Check, ...] = ()  # the table's [published]/[claimed] figures, when they apply
    sources: tuple[str, ...] = ()  # "<block>: <source>" of each figure block
    # wagers a seat plays together, counted jointly: (wager a, wager b) -> {(event of a, event of b): deals};
    # what a seat's combined stake needs (its variance), where the wagers' own rows do not say it
    joint: Mapping[tuple[str, str], Mapping[tuple[str, str], int]] = field(default_factory=dict)

    # how the wagers are played, for the verdict, where each wager's strategy id does not say it
    play: str = ""
    # the rarity of the hand each ranked pay is for ("main.flush" -> its probability, whatever the play), from the
    # game's own counts: a pay should rise as its hand gets rarer. A game leaves out a wager whose events have no
    # one order of rarity (a baccarat side bet: a margin, a pair and a natural are not ranks of one hand)
    rarity: Mapping[str, Fraction] = field(default_factory=dict)

    @functools.cached_property
    def verdict(self) -> Verdict:
        """Whom the table favours (:func:`verdict` over its wagers): every report's first line."""
        return verdict(self.wagers, self.play)

    @property
    def lead(self) -> tuple[str, ...]:
        """A report's first lines: the verdict, then the game's own headline."""
        return (self.verdict.text, *self.headline)

    def wager(self, name: str) -> WagerResult:
        """The wager with this id."""
        for w in self.wagers:
            if w.wager == name:
                return w
        raise _missing("wager", name, [w.wager for w in self.wagers])

    def section(self, section_id: str) -> Section:
        """The section with this id."""
        for s in self.sections:
            if s.id == section_id:
                return s
        raise _missing("section", section_id, [s.id for s in self.sections])

    def decision(self, name: str) -> Decisions:
        """The decisions of this name."""
        for d in self.decisions:
            if d.name == name:
                return d
        raise _missing("decisions", name, [d.name for d in self.decisions])

    def records(self) -> list[dict[str, Any]]:
        """Every row of every wager as plain dicts."""
        return [rec for w in self.wagers for rec in w.records()]

    def to_frame(self) -> pandas.DataFrame:
        """Every row of every wager as one pandas DataFrame (needs the optional ``pandas`` extra)."""
        return _frame(self.records())


def _missing(kind: str, name: str, known: list[str]) -> KeyError:
    """A KeyError that lists the ids there are (a bare ``KeyError('jackpots')`` leaves one guessing)."""
    return KeyError(f"no {kind} {name!r}; there are: {', '.join(known) or 'none'}")
