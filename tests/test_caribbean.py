"""Caribbean Stud: stage-1 counts against brute force, settling against published figures."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddscalc import cache
from oddscalc.cards import FULL_DECK, Deck, parse_cards, rank_of, reduced_deck
from oddscalc.games import RunOptions, caribbean
from oddscalc.games.caribbean import GAME, STRATEGIES, counts_for_hands, dealer_counts, main_wager, settle
from oddscalc.hands import BINOM, HAND_CLASSES, HandClass, colex_combos, hand_table, hand_value
from oddscalc.tables import resolve_table

US = resolve_table("caribbean", "us")
SMALL = reduced_deck("8", 2)  # ranks 8..A in 2 suits: C(14,5) * 9 * C(8,4) = 1,261,260 deals


def _brute(deck: Deck, qualifier: tuple[HandClass, tuple[int, ...]], strategy: str) -> Counter[str]:
    """Every deal played as the rules read: compare dealer and player hands with the plain evaluator."""
    pays = {c: getattr(US.model.pays.main, c.value) for c in HAND_CLASSES}  # type: ignore[attr-defined]
    cards = deck.cards
    value = {frozenset(h): hand_value(h) for h in itertools.combinations(cards, 5)}
    key = {h: (9 - HAND_CLASSES.index(v[0]), v[1]) for h, v in value.items()}
    qkey = (9 - HAND_CLASSES.index(qualifier[0]), qualifier[1])
    tally: Counter[str] = Counter()
    for hand in itertools.combinations(cards, 5):
        hk = key[frozenset(hand)]
        cls, tie = value[frozenset(hand)]
        ranks = sorted((rank_of(c) for c in hand), reverse=True)
        is_ak = cls == HandClass.HIGH_CARD and ranks[0] == 12 and ranks[1] == 11
        win_event = "win_ace_king" if is_ak else "win_other_high_card" if cls == HandClass.HIGH_CARD else f"win_{cls.value}"
        rest = [c for c in cards if c not in hand]
        for up in rest:
            outcome: Counter[str] = Counter()
            for hole in itertools.combinations([c for c in rest if c != up], 4):
                dk = key[frozenset(hole + (up,))]
                if dk < qkey:
                    outcome["dealer_not_qualified"] += 1
                elif dk < hk:
                    outcome[win_event] += 1
                elif dk == hk:
                    outcome["push"] += 1
                else:
                    outcome["dealer_wins"] += 1
            n = sum(outcome.values())
            made = HAND_CLASSES.index(cls) <= 8
            u = rank_of(up)
            if strategy == "optimal":
                pay = pays[cls]
                ev = (outcome["dealer_not_qualified"] + outcome[win_event] * (1 + 2 * pay) - 3 * outcome["dealer_wins"]) / Fraction(n)
                raise_ = ev > -1
            elif strategy == "rules-of-thumb":
                match = u in ranks
                raise_ = made or (is_ak and ((u <= 10 and match) or (u >= 11 and (10 in ranks or 9 in ranks))
                                             or (not match and 10 in ranks and u < ranks[3])))
            else:
                raise_ = {"raise-pair-plus": made, "raise-ak-plus": made or is_ak, "always-raise": True}[strategy]
            if raise_:
                tally.update(outcome)
            else:
                tally["fold"] += n
    return tally


@pytest.fixture(scope="module")
def small_counts():  # type: ignore[no-untyped-def]
    return dealer_counts(SMALL, "ace-king", use_cache=False)


@pytest.mark.parametrize("strategy", ["optimal", "rules-of-thumb", "raise-ak-plus"])
def test_reduced_deck_equals_brute_force(small_counts, strategy: str) -> None:  # type: ignore[no-untyped-def]
    w = main_wager(small_counts, US.model.pays.main, settle(small_counts, US.model.pays.main, strategy))  # type: ignore[attr-defined]
    assert w.total_combinations == math.comb(14, 5) * 9 * math.comb(8, 4) == 1_261_260
    got = {r.event: r.combinations for r in w.rows if r.combinations}
    assert got == dict(_brute(SMALL, (HandClass.HIGH_CARD, (12, 11)), strategy))


def test_other_qualifier_equals_brute_force() -> None:
    dc = dealer_counts(SMALL, "pair of tens", use_cache=False)
    w = main_wager(dc, US.model.pays.main, settle(dc, US.model.pays.main, "always-raise"))  # type: ignore[attr-defined]
    assert {r.event: r.combinations for r in w.rows if r.combinations} == dict(_brute(SMALL, (HandClass.PAIR, (8,)), "always-raise"))


def test_symmetry_on_equals_symmetry_off(small_counts) -> None:  # type: ignore[no-untyped-def]
    off = dealer_counts(SMALL, "ace-king", use_cache=False, symmetry=False)
    assert len(off.reps) == math.comb(14, 5) and len(small_counts.reps) < len(off.reps)
    for name in STRATEGIES:
        a = settle(small_counts, US.model.pays.main, name).tally  # type: ignore[attr-defined]
        b = settle(off, US.model.pays.main, name).tally  # type: ignore[attr-defined]
        assert (a == b).all(), name


def test_full_deck_counts_match_brute_force_on_random_hands() -> None:
    rng = random.Random(20261130)
    ht = hand_table(FULL_DECK)
    q = ht.strength_at_least(HandClass.HIGH_CARD, (12, 11))
    hands = [sorted(rng.sample(range(52), 5)) for _ in range(3)] + [sorted(parse_cards("As Ks Qs Js Ts")),
                                                                     sorted(parse_cards("Ah Kd 7c 5s 2h"))]
    got = counts_for_hands(FULL_DECK, "ace-king", np.array(hands, dtype=np.int8))
    holes = colex_combos(46, 4).astype(np.int64)
    for i, hand in enumerate(hands):
        sp = ht.strength_of(hand)
        rest = [c for c in range(52) if c not in hand]
        for ui, up in enumerate(rest):
            if ui % 9:  # every ninth up card keeps the test quick; all 47 are covered across hands
                continue
            others = np.array([c for c in rest if c != up], dtype=np.int64)
            dealer = np.sort(np.column_stack([others[holes], np.full(len(holes), up)]), axis=1)
            idx = sum(BINOM[dealer[:, k], k + 1] for k in range(5))
            s = ht.strength[idx]
            nq = int((s < q).sum())
            win = int(((s >= q) & (s < sp)).sum()) if sp >= q else 0
            push = int(((s >= q) & (s == sp)).sum()) if sp >= q else 0
            assert len(s) == 163_185
            assert tuple(got[i, ui]) == (nq, win, push), (hand, up)


@pytest.fixture(scope="module")
def full_us():  # type: ignore[no-untyped-def]
    return GAME.analyze(US, RunOptions())


def test_published_us_return_table(full_us) -> None:  # type: ignore[no-untyped-def]
    main = full_us.wager("main")
    assert main.total_combinations == 19_933_230_517_200
    rows = {r.event: r.combinations for r in main.rows}
    published = {
        "win_royal_flush": 16_759_740, "win_straight_flush": 156_929_720, "win_four_of_a_kind": 2_832_435_800,
        "win_full_house": 16_624_475_280, "win_flush": 21_856_990_280, "win_straight": 43_805_516_100,
        "win_three_of_a_kind": 234_242_908_320, "win_two_pair": 488_012_139_360,
        "dealer_not_qualified": 4_532_514_033_720, "push": 321_623_100, "fold": 9_523_005_974_460,
        "dealer_wins": 2_726_592_727_512,
    }
    for event, n in published.items():
        assert rows[event] == n, event
    assert rows["win_pair"] + rows["win_ace_king"] == 2_343_248_003_808
    assert f"{float(main.house_edge) * 100:.3f}" == "5.224"
    assert f"{float(main.element_of_risk) * 100:.3f}" == "2.555"  # type: ignore[arg-type]
    assert f"{float(main.average_stake):.4f}" == "2.0445"


def test_optimal_beats_every_named_strategy(full_us) -> None:  # type: ignore[no-untyped-def]
    data = {s.title: s.data for s in full_us.sections}["Named strategies compared"]
    best = data["optimal"]["expected_value"]
    assert all(best >= v["expected_value"] for v in data.values())
    assert data["always-raise"]["expected_value"] < data["raise-ak-plus"]["expected_value"] < best


def test_ace_king_chart_counts(full_us) -> None:  # type: ignore[no-untyped-def]
    ak = {s.title: s.data for s in full_us.sections}["Strategy: ace-king hands"]
    # every ace-king high hand (167,280) with every up card and hole set
    assert ak["ak_total"] == 167_280 * 47 * 163_185
    assert 0 < ak["ak_raised"] < ak["ak_total"]


def test_spain_jackpot_exact() -> None:
    t = resolve_table("caribbean", "spain")
    a = GAME.analyze(t, RunOptions())
    jp = a.wager("jackpot")
    per_hand = 47 * 163_185
    assert {r.event: r.combinations for r in jp.rows}["royal_flush"] == 4 * per_hand
    expected = Fraction(4 * 25000 + 36 * 2500 + 624 * 1250, 2_598_960) / Fraction(1, 2) - 1
    assert jp.expected_value == expected
    assert a.wager("main").house_edge > resolve_and_edge("us")


def resolve_and_edge(table: str) -> Fraction:
    return GAME.analyze(resolve_table("caribbean", table), RunOptions()).wager("main").house_edge


def test_damaged_cache_is_rebuilt(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ODDSCALC_CACHE_DIR", str(tmp_path))
    first = dealer_counts(SMALL, "ace-king")
    (data,) = list(tmp_path.glob("*.bin"))
    blob = bytearray(data.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    data.write_bytes(bytes(blob))
    assert cache.load({"nope": 1}) is None
    caribbean._LOADED.clear()  # as a new process would start
    again = dealer_counts(SMALL, "ace-king")
    assert (np.asarray(again.counts) == np.asarray(first.counts)).all()
    assert data.read_bytes() != bytes(blob)  # rewritten, not trusted


def test_strategy_option_and_bad_strategy() -> None:
    from oddscalc.games import OptionError

    a = GAME.analyze(US, RunOptions(strategy="raise-ak-plus"))
    assert a.wager("main").strategy == "raise-ak-plus"
    with pytest.raises(OptionError):
        GAME.analyze(US, RunOptions(strategy="bluff"))


_FULL_COUNTER = None


def _full_counter():  # type: ignore[no-untyped-def]
    global _FULL_COUNTER
    if _FULL_COUNTER is None:
        _FULL_COUNTER = caribbean._counter(FULL_DECK, "ace-king")
    return _FULL_COUNTER


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True), st.permutations(range(4)))
def test_suit_permutation_changes_no_count(hand: list[int], perm: list[int]) -> None:
    moved = [(c & ~3) | perm[c & 3] for c in hand]
    a, b = _full_counter()(np.array([sorted(hand), sorted(moved)], dtype=np.int8))
    ups_a = [c for c in range(52) if c not in hand]
    ups_b = [c for c in range(52) if c not in moved]
    by_up_b = {u: tuple(b[i]) for i, u in enumerate(ups_b)}
    for i, u in enumerate(ups_a):
        assert tuple(a[i]) == by_up_b[(u & ~3) | perm[u & 3]]
