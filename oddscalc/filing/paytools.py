"""Pays as variables: symbolic expected values, pay sensitivities, solving a pay for an edge, and
the decisions that flip between two analyses (``comparison`` sets tables side by side).

Every row of a wager knows the one pay its units depend on (``Row.pay_ref``, e.g.
``main.royal_flush``) and how strongly (``Row.pay_coef``): units = base + coef * pay. With the
strategy held fixed, a wager's expected value is therefore linear in each pay,

    EV = sum over rows of P(row) * (base_row + coef_row * pay_row),

which sympy prints exactly. Under the optimal strategy EV is the maximum of such linear
functions (one per strategy), so it is convex and increasing in each pay; solving a pay for a
target edge is Newton's method on that function, re-solving the strategy at every step until
the exact target is hit with the strategy stable. Each step settles a new table from the same
pay-free counts (the caller's ``analyze`` shares them). Results are data; ``report.tools``
prints them.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from oddscalc.exact import percent_str
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, Cell, Column, Decisions, Section, WagerResult
from oddscalc.tables import MeterShare, Money, Odds, Table, TableModel, ratio_text, rules_and_pays

if TYPE_CHECKING:
    import sympy

# --- pays in a table -----------------------------------------------------------------------


def _pay_items(block: Any) -> dict[str, Fraction]:
    """A pays block's exact pays by key: its own ``pay_items()`` (rule lists), else its Fraction fields."""
    items = getattr(block, "pay_items", None)
    if callable(items):
        return dict(items())
    return {key: value for key, value in block if isinstance(value, Fraction)}


def pay_refs(model: TableModel) -> list[str]:
    """Every pay of a table as "<wager>.<key>" (only exact ratio/amount values)."""
    pays = getattr(model, "pays", None)
    out: list[str] = []
    if pays is None:
        return out
    for wager, block in pays:
        if block is None or not hasattr(type(block), "model_fields"):
            continue
        out.extend(f"{wager}.{key}" for key in _pay_items(block))
    return out


def resolve_pay(model: TableModel, name: str) -> str:
    """Accept "main.royal_flush" or a bare "royal_flush" when it names one pay only (a pay in a block of a block,
    "main.hand.royal_flush", also by "hand.royal_flush" or "royal_flush")."""
    refs = pay_refs(model)
    if name in refs:
        return name
    hits = [r for r in refs if r.endswith(f".{name}")]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise OptionError(f"pay {name!r} is ambiguous; say which: {', '.join(hits)}")
    raise OptionError(f"no pay {name!r} in this table; pays: {', '.join(refs)}")


def pay_value(model: TableModel, ref: str) -> Fraction:
    """The value of one pay of a table."""
    wager, key = ref.split(".", 1)
    return _pay_items(getattr(model.pays, wager))[key]  # type: ignore[attr-defined]


def with_pay(table: Table, ref: str, value: Fraction) -> Table:
    """The same table with one pay replaced (a derived table: its id and digest say so).

    Its published and claimed figures are dropped: they were stated for the table's own pays."""
    wager, key = ref.split(".", 1)
    pays = table.model.pays  # type: ignore[attr-defined]
    old = getattr(pays, wager)
    kind = type(_pay_items(old).get(key))
    if kind in (Money, Odds):  # an amount stays an amount, odds stay odds
        value = kind(value)
    replace = getattr(old, "with_pay", None)
    block = replace(key, value) if callable(replace) else old.model_copy(update={key: value})
    if wager in type(pays).model_fields:
        new_pays = pays.model_copy(update={wager: block})
    else:  # a side bet held as an extra key of the pays block
        new_pays = pays.model_copy()
        new_pays.__pydantic_extra__[wager] = block
    model = table.model.model_copy(update={"pays": new_pays, "published": None, "claimed": None})
    tag = f"{ref}={ratio_text(value)}"
    digest = hashlib.sha256(f"{table.sha256}\n{tag}".encode()).hexdigest()
    return Table(id=f"{table.id}[{tag}]", path=table.path, sha256=digest, model=model)


# --- symbolic expected value -----------------------------------------------------------------


def symbol(ref: str) -> sympy.Symbol:
    """The sympy symbol of a pay ("main.flush" -> main__flush)."""
    import sympy  # slow to import: only the symbolic report needs it

    return sympy.Symbol(ref.replace(".", "__"), nonnegative=True)


@dataclass(frozen=True)
class Linear:
    """EV of one wager as constant + sum of coef[pay] * pay, under the strategy it was solved with."""

    constant: Fraction
    coefficients: dict[str, Fraction] = field(default_factory=dict)

    def expression(self) -> sympy.Expr:
        """The EV as an exact sympy expression."""
        import sympy

        expr: sympy.Expr = sympy.Rational(self.constant.numerator, self.constant.denominator)
        for ref, c in sorted(self.coefficients.items()):
            expr += sympy.Rational(c.numerator, c.denominator) * symbol(ref)
        return expr

    def at(self, values: dict[str, Fraction]) -> Fraction:
        """The EV at these pays."""
        return self.constant + sum((c * values[r] for r, c in self.coefficients.items()), Fraction(0))


