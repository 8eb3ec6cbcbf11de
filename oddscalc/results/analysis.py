"""The whole result of one table under one set of run options (:class:`Analysis`), the options a run may change
(:class:`RunOptions`) and the decisions its strategy made (:class:`Decisions`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from oddscalc.cards import Deck
from oddscalc.exact import percent_str
from oddscalc.results.check import NOT_COMPARED, Check
from oddscalc.results.display import LINES_SHOWN, escape, frame, html_table, listed, missing, more, one_line, quoted
from oddscalc.results.section import Section
from oddscalc.results.verdict import Verdict, verdict
from oddscalc.results.wager import WagerResult

if TYPE_CHECKING:
    import pandas

    from oddscalc.tables import Table


@dataclass(frozen=True)
class RunOptions:
    """What a run may change besides the table file (each game says which apply)."""

    strategy: str | None = None
    decks: int | None = None
    players: int | None = None
    progress: bool = False  # show progress on stderr
    brief: bool = False  # skip sections only a reader needs (verify, solve and compare set it)
    deck: Deck | None = None  # a reduced deck for the poker games' checks (Python API only)



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


@dataclass(frozen=True, repr=False)
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
        raise missing("wager", name, [w.wager for w in self.wagers])

    def section(self, section_id: str) -> Section:
        """The section with this id."""
        for s in self.sections:
            if s.id == section_id:
                return s
        raise missing("section", section_id, [s.id for s in self.sections])

    def decision(self, name: str) -> Decisions:
        """The decisions of this name."""
        for d in self.decisions:
            if d.name == name:
                return d
        raise missing("decisions", name, [d.name for d in self.decisions])

    def records(self) -> list[dict[str, Any]]:
        """Every row of every wager as plain dicts."""
        return [rec for w in self.wagers for rec in w.records()]

    def to_frame(self, floats: bool = False) -> pandas.DataFrame:
        """Every row of every wager as one pandas DataFrame (needs the optional ``pandas`` extra), as
        :meth:`WagerResult.to_frame`: exact by default, ``floats`` for float columns."""
        return frame(self.records(), floats)

    @property
    def published_summary(self) -> str:
        """What became of the table's ``[published]``/``[claimed]`` figures, in one line ("" when it has none):
        how many hold, or why they were not compared (this run's options, or a table that differs from the one
        they describe)."""
        if not self.sources:
            return ""
        if not self.published_applies:
            return "published figures not compared: this run's options change the table they describe"
        compared = [c for c in self.checks if c.verdict != NOT_COMPARED]
        parts = [f"{sum(c.ok for c in compared)} of {len(compared)} published figures hold"] if compared else []
        parts += [f"[{one_line(c.block, 20)}] not compared: {one_line(c.message, 200)}"
                  for c in self.checks if c.verdict == NOT_COMPARED]
        return "; ".join(parts)

    def __repr__(self) -> str:
        t = self.table
        lines = [f"<Analysis {self.game}, table {quoted(t.id, 100)}: {quoted(t.title)}, "
                 f"sha256 {t.sha256[:12]}..."]
        lines += [f"  {w.summary}" for w in self.wagers[:LINES_SHOWN]]
        left = more(min(len(self.wagers), LINES_SHOWN), len(self.wagers), "wagers")
        lines += [f"  {left}"] if left else []
        favours = self.verdict.favours
        tail = (f"favours the PLAYER: {listed(self.verdict.player_wagers)}" if favours == "player" else
                f"favours {'the house' if favours == 'house' else 'neither side'}")
        lines.append("  " + "; ".join(x for x in (tail, self.published_summary) if x) + ">")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The table, the verdict and a row of figures per wager, as small HTML (every text from a file escaped)."""
        t = self.table
        rows = ([w.wager, w.title, w.strategy, percent_str(w.house_edge),
                 "" if w.element_of_risk is None else percent_str(w.element_of_risk), f"{w.standard_deviation:.4f}",
                 percent_str(w.hit_frequency)] for w in self.wagers)
        published = self.published_summary
        return "\n".join([
            f"<p><strong>{escape(t.title, 200)}</strong> · {escape(self.game)} table <code>{escape(t.id)}</code> · "
            f"sha256 <code>{t.sha256[:12]}...</code></p>",
            f"<p>{escape(self.verdict.text, 400)}</p>",
            html_table(("Wager", "Title", "Strategy", "House edge", "Element of risk", "SD", "Hit frequency"), rows,
                       (False, False, False, True, True, True, True), len(self.wagers), "wagers"),
            *([f"<p>{escape(published[:1].upper() + published[1:], 400)}</p>"] if published else [])])
