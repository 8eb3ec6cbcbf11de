"""A counting study's win by the exact EV of every coup it bets, and a count file's published figures beside the
study's.

The expected win. The study knows the exact EV of the wager at every coup from the cards not seen, which is the
expected win of that coup given all the play has seen (burnt cards are as likely any unseen card as the next card
is). So the sum over the coups bet of that EV has the same mean as the units won, shoe by shoe, without the
payout's noise: a 40 to 1 wager's win per shoe has a spread of some 18 units, the sum of its bets' EVs about
one. Its interval across shoes is the narrow one a comparison with a published figure needs; the units won stay
beside it as the check that the two agree.
"""

from __future__ import annotations

import math

import numpy as np

from oddscalc.exact import rounded
from oddscalc.protection.count_system import CountSystem
from oddscalc.protection.study import TURN, Z95, Play, Study
from oddscalc.results import Cell, Column, Section


def _mean_half(values: np.ndarray) -> tuple[float, float]:
    """The mean of per-shoe values and its 95% half-width across shoes."""
    n = len(values)
    mean = float(values.mean())
    return mean, (float(Z95 * values.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0)


def _ratio_half(top: np.ndarray, bottom: np.ndarray) -> tuple[float, float]:
    """sum(top) / sum(bottom) and its 95% half-width by the delta method across shoes."""
    total = float(bottom.sum())
    if not total:
        return 0.0, 0.0
    r = float(top.sum()) / total
    n = len(top)
    resid = top - r * bottom
    return r, float(Z95 * math.sqrt(float((resid**2).sum()) / n) / (total / n) / math.sqrt(n))


def expected_section(st: Study) -> Section:
    """Per play: bets per shoe, the expected win per shoe and edge when betting (by the exact EV of every coup bet),
    with 95% intervals across shoes."""
    rows: list[tuple[Cell, ...]] = []
    for p in st.plays:
        assert p.expected is not None  # the punto banco study sums it
        bets, bets_half = _mean_half(p.bets)
        win, win_half = _mean_half(p.expected)
        edge, edge_half = _ratio_half(p.expected, p.bets)
        rows.append((p.name, rounded(bets), rounded(bets_half), rounded(win), rounded(win_half), rounded(edge),
                     rounded(edge_half)))
    return Section(
        f"counting_expected_{st.wager}", f"Counting study, expected win: {st.wager}",
        (Column("play", "Bets when"), Column("bets_per_shoe", "Bets per shoe", "decimal", 3),
         Column("bets_ci", "+/- (95%)", "decimal", 3),
         Column("win_per_shoe", "Expected win per shoe", "decimal", 4), Column("win_ci", "+/- (95%)", "decimal", 4),
         Column("edge", "Edge when betting", "signed_percent", 3), Column("edge_ci", "+/- (95%)", "percent", 3)),
        tuple(rows),
        intro=("The expected win adds the exact EV of every coup bet, from the cards not seen at that coup: the mean "
               "of the units won (above) without the payout's noise, so its interval is far narrower.",),
        notes=("The intervals are 95% across shoes (normal approximation); the edge when betting is expected win / "
               "bets, by the delta method.",))


def _convention(st: Study, count: CountSystem) -> list[str]:
    """Where the study's deal differs from the source's stated convention (empty: it deals as the source did)."""
    pub = count.published
    assert pub is not None
    differs = []
    decks = st.size // 52
    if decks != pub.decks:
        differs.append(f"{decks} decks, the source {pub.decks}")
    if st.procedure.share is not None or st.procedure.cut_card != pub.cut_card:
        differs.append(f"the cut card {st.procedure.cut(st.size)} cards from the end, the source {pub.cut_card}")
    burn = TURN if st.procedure.burn is None else st.procedure.burn
    if st.procedure.share is not None:
        burn = 0
    if burn != pub.burn:
        differs.append(f"burn {burn}, the source {pub.burn}")
    if st.procedure.after_cut:
        differs.append(f"{st.procedure.after_cut} coups after the cut card, the source none stated")
    return differs


def published_section(st: Study) -> Section | None:
    """The count file's published figures beside the study's (the count's play), each with the study's 95% interval
    and whether the published figure lies within it; None without a count file or its [published] block."""
    count = st.count
    if count is None or count.published is None:
        return None
    pub = count.published
    play: Play = st.plays[0]
    bound: Play = st.plays[1]
    assert play.expected is not None and bound.expected is not None
    from oddscalc.exact import parse_fraction

    rows: list[tuple[Cell, ...]] = []
    figures = (("bets_per_shoe", "Bets per shoe", pub.bets_per_shoe, play.bets),
               ("win_per_shoe", "Win per shoe (expected)", pub.win_per_shoe, play.expected),
               ("win_per_shoe_won", "Win per shoe (units won)", pub.win_per_shoe, play.won),
               ("bound_per_shoe", "Win per shoe betting whenever the exact EV is positive (the bound)",
                pub.bound_per_shoe, bound.expected))
    for key, label, text, values in figures:
        if not text:
            continue
        mean, half = _mean_half(values)
        published = parse_fraction(text)
        within = abs(float(published) - mean) <= half
        rows.append((key, label, published, rounded(mean), rounded(half), "yes" if within else "no"))
    differs = _convention(st, count)
    return Section(
        f"counting_published_{st.wager}", f"Published figures: {count.title}",
        (Column("figure_id", "Id"), Column("figure", "Figure"), Column("published", "Published", "decimal", 3),
         Column("study", "This study", "decimal", 4), Column("study_ci", "+/- (95%)", "decimal", 4),
         Column("within", "Published within the interval")),
        tuple(rows),
        intro=(f"Source: {pub.source}"
               + (f" ({pub.shoes:,} shoes simulated)" if pub.shoes else "") + ".",
               f"The source's convention: {pub.decks} decks, the cut card {pub.cut_card} cards from the end, burn "
               f"{pub.burn}. " + ("This study deals by it." if not differs else
                                  "This study does not: " + "; ".join(differs) + "."),
               *((pub.note,) if pub.note else ())),
        notes=("A published figure is rounded as published; the study's interval is 95% across its shoes. Nothing is "
               "tuned to match: the count's tags and rule are the file's, the procedure the options'.",))


__all__ = ["expected_section", "published_section"]