def linear_ev(w: WagerResult, model: TableModel) -> Linear:
    """The wager's EV as a linear function of the table's pays (strategy held fixed)."""
    const = Fraction(0)
    coefs: dict[str, Fraction] = {}
    for r in w.rows:
        p = Fraction(r.combinations, w.total_combinations)
        if r.pay_ref and r.pay_coef:
            coefs[r.pay_ref] = coefs.get(r.pay_ref, Fraction(0)) + p * r.pay_coef
            const += p * (r.units - r.pay_coef * pay_value(model, r.pay_ref))
        else:
            const += p * r.units
    return Linear(const, coefs)


def symbolic_section(a: Analysis) -> Section:
    """Each wager's EV as an expression in its pays, and each pay's sensitivity."""
    import sympy

    intro = ["Each wager's expected value as an exact linear expression in its pays (symbol wager__hand is the "
             "pay of that hand, to 1), with the strategy held at the one solved for this table. The sensitivity is "
             "the change in house edge per unit of that pay."]
    rows: list[tuple[Cell, ...]] = []
    for w in a.wagers:
        lin = linear_ev(w, a.table.model)
        if not lin.coefficients:
            continue
        if lin.at({r: pay_value(a.table.model, r) for r in lin.coefficients}) != w.expected_value:
            raise AssertionError(f"{w.wager}: the linear EV does not reproduce the settled EV")
        intro.append(f"{w.wager}: EV = {sympy.sstr(lin.expression())}")
        for ref, c in sorted(lin.coefficients.items(), key=lambda kv: -kv[1]):
            rows.append((w.wager, ref, ratio_text(pay_value(a.table.model, ref)), -c, -c))
    return Section("symbolic_ev", "Symbolic expected value and pay sensitivities",
                   (Column("wager", "Wager"), Column("pay", "Pay"), Column("value", "Value"),
                    Column("sensitivity", "Sensitivity (house edge per unit of pay)", "percent", 6),
                    Column("exact", "Exact", "fraction")),
                   tuple(rows), intro=tuple(intro))


def with_symbolic(a: Analysis) -> Analysis:
    """The analysis with its symbolic section added."""
    return dataclasses.replace(a, sections=(*a.sections, symbolic_section(a)))


# --- strategy differences ---------------------------------------------------------------


@dataclass(frozen=True)
class Flips:
    """Decision points whose choice differs between two analyses."""

    name: str
    points: int  # decision points whose choice differs
    combinations: int  # combinations those points stand for
    examples: tuple[str, ...]


def decision_flips(a: tuple[Decisions, ...], b: tuple[Decisions, ...], examples: int = 5) -> list[Flips]:
    """Per kind of decision, the points that flip from ``a`` to ``b``, with a few examples."""
    out = []
    bd = {d.name: d for d in b}
    for d in a:
        other = bd.get(d.name)
        if other is None or len(other.array()) != len(d.array()):
            continue
        values, others = d.array(), other.array()
        diff = (values != others).nonzero()[0]
        combos = int(d.weight_array()[diff].astype(object).sum()) if len(diff) else 0
        # spread the examples over the flipped points rather than showing one hand's neighbours
        spread = (round(j * (len(diff) - 1) / max(examples - 1, 1)) for j in range(examples))
        picks = sorted({int(diff[k]) for k in spread}) if len(diff) else []
        ex = tuple(f"{d.describe(i)}: {'yes' if values[i] else 'no'} -> {'yes' if others[i] else 'no'}"
                   for i in picks)
        out.append(Flips(d.name, len(diff), combos, ex))
    return out


# --- solving a pay for a target edge -------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One Newton step: the pay tried, its edge, the decisions that changed."""

    pay: Fraction
    house_edge: Fraction
    flips: list[Flips]


@dataclass(frozen=True)
class Solution:
    """The exact pay for a target edge, how it was found, and the printable pays around it."""

    ref: str
    wager: str
    target: Fraction
    pay: Fraction
    steps: list[Step]
    printable: list[tuple[Fraction, Fraction]]  # (pay a casino could print, its house edge)


class NoSolution(OptionError):
    """No pay reaches the requested edge."""


MAX_EDGE = Fraction(10**6)  # |edge| beyond this is no wager anyone deals


