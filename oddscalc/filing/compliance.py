"""Compliance profiles: a jurisdiction's or a house's rules as data, checked against an exact analysis.

A profile is a TOML file (``profiles/<id>.toml`` ships those with a public source; users write
their own), validated like a table::

    title = "Nevada: at least 75% back on each wager"
    source = "Nevada Gaming Commission Regulation 14.040(1)(a)"

    [[rules]]
    rule = "minimum_return"
    minimum = "75%"
    citation = "Reg. 14.040(1)(a): not less than 75 percent for each wager available for play"

Rules (``rule``):

- ``minimum_return``: each wager (or those in ``wagers``) returns at least ``minimum`` of the
  amounts wagered on it. The return is 1 + EV / average stake: for a fixed stake 1 + EV, for a
  wager whose stake varies (Caribbean's raise, Let It Ride's bets) 1 - element of risk, the share
  of every amount wagered that comes back. ``basis = "per_unit"`` uses 1 + EV per unit instead.
- ``award_frequency``: every award a wager advertises (each pay of its table that it can win,
  its rows joined) is expected at least once in ``once_in`` games; a rarer award passes only
  where its odds are displayed (``odds_displayed`` lists those awards, as ``wager.pay``).
- ``top_award_odds``: the odds of each wager's top award (the largest pay per unit staked) are no
  longer than 1 in ``at_most_one_in``.
- ``payout_cap``: what the house can be made to pay in one round at the table's ``[limits]`` stays
  within ``maximum``: one seat's top net win (``scope = "seat"``), or a full table's bound
  (``scope = "table"``); a table without limits fails it (the cap cannot be shown to hold).

A rule's figure is exact (a Fraction from the integer counts); the verdict compares it exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator

from oddscalc.datafile import Problem, TableError, key_lines, line_for, load_model_file, read_text
from oddscalc.exact import parse_fraction, percent_str
from oddscalc.results import Analysis, Cell, Column, Section, WagerResult
from oddscalc.tables import Amount, Strict, money_text

PASS, FAIL = "pass", "FAIL"


def _share(value: Any) -> Fraction:
    """A share as a percent ("75%") or a fraction string ("3/4")."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(f"write a share as a percent or fraction string, e.g. \"75%\", not {value!r}")
    try:
        v = parse_fraction(str(value))
    except ValueError:
        raise ValueError(f"not a share: {value!r} (write e.g. \"75%\" or \"3/4\")") from None
    if not 0 <= v <= 1:
        raise ValueError(f"a share is between 0% and 100%, not {value!r}")
    return v


Share = Annotated[Fraction, BeforeValidator(_share)]


def _as_tuple(value: Any) -> Any:
    """A TOML array as a tuple (so a frozen model keeps it), anything else as it is."""
    return tuple(value) if isinstance(value, list) else value


