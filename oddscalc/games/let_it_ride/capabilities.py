"""What applies to Let It Ride: its declaration, read without loading the game."""

from __future__ import annotations

from oddscalc.protocol import Capabilities, Collusion, Ev, Information, SimulatePlan

CAPABILITIES = Capabilities(
    key="let-it-ride",
    title="Let It Ride",
    default_table="standard",
    game="oddscalc.games.let_it_ride.game:LetItRide",
    options=frozenset({"strategy"}),
    card="oddscalc.games.let_it_ride.card:RideCard",
    simulate=SimulatePlan("oddscalc.simulate.let_it_ride:plan", 1_000_000),
    ev=Ev("oddscalc.games.let_it_ride.ev:ev_sections", inputs=("hand",)),
    synthesis="oddscalc.games.let_it_ride.synthesis:synthesis_sections",
    collusion=Collusion("oddscalc.protection.collusion.let_it_ride:collusion_sections", exact_partners=1,
                        most_partners=6, default_situations=5000),
    information=Information("oddscalc.protection.information_let_it_ride:information_sections",
                            positions=("community_1", "community_2"), decisions=("first", "second")),
)
