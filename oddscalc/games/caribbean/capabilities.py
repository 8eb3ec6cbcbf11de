"""What applies to Caribbean Stud Poker: its declaration, read without loading the game."""

from __future__ import annotations

from oddscalc.protocol import Capabilities, Collusion, Ev, Flash, Information, SimulatePlan

CAPABILITIES = Capabilities(
    key="caribbean",
    title="Caribbean Stud Poker",
    default_table="spain",  # the rule sheet's game: straight flush 25 and the fixed Jackpot
    game="oddscalc.games.caribbean.game:Caribbean",
    options=frozenset({"strategy"}),
    card="oddscalc.games.caribbean.card:RaiseCard",
    # the optimal strategy needs every dealer completion per hand: the simulator plays a named one
    simulate=SimulatePlan("oddscalc.simulate.caribbean:plan", 2_000_000),
    collusion=Collusion("oddscalc.protection.collusion.caribbean:collusion_sections", exact_partners=0,
                        most_partners=6, default_situations=200, exact_on_request=True, reduced_decks=True),
    ev=Ev("oddscalc.games.caribbean.ev:ev_sections", inputs=("hand", "up")),
    synthesis="oddscalc.games.caribbean.synthesis:synthesis_sections",
    flash=Flash("oddscalc.protection.flash:flash_sections", dealer_cards=(1, 2, 3, 4, 5), default=(1, 5)),
    information=Information("oddscalc.protection.information_caribbean:information_sections",
                            positions=("dealer_up", "dealer_hole_1", "dealer_hole_2", "dealer_hole_3", "dealer_hole_4"),
                            decisions=("raise",)),
)
