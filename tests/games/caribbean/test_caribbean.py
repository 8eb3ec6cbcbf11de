"""Caribbean Stud: stage-1 counts against brute force, settling against published figures."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import dealer_search
from oracles.shared import shared

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck, parse_cards, rank_of, reduced_deck
from oddscalc.catalog import load_table, resolve_table
from oddscalc.filing.paytools import with_pay
from oddscalc.games.caribbean import dealer_sweep, raise_table
from oddscalc.games.caribbean.count import dealer_counts_of, qualifier_strength
from oddscalc.games.caribbean.game import Caribbean
from oddscalc.games.caribbean.raise_table import STRATEGIES, RaiseTable
from oddscalc.games.caribbean.settle import pay_list, settle_counts
from oddscalc.games.caribbean.table import RaisePays
from oddscalc.games.caribbean.wagers import main_wager
from oddscalc.hands import BINOM, HAND_CLASSES, HandClass, colex_combos, hand_table, hand_value
from oddscalc.progress import Progress
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import Money, Odds

US = resolve_table("caribbean", "us")
SMALL = reduced_deck("8", 2)  # ranks 8..A in 2 suits: C(14,5) * 9 * C(8,4) = 1,261,260 deals


Deal = tuple[HandClass, list[int], bool, str, int, Counter[str]]


@functools.cache
def _deals(deck: Deck, qualifier: tuple[HandClass, tuple[int, ...]]) -> list[Deal]:
    """Every player hand and dealer up card with the dealer's hole cards played out, compared with the plain
    evaluator: the hand's class, its ranks high to low, whether it is ace-king high, its win event, the up
    card's rank, and the outcomes over every hole (a strategy only decides which of these it raises). Dealt once
    for the run's workers: tests on either worker read it."""
    return shared(f"caribbean deals {deck.cards} {qualifier}", lambda: _deal_out(deck, qualifier))


def _deal_out(deck: Deck, qualifier: tuple[HandClass, tuple[int, ...]]) -> list[Deal]:
    cards = deck.cards
    value = {frozenset(h): hand_value(h) for h in itertools.combinations(cards, 5)}
    key = {h: (9 - HAND_CLASSES.index(v[0]), v[1]) for h, v in value.items()}
    qkey = (9 - HAND_CLASSES.index(qualifier[0]), qualifier[1])
    out: list[Deal] = []
    for hand in itertools.combinations(cards, 5):
        hk = key[frozenset(hand)]
        cls, _ = value[frozenset(hand)]
        ranks = sorted((rank_of(c) for c in hand), reverse=True)
        is_ak = cls == HandClass.HIGH_CARD and ranks[0] == 12 and ranks[1] == 11
        win_event = ("win_ace_king" if is_ak else "win_other_high_card" if cls == HandClass.HIGH_CARD
                     else f"win_{cls.value}")
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
                    outcome["lose"] += 1
            out.append((cls, ranks, is_ak, win_event, rank_of(up), outcome))
    return out


def _raises_optimally(outcome: Counter[str], win_event: str, pay: Fraction) -> bool:
    """Raising (antes won over the holes, per hole) beats folding's -1; an exact tie folds."""
    gain = outcome["dealer_not_qualified"] + outcome[win_event] * (1 + 2 * pay) - 3 * outcome["lose"]
    return gain / Fraction(sum(outcome.values())) > -1


def _brute(deck: Deck, qualifier: tuple[HandClass, tuple[int, ...]], strategy: str,
           main: RaisePays | None = None) -> Counter[str]:
    """Every deal played as the rules read: each player hand raised or folded by the strategy."""
    table = main if main is not None else US.model.pays.main  # type: ignore[attr-defined]
    pays = {c: getattr(table, c.value) for c in HAND_CLASSES}
    tally: Counter[str] = Counter()
    for cls, ranks, is_ak, win_event, u, outcome in _deals(deck, qualifier):
        n = sum(outcome.values())
        made = HAND_CLASSES.index(cls) <= 8
        if strategy == "optimal":
            raise_ = _raises_optimally(outcome, win_event, pays[cls])
        elif strategy == "rules-of-thumb":
            match = u in ranks
            raise_ = made or (is_ak and ((u <= 10 and match) or (u >= 11 and (10 in ranks or 9 in ranks))
                                         or (not match and 10 in ranks and u < ranks[3])))
        elif strategy == "ace-king-jack-8-3":
            raise_ = made or tuple(ranks) >= (12, 11, 9, 6, 1)
        elif strategy == "matching-rank":
            raise_ = made or (is_ak and u in ranks)
        else:
            raise_ = {"raise-pair-plus": made, "raise-ak-plus": made or is_ak, "always-raise": True}[strategy]
        if raise_:
            tally.update(outcome)
        else:
            tally["fold"] += n
    return tally


