"""The evidence of a log in one call, for the ``audit`` command: the game's table resolved, its suspected models
(the ones named, or the game's defaults), every decision weighed, the sections and the chart.

Defaults: Caribbean Stud, a player who knows one, two, three or four hole cards (with the up card: two to five
dealer cards); punto banco, the shipped edge sort of the first card (``edge-sort-first-card``); Let It Ride, the
shipped flash of the first community card before bet 1 (``let-it-ride-flash-first-community``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from pathlib import Path

from oddscalc.analysis import Session
from oddscalc.audit import evidence_caribbean, evidence_let_it_ride, evidence_punto_banco, spread
from oddscalc.audit.evidence import Evidence, PlayerModel, Reading, join
from oddscalc.audit.observed import Observed
from oddscalc.audit.reader import decisions as read_decisions
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.let_it_ride.game import LetItRideRules
from oddscalc.games.punto_banco.game import PuntoBancoRules
from oddscalc.protection.glimpse import Model
from oddscalc.protection.information import load_model
from oddscalc.protocol import OptionError

GAMES = (evidence_caribbean.GAME, evidence_let_it_ride.GAME, evidence_punto_banco.GAME)


def default_models(game: str) -> list[Model]:
    """The models a log of ``game`` is weighed against when none is named."""
    if game == evidence_caribbean.GAME:
        return [evidence_caribbean.knows_hole_cards(k) for k in range(1, 5)]
    if game == evidence_punto_banco.GAME:
        return [load_model("edge-sort-first-card", game)[0]]
    if game == evidence_let_it_ride.GAME:
        return [load_model("let-it-ride-flash-first-community", game)[0]]
    raise OptionError(f"evidence of information is read for {', '.join(GAMES)}, not {game}")


def read_log(game: str, table_ref: str | None, decisions: Iterable[Observed], models: Sequence[Model] = ()) -> Reading:
    """Every decision of a log (or of a part of it) of ``game`` on the table ``table_ref`` (None: the game's
    default) read under ``models`` (none: ``default_models``), not yet weighed."""
    chosen = list(models) or default_models(game)
    rules = Session(game).resolve(table_ref)
    if isinstance(rules, CaribbeanRules):
        return evidence_caribbean.reading(rules, decisions, chosen)
    if isinstance(rules, PuntoBancoRules):
        return evidence_punto_banco.reading(rules, decisions, chosen)
    if isinstance(rules, LetItRideRules):
        return evidence_let_it_ride.reading(rules, decisions, chosen)
    raise OptionError(f"evidence of information is read for {', '.join(GAMES)}, not {game}")


def weigh_log(game: str, table_ref: str | None, decisions: Iterable[Observed], models: Sequence[Model] = (),
              player: PlayerModel | None = None) -> Evidence:
    """Every decision of a log of ``game`` on the table ``table_ref`` (None: the game's default) weighed against
    ``models`` (none: ``default_models``)."""
    return read_log(game, table_ref, decisions, models).weighed(player)


def _read_part(args: tuple[str, str | None, Path, tuple[Model, ...], spread.Part]) -> Reading | None:
    """One part of the log read (None: it holds no decision)."""
    game, table_ref, path, models, part = args
    found = read_decisions(path, part)
    first = next(found, None)
    if first is None:
        return None
    return read_log(game, table_ref, itertools.chain((first,), found), models)


def weigh_path(game: str, table_ref: str | None, path: Path, models: Sequence[Model] = (),
               player: PlayerModel | None = None, parts: Sequence[spread.Part] = (None,),
               mapper: spread.Mapper | None = None) -> Evidence:
    """Every decision of the log at ``path`` weighed (:func:`weigh_log`), its ``parts`` (``spread.parts``) read
    side by side (``spread.side_by_side``: processes here, or the cluster of ``mapper``) and joined in file order:
    the same arrays and figures as one reader's. The per-decision EVs are computed in the parts; only the
    weighing, which needs the whole log's action frequencies, is done here."""
    chosen = tuple(models) or tuple(default_models(game))
    at = spread.where(path, mapper)
    read = [r for r in spread.side_by_side(_read_part, [(game, table_ref, at, chosen, p) for p in parts], mapper)
            if r is not None]
    whole = join(read) if read else read_log(game, table_ref, (), chosen)
    return whole.weighed(player)


__all__ = ["GAMES", "default_models", "read_log", "weigh_log", "weigh_path"]
