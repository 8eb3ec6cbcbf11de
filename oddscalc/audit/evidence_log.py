"""The evidence of a log in one call, for the ``audit`` command: the game's table resolved, its suspected models
(the ones named, or the game's defaults), every decision weighed, the sections and the chart.

Defaults: Caribbean Stud, a player who knows one, two, three or four hole cards (with the up card: two to five
dealer cards); punto banco, the shipped edge sort of the first card (``edge-sort-first-card``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from oddscalc.analysis import Session
from oddscalc.audit import evidence_caribbean, evidence_punto_banco
from oddscalc.audit.evidence import Evidence, PlayerModel
from oddscalc.audit.observed import Observed
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.punto_banco.game import PuntoBancoRules
from oddscalc.protection.glimpse import Model
from oddscalc.protection.information import load_model
from oddscalc.protocol import OptionError

GAMES = (evidence_caribbean.GAME, evidence_punto_banco.GAME)


def default_models(game: str) -> list[Model]:
    """The models a log of ``game`` is weighed against when none is named."""
    if game == evidence_caribbean.GAME:
        return [evidence_caribbean.knows_hole_cards(k) for k in range(1, 5)]
    if game == evidence_punto_banco.GAME:
        return [load_model("edge-sort-first-card", game)[0]]
    raise OptionError(f"evidence of information is read for {', '.join(GAMES)}, not {game}")


def weigh_log(game: str, table_ref: str | None, decisions: Iterable[Observed], models: Sequence[Model] = (),
              player: PlayerModel | None = None) -> Evidence:
    """Every decision of a log of ``game`` on the table ``table_ref`` (None: the game's default) weighed against
    ``models`` (none: ``default_models``)."""
    chosen = list(models) or default_models(game)
    rules = Session(game).resolve(table_ref)
    if isinstance(rules, CaribbeanRules):
        return evidence_caribbean.evidence(rules, decisions, chosen, player)
    if isinstance(rules, PuntoBancoRules):
        return evidence_punto_banco.evidence(rules, decisions, chosen, player)
    raise OptionError(f"evidence of information is read for {', '.join(GAMES)}, not {game}")


__all__ = ["GAMES", "default_models", "weigh_log"]