PAYS = US.model.pays.main  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def small_counts() -> RaiseTable:
    return dealer_counts_of(SMALL, "ace-king").table()


@pytest.mark.parametrize("strategy", ["optimal", "rules-of-thumb", "raise-ak-plus", "ace-king-jack-8-3",
                                      "matching-rank"])
def test_reduced_deck_equals_brute_force(small_counts: RaiseTable, strategy: str) -> None:
    w = main_wager(small_counts, PAYS, settle_counts(small_counts, PAYS, strategy))
    assert w.total_combinations == math.comb(14, 5) * 9 * math.comb(8, 4) == 1_261_260
    got = {r.event: r.combinations for r in w.rows if r.combinations}
    assert got == dict(_brute(SMALL, (HandClass.HIGH_CARD, (12, 11)), strategy))


def test_other_qualifier_equals_brute_force() -> None:
    dc = dealer_counts_of(SMALL, "pair of tens").table()
    w = main_wager(dc, PAYS, settle_counts(dc, PAYS, "always-raise"))
    brute = _brute(SMALL, (HandClass.PAIR, (8,)), "always-raise")
    assert {r.event: r.combinations for r in w.rows if r.combinations} == dict(brute)


def test_other_qualifier_equals_brute_force_on_twelve_cards() -> None:
    # the fast tier's case of the test above: the same count against the same brute force, on 9 to ace of two suits
    deck = reduced_deck("9", 2)
    dc = dealer_counts_of(deck, "pair of tens").table()
    w = main_wager(dc, PAYS, settle_counts(dc, PAYS, "always-raise"))
    brute = _brute(deck, (HandClass.PAIR, (8,)), "always-raise")
    assert {r.event: r.combinations for r in w.rows if r.combinations} == dict(brute)
    assert brute["dealer_not_qualified"] and brute["push"]  # the qualifier decides some deals, some tie


@pytest.mark.parametrize("deck,qualifier", [(SMALL, "ace-king"), (reduced_deck("7", 3), "pair of nines"),
                                             (Deck((0, 1, 2, 3, 11, 12), 4), "any")])
def test_sweep_equals_search(deck: Deck, qualifier: str) -> None:
    # the strength sweep against the earlier binary-search kernel: two methods, one answer
    sweep = dealer_counts_of(deck, qualifier)
    search = dealer_search.dealer_counts_search(deck, qualifier)
    assert (sweep.counts == search.counts).all()


def test_symmetry_on_equals_symmetry_off(small_counts: RaiseTable) -> None:
    off = dealer_counts_of(SMALL, "ace-king", symmetry=False).table()
    assert len(off.reps) == math.comb(14, 5) and len(small_counts.reps) < len(off.reps)
    for name in STRATEGIES:
        a = settle_counts(small_counts, PAYS, name).tally
        b = settle_counts(off, PAYS, name).tally
        assert (a == b).all(), name


@pytest.mark.deep  # the full deck's larger case of the reduced decks' brute force above
def test_full_deck_counts_match_brute_force_on_random_hands() -> None:
    rng = random.Random(20261130)
    ht = hand_table(FULL_DECK)
    q = ht.strength_at_least(HandClass.HIGH_CARD, (12, 11))
    hands = [sorted(rng.sample(range(52), 5)) for _ in range(3)] + [sorted(parse_cards("As Ks Qs Js Ts")),
                                                                     sorted(parse_cards("Ah Kd 7c 5s 2h"))]
    got = dealer_search.counter(FULL_DECK, q)(np.array(hands, dtype=np.int8))
    swept = dealer_sweep.count_all(FULL_DECK, q, np.array(hands, dtype=np.int8), Progress(False, ""))
    assert (swept == got).all()  # the sweep and the search agree; both are checked against brute force below
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
def session(sessions: Callable[[str], Session]) -> Session:
    return sessions("caribbean")


