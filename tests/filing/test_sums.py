"""The exact sum of n rounds and the hold bands read from it, against a brute force over every sequence of outcomes
(tests/oracles/sum_brute.py); the proven bounds (Berry-Esseen, Chernoff) against the exact tails they bound."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import pytest
from oracles.sum_brute import above, below, brute_sum, counted_pairs, counted_sum, lower_end, upper_end

from oddscalc.filing import hold, sums

F = Fraction
# made-up rounds (value for the house, probability): plain, a rare large prize, a 0.95 payout (a lattice of 1/20)
PLAIN = ((F(-1), F(7, 10)), (F(0), F(1, 10)), (F(3, 2), F(3, 20)), (F(10), F(1, 20)))
RARE = ((F(1), F(989, 1000)), (F(-50), F(9, 1000)), (F(-1000), F(2, 1000)))
BANKER_LIKE = ((F(-19, 20), F(458_597, 1_000_000)), (F(1), F(446_247, 1_000_000)), (F(0), F(95_156, 1_000_000)))
TAIL_LEVELS = (F(1, 40), F(1, 200), F(1, 10), F(1, 3))


def _close_to_a_tail(dist: dict[Fraction, Fraction], tail: Fraction, slack: float) -> bool:
    """Whether some P(sum < v) or P(sum > v) lies within ``slack`` of ``tail`` (a band end there depends on the
    last digits, and the proven reading keeps the safe side)."""
    cum = Fraction(0)
    ups = []
    for v in sorted(dist):
        ups.append(cum)
        cum += dist[v]
    return any(abs(float(c - tail)) <= slack or abs(float(1 - c - tail)) <= slack for c in ups + [cum])


def _l1(s: sums.Sum, dist: dict[Fraction, Fraction]) -> float:
    """The l1 distance between a computed sum and an exact distribution."""
    seen = 0.0
    total = 0.0
    for v, p in dist.items():
        i = int((v - s.rounds * s.base) / s.unit) - s.first
        got = float(s.probs[i]) if 0 <= i < len(s.probs) else 0.0
        total += abs(got - float(p))
        seen += got
    return total + max(0.0, float(s.probs.sum()) - seen)


@pytest.mark.parametrize("outcomes", [PLAIN, RARE, BANKER_LIKE], ids=["plain", "rare", "banker-like"])
def test_the_sum_of_n_rounds_is_the_brute_force_over_every_sequence(
        outcomes: tuple[tuple[Fraction, Fraction], ...]) -> None:
    one = sums.one_round(outcomes)
    assert one is not None
    for n in range(1, 7):
        s = sums.power(one, n)
        assert s is not None and s.rounds == n
        brute = brute_sum(outcomes, n)
        assert _l1(s, brute) <= s.error < 1e-9  # the error bound bounds the error, and it is small
        for tail in TAIL_LEVELS:
            if _close_to_a_tail(brute, tail, s.error + 1e-12):
                continue
            assert s.lower(float(tail)) == lower_end(brute, tail), (n, tail)
            assert s.upper(float(tail)) == upper_end(brute, tail), (n, tail)


def test_the_recurrence_oracle_is_the_brute_force() -> None:
    weights = ((-1, 6), (0, 1), (2, 3))
    for n in (1, 4, 6):
        counts, total = counted_sum(weights, n)
        brute = brute_sum([(F(v), F(w, 10)) for v, w in weights], n)
        assert {F(v): F(c, total) for v, c in counts.items()} == brute


def test_long_sums_through_the_fft_and_by_decades_hold_their_error_bound() -> None:
    """256 rounds go through the FFT (arrays of hundreds of points); 100 = 10 x 10 through the decade step."""
    weights = ((-1, 6), (0, 1), (2, 3))
    one = sums.one_round((F(v), F(w, 10)) for v, w in weights)
    assert one is not None
    for n, s in ((256, sums.power(one, 256)), (100, sums.decades(one, (10, 100))[100])):
        assert s is not None
        counts, total = counted_sum(weights, n)
        exact = {F(v): F(c, total) for v, c in counts.items()}
        assert _l1(s, exact) <= s.error < 1e-9, n
        for tail in TAIL_LEVELS:
            if not _close_to_a_tail(exact, tail, s.error + 1e-12):
                assert s.lower(float(tail)) == lower_end(exact, tail)
                assert s.upper(float(tail)) == upper_end(exact, tail)


def _subject(rounds: Sequence[tuple[Fraction, Fraction, int]]) -> hold.Subject:
    return hold.Subject("made up: a wager", tuple(rounds))


def test_exact_bands_are_the_brute_force_quantiles_of_the_hold() -> None:
    """Player's net -X, stake 1; the hold is the house's sum over n."""
    subject = _subject([(F(1), F(1), 3), (F(-1), F(1), 6), (F(0), F(1), 1)])
    house = [(F(1), F(6, 10)), (F(-1), F(3, 10)), (F(0), F(1, 10))]
    for n in (5, 6, 7):
        b = hold.band(subject, n)
        assert b.method == hold.EXACT
        brute = brute_sum(house, n)
        assert b.ends == (lower_end(brute, F(1, 40)) / n, upper_end(brute, F(1, 40)) / n,
                          lower_end(brute, F(1, 200)) / n, upper_end(brute, F(1, 200)) / n)


def _hold_distribution(subject: hold.Subject, n: int) -> dict[Fraction, Fraction]:
    """P(H_n = h) over every sequence of n rounds, H_n = -sum(X) / sum(S)."""
    total = subject.total
    out: dict[Fraction, Fraction] = {}
    for seq in itertools.product(subject.outcomes, repeat=n):
        x = sum((u for u, _, _ in seq), F(0))
        st = sum((s for _, s, _ in seq), F(0))
        p = F(1)
        for _, _, c in seq:
            p *= F(c, total)
        out[-x / st] = out.get(-x / st, F(0)) + p
    return out


CARIBBEAN_LIKE = ((-1, 1, 45), (-3, 3, 20), (1, 3, 10), (3, 3, 20), (9, 3, 5))  # fold: 1 staked; raise: 3


def test_the_pair_recurrence_is_the_brute_force() -> None:
    subject = _subject([(F(x), F(s), w) for x, s, w in CARIBBEAN_LIKE])
    counts, total = counted_pairs(CARIBBEAN_LIKE, 4)
    by_hold: dict[Fraction, Fraction] = {}
    for (x, s), c in counts.items():
        by_hold[F(-x, s)] = by_hold.get(F(-x, s), F(0)) + F(c, total)
    assert by_hold == _hold_distribution(subject, 4)


@pytest.mark.parametrize("n", [4, 40])
def test_the_proven_bounds_hold_for_a_stake_that_varies(n: int) -> None:
    """At most 2.5% (0.5%) of the exact holds lie beyond each end that Berry-Esseen or Chernoff gives, and no end
    leaves the support."""
    subject = _subject([(F(x), F(s), w) for x, s, w in CARIBBEAN_LIKE])
    counts, total = counted_pairs(CARIBBEAN_LIKE, n)
    dist: dict[Fraction, Fraction] = {}
    for (x, s), c in counts.items():
        dist[F(-x, s)] = dist.get(F(-x, s), F(0)) + F(c, total)
    ends, method = hold.bounded(subject, n)
    assert method
    low, high = subject.support
    for (lo, hi), tail in ((ends[:2], F(1, 40)), (ends[2:], F(1, 200))):
        assert low <= lo <= hi <= high
        assert below(dist, lo) <= tail and above(dist, hi) <= tail
    if n == 40:  # not merely the support's ends
        assert low < ends[2] and ends[3] < high


def test_the_proven_bounds_are_never_inside_the_exact_band() -> None:
    """For a jackpot-like wager at 60 rounds: the exact band (the recurrence) is the tightest a band can be, so the
    bounds' ends lie at or beyond it."""
    weights = ((1, 989), (-50, 9), (-1000, 2))  # the house's net, in deals
    subject = _subject([(F(-v), F(1), w) for v, w in weights])
    n = 60
    counts, total = counted_sum(weights, n)
    exact = {F(v): F(c, total) for v, c in counts.items()}
    ends, _ = hold.bounded(subject, n)
    assert ends[0] <= lower_end(exact, F(1, 40)) / n and ends[1] >= upper_end(exact, F(1, 40)) / n
    assert ends[2] <= lower_end(exact, F(1, 200)) / n and ends[3] >= upper_end(exact, F(1, 200)) / n
    assert ends[1] <= 1  # the house holds at most the stake
    # where the plain normal band (the one printed before) fails: 11% of holds below its 95% band, and above 100%
    normal = hold.normal_ends(subject, n)
    assert below(exact, F(normal[0]) * n) > F(1, 10) and normal[1] > 1


