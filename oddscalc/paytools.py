"""Pays as variables: symbolic expected values, pay sensitivities, solving a pay for an edge,
and comparing two tables.

Every row of a wager knows the one pay its units depend on (``Row.pay_ref``, e.g.
``main.royal_flush``) and how strongly (``Row.pay_coef``): units = base + coef * pay. With the
strategy held fixed, a wager's expected value is therefore linear in each pay,

    EV = sum over rows of P(row) * (base_row + coef_row * pay_row),

which sympy prints exactly. Under the optimal strategy EV is the maximum of such linear
functions (one per strategy), so it is convex and increasing in each pay; solving a pay for a
target edge is Newton's method on that function, re-solving the strategy at every step until
the exact target is hit with the strategy stable.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .exact import WagerResult, decimal_str, frac_str, percent_str
from .games import Analysis, Decisions, OptionError, Section
from .tables import Money, Table, TableModel, ratio_text

if TYPE_CHECKING:
    import sympy

# --- pays in a table -----------------------------------------------------------------------


def pay_refs(model: TableModel) -> list[str]:
    """Every pay of a table as "<wager>.<key>" (only exact ratio/amount values)."""
    pays = getattr(model, "pays", None)
    out: list[str] = []
    if pays is None:
        return out
    for wager, block in pays:
        if block is None or not hasattr(type(block), "model_fields"):
            continue
        for key, value in block:
            if isinstance(value, Fraction):
                out.append(f"{wager}.{key}")
    return out


def resolve_pay(model: TableModel, name: str) -> str:
    """Accept "main.royal_flush" or a bare "royal_flush" when it names one pay only."""
    refs = pay_refs(model)
    if name in refs:
        return name
    hits = [r for r in refs if r.split(".", 1)[1] == name]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise OptionError(f"pay {name!r} is ambiguous; say which: {', '.join(hits)}")
    raise OptionError(f"no pay {name!r} in this table; pays: {', '.join(refs)}")


def pay_value(model: TableModel, ref: str) -> Fraction:
    wager, key = ref.split(".", 1)
    value = getattr(getattr(model.pays, wager), key)  # type: ignore[attr-defined]
    assert isinstance(value, Fraction)
    return value


def with_pay(table: Table, ref: str, value: Fraction) -> Table:
    """The same table with one pay replaced (a derived table: its id and digest say so)."""
    wager, key = ref.split(".", 1)
    pays = table.model.pays  # type: ignore[attr-defined]
    block = getattr(pays, wager).model_copy(update={key: value})
    model = table.model.model_copy(update={"pays": pays.model_copy(update={wager: block})})
    tag = f"{ref}={ratio_text(value)}"
    digest = hashlib.sha256(f"{table.sha256}\n{tag}".encode()).hexdigest()
    return Table(id=f"{table.id}[{tag}]", path=table.path, sha256=digest, model=model)


# --- symbolic expected value -----------------------------------------------------------------


def symbol(ref: str) -> sympy.Symbol:
    import sympy  # slow to import: only the symbolic report needs it

    return sympy.Symbol(ref.replace(".", "__"), nonnegative=True)


@dataclass(frozen=True)
class Linear:
    """EV of one wager as constant + sum of coef[pay] * pay, under the strategy it was solved with."""

    constant: Fraction
    coefficients: dict[str, Fraction] = field(default_factory=dict)

    def expression(self) -> sympy.Expr:
        import sympy

        expr: sympy.Expr = sympy.Rational(self.constant.numerator, self.constant.denominator)
        for ref, c in sorted(self.coefficients.items()):
            expr += sympy.Rational(c.numerator, c.denominator) * symbol(ref)
        return expr

    def at(self, values: dict[str, Fraction]) -> Fraction:
        return self.constant + sum((c * values[r] for r, c in self.coefficients.items()), Fraction(0))


def linear_ev(w: WagerResult, model: TableModel) -> Linear:
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
    import sympy

    md = ["Each wager's expected value as an exact linear expression in its pays (symbol `wager__hand` is the "
          "pay of that hand, to 1), with the strategy held at the one solved for this table. The sensitivity is "
          "the change in house edge per unit of that pay.", ""]
    data: dict[str, Any] = {}
    for w in a.wagers:
        lin = linear_ev(w, a.table.model)
        if not lin.coefficients:
            continue
        assert lin.at({r: pay_value(a.table.model, r) for r in lin.coefficients}) == w.expected_value
        expr = lin.expression()
        md += [f"### `{w.wager}`", "", "```", f"EV = {sympy.sstr(expr)}", "```", "",
               "| Pay | Value | Sensitivity (house edge per unit of pay) | Exact |", "|---|---|---:|---|"]
        sens = {}
        for ref, c in sorted(lin.coefficients.items(), key=lambda kv: -kv[1]):
            md.append(f"| {ref} | {ratio_text(pay_value(a.table.model, ref))} | {percent_str(-c, 6)} | {frac_str(-c)} |")
            sens[ref] = -c
        md.append("")
        data[w.wager] = {"expected_value": sympy.sstr(expr), "constant": lin.constant,
                         "sensitivity": sens}
    return Section("Symbolic expected value and pay sensitivities", "\n".join(md), data)


def with_symbolic(a: Analysis) -> Analysis:
    from dataclasses import replace

    return replace(a, sections=(*a.sections, symbolic_section(a)))


# --- strategy differences ---------------------------------------------------------------


@dataclass(frozen=True)
class Flips:
    name: str
    points: int  # decision points whose choice differs
    combinations: int  # combinations those points stand for
    examples: tuple[str, ...]


def decision_flips(a: tuple[Decisions, ...], b: tuple[Decisions, ...], examples: int = 5) -> list[Flips]:
    out = []
    bd = {d.name: d for d in b}
    for d in a:
        other = bd.get(d.name)
        if other is None or len(other.values) != len(d.values):
            continue
        diff = (d.values != other.values).nonzero()[0]
        combos = int(d.weights[diff].astype(object).sum()) if len(diff) else 0
        # spread the examples over the flipped points rather than showing one hand's neighbours
        picks = sorted({int(diff[round(j * (len(diff) - 1) / max(examples - 1, 1))]) for j in range(examples)}) if len(diff) else []
        ex = tuple(f"{d.describe(i)}: {'yes' if d.values[i] else 'no'} -> {'yes' if other.values[i] else 'no'}"
                   for i in picks)
        out.append(Flips(d.name, len(diff), combos, ex))
    return out


# --- solving a pay for a target edge -------------------------------------------------------


@dataclass(frozen=True)
class Step:
    pay: Fraction
    house_edge: Fraction
    flips: list[Flips]


@dataclass(frozen=True)
class Solution:
    ref: str
    wager: str
    target: Fraction
    pay: Fraction
    steps: list[Step]
    printable: list[tuple[Fraction, Fraction]]  # (pay a casino could print, its house edge)


class NoSolution(OptionError):
    """No pay reaches the requested edge."""


def solve_pay(analyze: Callable[[Table], Analysis], table: Table, ref: str, edge: Fraction,
              max_steps: int = 40) -> Solution:
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
    raise NoSolution(f"the strategy did not settle within {max_steps} steps (last pay {frac_str(v)})")


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


def solution_text(s: Solution) -> str:
    lines = [f"Pay {s.ref} for a house edge of {percent_str(s.target, 6)} on the {s.wager} wager:", "",
             f"  exact pay:   {frac_str(s.pay)} to 1  (= {decimal_str(s.pay, 6)} to 1)"]
    for c, he in s.printable:
        lines.append(f"  printable:   {ratio_text(c)}  -> house edge {percent_str(he, 4)}")
    lines += ["", "Steps (pay tried, house edge there, strategy changes from the step before):"]
    for i, st in enumerate(s.steps, 1):
        changed = ", ".join(f"{f.name}: {f.points:,} decision points ({f.combinations:,} combinations)"
                            for f in st.flips if f.points) or "none"
        lines.append(f"  {i}. pay {decimal_str(st.pay, 6)} -> edge {percent_str(st.house_edge, 6)}; changes: {changed}")
        for f in st.flips:
            for e in f.examples[:3]:
                lines.append(f"       {f.name}: {e}")
    return "\n".join(lines) + "\n"


# --- comparing two tables -----------------------------------------------------------------


def _flat(prefix: str, obj: Any) -> dict[str, Any]:
    if hasattr(type(obj), "model_fields"):
        obj = {k: v for k, v in obj}
    if isinstance(obj, dict):
        out: dict[str, Any] = {}
        for k, v in obj.items():
            out.update(_flat(f"{prefix}.{k}" if prefix else str(k), v))
        return out
    return {prefix: obj}


def _show(v: Any) -> str:
    if isinstance(v, Money):
        return f"{v.numerator:,}" if v.denominator == 1 else decimal_str(v, 2)
    if isinstance(v, Fraction):
        return ratio_text(v)
    return "(none)" if v is None else str(v)


def compare_text(a: Analysis, b: Analysis) -> str:
    ta, tb = a.table, b.table
    lines = [f"# {a.game}: `{ta.id}` vs `{tb.id}`", "", f"- A: {ta.title} (sha256 `{ta.sha256[:16]}…`)",
             f"- B: {tb.title} (sha256 `{tb.sha256[:16]}…`)", ""]
    fa = {**_flat("rules", dict(a.rules)), **_flat("pays", getattr(ta.model, "pays", {}))}
    fb = {**_flat("rules", dict(b.rules)), **_flat("pays", getattr(tb.model, "pays", {}))}
    diffs = [(k, fa.get(k), fb.get(k)) for k in sorted(set(fa) | set(fb)) if fa.get(k) != fb.get(k)]
    lines += ["## Rule and pay differences", ""]
    if diffs:
        lines += ["| Key | A | B |", "|---|---|---|"] + [f"| {k} | {_show(x)} | {_show(y)} |" for k, x, y in diffs]
    else:
        lines.append("None: the two tables play and pay the same.")
    lines.append("")
    bw = {w.wager: w for w in b.wagers}
    for w in a.wagers:
        o = bw.get(w.wager)
        if o is None:
            lines += [f"## `{w.wager}`: only in A", ""]
            continue
        lines += [f"## `{w.wager}`", "", "| Figure | A | B | B - A |", "|---|---:|---:|---:|"]
        for name, x, y in (("Expected value", w.expected_value, o.expected_value),
                           ("House edge", w.house_edge, o.house_edge),
                           ("Element of risk", w.element_of_risk, o.element_of_risk),
                           ("Average stake", w.average_stake, o.average_stake)):
            if x is None or y is None:
                continue
            lines.append(f"| {name} | {decimal_str(x, 8)} | {decimal_str(y, 8)} | {decimal_str(y - x, 8)} |")
        lines.append(f"| Standard deviation | {w.standard_deviation:.6f} | {o.standard_deviation:.6f} | "
                     f"{o.standard_deviation - w.standard_deviation:+.6f} |")
        rows_b = {r.event: r.combinations for r in o.rows}
        changed = [(r.event, r.combinations, rows_b.get(r.event)) for r in w.rows if rows_b.get(r.event) != r.combinations]
        if w.total_combinations != o.total_combinations:
            lines += ["", f"Totals differ ({w.total_combinations:,} vs {o.total_combinations:,}): rows are not comparable."]
        elif changed:
            lines += ["", "Rows whose combinations changed:", "", "| Event | A | B |", "|---|---:|---:|"]
            lines += [f"| {e} | {x:,} | {'-' if y is None else f'{y:,}'} |" for e, x, y in changed]
        else:
            lines += ["", "Every row has the same combinations."]
        lines.append("")
    flips = decision_flips(a.decisions, b.decisions)
    lines += ["## Strategy decisions that flip", ""]
    if not a.decisions:
        lines.append("This game's report exposes no per-point decisions.")
    for f in flips:
        lines.append(f"- {f.name}: {f.points:,} decision points ({f.combinations:,} combinations)")
        lines += [f"  - {e}" for e in f.examples]
    return "\n".join(lines).rstrip() + "\n"
