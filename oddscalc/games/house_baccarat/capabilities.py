"""What applies to the rule sheet's house baccarat: its declaration, read without loading the game."""

from __future__ import annotations

from oddscalc.protocol import Capabilities, Counting, Ev, Information, Seats, SimulatePlan

CAPABILITIES = Capabilities(
    key="house-baccarat",
    title="House baccarat (rule sheet)",
    default_table="seed",
    game="oddscalc.games.house_baccarat.game:HouseBaccarat",
    options=frozenset({"decks", "players", "strategy"}),
    card="oddscalc.games.house_baccarat.card:DrawCard",
    simulate=SimulatePlan("oddscalc.simulate.baccarat:house_baccarat_plan", 10_000_000),
    counting=Counting("removal effects of every rank on the house game, one seat playing the full shoe's chart",
                      effects="oddscalc.protection.counting:house_counting",
                      study="oddscalc.protection.house_study:run_counted", wagers=("house_game",)),
    seats=Seats(most_players=7),
    ev=Ev("oddscalc.games.house_baccarat.ev:ev_sections", inputs=("hand", "players", "others")),
    synthesis="oddscalc.games.house_baccarat.synthesis:synthesis_sections",
    # with several seats the edge is not the one-seat figure: a filing leads with the edge by seats filled
    filing=("oddscalc.seats.game:seats_filled_section",),
    # one seat only: the next card out (the one it would draw) and the house's two cards, seen before it draws
    information=Information("oddscalc.protection.information_house:information_sections",
                            positions=("next_card", "house_1", "house_2"), decisions=("draw",)),
)
