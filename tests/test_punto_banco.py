"""Punto banco: published 8-deck figures, a brute force over every ordered deal of small shoes,
the shipped tables, and the CLI."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest
from click.testing import CliRunner

from oddscalc.analysis import Session
from oddscalc.catalog import resolve_table, shipped_tables
from oddscalc.cli import main
from oddscalc.games import GAMES
from oddscalc.games.house_baccarat import HouseBaccaratTable
from oddscalc.games.punto_banco import PuntoBancoPays, PuntoBancoTable, TableRules, count_coups, settle
from oddscalc.games.shoe import STANDARD_TABLEAU, Shoe
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions, WagerResult

GAME = GAMES["punto-banco"]
TABLES = [p.stem for p in shipped_tables("punto-banco")]
TOTAL_8 = 4_998_398_275_503_360


@pytest.fixture(scope="module")
def session(sessions: Callable[[str], Session]) -> Session:
    return sessions("punto-banco")


@pytest.fixture(scope="module")
def analyses(session: Session) -> dict[str, Analysis]:
    return {t: session.analyze(t) for t in TABLES}


def test_shipped_tables() -> None:
    assert set(TABLES) >= {"standard", "ez-baccarat", "super-6", "seed"}
    assert GAME.default_table == "standard"


def test_banker_edge_is_the_commission_formula(analyses: dict[str, Analysis]) -> None:
    # the published counts are asserted by test_verify; the 5% commission gives the banker edge exactly
    # (0.05 * wins + player wins - banker wins) / total
    banker = analyses["standard"].wager("banker")
    wins, losses = banker.row("banker_wins").combinations, banker.row("player_wins").combinations
    assert banker.house_edge == Fraction(losses - wins * Fraction(19, 20), TOTAL_8)


def test_probabilities_sum_to_one(analyses: dict[str, Analysis]) -> None:
    for a in analyses.values():
        for w in a.wagers:
            assert w.total_combinations == TOTAL_8
            assert sum((w.probability(r) for r in w.rows), Fraction(0)) == 1


def test_seed_tableau_differs_exactly_where_the_sheet_says() -> None:
    standard = resolve_table("punto-banco", "standard").model
    seed = resolve_table("punto-banco", "seed").model
    assert isinstance(standard, PuntoBancoTable) and isinstance(seed, PuntoBancoTable)
    assert standard.rules.banca_tableau == STANDARD_TABLEAU
    cells = {(t, x) for t in range(8) for x in range(10)
             if standard.rules.banca_tableau[t][x] != seed.rules.banca_tableau[t][x]}
    # sheet: "si tiene 4 puntos pide cuando hay 0,1,2,3,4,5,6,7" against the standard 2-7
    assert cells == {(4, 0), (4, 1)}
    assert seed.rules.banca_draws_when_punto_stands == ()  # the house stands when nobody drew
    assert standard.rules.banca_draws_when_punto_stands == (0, 1, 2, 3, 4, 5)
    assert seed.rules.punto_draws_on == standard.rules.punto_draws_on
    house = resolve_table("house-baccarat", "seed").model
    assert isinstance(house, HouseBaccaratTable)
    assert house.rules.house_tableau == seed.rules.banca_tableau


def test_seed_assumptions_are_marked(analyses: dict[str, Analysis]) -> None:
    a = analyses["seed"]
    assert any("pays" in s for s in a.assumptions)


# --- brute force ---------------------------------------------------------------------------

VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}


def brute_force(ranks: list[str], rules: TableRules) -> Counter[tuple[int, int, int, int, bool, bool]]:
    """Every ordered six-card sequence of actual cards, dealt as at the table:
    punto, banca, punto, banca, then the third cards in turn."""
    vals = [VALUE[r] for r in ranks]
    punto_draws = set(rules.punto_draws_on)
    banca_stood_draws = set(rules.banca_draws_when_punto_stands)
    tab = rules.banca_tableau
    out: Counter[tuple[int, int, int, int, bool, bool]] = Counter()
    for p1, b1, p2, b2, c5, c6 in itertools.permutations(range(len(ranks)), 6):
        pt = (vals[p1] + vals[p2]) % 10
        bt = (vals[b1] + vals[b2]) % 10
        pn = bn = 2
        if pt < 8 and bt < 8:
            nxt = c5
            third = None
            if pt in punto_draws:
                third = vals[c5]
                pt = (pt + third) % 10
                pn = 3
                nxt = c6
            if (bt in banca_stood_draws) if third is None else tab[bt][third] == "D":
                bt = (bt + vals[nxt]) % 10
                bn = 3
        out[(pt, pn, bt, bn, ranks[p1] == ranks[p2], ranks[b1] == ranks[b2])] += 1
    return out


def settle_by_hand(tally: Counter[tuple[int, int, int, int, bool, bool]],
                   pays: PuntoBancoPays) -> dict[str, Counter[Fraction]]:
    """Each wager's net units by combinations, straight from the rules of each bet."""
    out: dict[str, Counter[Fraction]] = {}
    for (pt, pn, bt, bn, ppair, bpair), n in tally.items():
        b = pays.banker
        if bt > pt:
            if b.three_card_7_pushes and bt == 7 and bn == 3:
                bank = Fraction(0)
            elif b.win_with_6 is not None and bt == 6:
                bank = b.win_with_6 * (1 - b.commission)
            else:
                bank = b.win * (1 - b.commission)
        else:
            bank = Fraction(0) if bt == pt else Fraction(-1)
        units = {
            "banker": bank,
            "player": pays.player.win if pt > bt else Fraction(0) if pt == bt else Fraction(-1),
            "tie": pays.tie.win if pt == bt else Fraction(-1),
        }
        if pays.player_pair:
            units["player_pair"] = pays.player_pair.win if ppair else Fraction(-1)
        if pays.banker_pair:
            units["banker_pair"] = pays.banker_pair.win if bpair else Fraction(-1)
        if pays.dragon_7:
            units["dragon_7"] = pays.dragon_7.win if bt > pt and bt == 7 and bn == 3 else Fraction(-1)
        if pays.panda_8:
            units["panda_8"] = pays.panda_8.win if pt > bt and pt == 8 and pn == 3 else Fraction(-1)
        for k, u in units.items():
            out.setdefault(k, Counter())[u] += n
    return out


