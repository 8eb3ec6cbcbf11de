"""The protocol every game follows: resolve, count once, settle many times.

- ``resolve(table, options) -> Rules``: the only place run options are validated; cheap.
- ``count(rules, store) -> Counts``: the expensive enumeration. It carries no pays, depends
  only on ``rules.count_key()`` (plus the game's engine version) and goes through the
  :class:`~oddscalc.cache.Store`, so a second run, or a second table with the same count key,
  never enumerates again.
- ``settle(counts, rules) -> Analysis``: the table's pays and the strategy applied to the counts
  (``rules`` carries the table, hence its pays, and the resolved strategy). Cheap, so solving,
  comparing and verifying settle many tables from one count.
- ``charts(analysis, rerun)``: the pictures worth drawing for a table (data, drawn by ``report``).

:mod:`oddscalc.analysis` runs the stages; games are registered explicitly in
:mod:`oddscalc.games`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

if TYPE_CHECKING:
    from oddscalc.cache import Store
    from oddscalc.results import Analysis, Chart, RunOptions
    from oddscalc.tables import Table, TableModel


class OptionError(ValueError):
    """A run option or input that does not apply or has a bad value (a user error)."""


@dataclass(frozen=True)
class Rules:
    """What a game resolved from a table and the run options: the input of count and settle.

    Each game subclasses it with its own fields; ``count_key`` names the few that change the
    pay-free counts, so that two tables differing only in pays share one count.
    """

    table: Table
    options: RunOptions
    strategy: str
    published_applies: bool  # False when an option overrides what the table's published figures assume

    def count_key(self) -> dict[str, Any]:
        """The rules the counts depend on (JSON-able), without pays."""
        raise NotImplementedError

    def shown(self) -> dict[str, Any]:
        """The rules as a report states them."""
        raise NotImplementedError


R = TypeVar("R", bound=Rules)
C = TypeVar("C")


class Game(Protocol[R, C]):
    """One game: its key, its table model and its three stages."""

    key: ClassVar[str]
    title: ClassVar[str]
    default_table: ClassVar[str]
    capabilities: ClassVar[Capabilities]  # its declaration, which the registry checks the class against
    options: ClassVar[frozenset[str]]  # the RunOptions fields (strategy, decks, players) that apply
    strategies: ClassVar[tuple[str, ...]]  # the named strategies ``strategy`` takes (besides a strategy card file)
    engine_version: ClassVar[int]  # bump when count() changes what it computes
    table_model: ClassVar[type[TableModel]]

    def resolve(self, table: Table, options: RunOptions) -> R:
        """Validate the options against the table; raise OptionError for a bad one."""
        ...

    def count(self, rules: R, store: Store) -> C:
        """The pay-free counts (through ``store``)."""
        ...

    def settle(self, counts: C, rules: R) -> Analysis:
        """The table's pays and strategy applied to the counts."""
        ...

    def charts(self, analysis: Analysis, rerun: Callable[[RunOptions], Analysis]) -> tuple[Chart, ...]:
        """Charts for the docs (``rerun`` analyses the same table with other options)."""
        ...


def count_key(game: Game[Any, Any], rules: Rules, **more: Any) -> dict[str, Any]:
    """The store key of a game's counts: game, engine version, the rules that matter, and ``more``."""
    return {"game": game.key, "engine": game.engine_version, **rules.count_key(), **more}


# --- what a game declares: capabilities as data ---------------------------------------------------------
#
# A game's declaration (``oddscalc/games/<game>/capabilities.py``) says what applies to it, as OpenSpiel's
# ``GameType`` does: the command line and the report store read it without loading the game (no numpy, numba or
# pydantic), and offer or refuse each command and option from it, never from the game's key. Code is named as
# ``"module:attribute"`` strings (:func:`load`), imported only when a command runs it.


@dataclass(frozen=True)
class SimulatePlan:
    """How ``simulate`` plays a game: its plan maker (``"module:function"``, a ``PlanMaker``) and default rounds."""

    plan: str
    rounds: int


