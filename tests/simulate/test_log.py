"""``simulate --log``: reproducible hand logs; optimal play is the engine's; damage, mispays and informed players."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from oddscalc.analysis import Session
from oddscalc.audit.reader import header, rounds
from oddscalc.cards import FULL_DECK, parse_card
from oddscalc.catalog import resolve_table
from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.games.caribbean.ev import hand_ev
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions
from oddscalc.simulate.dealing import full_shoe
from oddscalc.simulate.log import damaged, parse_rate, write_log
from oddscalc.simulate.log_caribbean import optimal_raiser


def test_same_seed_same_log(tmp_path: Path) -> None:
    a = write_log("punto-banco", tmp_path / "a.jsonl", rounds=300, seed=7)
    b = write_log("punto-banco", tmp_path / "b.jsonl", rounds=300, seed=7)
    c = write_log("punto-banco", tmp_path / "c.jsonl", rounds=300, seed=8)
    assert a.path.read_bytes() == b.path.read_bytes() != c.path.read_bytes()
    assert header(a.path).generator is not None
    assert sum(1 for _ in rounds(a.path)) == 300


def test_optimal_raises_as_the_engine_counts(tmp_path: Path) -> None:
    """The looked-up decision equals the exact EV comparison of ``ev`` (every dealer completion counted)."""
    table = resolve_table("caribbean", "spain")
    raises = optimal_raiser(table)
    rules = Session("caribbean", RunOptions()).resolve(table)
    rng = np.random.default_rng(5)
    deals = np.array([rng.permutation(52)[:6] for _ in range(12)], dtype=np.int64)
    # and hands near the line: ace-king against several up cards
    ak = [parse_card(c) for c in ("As", "Kd", "7h", "5c", "3s")]
    deals = np.vstack([deals, [[*ak, parse_card(u)] for u in ("Ah", "Kc", "7d", "Qs", "2d", "3c")]])
    got = raises(deals[:, :5], deals[:, 5], deals[:, 5:])
    for row, r in zip(deals.tolist(), got.tolist()):
        ev = hand_ev(rules, tuple(row[:5]), row[5])  # type: ignore[arg-type]
        n = ev.not_qualified + ev.wins + ev.pushes + ev.losses
        raise_ev = Fraction(ev.not_qualified + ev.wins * (1 + 2 * ev.pays) - 3 * ev.losses, n)
        assert r == (raise_ev > -1), row


def test_damage_and_rate() -> None:
    shoe = full_shoe(1)
    assert len(damaged(shoe, ("missing:As",))) == 51 and parse_card("As") not in damaged(shoe, ("missing:As",))
    assert list(damaged(shoe, ("doubled:2c",))).count(0) == 2
    for bad in ("gone:As", "missing:Zz", "missing:As missing:As"):
        with pytest.raises(OptionError):
            damaged(shoe, (bad,))
    with pytest.raises(OptionError, match="no As is left"):
        damaged(shoe, ("missing:As", "missing:As"))
    assert parse_rate("0.1%") == Fraction(1, 1000) == parse_rate("1/1000")
    for bad in ("2", "-0.1", "x", "1/0"):
        with pytest.raises(OptionError):
            parse_rate(bad)


def test_a_missing_card_is_never_dealt(tmp_path: Path) -> None:
    log = write_log("caribbean", tmp_path / "m.jsonl", rounds=400, strategy="rules-of-thumb",
                    damage=("missing:As",)).path
    assert all("As" not in (*r.cards.player, *r.cards.dealer) for _, r in rounds(log))


def test_mispays_change_only_the_paid_and_only_at_the_rate(tmp_path: Path) -> None:
    honest = write_log("punto-banco", tmp_path / "h.jsonl", rounds=2000, seed=3).path
    bad = write_log("punto-banco", tmp_path / "b.jsonl", rounds=2000, seed=3, mispay="1%")
    differ = [(a, b) for a, b in zip(honest.read_text().splitlines()[1:], bad.path.read_text().splitlines()[1:])
              if a != b]
    assert len(differ) == bad.mispaid and 5 <= bad.mispaid <= 40
    for a, b in differ:
        ra, rb = json.loads(a), json.loads(b)
        assert ra["cards"] == rb["cards"] and Fraction(rb["paid"]["banker"]) - Fraction(ra["paid"]["banker"]) == 1


def test_an_edge_sorter_wins_more_than_the_banker_bettor(tmp_path: Path) -> None:
    """Knowing the first card's group is worth some 6.8% a coup against the banker's -1.06%: over 4,000 coups the
    difference is several standard deviations."""
    honest = write_log("punto-banco", tmp_path / "h.jsonl", rounds=4000, seed=11).path
    sorter = write_log("punto-banco", tmp_path / "s.jsonl", rounds=4000, seed=11, knows="edge-sort-first-card").path

    def won(path: Path) -> Fraction:
        return sum((Fraction(v) for _, r in rounds(path) for v in r.paid.values()), Fraction(0))

    assert won(sorter) > won(honest) + 150
    bets = {r.decisions[0].action for _, r in rounds(sorter)}
    assert bets <= {"player", "banker", "tie", "none"} and len(bets) >= 2


def test_the_cli_writes_a_log_and_never_over_an_input(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "log.jsonl"
    result = runner.invoke(main, ["simulate", "punto-banco", "--log", str(out), "-n", "50"])
    assert result.exit_code == 0, result.output
    assert sum(1 for _ in rounds(out)) == 50
    table = tmp_path / "t" / "standard.toml"
    table.parent.mkdir()
    table.write_bytes(resolve_table("punto-banco", None).path.read_bytes())
    before = table.read_bytes()
    result = runner.invoke(main, ["simulate", "punto-banco", "--table", str(table), "--log", str(table), "-n", "5"])
    assert result.exit_code == EXIT_INPUT and "a file this command reads" in result.output
    assert table.read_bytes() == before
    result = runner.invoke(main, ["simulate", "punto-banco", "--mispay", "0.1"])
    assert result.exit_code == EXIT_INPUT and "give --log FILE" in result.output


def test_knows_refuses_another_games_model(tmp_path: Path) -> None:
    from oddscalc.datafile import TableError

    with pytest.raises(TableError, match="not caribbean"):
        write_log("caribbean", tmp_path / "x.jsonl", rounds=5, knows="edge-sort-first-card")


def test_informed_caribbean_player_raises_more_knowing_a_hole_card(tmp_path: Path) -> None:
    """Seeing a hole card, the player folds hands the dealer beats and raises some he would fold: over 25 deals
    his decisions differ from the blind optimal ones somewhere."""
    from oddscalc.protection.information import load_model
    from oddscalc.simulate.log_caribbean import informed_raiser

    table = resolve_table("caribbean", "spain")
    model, _ = load_model("caribbean-flash-1-hole", "caribbean")
    informed = informed_raiser(table, model, np.arange(52, dtype=np.int64))
    blind = optimal_raiser(table)
    rng = np.random.default_rng(2)
    cards = np.array([rng.permutation(52)[:10] for _ in range(25)], dtype=np.int64)
    a = informed(cards[:, :5], cards[:, 5], cards[:, 5:])
    b = blind(cards[:, :5], cards[:, 5], cards[:, 5:])
    assert (a != b).any()
    assert FULL_DECK.size == 52