class MinimumReturn(Strict):
    """Each wager returns at least ``minimum`` of what is wagered on it."""

    rule: Literal["minimum_return"]
    minimum: Share
    basis: Literal["amount_wagered", "per_unit"] = "amount_wagered"
    wagers: Annotated[tuple[str, ...], BeforeValidator(_as_tuple)] | None = None
    citation: str = ""

    @field_validator("wagers")
    @classmethod
    def _named(cls, v: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if v is not None and not v:
            raise ValueError("names no wager, so the rule would check nothing: list at least one, or leave "
                             "wagers out to check every wager")
        return v


class AwardFrequency(Strict):
    """Every advertised award is expected at least once in ``once_in`` games (or its odds are displayed)."""

    rule: Literal["award_frequency"]
    once_in: int = Field(gt=0)
    odds_displayed: Annotated[tuple[str, ...], BeforeValidator(_as_tuple)] = ()
    citation: str = ""


class TopAwardOdds(Strict):
    """Each wager's top award comes at least once in ``at_most_one_in`` games."""

    rule: Literal["top_award_odds"]
    at_most_one_in: int = Field(gt=0)
    citation: str = ""


class PayoutCap(Strict):
    """What the house can be made to pay in one round at the table's limits stays within ``maximum``."""

    rule: Literal["payout_cap"]
    maximum: Amount
    scope: Literal["seat", "table"] = "seat"
    citation: str = ""


ProfileRule = Annotated[MinimumReturn | AwardFrequency | TopAwardOdds | PayoutCap, Field(discriminator="rule")]


class ProfileModel(Strict):
    """A compliance profile file."""

    title: str
    source: str
    note: str = ""
    rules: Annotated[tuple[ProfileRule, ...], BeforeValidator(_as_tuple)]

    @field_validator("rules")
    @classmethod
    def _some(cls, v: tuple[ProfileRule, ...]) -> tuple[ProfileRule, ...]:
        if not v:
            raise ValueError("a profile needs at least one rule ([[rules]] with rule = ...)")
        return v


@dataclass(frozen=True)
class Profile:
    """A loaded profile: its model, its file and digest."""

    model: ProfileModel
    path: Path
    sha256: str
    lines: Mapping[tuple[str, ...], int] = dataclasses.field(default_factory=dict)

    def problem(self, i: int, key: str, message: str) -> TableError:
        """An error at ``key`` of the profile's ``i``-th rule, with the line of the key (or of the rule)."""
        loc = ("rules", str(i), key)
        return TableError([Problem(str(self.path), line_for(self.lines, loc), ".".join(loc), message)], "profile")

    @property
    def id(self) -> str:
        """The file's name without .toml."""
        return self.path.stem


def load_profile(path: Path) -> Profile:
    """Read and validate a profile file (TableError naming file, line and key otherwise)."""
    model, digest = load_model_file(path, ProfileModel, "profile")
    return Profile(model, path, digest, key_lines(read_text(path)[0]))


# --- checking -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One rule applied to one wager (or one award of it)."""

    rule: str
    wager: str
    subject: str  # what was measured
    figure: Fraction  # exact
    shown: str  # the figure as printed
    limit: str
    verdict: str
    citation: str


def returned_share(w: WagerResult, basis: str) -> Fraction:
    """What comes back of what is wagered: 1 + EV / average stake (or 1 + EV per unit)."""
    return 1 + (w.expected_value if basis == "per_unit" else w.expected_value / w.average_stake)


def _top_award(w: WagerResult) -> tuple[str, Fraction, Fraction] | None:
    """(pay, pay per unit staked, probability) of the wager's largest award."""
    best: tuple[str, Fraction, Fraction] | None = None
    for p in w.prizes:
        rows = [r for r in w.rows if r.pay_ref == p.pay_ref and r.units > 0 and r.combinations]
        if not rows:
            continue
        size = max(r.units / r.stake for r in rows)
        if best is None or size > best[1]:
            best = (p.pay_ref, size, p.probability)
    return best


def _one_in(p: Fraction) -> str:
    return "never" if p == 0 else f"1 in {float(1 / p):,.0f}"


def _payout_cap(rule: PayoutCap, a: Analysis) -> Finding:
    from oddscalc.filing.exposure import exposure_of  # only a payout rule needs the exposure

    e = exposure_of(a)
    limit = f"at most {money_text(rule.maximum)}"
    if e is None:
        return Finding(rule.rule, "(table)", f"top net win of one {rule.scope} in a round", Fraction(0),
                       "not known: the table states no [limits]", limit, FAIL, rule.citation)
    top = e.seat_top if rule.scope == "seat" else e.table_top
    cur = f" {e.currency}" if e.currency else ""
    what = "one seat's top net win in a round" if rule.scope == "seat" else "a full table's top net win (a bound)"
    return Finding(rule.rule, "(table)", what, top, f"{money_text(top)}{cur}", limit + cur,
                   PASS if top <= rule.maximum else FAIL, rule.citation)


def _minimum_return(rule: MinimumReturn, i: int, profile: Profile, a: Analysis) -> list[Finding]:
    names = [w.wager for w in a.wagers]
    unknown = [x for x in rule.wagers or () if x not in names]
    if unknown:
        raise profile.problem(i, "wagers", f"no wager {unknown[0]!r} in {a.game}; wagers: {', '.join(names)}")
    out = []
    for w in a.wagers:
        if rule.wagers is not None and w.wager not in rule.wagers:
            continue
        share = returned_share(w, rule.basis)
        what = ("return per unit (1 + EV)" if rule.basis == "per_unit" or not w.stake_varies else
                "return per amount wagered (1 - element of risk)")
        out.append(Finding(rule.rule, w.wager, what, share, percent_str(share, 4),
                           f"at least {percent_str(rule.minimum, 2)}", PASS if share >= rule.minimum else FAIL,
                           rule.citation))
    return out


def _award_frequency(rule: AwardFrequency, i: int, profile: Profile, a: Analysis) -> list[Finding]:
    awards = [p.pay_ref for w in a.wagers for p in w.prizes]
    unknown = [x for x in rule.odds_displayed if x not in awards]
    if unknown:  # a misspelt award would otherwise leave the real one's odds undisplayed, silently
        raise profile.problem(i, "odds_displayed", f"no award {unknown[0]!r} in {a.game}'s table {a.table.id}; "
                                                   f"awards (wager.pay): {', '.join(awards)}")
    out = []
    for w in a.wagers:
        for p in w.prizes:
            if p.probability == 0:
                continue  # an award this strategy never reaches is not offered by it
            shown_odds = p.pay_ref in rule.odds_displayed
            verdict = PASS if p.probability * rule.once_in >= 1 or shown_odds else FAIL
            limit = f"at least 1 in {rule.once_in:,}" + (" (odds displayed)" if shown_odds else "")
            out.append(Finding(rule.rule, w.wager, f"award {p.pay_ref} ({p.pays})", p.probability,
                               _one_in(p.probability), limit, verdict, rule.citation))
    return out


def _top_award_odds(rule: TopAwardOdds, a: Analysis) -> list[Finding]:
    out = []
    for w in a.wagers:
        top = _top_award(w)
        if top is None:
            continue
        ref, _, prob = top
        out.append(Finding(rule.rule, w.wager, f"top award {ref}", prob, _one_in(prob),
                           f"at least 1 in {rule.at_most_one_in:,}",
                           PASS if prob * rule.at_most_one_in >= 1 else FAIL, rule.citation))
    return out


def findings(profile: Profile, a: Analysis) -> list[Finding]:
    """Every rule of the profile against every wager it covers, in profile order."""
    out: list[Finding] = []
    for i, rule in enumerate(profile.model.rules):
        if isinstance(rule, MinimumReturn):
            out += _minimum_return(rule, i, profile, a)
        elif isinstance(rule, AwardFrequency):
            out += _award_frequency(rule, i, profile, a)
        elif isinstance(rule, PayoutCap):
            out.append(_payout_cap(rule, a))
        else:
            out += _top_award_odds(rule, a)
    return out


def section(profile: Profile, found: Sequence[Finding]) -> Section:
    """The findings as a report section."""
    failed = sum(f.verdict == FAIL for f in found)
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (f.rule, f.wager, f.subject, f.figure, f.shown, f.limit, f.verdict, f.citation) for f in found)
    m = profile.model
    return Section(
        f"compliance_{profile.id}", f"Compliance: {m.title}",
        (Column("rule", "Rule"), Column("wager", "Wager"), Column("measured", "Measured"),
         Column("exact", "Exact figure", "fraction"), Column("figure", "Figure"), Column("limit", "Limit"),
         Column("verdict", "Verdict"), Column("citation", "Citation")),
        rows,
        intro=(f"Profile {profile.path.name} (sha256 {profile.sha256[:12]}); source: {m.source}.",
               *([m.note] if m.note else ()),
               f"{len(found) - failed} of {len(found)} check(s) pass" + (f"; {failed} FAIL." if failed else ".")))


def with_profile(a: Analysis, profile: Profile) -> tuple[Analysis, bool]:
    """The analysis with the profile's section added, and whether every check passes."""
    import dataclasses

    found = findings(profile, a)
    return (dataclasses.replace(a, sections=(*a.sections, section(profile, found))),
            all(f.verdict == PASS for f in found))