@dataclass(frozen=True)
class Counting:
    """Card counting: the exact removal effects of every rank, and a counting study that deals shoes.

    ``effects`` is ``"module:function"`` of ``(rules) -> Effects``; ``study`` of ``(rules, effects, wager, shoes,
    procedure, seed, trigger, runner) -> Study`` (``procedure`` a ``protection.study.Procedure``: the burn and the
    cut card); ``wagers`` the wagers a study may count (empty: any wager of the table)."""

    kind: str  # what is counted, as a user reads it
    effects: str
    study: str
    wagers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Collusion:
    """Partners' cards seen: ``run`` is ``"module:function"`` of ``(session, table_ref, partners, situations, seed,
    exact, scheduler, workers, progress) -> list[Section]``."""

    run: str
    exact_partners: int  # partners counted exactly over every deal of the full deck (0: none)
    most_partners: int  # partners sampled at most (each sampled situation settled exactly)
    default_situations: int
    exact_on_request: bool = False  # --exact: every situation counted (reduced decks, or a cluster)
    reduced_decks: bool = False  # --reduced-deck: the game played on fewer ranks and suits


@dataclass(frozen=True)
class Flash:
    """The dealer's cards seen: ``run`` is ``"module:function"`` of ``(session, table_ref, dealer_cards, progress)
    -> (sections, chart)``; ``dealer_cards`` the numbers of cards that can be seen, ``default`` those shown
    unless asked."""

    run: str
    dealer_cards: tuple[int, ...]
    default: tuple[int, ...]


@dataclass(frozen=True)
class Ev:
    """What a hand is worth (``oddscalc ev``): ``run`` is ``"module:function"`` of ``(session, table_ref, **inputs)
    -> list[Section]``, ``inputs`` the command's options it takes (by parameter name: ``hand``, ``up``, ``shoe``
    ...), each passed as given (text, or None when not given); the command refuses the others."""

    run: str
    inputs: tuple[str, ...]


@dataclass(frozen=True)
class Information:
    """What a glimpse of the cards is worth (``oddscalc glimpse``): ``run`` is ``"module:function"`` of ``(session,
    table_ref, model, progress) -> list[Section]`` with ``model`` a ``protection.glimpse.Model``; ``positions`` the
    card positions a model may name for this game, ``decisions`` the decisions a glimpse may precede."""

    run: str
    positions: tuple[str, ...]
    decisions: tuple[str, ...]


@dataclass(frozen=True)
class Seats:
    """The game among several seats (``seats``) and its proofs kept in checkpoints (``proof``)."""

    most_players: int


@dataclass(frozen=True)
class Capabilities:
    """What applies to one game: declared once, in ``oddscalc/games/<game>/capabilities.py``.

    ``game`` names the class (``"module:Class"``) following :class:`Game`; the registry checks that the class's
    key, title, default table and options are these. ``filing`` names the sections a filing leads with
    (``"module:function"`` of ``(session, table_ref, progress) -> Section``), e.g. the house game's edge by seats
    filled. ``card`` names the model of the game's strategy card files (the reference of file keys lists its keys).
An analysis left ``None`` does not apply: the command line refuses it, naming the games it applies to.
    """

    key: str
    title: str
    default_table: str
    game: str
    options: frozenset[str]  # the RunOptions fields (strategy, decks, players) a run may set
    simulate: SimulatePlan
    counting: Counting | None = None
    collusion: Collusion | None = None
    flash: Flash | None = None
    seats: Seats | None = None
    ev: Ev | None = None  # what a hand is worth: each action's exact EV in one situation
    information: Information | None = None  # what a glimpse declared in an information model is worth
    # ``oddscalc midcoup``: "module:function" of (session, table_ref, after, shoe, removed) -> list[Section], each
    # outcome and wager given the cards seen part way through a coup
    midcoup: str | None = None
    filing: tuple[str, ...] = ()
    card: str | None = None  # "module:Class" of the strategy card file's model, for a game whose runs take a card
    # ``oddscalc card``: "module:function" of (session, table_ref, within, command, most_rules) -> a
    # ``card_report.Synthesis``
    synthesis: str | None = None

    def supports(self, analysis: str) -> bool:
        """Whether the analysis named by a field (``counting``, ``collusion``, ``flash``, ``seats``, ``ev``,
        ``synthesis``, ``information``, ``midcoup``) applies."""
        return getattr(self, analysis) is not None


def load(ref: str) -> Any:
    """The object a declaration names as ``"module:attribute"`` (imported now)."""
    import importlib

    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)