def by_units(w: WagerResult) -> Counter[Fraction]:
    c: Counter[Fraction] = Counter()
    for r in w.rows:
        if r.combinations:
            c[r.units] += r.combinations
    return c


SUIT = list("A23456789TJQK")  # one 13-card suit: 13P6 = 1,235,520 sequences
PAIRS = ["A", "A", "5", "5", "K", "K", "Q", "T", "9", "3", "7", "4"]  # repeated ranks, several zeros


@pytest.mark.parametrize("ranks", [SUIT, PAIRS], ids=["one-suit", "with-pairs"])
def test_engine_equals_brute_force_on_a_small_shoe(ranks: list[str]) -> None:
    shoe = Shoe.from_ranks(dict(Counter(ranks)))
    models = {t: resolve_table("punto-banco", t).model for t in TABLES}
    by_rules: dict[tuple[object, ...], Counter[tuple[int, int, int, int, bool, bool]]] = {}
    for table, model in models.items():
        assert isinstance(model, PuntoBancoTable)
        r = model.rules
        key = (r.punto_draws_on, r.banca_tableau, r.banca_draws_when_punto_stands)
        if key not in by_rules:
            by_rules[key] = brute_force(ranks, r)
        tally = by_rules[key]
        coups = count_coups(shoe, r)
        assert coups.total == sum(tally.values()) == shoe.ordered(6)
        final: Counter[tuple[int, int, int, int]] = Counter()
        for (pt, pn, bt, bn, _, _), n in tally.items():
            final[(pt, pn, bt, bn)] += n
        assert dict(coups.outcomes) == dict(final), table
        want = settle_by_hand(tally, model.pays)
        wagers = settle(coups, model.pays)
        assert {w.wager for w in wagers} == set(want)
        for w in wagers:
            assert by_units(w) == +want[w.wager], (table, w.wager)
    assert len(by_rules) == 2  # the standard drawing rules and the sheet's


def test_decks_option_and_large_shoes(session: Session) -> None:
    table = resolve_table("punto-banco", "standard")
    one = session.analyze(table, RunOptions(decks=1))
    assert one.rules["decks"] == 1
    assert one.wager("banker").total_combinations == 52 * 51 * 50 * 49 * 48 * 47
    big = session.analyze(table, RunOptions(decks=40))  # 2080P6 no longer fits in int64
    w = big.wager("banker")
    assert w.total_combinations == Shoe.of_decks(40).ordered(6) > 2**63
    assert abs(float(w.house_edge) - 0.010579) < 0.0002
    assert not big.published_applies


def test_options_that_do_not_apply(session: Session) -> None:
    table = resolve_table("punto-banco", "standard")
    with pytest.raises(OptionError, match="--players does not apply to punto-banco"):
        session.analyze(table, RunOptions(players=2))
    assert GAME.options == frozenset({"decks"})


def test_seed_punto_bet_favours_the_bettor(analyses: dict[str, Analysis]) -> None:
    # banca stands whenever punto stood, so punto wins more often than banca on the sheet's rules
    a = analyses["seed"]
    assert a.wager("player").expected_value > 0
    assert "player (punto) bet favours the BETTOR" in a.headline[0]
    standard = analyses["standard"]
    assert standard.headline[0].startswith("Every wager favours the house")


def test_cli_json_report() -> None:
    res = CliRunner().invoke(main, ["report", "punto-banco", "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["game"] == "punto-banco" and data["table"] == "standard"
    assert "416P6 = 4,998,398,275,503,360" in data["counting_convention"]
    wagers = {w["wager"]: w for w in data["wagers"]}
    assert list(wagers) == ["banker", "player", "tie", "player_pair", "banker_pair"]
    banker = wagers["banker"]
    assert banker["total_combinations"] == TOTAL_8
    rows = {r["event"]: r["combinations"] for r in banker["rows"]}
    assert rows == {"banker_wins": 2_292_252_566_437_888, "tie": 475_627_426_473_216,
                    "player_wins": 2_230_518_282_592_256}
    assert banker["extras"] == {"banker_natural_8": 472_508_456_071_680, "banker_natural_9": 474_361_430_409_216}
    assert round(banker["house_edge_decimal"], 4) == 0.0106
    assert round(wagers["player"]["house_edge_decimal"], 4) == 0.0124
    assert round(wagers["tie"]["house_edge_decimal"], 4) == 0.1436
    assert data["published_checks"] and all(c["verdict"] == "ok" for c in data["published_checks"])


def test_cli_markdown_and_decks() -> None:
    res = CliRunner().invoke(main, ["report", "punto-banco", "--table", "seed", "--decks", "6"])
    assert res.exit_code == 0, res.output
    assert "312P6" in res.output and "Assumptions" in res.output
    res = CliRunner().invoke(main, ["report", "punto-banco", "--players", "2"])
    assert res.exit_code == 4
