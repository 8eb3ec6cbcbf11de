"""Count system files: read like tables (every problem with file, line and key; exit 3), a published count's tags
and rule as its source writes them, and a study that bets by a count file replayed plainly shoe by shoe."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from oracles import baccarat_brute

from oddscalc.cards import RANK_CHARS
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT, open_session
from oddscalc.datafile import TableError
from oddscalc.games.punto_banco.game import PuntoBancoRules
from oddscalc.protection import counting, study, study_figures
from oddscalc.protection.count_system import load_count, shipped_counts

GOOD = '''game = "punto-banco"
title = "A count"
wager = "dragon_7"
balanced = true

[tags]
A = 0
2 = 0
3 = 0
4 = -1
5 = -1
6 = -1
7 = -1
8 = 2
9 = 2
T = 0
J = 0
Q = 0
K = 0

[bet]
when = "true"
at_least = 4
'''


def _file(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "count.toml"
    p.write_text(text, encoding="utf-8")
    return p


def _problems(tmp_path: Path, text: str) -> str:
    with pytest.raises(TableError) as e:
        load_count(str(_file(tmp_path, text)), "punto-banco")
    assert e.value.what == "count system"
    return str(e.value)


def test_the_shipped_counts_are_their_sources_tags_and_rules() -> None:
    assert set(shipped_counts()) == {"how-dragon-7-unbalanced", "jacobson-dragon-7", "how-panda-8-co-count",
                                     "how-panda-8-two-person"}
    tags = {i: dict(zip(RANK_CHARS, load_count(i)[0].tags)) for i in shipped_counts()}
    jacobson, _ = load_count("jacobson-dragon-7")
    # Jacobson's {0,0,0,-1,-1,-1,-1,2,2,0} for A 2 .. 9 and the tens
    assert [tags["jacobson-dragon-7"][r] for r in "A23456789TJQK"] == [0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0]
    assert jacobson.balanced and jacobson.bets(8, 104) and not jacobson.bets(8, 105)  # true count 4 on 2 decks
    how, _ = load_count("how-dragon-7-unbalanced")
    assert tags["how-dragon-7-unbalanced"] == {**tags["jacobson-dragon-7"], "A": 1} and not how.balanced
    assert how.bets(32, 400) and not how.bets(31, 10)  # from -32, bet at 0 and above, whatever is left
    two, _ = load_count("how-panda-8-two-person")
    # the two-person co-count (6 7 Q K +1, 3 -1, 8 -3) added to the Dragon 7 count, rank by rank
    co = {"6": 1, "7": 1, "Q": 1, "K": 1, "3": -1, "8": -3}
    assert tags["how-panda-8-two-person"] == {r: t + co.get(r, 0) for r, t in tags["how-dragon-7-unbalanced"].items()}
    assert all(load_count(i)[0].published is not None for i in shipped_counts())


@pytest.mark.parametrize(("edit", "line", "said"), [
    (lambda t: t.replace("balanced = true", "balanced = false"), 4,
     "balanced: the tags of a full deck add up to 0: the count is balanced"),
    (lambda t: t.replace("A = 0", "A = 1"), 4, "balanced: the tags of a full deck add up to +4, not 0"),
    (lambda t: t.replace("K = 0\n", ""), 6, "tags.K: missing"),
    (lambda t: t.replace("K = 0", "K = 0\nX = 1"), 20, "tags.X: unknown key"),
    (lambda t: t.replace("A = 0", "A = 0.5"), 7, "tags.A"),
    (lambda t: t + 'start = 3\n', 21, 'start is for when = "running"'),
    (lambda t: t.replace('when = "true"', 'when = "running"') + 'per = "deck"\n', 21,
     'per is for when = "true"'),
    (lambda t: t.replace("at_least = 4", 'at_least = "four"'), 21, "at_least: a whole number or a decimal"),
    (lambda t: t.replace('game = "punto-banco"', 'game = "caribbean"'), 1, "this count is for caribbean, not "
                                                                           "punto-banco"),
    (lambda t: t + '[published]\nsource = "x"\ndecks = 8\ncut_card = 14\nburn = "two"\n', 28, "published.burn"),
])
def test_every_problem_names_its_line_and_key(tmp_path: Path, edit: object, line: int, said: str) -> None:
    text = _problems(tmp_path, edit(GOOD))  # type: ignore[operator]
    assert said in text and f"count.toml:{line}:" in text, text


def test_every_problem_at_once_and_ids_never_paths(tmp_path: Path) -> None:
    text = _problems(tmp_path, GOOD.replace("K = 0", "K = 0\nX = 1").replace("at_least = 4", 'at_least = "x"')
                     .replace('game = "punto-banco"', 'game = "caribbean"'))
    assert "tags.X" in text and "at_least" in text and "for caribbean" in text
    with pytest.raises(TableError, match="no count system with this id; shipped: how-dragon-7-unbalanced"):
        load_count("no-such-count")


def _one_deck() -> PuntoBancoRules:
    rules = open_session("punto-banco", decks=1).resolve("ez-baccarat")
    assert isinstance(rules, PuntoBancoRules)
    return rules


def test_a_study_by_a_count_file_replayed_plainly(tmp_path: Path) -> None:
    """One-deck shoes dealt again from their streams and played as the table reads (baccarat_brute's coup and
    settlement), the count kept here from the file's tags as written and its rule as its source states it: the
    bets and units won of the count's play, and the sum of the exact EV of the coups it bets."""
    rules = _one_deck()
    unbalanced = GOOD.replace("A = 0", "A = 1").replace("balanced = true", "balanced = false").replace(
        'when = "true"\nat_least = 4', 'when = "running"\nstart = -2\nat_least = 0')
    count, _ = load_count(str(_file(tmp_path, unbalanced)), "punto-banco")
    written = {"A": 1, "4": -1, "5": -1, "6": -1, "7": -1, "8": 2, "9": 2}
    fast, fx = counting.coup_ev(rules), counting.removal_effects(rules)
    shoes = 6
    st = study.run(rules, fast, fx, "dragon_7", shoes, study.Procedure(4, None), 7, count=count)
    play = st.plays[0]
    assert 0 < play.bets.sum() < st.coups
    copies = rules.cards.copies
    for shoe in range(shoes):
        laid = np.roll(np.arange(52), 4)
        shuffled = np.random.default_rng((7, shoe)).permutation(np.repeat(laid, np.asarray(copies)[laid]))
        order = [int(c) for c in shuffled]
        cards = [(RANK_CHARS[c // 4], c % 4) for c in order]
        unseen = Counter(c // 4 for c in order)
        running = -2 + written.get(cards[0][0], 0)  # the turned card is seen, the ones burnt face down are not
        unseen[order[0] // 4] -= 1
        i = 1 + (baccarat_brute.VALUE[cards[0][0]] or 10)
        bets, won, expected = 0, Fraction(0), Fraction(0)
        while len(order) - i > 6 and len(order) - i > 4:
            six = cards[i:i + 6]
            pt, pn, bt, bn = baccarat_brute.play([baccarat_brute.VALUE[r] for r, _ in six], rules.model.rules)
            (r1, s1), (r2, s2), (r3, s3), (r4, s4) = six[:4]
            coup = (pt, pn, bt, bn, r1 == r3, s1 == s3, r2 == r4, s2 == s4)
            (units,) = baccarat_brute.settle_by_hand(Counter({coup: 1}), rules.model.pays)["dragon_7"]
            if running >= 0:
                bets += 1
                won += units
                expected += fast.ev([unseen[r] for r in range(13)])["dragon_7"]
            for c in order[i:i + pn + bn]:
                unseen[c // 4] -= 1
                running += written.get(RANK_CHARS[c // 4], 0)
            i += pn + bn
        assert (int(play.bets[shoe]), play.won[shoe]) == (bets, pytest.approx(float(won), abs=1e-9))
        assert play.expected is not None and play.expected[shoe] == pytest.approx(float(expected), abs=1e-9)
    rows = study_figures.expected_section(st).records()
    assert float(rows[0]["bets_per_shoe"]) == pytest.approx(float(play.bets.mean()), abs=1e-8)  # type: ignore[arg-type]


def test_the_published_section_states_where_the_study_deals_otherwise() -> None:
    rules = _one_deck()
    count, _ = load_count("jacobson-dragon-7")
    st = study.run(rules, counting.coup_ev(rules), counting.removal_effects(rules), "dragon_7", 20,
                   study.Procedure(4, None), 3, count=count)
    assert all(p.expected is not None for p in st.plays)
    section = study_figures.published_section(st)
    assert section is not None
    assert "This study does not: 1 decks, the source 8; the cut card 4 cards from the end, the source 14" in \
        " ".join(section.intro)
    assert [r["figure_id"] for r in section.records()] == ["bound_per_shoe"]


def _cli(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["counting", *args])
    return r.exit_code, r.output


def test_the_counting_command_bets_by_a_count_file() -> None:
    code, out = _cli("punto-banco", "--table", "ez-baccarat", "--count", "how-dragon-7-unbalanced", "--shoes", "2",
                     "--as-published", "--format", "json")
    assert code == 0, out
    sections = json.loads(out)["sections"]
    assert {"counting_expected_dragon_7", "counting_published_dragon_7"} <= set(sections)
    assert "This study deals by it." in " ".join(sections["counting_published_dragon_7"]["intro"])


@pytest.mark.parametrize(("args", "code", "said"), [
    (["--count", "jacobson-dragon-7", "--wager", "panda_8"], EXIT_INPUT, "the count bets dragon_7; give one"),
    (["--count", "jacobson-dragon-7", "--trigger", "2"], EXIT_INPUT, "--trigger and --count"),
    (["--as-published", "--wager", "dragon_7"], EXIT_INPUT, "--as-published deals as a count file's"),
    (["--count", "jacobson-dragon-7", "--as-published", "--cut-card", "20"], EXIT_INPUT,
     "--as-published and --cut-card"),
    (["--count", "no-such"], 3, "no count system with this id"),
])
def test_count_options_fail_cleanly(args: list[str], code: int, said: str) -> None:
    got, out = _cli("punto-banco", "--table", "ez-baccarat", "--shoes", "1", *args)
    assert got == code and said in out and "Traceback" not in out, out


def test_the_house_game_refuses_a_count_file(tmp_path: Path) -> None:
    path = _file(tmp_path, GOOD.replace('game = "punto-banco"', 'game = "house-baccarat"').replace(
        'wager = "dragon_7"', 'wager = "house_game"'))
    code, out = _cli("house-baccarat", "--count", str(path), "--shoes", "1")
    assert code == EXIT_INPUT and "count files are for punto banco" in out, out
