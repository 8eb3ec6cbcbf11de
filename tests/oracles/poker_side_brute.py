"""Plain brute force for side bets over the cards of a poker deal: every deal of actual cards, dealt slot by slot
(Caribbean Stud: the player's five as a set, the dealer's up card, his four hole cards as a set; Let It Ride: the
player's three as a set, then each community card), each rule read from its plain data (the TOML's dicts) and
tried in order. Shares no code with the engine beyond the card ids and the plain five-card evaluator."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from oddscalc.cards import Deck
from oddscalc.hands import HAND_CLASSES, HandClass, hand_value

RANKS = "23456789TJQKA"
SUITS = {"c": 0, "clubs": 0, "d": 1, "diamonds": 1, "h": 2, "hearts": 2, "s": 3, "spades": 3}
CARIBBEAN = {"player": ("player",), "dealer_up": ("up",), "dealer_hole": ("hole",), "dealer": ("up", "hole")}
LET_IT_RIDE = {"player": ("player",), "community1": ("c1",), "community2": ("c2",), "community": ("c1", "c2")}
NAMES = ("pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
         "straight_flush", "royal_flush")


def caribbean_deals(deck: Deck) -> Any:
    """Every deal: {"player": 5 cards, "up": (1 card,), "hole": 4 cards}."""
    cards = deck.cards
    for player in itertools.combinations(cards, 5):
        rest = [c for c in cards if c not in player]
        for up in rest:
            for hole in itertools.combinations([c for c in rest if c != up], 4):
                yield {"player": player, "up": (up,), "hole": hole}


def let_it_ride_deals(deck: Deck) -> Any:
    """Every deal: {"player": 3 cards, "c1": (1 card,), "c2": (1 card,)}."""
    cards = deck.cards
    for player in itertools.combinations(cards, 3):
        rest = [c for c in cards if c not in player]
        for c1 in rest:
            for c2 in rest:
                if c2 != c1:
                    yield {"player": player, "c1": (c1,), "c2": (c2,)}


def _rank(text: str) -> int:
    t = str(text).upper()
    return RANKS.index("T" if t == "10" else t)


def _as_list(v: Any) -> list[Any]:
    return list(v) if isinstance(v, list) else [v]


def few_cards_class(cards: Sequence[int]) -> str:
    """Three or four cards: a straight or flush of all of them, else by rank multiplicities."""
    ranks = sorted(c >> 2 for c in cards)
    k = len(ranks)
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    wheel = ranks == list(range(k - 1)) + [12]
    straight = len(set(ranks)) == k and (ranks[-1] - ranks[0] == k - 1 or wheel)
    if straight and flush:
        return "royal_flush" if ranks[-1] == 12 and not wheel else "straight_flush"
    if counts[0] == 4:
        return "four_of_a_kind"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three_of_a_kind"
    if counts[:2] == [2, 2]:
        return "two_pair"
    return "pair" if counts[0] == 2 else "high_card"


def best_five(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """(minus the class code, tiebreak) of the best five: larger is better."""
    return max((-HAND_CLASSES.index(v[0]), v[1]) for v in (hand_value(f) for f in itertools.combinations(cards, 5)))


def _threshold(text: str) -> tuple[int, tuple[int, ...]]:
    t = text.strip().lower().replace("_", " ")
    if t.startswith("pair of "):
        word = t[len("pair of "):]
        names = {"twos": 0, "threes": 1, "fours": 2, "fives": 3, "sixes": 4, "sevens": 5, "eights": 6, "nines": 7,
                 "tens": 8, "jacks": 9, "queens": 10, "kings": 11, "aces": 12}
        rank = names[word] if word in names else _rank(word)
        return -HAND_CLASSES.index(HandClass.PAIR), (rank,)
    return -HAND_CLASSES.index(HandClass(t.replace(" ", "_"))), ()


def holds(cond: Mapping[str, Any], cards: Sequence[int]) -> bool:
    """One condition (its plain data) on the cards it reads: the cards passing the filter number ``count`` /
    ``at_least`` (neither: all of them) and share what ``same`` names; the hand tests read every card."""
    ranks = [c >> 2 for c in cards]
    suits = [c & 3 for c in cards]
    colours = ["red" if s in (1, 2) else "black" for s in suits]
    passing = [i for i in range(len(cards))
               if ("ranks" not in cond or ranks[i] in {_rank(x) for x in _as_list(cond["ranks"])})
               and ("suits" not in cond or suits[i] in {SUITS[x] for x in _as_list(cond["suits"])})
               and ("colours" not in cond or colours[i] in _as_list(cond["colours"]))]
    wanted = cond.get("count", cond.get("at_least", len(cards)))
    if len(passing) < wanted or ("at_least" not in cond and len(passing) != wanted):
        return False
    if "same" in cond:
        by: dict[str, list[Any]] = {"rank": list(ranks), "suit": list(suits), "colour": list(colours)}
        if len({by[cond["same"]][i] for i in passing}) > 1:
            return False
    if "hand" in cond:
        cls = HAND_CLASSES[-best_five(cards)[0]].value if len(cards) >= 5 else few_cards_class(cards)
        if cls not in _as_list(cond["hand"]):
            return False
    return not ("hand_at_least" in cond and best_five(cards) < _threshold(cond["hand_at_least"]))


def brute(rules: Sequence[Mapping[str, Any]], otherwise: str, positions: Mapping[str, tuple[str, ...]],
          deals: Any) -> Counter[str]:
    """Deals by event: the first rule all of whose conditions hold, else ``otherwise``."""
    Step = tuple[Mapping[str, Any], list[str], dict[tuple[int, ...], bool]]  # a condition, its slots, its memo
    plan: list[tuple[str, list[Step]]] = [
        (rule["event"], [(cond, sorted({s for p in _as_list(cond["cards"]) for s in positions[p]}), {})
                         for cond in _as_list(rule["cards_when"])]) for rule in rules]
    tally: Counter[str] = Counter()
    for deal in deals:
        event = otherwise
        for name, conds in plan:
            for cond, slots, memo in conds:
                cards = tuple(sorted(c for s in slots for c in deal[s]))
                if cards not in memo:
                    memo[cards] = holds(cond, cards)
                if not memo[cards]:
                    break
            else:
                event = name
                break
        tally[event] += 1
    return tally


def side_bet_data(draw: Any, sizes: Mapping[str, int], deck: Deck) -> dict[str, Any]:
    """A random side bet as a table's plain data (``draw`` is hypothesis's): one to four rules of one or two
    conditions, each on a random set of positions (``sizes``: the cards each holds) with one or two tests that
    can apply to that many cards (a count of the cards passing the filter: ``count`` or ``at_least``)."""
    from hypothesis import strategies as st

    ranks = [RANKS[r] for r in deck.ranks]
    suits = "cdhs"[:deck.n_suits]
    rules = []
    for i in range(draw(st.integers(1, 4))):
        conds = []
        for _ in range(draw(st.integers(1, 2))):
            cards = draw(st.lists(st.sampled_from(sorted(sizes)), min_size=1, max_size=3, unique=True))
            n = _cards_in(cards, sizes)
            tests = ["ranks", "suits", "colours", "count"] + (["same"] if n >= 2 else []) \
                + (["hand"] if n >= 3 else []) + (["hand_at_least"] if n >= 5 else [])
            cond: dict[str, Any] = {"cards": cards}
            for t in draw(st.lists(st.sampled_from(tests), min_size=1, max_size=2, unique=True)):
                if t == "ranks":
                    cond[t] = draw(st.lists(st.sampled_from(ranks), min_size=1, max_size=len(ranks), unique=True))
                elif t == "count":
                    cond.pop("count", None)
                    cond[draw(st.sampled_from(["count", "at_least"]))] = draw(st.integers(0, n))
                elif t == "suits":
                    cond[t] = draw(st.lists(st.sampled_from(suits), min_size=1, max_size=len(suits), unique=True))
                elif t == "colours":
                    cond[t] = draw(st.sampled_from(["red", "black"]))
                elif t == "same":
                    cond[t] = draw(st.sampled_from(["rank", "suit", "colour"]))
                elif t == "hand":
                    ok = [c for c in (*NAMES, "high_card") if n >= 5 or c not in (
                        "full_house", *(("four_of_a_kind", "two_pair") if n == 3 else ()))]
                    cond[t] = draw(st.lists(st.sampled_from(ok), min_size=1, max_size=3, unique=True))
                else:
                    cond[t] = draw(st.sampled_from([*NAMES, "high_card", "pair of " + draw(st.sampled_from(ranks))]))
            conds.append(cond)
        rules.append({"event": f"e{i}", "cards_when": conds, "pays": draw(st.sampled_from(["2:1", "30:1", "push", 5]))})
    return {"title": "random", "rules": rules, "otherwise": {"event": "nothing"}}


def _cards_in(positions: Sequence[str], sizes: Mapping[str, int]) -> int:
    """Cards read by positions (a position covering others counts each card once)."""
    slots = {s for p in positions for s in (CARIBBEAN | LET_IT_RIDE)[p]}
    slot_size = {"player": sizes["player"], "up": 1, "hole": 4, "c1": 1, "c2": 1}
    return sum(slot_size[s] for s in slots)