@pytest.fixture(scope="module")
def full_us(session: Session) -> Analysis:
    return session.analyze(US)


def test_us_return_table_adds_up(full_us: Analysis) -> None:
    # the published rows are asserted by test_verify; here: every deal is counted once, by outcome
    main = full_us.wager("main")
    assert main.total_combinations == math.comb(52, 5) * 47 * math.comb(46, 4)
    folds = main.row("fold").combinations
    assert main.extras["raise_frequency"] == 1 - Fraction(folds, main.total_combinations)
    royals = 4 * 47 * math.comb(46, 4)  # the player's royal is always raised: win, push, or unqualified dealer
    assert main.row("win_royal_flush").combinations < royals


def test_optimal_beats_every_named_strategy(full_us: Analysis) -> None:
    compared = full_us.section("strategies_compared")
    ev = dict(zip(compared.column("strategy"), compared.column("expected_value")))
    assert compared.column("this_report") == ["yes"] + [""] * (len(STRATEGIES) - 1)
    best = ev["optimal"]
    assert isinstance(best, Fraction) and best == full_us.wager("main").expected_value
    assert all(best >= v for v in ev.values())  # type: ignore[operator]
    assert ev["always-raise"] < ev["raise-ak-plus"] < best  # type: ignore[operator]


def test_ace_king_chart_counts(full_us: Analysis) -> None:
    extras = full_us.wager("main").extras
    # every ace-king high hand (167,280) with every up card and hole set
    assert extras["ace_king_deals"] == 167_280 * 47 * 163_185
    assert 0 < extras["ace_king_deals_raised"] < extras["ace_king_deals"]
    chart = full_us.section("ace_king_chart")
    shares = [x for r in chart.rows for x in r[1:] if x is not None]
    assert all(isinstance(x, Fraction) and 0 <= x <= 1 for x in shares) and any(0 < x < 1 for x in shares)  # type: ignore[operator]


def _ak_chart_brute(pays: RaisePays) -> tuple[Counter[tuple[int, int]], Counter[tuple[int, int]]]:
    """Ace-king deals on SMALL the optimal strategy raises, and every ace-king deal, by (the hand's third-highest
    rank, the up card's rank): each hand and up card of ``_deals`` decided plainly, weighted by its holes."""
    raised: Counter[tuple[int, int]] = Counter()
    total: Counter[tuple[int, int]] = Counter()
    for _, ranks, is_ak, win_event, u, outcome in _deals(SMALL, (HandClass.HIGH_CARD, (12, 11))):
        if not is_ak:
            continue
        n = sum(outcome.values())
        total[(ranks[2], u)] += n
        if _raises_optimally(outcome, win_event, Fraction(pays.high_card)):
            raised[(ranks[2], u)] += n
    return raised, total


