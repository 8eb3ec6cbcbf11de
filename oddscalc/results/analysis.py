"""The whole result of one table under one set of run options (:class:`Analysis`), the options a run may change
(:class:`RunOptions`) and the decisions its strategy made (:class:`Decisions`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from oddscalc.cards import Deck
from oddscalc.results.check import Check
from oddscalc.results.display import frame
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
        return frame(self.records())


def _missing(kind: str, name: str, known: list[str]) -> KeyError:
    """A KeyError that lists the ids there are (a bare ``KeyError('jackpots')`` leaves one guessing)."""
    return KeyError(f"no {kind} {name!r}; there are: {', '.join(known) or 'none'}")
