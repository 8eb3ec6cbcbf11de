"""Punto banco: published figures, the shipped tables, wagers as data and their errors, and the CLI
(the brute force over every ordered deal of small shoes is in test_coup_features)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from oddscalc.analysis import Session
from oddscalc.catalog import resolve_table, shipped_tables
from oddscalc.cli.main import main
from oddscalc.games import GAMES
from oddscalc.games.house_baccarat.table import HouseBaccaratTable
from oddscalc.games.punto_banco.game import RULE_ALIASES, PuntoBancoTable
from oddscalc.games.shoe import STANDARD_TABLEAU, Shoe
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions
from oddscalc.verify import parse_expected

GAME = GAMES["punto-banco"]
TABLES = [p.stem for p in shipped_tables("punto-banco")]
TOTAL_8 = 4_998_398_275_503_360
ROOT = Path(__file__).resolve().parents[3]


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
    wins, losses = banker.row("win").combinations, banker.row("lose").combinations
    assert banker.house_edge == Fraction(losses - wins * Fraction(19, 20), TOTAL_8)


def test_probabilities_sum_to_one(analyses: dict[str, Analysis]) -> None:
    for a in analyses.values():
        for w in a.wagers:
            assert w.total_combinations == (52**6 if a.rules["decks"] == "infinite" else TOTAL_8)
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
    assert a.verdict.favours == "player" and a.verdict.player_wagers == ("player",)
    assert a.lead[0].startswith("This game favours the PLAYER: wager player (Player (punto)) has an expected value")
    standard = analyses["standard"]
    assert standard.verdict.favours == "house" and standard.verdict.player_wagers == ()
    assert standard.lead[0].startswith("Every wager favours the house; the lowest house edge is wager banker")


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
    assert rows == {"win": 2_292_252_566_437_888, "push": 475_627_426_473_216,
                    "lose": 2_230_518_282_592_256}
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


# --- wagers as data -------------------------------------------------------------------------------

# excelpunks.com, "Why does a Banker win on 6 pay half?" (8 decks): banker wins with each total, and the
# house edge of a commission-free banker bet whose win with that total pays 1:2
HALF_PAY = {1: (24_291_119_898_624, "-0.009920923"), 2: (44_681_581_871_104, "-0.007881223"),
            3: (72_927_778_568_192, "-0.005055698"), 4: (163_359_790_133_248, "0.003990401"),
            5: (216_715_928_915_968, "0.009327724"), 6: (269_232_304_455_680, "0.014581045"),
            7: (384_279_324_919_808, "0.026089433"), 8: (529_914_458_673_152, "0.040657614"),
            9: (586_850_279_002_112, "0.04635302")}


@pytest.mark.parametrize("total", sorted(HALF_PAY))
def test_banker_win_with_any_total_paying_half(tmp_path: Path, session: Session, total: int) -> None:
    text = (ROOT / "tables" / "punto-banco" / "super-6.toml").read_text()
    text = text.replace("when = { winner = \"banker\", banker_total = 6 }",
                        f"when = {{ winner = \"banker\", banker_total = {total} }}").split("[published]")[0]
    path = tmp_path / "punto-banco" / "half.toml"
    path.parent.mkdir()
    path.write_text(text)
    banker = session.analyze(str(path)).wager("banker")
    wins, edge = HALF_PAY[total]
    assert banker.row("win_with_6").combinations == wins
    assert parse_expected(edge).holds(banker.house_edge)


def _variant(tmp_path: Path, old: str, new: str) -> Result:
    text = (ROOT / "tables" / "punto-banco" / "ez-baccarat.toml").read_text()
    assert old in text
    path = tmp_path / "punto-banco" / "variant.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text.replace(old, new, 1))
    return CliRunner().invoke(main, ["report", "punto-banco", "--table", str(path)])


DRAGON = 'when = { winner = "banker", banker_total = 7, banker_cards = 3 }\npays = "40:1"'


@pytest.mark.parametrize("old,new,message", [
    (DRAGON, DRAGON.replace("banker_total", "bankr_total"), "unknown feature 'bankr_total'; features: winner,"),
    (DRAGON, DRAGON.replace("= 7", "= 12"), "banker_total = 12 is not a value it takes (0, 1, 2"),
    (DRAGON, DRAGON.replace('winner = "banker"', "banker_natural = true"), "rule 'dragon_7' can never hold"),
    (DRAGON, DRAGON.replace('"40:1"', '"forty"'), "bad ratio 'forty'"),
    ('event = "dragon_7"', 'event = "Dragon 7"', "an event id is lower case letters"),
    ('otherwise = { event = "lose", label = "Anything else" }\n', "",
     "no rule pays some coups (e.g. winner tie, player 0 with 2 cards, banker 0 with 2 cards); add an otherwise"),
    ('otherwise = { event = "lose", label = "Anything else" }\n',
     'otherwise = { event = "lose" }\n\n[[pays.dragon_7.rules]]\nevent = "all"\nwhen = { cards = [4, 5, 6] }\n'
     'pays = "1:1"\n', "rule 2 ('dragon_7') is never reached"),
    ('[pays.panda_8]\ntitle = "Panda 8"', '[pays.panda_8]\nlimit = 5\ntitle = "Panda 8"',
     "pays.panda_8.limit: unknown key"),
    ('event = "push_three_card_7"', 'event = "push"', "event 'push' is taken by the wager's own rows"),
])
def test_bad_rules_name_file_line_and_key(tmp_path: Path, old: str, new: str, message: str) -> None:
    r = _variant(tmp_path, old, new)
    assert r.exit_code == 3, r.output
    assert message in r.output and "Traceback" not in r.output
    assert re.search(r"variant\.toml:\d+: pays\.", r.output), r.output


def test_a_side_bet_in_the_old_form_says_how_to_write_it(tmp_path: Path) -> None:
    r = _variant(tmp_path, 'title = "Panda 8"\notherwise = { event = "lose", label = "Anything else" }',
                 'win = "25:1"')
    text = r.output
    assert r.exit_code == 3 and "a side bet is a list of rules ([[pays.<wager>.rules]]" in text, text


def test_either_side_rules_share_one_row_and_one_pay(session: Session) -> None:
    a = session.analyze("pairs")
    either = a.wager("either_pair")
    player, banker = a.wager("player_pair"), a.wager("banker_pair")
    both = session.counts(session.resolve("pairs"))
    from oddscalc.games.punto_banco.coup_features import features
    f = features()
    assert either.row("pair").combinations == int(both[f.player_pair | f.banker_pair].sum())
    assert player.row("pair").combinations + banker.row("pair").combinations > either.row("pair").combinations
    assert [r.event for r in either.rows] == ["pair", "lose"]


def test_tie_switch_and_banca_natural_switch(tmp_path: Path, session: Session) -> None:
    text = (ROOT / "tables" / "punto-banco" / "standard.toml").read_text().split("[published]")[0]
    path = tmp_path / "punto-banco" / "t.toml"
    path.parent.mkdir()
    path.write_text(text.replace('[pays.banker]\nwin = "1:1"', '[pays.banker]\nwin = "1:1"\ntie = "lose"'))
    a = session.analyze(str(path))
    base = session.analyze("standard")
    ties = base.wager("banker").row("push").combinations
    assert a.wager("banker").expected_value == base.wager("banker").expected_value - Fraction(ties, TOTAL_8)
    assert a.wager("player").expected_value == base.wager("player").expected_value
    assert "The banker bet loses on a tie." in a.wager("banker").notes
    assert a.wager("banker").row("lose_tie").combinations == ties  # a tie that loses is no push
    path.write_text(text.replace("[rules]\n", "[rules]\nbanker_natural_stops_player = false\n"))
    b = session.analyze(str(path))
    assert b.rules["banker_natural_stops_player"] is False
    assert b.wager("banker").expected_value != base.wager("banker").expected_value
    section = b.section("drawing_rules")
    assert any("does not stop punto drawing" in line for line in section.intro)


def test_rules_say_player_and_banker_and_take_the_sheets_names_as_aliases(tmp_path: Path, session: Session) -> None:
    # the seed table keeps the sheet's punto/banca keys; written as player/banker it is the same table
    seed = (ROOT / "tables" / "punto-banco" / "seed.toml").read_text()
    assert "banca_tableau = [" in seed and "player_draws_on" not in seed.split("[pays")[0].split("#")[0]
    renamed = seed
    for new, old in RULE_ALIASES.items():
        renamed = renamed.replace(f"\n{old} = ", f"\n{new} = ")
    assert renamed != seed
    path = tmp_path / "punto-banco" / "renamed.toml"
    path.parent.mkdir()
    path.write_text(renamed)
    a, b = session.analyze("seed"), session.analyze(str(path))
    assert [w.rows for w in a.wagers] == [w.rows for w in b.wagers] and a.rules == b.rules
    assert set(a.rules) >= set(RULE_ALIASES) and not set(a.rules) & set(RULE_ALIASES.values())
    # both names of one key: exit 3, naming the file, the line of [rules] and both keys
    path.write_text(seed.replace("\nbanca_tableau = [", "\nbanker_tableau = []\nbanca_tableau = [", 1))
    r = CliRunner().invoke(main, ["report", "punto-banco", "--table", str(path)])
    assert r.exit_code == 3, r.output
    assert re.search(r"renamed\.toml:\d+: rules: banker_tableau and its alias banca_tableau are both given",
                     r.output), r.output