@pytest.mark.parametrize("high_card", [Fraction(1), Fraction(5)], ids=["us", "high-card-5"])
def test_ace_king_chart_equals_brute_force(small_counts: RaiseTable, high_card: Fraction) -> None:
    # us: only AKQ rows are ever raised, some cells partly; 5:1 also raises AKJ on some up cards, AKQ on all of some
    table = US if high_card == PAYS.high_card else with_pay(US, "main.high_card", high_card)
    pays = table.model.pays.main  # type: ignore[attr-defined]
    raised, total = _ak_chart_brute(pays)
    thirds = sorted({t for t, _ in total}, reverse=True)
    ups = sorted({u for _, u in total}, reverse=True)
    assert thirds == [10, 9, 8] and ups == list(range(12, 5, -1))  # AKQ, AKJ, AKT against up cards A..8
    # the printed chart: shares of deals raised, rows by third card and columns by up card, high first
    a = Session("caribbean", RunOptions(deck=SMALL), Store(None)).analyze(table)
    chart = a.section("ace_king_chart")
    names = "23456789TJQKA"
    assert [c.id for c in chart.columns] == ["hand", *(f"up_{names[u]}" for u in ups)]
    expected = tuple((f"AK{names[t]}", *(Fraction(raised[(t, u)], total[(t, u)]) if total[(t, u)] else None
                                          for u in ups)) for t in thirds)
    assert chart.rows == expected
    assert all(type(x) is Fraction for r in chart.rows for x in r[1:])
    # and the counts behind the shares: the chart arrays, the note and the wager's extras
    st = settle_counts(small_counts, pays)
    assert {(t, u): int(st.ak_raised[t, u]) for t in range(13) for u in range(13) if st.ak_raised[t, u]} == {
        k: v for k, v in raised.items() if v}
    assert {(t, u): int(st.ak_total[t, u]) for t in range(13) for u in range(13) if st.ak_total[t, u]} == dict(total)
    every, up = sum(total.values()), sum(raised.values())
    # A, K and three of Q..8 (9 rank sets: not Q-J-T, a straight) in 2**5 - 2 suitings (not a flush), 9 up cards
    assert every == 9 * (2**5 - 2) * 9 * math.comb(8, 4) == 170_100
    assert chart.notes[0].startswith(f"Ace-king deals raised: {up:,} of {every:,} (")
    assert chart.notes[0].endswith(f"; folded: {every - up:,}.")
    extras = a.wager("main").extras
    assert extras["ace_king_deals"] == every and extras["ace_king_deals_raised"] == up
    # the case means something: the optimal decision differs across the chart and within cells
    shares = [x for r in expected for x in r[1:]]
    assert 0 in shares and any(isinstance(x, Fraction) and 0 < x < 1 for x in shares)
    assert (1 in shares) == (high_card == 5)


def test_spain_jackpot_exact(session: Session, full_us: Analysis) -> None:
    a = session.analyze("spain")
    jp = a.wager("jackpot")
    per_hand = 47 * 163_185
    assert {r.event: r.combinations for r in jp.rows}["royal_flush"] == 4 * per_hand
    expected = Fraction(4 * 25000 + 36 * 2500 + 624 * 1250, 2_598_960) / Fraction(1, 2) - 1
    assert jp.expected_value == expected
    assert a.wager("main").house_edge > full_us.wager("main").house_edge


def test_jackpot_prizes_as_odds_and_amounts(session: Session, tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[3] / "tables" / "caribbean" / "spain.toml").read_text()
    text = text.replace("four_of_a_kind = 1250", 'four_of_a_kind = "500:1"\nfull_house = "100:1"\nflush = "50:1"')
    path = tmp_path / "caribbean" / "odds.toml"
    path.parent.mkdir()
    path.write_text(text)
    table = load_table(path)
    jp = session.analyze(table, RunOptions(brief=True)).wager("jackpot")
    # amounts: a prize A keeps the 0.50 stake (net A / 0.5 - 1); odds a:1 return it (net a)
    net = 4 * (25000 * 2 - 1) + 36 * (2500 * 2 - 1) + 624 * 500 + 3744 * 100 + 5108 * 50
    assert jp.expected_value == Fraction(net - (2_598_960 - 4 - 36 - 624 - 3744 - 5108), 2_598_960)
    assert {r.event: r.pays for r in jp.rows}["flush"] == "50:1"
    assert any("return the stake" in n for n in jp.notes) and any("stake is kept" in n for n in jp.notes)
    moved = with_pay(table, "jackpot.flush", Fraction(60))
    assert isinstance(moved.model.pays.jackpot.flush, Odds)  # type: ignore[attr-defined]
    assert isinstance(with_pay(table, "jackpot.royal_flush", Fraction(9)).model.pays.jackpot.royal_flush, Money)  # type: ignore[attr-defined]