def solve_pay(analyze: Callable[[Table], Analysis], table: Table, ref: str, edge: Fraction,
              max_steps: int = 40) -> Solution:
    """The exact value of pay ``ref`` that gives its wager a house edge of ``edge``."""
    if abs(edge) > MAX_EDGE:
        raise NoSolution(f"a house edge of {percent_str(edge)} is out of range (at most {int(MAX_EDGE):,} in size)")
    wager_name = ref.split(".", 1)[0]
    v = pay_value(table.model, ref)
    steps: list[Step] = []
    prev: Analysis | None = None
    for _ in range(max_steps):
        a = analyze(with_pay(table, ref, v))
        w = _wager_for(a, wager_name)
        flips = decision_flips(prev.decisions, a.decisions) if prev is not None else []
        steps.append(Step(v, w.house_edge, flips))
        if w.house_edge == edge:
            return Solution(ref, w.wager, edge, v, steps, _printable(analyze, table, ref, wager_name, v))
        lin = linear_ev(w, a.table.model)
        if ref not in {r.pay_ref for r in w.rows}:
            paid = sorted({r.pay_ref for r in w.rows if r.pay_ref})
            raise NoSolution(f"{ref} is not a pay of the {w.wager} wager's outcomes"
                             + (f"; its pays: {', '.join(paid)}" if paid else "; it has no pay to solve for"))
        b = lin.coefficients.get(ref, Fraction(0))
        if b == 0:
            raise NoSolution(f"{ref} does not change the {w.wager} wager's edge under the solved strategy "
                             f"(house edge stays {percent_str(w.house_edge)})")
        nxt = (-edge - (w.expected_value - b * v)) / b
        if nxt < 0:
            # EV is convex and increasing in the pay, so its tangent lies below it: a negative root
            # means even a pay of 0 leaves more edge than asked for.
            zero = _wager_for(analyze(with_pay(table, ref, Fraction(0))), wager_name).house_edge
            raise NoSolution(f"no pay of {ref} gives a house edge of {percent_str(edge)}: even a pay of 0 "
                             f"leaves {percent_str(zero)}")
        if nxt == v:
            break
        prev, v = a, nxt
    raise NoSolution(f"the strategy did not settle within {max_steps} steps (last pay {float(v):.6g})")


def _wager_for(a: Analysis, name: str) -> WagerResult:
    try:
        return a.wager(name)
    except KeyError:
        raise OptionError(f"no wager {name!r} in this game; wagers: {', '.join(w.wager for w in a.wagers)}") from None


def _printable(analyze: Callable[[Table], Analysis], table: Table, ref: str, wager: str,
               v: Fraction) -> list[tuple[Fraction, Fraction]]:
    step = Fraction(1) if v >= 2 else Fraction(1, 20)
    lo = (v // step) * step
    cands = sorted({lo, lo + step} if lo != v else {v})
    return [(c, _wager_for(analyze(with_pay(table, ref, c)), wager).house_edge) for c in cands if c >= 0]


# --- pays against their hands' rarity --------------------------------------------------------------------


def pay_worth(model: TableModel, ref: str) -> Fraction | None:
    """What a pay wins, in stakes of its wager: odds as they are, an amount less the stake it includes, a share of
    a meter at the meter shown (None when the table has no such pay)."""
    wager, _, key = ref.partition(".")
    block = getattr(getattr(model, "pays", None), wager, None)
    value = _pay_items(block).get(key) if block is not None else None
    if value is None:
        return None
    stake: Fraction | None = getattr(block, "stake", None)
    if stake is None or isinstance(value, Odds):
        return Fraction(value)
    meter = getattr(block, "meter", None)
    if isinstance(value, MeterShare):
        shown: Fraction | None = None if meter is None else meter.shown
        return None if shown is None else Fraction(value) * shown / stake - 1
    return Fraction(value) / stake - 1


def out_of_order(a: Analysis) -> list[str]:
    """Every pay that wins more than the pay of a rarer hand of its wager (``Analysis.rarity``, from the game's
    own counts), one line each, naming the keys: a likely typo (a flush at "50:1" above a full house at "7:1").
    Equal pays are not flagged (tables pay a pair and ace-king alike); a wager the game ranks no hands of is
    not checked."""
    from oddscalc.exact import one_in

    worth = {ref: pay_worth(a.table.model, ref) for ref in a.rarity}
    written = rules_and_pays(a.table.model)  # each pay as the file writes it, for the message
    out = []
    for ref, p in a.rarity.items():
        w = worth[ref]
        if w is None or p == 0:
            continue
        wager = ref.partition(".")[0]
        rarer = [(r, q) for r, q in a.rarity.items() if r.partition(".")[0] == wager and 0 < q < p
                 and (v := worth[r]) is not None and v < w]
        if rarer:
            below = ", ".join(f"pays.{r} ({written.get(f'pays.{r}', '?')}, {one_in(q)})"
                              for r, q in sorted(rarer, key=lambda x: x[1]))
            out.append(f"pays.{ref} ({written.get(f'pays.{ref}', '?')}, {one_in(p)}) pays more than the rarer "
                       f"{below}: pays should rise with the hand's rarity (a typo?)")
    return out