SEAT_LIKE = ((-1, 1, 40), (4, 1, 5), (-3, 3, 20), (1, 3, 10), (3, 3, 20), (9, 3, 5))  # a fold can win too


@pytest.mark.parametrize("rounds", [CARIBBEAN_LIKE, SEAT_LIKE], ids=["folds-alike", "folds-differ"])
def test_a_two_stake_hold_is_exact_against_the_pair_recurrence(rounds: tuple[tuple[int, int, int], ...]) -> None:
    """The exact method for a stake of two values: each end within 1e-6 inside the exact quantile of the hold (the
    recurrence over (sum of nets, sum of stakes)), never beyond it on the unsafe side."""
    subject = _subject([(F(x), F(s), w) for x, s, w in rounds])
    for n in (5, 30):
        counts, total = counted_pairs(rounds, n)
        dist: dict[Fraction, Fraction] = {}
        for (x, s), c in counts.items():
            dist[F(-x, s)] = dist.get(F(-x, s), F(0)) + F(c, total)
        b = hold.band(subject, n)
        assert b.method == hold.EXACT
        for (lo, hi), tail in ((b.ends[:2], F(1, 40)), (b.ends[2:], F(1, 200))):
            want_lo, want_hi = lower_end(dist, tail), upper_end(dist, tail)
            assert want_lo - F(1, 10**6) <= lo <= want_lo and want_hi <= hi <= want_hi + F(1, 10**6), (n, tail)


def test_degenerate_wagers_get_bands_too() -> None:
    """A wager that always pushes, one that always loses, and two stakes one of which is almost never played."""
    for rounds, hold_is in (([(F(0), F(1), 5)], F(0)), ([(F(-1), F(1), 7)], F(1))):
        for b in hold.bands_of(_subject(rounds)):
            assert b.ends == (hold_is,) * 4
    rare = _subject([(F(-1), F(1), 10**15), (F(2), F(3), 1)])
    for b in hold.bands_of(rare):
        assert rare.support[0] <= b.low_99 <= b.low_95 <= b.high_95 <= b.high_99 <= rare.support[1]
