"""What applies to punto banco: its declaration, read without loading the game."""

from __future__ import annotations

from oddscalc.protocol import Capabilities, Counting, Ev, Information, SimulatePlan

CAPABILITIES = Capabilities(
    key="punto-banco",
    title="Punto banco",
    default_table="standard",
    game="oddscalc.games.punto_banco.game:PuntoBanco",
    options=frozenset({"decks"}),
    simulate=SimulatePlan("oddscalc.simulate.baccarat:punto_banco_plan", 10_000_000),
    ev=Ev("oddscalc.games.punto_banco.ev:ev_sections", inputs=("shoe", "removed")),
    counting=Counting("removal effects of every rank on every wager; a study of any wager settled on the coup",
                      effects="oddscalc.protection.counting:coup_counting",
                      study="oddscalc.protection.study:run_counted"),
    midcoup="oddscalc.games.punto_banco.midcoup:midcoup_sections",
    # the first four cards in dealing order and the card burnt before the coup; the one decision is the bet
    information=Information("oddscalc.protection.sorting_report:glimpse_sections",
                            positions=("player_1", "banker_1", "player_2", "banker_2", "burn"), decisions=("bet",)),
)
