"""Cards, ranks, suits and decks.

A card is an int ``rank * 4 + suit`` with rank 0..12 for 2..A and suit 0..3 for
clubs, diamonds, hearts, spades. So the 52 ids run 0 (2c) .. 51 (As), and sorting ids
sorts by rank first. Reduced decks (fewer ranks or suits, used by brute-force tests)
keep the same ids, so a card means the same thing in every deck.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
N_RANKS = 13
N_SUITS = 4
MAX_DECKS = 10_000  # the most decks in a shoe, in a file or an option: more is a typo, and would not fit memory


class CardError(ValueError):
    """A card string that cannot be read."""


def card(rank: int, suit: int) -> int:
    """The card id of a rank (0..12 for 2..A) and suit (0..3)."""
    return rank * 4 + suit


def rank_of(c: int) -> int:
    """Rank 0..12 (2..A) of a card id."""
    return c >> 2


def suit_of(c: int) -> int:
    """Suit 0..3 (c, d, h, s) of a card id."""
    return c & 3


def parse_card(text: str) -> int:
    """Parse ``As``, ``td``, ``10h``, ``Qc`` (case-insensitive) into a card id."""
    s = text.strip()
    if len(s) < 2:
        raise CardError(f"not a card: {text!r} (expected rank then suit, e.g. 'As', 'Td', '10h')")
    rank_txt, suit_txt = s[:-1].upper(), s[-1].lower()
    if rank_txt == "10":
        rank_txt = "T"
    if len(rank_txt) != 1 or rank_txt not in RANK_CHARS:
        raise CardError(f"not a card: {text!r} (rank must be one of 2-9, T or 10, J, Q, K, A)")
    if suit_txt not in SUIT_CHARS:
        raise CardError(f"not a card: {text!r} (suit must be one of c, d, h, s)")
    return card(RANK_CHARS.index(rank_txt), SUIT_CHARS.index(suit_txt))


def parse_cards(text: str | Iterable[str]) -> tuple[int, ...]:
    """Parse ``"As Kd Th 10h"`` (or a list of card strings); duplicates are an error."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = tuple(parse_card(p) for p in parts)
    if len(set(cards)) != len(cards):
        raise CardError(f"duplicate card in {' '.join(parts)!r}")
    return cards


def card_str(c: int) -> str:
    """A card as text: "As", "Td"."""
    return RANK_CHARS[rank_of(c)] + SUIT_CHARS[suit_of(c)]


def cards_str(cards: Iterable[int]) -> str:
    """Cards as text, space separated."""
    return " ".join(card_str(c) for c in cards)


@dataclass(frozen=True)
class Deck:
    """A deck as the ranks it holds (0..12) and how many suits (1..4)."""

    ranks: tuple[int, ...] = tuple(range(N_RANKS))
    n_suits: int = N_SUITS

    @property
    def cards(self) -> tuple[int, ...]:
        """Card ids of the deck, ascending."""
        return tuple(card(r, s) for r in sorted(self.ranks) for s in range(self.n_suits))

    @property
    def size(self) -> int:
        """Number of cards."""
        return len(self.ranks) * self.n_suits

    @property
    def is_full(self) -> bool:
        """Whether this is the standard 52-card deck."""
        return self.size == 52

    def describe(self) -> str:
        """The deck in words, for reports."""
        if self.is_full:
            return "one 52-card deck"
        rs = "".join(RANK_CHARS[r] for r in sorted(self.ranks))
        return f"{self.size}-card deck (ranks {rs}, {self.n_suits} suits)"


FULL_DECK = Deck()


def reduced_deck(low_rank: str = "8", n_suits: int = 2) -> Deck:
    """Ranks from ``low_rank`` up to the ace in ``n_suits`` suits (test decks)."""
    lo = RANK_CHARS.index(low_rank.upper() if low_rank != "10" else "T")
    return Deck(tuple(range(lo, N_RANKS)), n_suits)


_RANK_NAMES = {
    "two": 0, "three": 1, "four": 2, "five": 3, "six": 4, "seven": 5, "eight": 6,
    "nine": 7, "ten": 8, "jack": 9, "queen": 10, "king": 11, "ace": 12,
}


def parse_rank(text: str) -> int:
    """A rank as a name ("jacks", "jack"), a letter ("J", "T", "10") or a digit ("4"); 0..12."""
    t = text.strip().lower()
    if t.endswith("es") and t[:-2] in ("six",):
        t = t[:-2]
    elif t.endswith("s") and t[:-1] in _RANK_NAMES:
        t = t[:-1]
    if t in _RANK_NAMES:
        return _RANK_NAMES[t]
    if t == "10":
        return 8
    if len(t) == 1 and t.upper() in RANK_CHARS:
        return RANK_CHARS.index(t.upper())
    raise CardError(f"not a rank: {text!r} (use e.g. 'tens', 'jacks', 'J', '4')")


def rank_name(rank: int, plural: bool = False) -> str:
    """A rank's name: "ace", or "aces" with ``plural``."""
    name = next(k for k, v in _RANK_NAMES.items() if v == rank)
    if not plural:
        return name
    return name + ("es" if name == "six" else "s")