def test_damaged_entry_is_rebuilt(tmp_path: Path) -> None:
    game = Caribbean()
    rules = game.resolve(US, RunOptions(deck=SMALL))
    first = game.count(rules, Store(tmp_path))
    (entry,) = list(tmp_path.glob("*.counts"))
    blob = bytearray(entry.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    entry.write_bytes(bytes(blob))
    again = game.count(rules, Store(tmp_path))
    assert (np.asarray(again.prefix) == np.asarray(first.prefix)).all()
    assert entry.read_bytes() != bytes(blob)  # rewritten, not trusted


def test_strategy_option_and_bad_strategy(session: Session) -> None:
    a = session.analyze(US, RunOptions(strategy="raise-ak-plus", brief=True))
    assert a.wager("main").strategy == "raise-ak-plus"
    assert not a.published_applies and not a.checks
    with pytest.raises(OptionError):
        session.analyze(US, RunOptions(strategy="bluff"))


def test_any_pay_is_exact(session: Session) -> None:
    # pays far past int64 (royal 10**30:1): royals were raised already, so nothing else moves and the
    # EV grows by exactly 2 x (pay difference) x P(player wins with a royal)
    counts = session.counts(session.resolve(US))
    huge = PAYS.model_copy(update={"royal_flush": Fraction(10**30)})
    big = main_wager(counts, huge, settle_counts(counts, huge))
    base = main_wager(counts, PAYS, settle_counts(counts, PAYS))
    wins = base.row("win_royal_flush").combinations
    assert big.row("win_royal_flush").combinations == wins == 16_759_740
    gain = 2 * (10**30 - PAYS.royal_flush) * Fraction(wins, base.total_combinations)
    assert big.expected_value - base.expected_value == gain


def test_huge_pays_that_move_the_strategy_equal_brute_force(small_counts: RaiseTable) -> None:
    # a high card paying 10**25:1 raises every hand that can win; a flush of (10**24 + 1/3):1
    odd = PAYS.model_copy(update={"high_card": Fraction(10**25), "flush": Fraction(3 * 10**24 + 1, 3)})
    w = main_wager(small_counts, odd, settle_counts(small_counts, odd, "optimal"))
    brute = _brute(SMALL, (HandClass.HIGH_CARD, (12, 11)), "optimal", odd)
    assert {r.event: r.combinations for r in w.rows if r.combinations} == dict(brute)


@pytest.mark.parametrize("pays", [PAYS, PAYS.model_copy(update={"flush": Fraction(9, 2), "high_card": Fraction(3)}),
                                  PAYS.model_copy(update={c.value: Fraction(1000) for c in HAND_CLASSES})],
                         ids=["us", "odd", "huge"])  # huge: every hand that can win raises, the closest cannot win
def test_closest_decisions_are_the_nearest_ties_of_every_deal(small_counts: RaiseTable, pays: RaisePays) -> None:
    # raise EV - fold EV of every player hand and up card played out, against the count stage's closest ones
    by_class = pay_list(pays)
    near = [gap for _, _, gap in raise_table.closest(small_counts, by_class, raise_table.SHORTLIST)]
    table = {c: Fraction(getattr(pays, c.value)) for c in HAND_CLASSES}
    every = set()
    for cls, _, _, win_event, _, outcome in _deals(SMALL, (HandClass.HIGH_CARD, (12, 11))):
        n = sum(outcome.values())
        gain = outcome["dealer_not_qualified"] + outcome[win_event] * (1 + 2 * table[cls]) - 3 * outcome["lose"]
        every.add(Fraction(gain + n, n))
    assert [abs(g) for g in near] == sorted(abs(g) for g in near) and set(near) <= every
    assert abs(near[0]) == min(abs(g) for g in every)
    assert {g for g in every if abs(g) < abs(near[-1])} <= set(near)
    # and each is the gap of the hand and up card the section prints: that hand against that up card, played out
    for i, ui, gap in raise_table.closest(small_counts, by_class, raise_table.SHORTLIST):
        hand = tuple(int(c) for c in small_counts.reps[i])
        up = int(raise_table.up_cards(SMALL, small_counts.reps[i:i + 1])[0, ui])
        assert up == sorted(set(SMALL.cards) - set(hand))[ui]
        assert gap == _gap_of(hand, up, table)


def _gap_of(hand: tuple[int, ...], up: int, table: dict[HandClass, Fraction]) -> Fraction:
    """Raise EV - fold EV, in antes, of one player hand against one up card on SMALL, over every hole."""
    def key(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        cls, tie = hand_value(cards)
        return 9 - HAND_CLASSES.index(cls), tie

    mine, qualify = key(hand), (0, (12, 11))
    cls = hand_value(hand)[0]
    net = Fraction(0)
    holes = list(itertools.combinations([c for c in SMALL.cards if c not in hand and c != up], 4))
    for hole in holes:
        dealer = key(hole + (up,))
        net += 1 if dealer < qualify else (1 + 2 * table[cls]) if dealer < mine else 0 if dealer == mine else -3
    return Fraction(net, len(holes)) + 1


def _plain_shortlist(counts: np.ndarray, perm: np.ndarray, holes: int) -> list[tuple[int, int]]:
    nu = counts.shape[1]
    free = sorted((abs(4 * int(c[0]) + 3 * int(c[2]) - 2 * holes), r * nu + u)
                  for r in range(len(counts)) for u, c in enumerate(counts[r]) if c[1] == 0)
    return [(f // nu, list(perm[f // nu]).index(f % nu)) for _, f in free[:raise_table.SHORTLIST]]


@pytest.mark.parametrize("rows", [0, 2, 300])
def test_shortlist_is_the_plain_sort_of_every_slot_without_a_win(rows: int) -> None:
    rng = np.random.default_rng(rows)
    counts = rng.integers(0, 4, size=(rows, 9, 3)).astype(np.int32)  # few values: many ties at the cut
    perm = np.array([rng.permutation(9) for _ in range(rows)], dtype=np.int8).reshape(rows, 9)
    got = raise_table._shortlist(counts, perm, 5)
    assert got.shape == (min(raise_table.SHORTLIST, int((counts[:, :, 1] == 0).sum())), 2)
    assert [tuple(x) for x in got.tolist()] == _plain_shortlist(counts, perm, 5)


@functools.cache
def _full_counter() -> Callable[[np.ndarray], np.ndarray]:
    return dealer_search.counter(FULL_DECK, qualifier_strength(FULL_DECK, "ace-king"))


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True), st.permutations(range(4)))
def test_suit_permutation_changes_no_count(hand: list[int], perm: list[int]) -> None:
    _suit_permutation_changes_no_count(_full_counter(), FULL_DECK, hand, perm)


FOUR_SUITS = reduced_deck("7", 4)  # 32 cards in every suit: each permutation of the suits deals the same deck


@functools.cache
def _four_suits_counter() -> Callable[[np.ndarray], np.ndarray]:
    return dealer_search.counter(FOUR_SUITS, qualifier_strength(FOUR_SUITS, "ace-king"))


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from(FOUR_SUITS.cards), min_size=5, max_size=5, unique=True), st.permutations(range(4)))
def test_suit_permutation_changes_no_count_on_a_reduced_deck(hand: list[int], perm: list[int]) -> None:
    """The full deck's check (deep: its search tables take seconds to build) on 32 cards of four suits."""
    _suit_permutation_changes_no_count(_four_suits_counter(), FOUR_SUITS, hand, perm)


def _suit_permutation_changes_no_count(counter: Callable[[np.ndarray], np.ndarray], deck: Deck, hand: list[int],
                                       perm: list[int]) -> None:
    moved = [(c & ~3) | perm[c & 3] for c in hand]
    a, b = counter(np.array([sorted(hand), sorted(moved)], dtype=np.int8))
    ups_a = [c for c in deck.cards if c not in hand]
    ups_b = [c for c in deck.cards if c not in moved]
    assert len(ups_a) == len(a) == deck.size - 5
    by_up_b = {u: tuple(b[i]) for i, u in enumerate(ups_b)}
    for i, u in enumerate(ups_a):
        assert tuple(a[i]) == by_up_b[(u & ~3) | perm[u & 3]]
