"""A wager's sheet of the workbook: its return table with live formulas, its pays as numbers, its figures.

Every row of a wager knows the one pay its units depend on and how strongly (``Row.pay_ref``, ``Row.pay_coef``):
units = base + coef * pay, exactly, with the strategy held at the one solved for the table (``filing.paytools``
writes the expected value so, symbolically). The sheet writes each pay as a number in a cell of its own, each
row's units as that formula (a Caribbean Stud win: 1 + 2 * pay, the ante at even money and the raise at the
pay; a banker win: 19/20 * pay, the commission taken; a jackpot share: -1 + meter/stake * share), each row's
return as units * combinations / total, and the expected value as their sum. At the table's own pays every
formula gives the report's figure (checked here, exactly, before it is written: a row whose units the pay cell
cannot give keeps its number, with a note). Changing a pay in a spreadsheet then moves the expected value by
exactly the pay's sensitivity, the strategy held fixed; the optimal strategy may change with the pays, and
oddscalc re-solves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from oddscalc.exact import frac_str
from oddscalc.filing.paytools import pay_value
from oddscalc.report.xlsx_sheet import (
    COUNT,
    EV,
    EXACT_NUMBER,
    GENERAL,
    ONE_IN,
    PERCENT,
    PROBABILITY,
    SD,
    STAKE,
    Exact,
    Fmt,
    Formula,
    Input,
    Sheet,
    Value,
    ref,
)
from oddscalc.results import Z_SCORES, Row, WagerResult
from oddscalc.tables import MeterShare, Money, TableModel

LIVE_NOTE = ("Live formulas (shaded green): each row's units are computed from the pays in the boxed yellow cells of "
             "the pay table below, its return as units x combinations / total, and the expected value and house "
             "edge below the table from them: change a pay and they follow, for the strategy as solved for this "
             "table. The optimal strategy may change with the pays; oddscalc re-solves it (oddscalc report or "
             "oddscalc solve with the new pays). The exact columns and the figures as solved are the report's, "
             "for the table's own pays.")
HEADER = ("event", "label", "pays", "units (exact)", "units", "stake (exact)", "combinations",
          "probability (exact)", "probability", "return (exact)", "return")
UNITS, COMBINATIONS, RETURN = 5, 7, 11  # the columns of the live cells and the count they use
SENSITIVITY = "0.000000%"


@dataclass(frozen=True)
class Pay:
    """A pay of the table as the sheet holds it: its value, its kind in words and its number format."""

    ref: str
    printed: str
    value: Fraction
    kind: str
    format: str


def _pay(model: TableModel, r: Row) -> Pay | None:
    """The pay a row's units depend on, or None when the table has no such number (then the units stay fixed)."""
    if not r.pay_ref or not r.pay_coef:
        return None
    try:
        value = pay_value(model, r.pay_ref)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None
    if isinstance(value, MeterShare):
        return Pay(r.pay_ref, r.pays, value, "share of the meter", "0.00%")
    if isinstance(value, Money):
        return Pay(r.pay_ref, r.pays, value, "amount", COUNT if value.denominator == 1 else "#,##0.00")
    return Pay(r.pay_ref, r.pays, value, "odds (x to 1)", GENERAL)


def _number(x: Fraction) -> str:
    """An exact number in a formula: "3", "-1", "19/20"."""
    return frac_str(x)


def units_formula(r: Row, pay: Pay, cell: str) -> Formula:
    """The row's units from the pay's cell: base + coef * pay, the base being the units at the table's pay less
    coef * pay (so at the table's pay it is the row's units exactly)."""
    base = r.units - r.pay_coef * pay.value
    term = cell if r.pay_coef == 1 else f"{_number(r.pay_coef)}*{cell}"
    body = f"={_number(base)}+{term}" if base else f"={term}"
    return Formula(body.replace("+-", "-"), GENERAL, r.units)


def figures(w: WagerResult) -> list[tuple[str, Value, str]]:
    """The wager's figures as solved, as label | value (with its format) | exact text."""
    eor = w.element_of_risk
    sd = w.standard_deviation
    out: list[tuple[str, Value, str]] = [
        ("Strategy", w.strategy_title or w.strategy, ""),
        (f"Expected value per {w.unit}", Fmt(w.expected_value, EV), frac_str(w.expected_value)),
        (f"House edge (of the {w.unit})", Fmt(w.house_edge, PERCENT), frac_str(w.house_edge)),
    ]
    if eor is not None:
        out += [("Element of risk (edge per unit staked)", Fmt(eor, PERCENT), frac_str(eor)),
                ("Average total stake", Fmt(w.average_stake, STAKE), frac_str(w.average_stake))]
    out += [
        ("Standard deviation", Fmt(sd, SD), ""),
        ("Variance", Fmt(w.variance, STAKE), frac_str(w.variance)),
        ("Volatility index at 90%", Fmt(Z_SCORES["90"] * sd, SD), ""),
        ("Volatility index at 95%", Fmt(Z_SCORES["95"] * sd, SD), ""),
        ("Hit frequency", Fmt(w.hit_frequency, PERCENT), frac_str(w.hit_frequency)),
        ("Total combinations", w.total_combinations, ""),
    ]
    top = top_award(w)
    if top is not None:
        label, p = top
        out.append((f"Top award odds ({label})", Fmt(1 / p, ONE_IN), frac_str(p)))
    return out


def top_award(w: WagerResult) -> tuple[str, Fraction] | None:
    """The largest win that happens, named, and the probability of its pay (its rows joined)."""
    wins = [r for r in w.rows if r.units > 0 and r.combinations]
    if not wins:
        return None
    best = max(wins, key=lambda r: r.units)
    if not best.pay_ref:
        return f"{best.label}, {best.pays}".rstrip(", "), w.probability(best)
    n = sum(r.combinations for r in w.rows if r.pay_ref == best.pay_ref and r.units > 0)
    name = best.pay_ref.rsplit(".", 1)[-1].replace("_", " ")
    return f"{name}, {best.pays}", Fraction(n, w.total_combinations)


def prize_rows(w: WagerResult) -> list[tuple[str, Value, str]]:
    """Each pay the wager can win with the odds of winning it (its rows joined), as label | 1 in N | exact p."""
    counts: dict[str, int] = {}
    printed: dict[str, str] = {}
    for r in w.rows:
        if r.pay_ref and r.units > 0:
            counts[r.pay_ref] = counts.get(r.pay_ref, 0) + r.combinations
            printed.setdefault(r.pay_ref, r.pays)
    out: list[tuple[str, Value, str]] = []
    for key, n in counts.items():
        label = f"Odds of {key.rsplit('.', 1)[-1].replace('_', ' ')} ({printed[key]})"
        p = Fraction(n, w.total_combinations)
        out.append((label, Fmt(1 / p, ONE_IN) if p else "never", frac_str(p)))
    return out


def wager_sheet(sheet: Sheet, w: WagerResult, model: TableModel) -> None:
    """The wager's sheet: title, the live note, the return table (frozen header), the live figures, the pay
    table, the figures as solved, the other figures and the notes."""
    sheet.title(w.title, f"wager {w.wager}", len(HEADER))
    sheet.line(LIVE_NOTE)
    head = sheet.row(HEADER, header=True)
    pays: dict[str, Pay] = {}
    for r in w.rows:
        pay = _pay(model, r)
        if pay is not None:
            pays.setdefault(pay.ref, pay)
    # where the pay table's rows will be: the return table's formulas point down to them
    total = head + 1 + len(w.rows)
    pay_first = total + (3 if w.stake_varies else 2) + 5
    cells = {p.ref: ref(pay_first + i, 3, absolute=True) for i, p in enumerate(pays.values())}
    fixed = _return_table(sheet, w, pays, cells)
    sheet.blank()
    k = ref(total, RETURN)
    sheet.row(["Expected value, at the pays below", Formula(f"={k}", EV, w.expected_value), Exact(f"per {w.unit}")],
              unsized=(3,))
    sheet.row(["House edge, at the pays below", Formula(f"=-{k}", PERCENT, w.house_edge), Exact(f"of the {w.unit}")],
              unsized=(3,))
    if w.stake_varies:
        stake = w.average_stake
        eor = Formula(f"=-{k}/({_number(stake)})", PERCENT, w.house_edge / stake)
        sheet.row(["Element of risk, at the pays below", eor, Exact("of the average total stake (as solved)")],
                  unsized=(3,))
    sheet.blank()
    sheet.line(PAY_TITLE, bold=True)
    if sheet.row(PAY_HEADER, header=True) + 1 != pay_first:
        raise AssertionError("the pay table is not where the formulas point")
    _pay_table(sheet, w, pays)
    if fixed:
        sheet.line("Rows whose units stay as solved (their pay is not a number of this sheet): " + ", ".join(fixed))
    sheet.blank()
    _figures_block(sheet, "Figures as solved (the report's, at the table's own pays)", figures(w) + prize_rows(w))
    if w.extras:
        sheet.blank()
        _figures_block(sheet, "Other figures (the key a [published] block names them by, in brackets)",
                       _other_figures(w))
    for note in w.notes:
        sheet.line(note)
    sheet.finish(freeze=head + 1)


def _return_table(sheet: Sheet, w: WagerResult, pays: dict[str, Pay], cells: dict[str, str]) -> list[str]:
    """The rows and the total, units and returns live; the events whose units stay numbers though they name a
    pay (the table has no number for it)."""
    first = sheet.next_row
    total = first + len(w.rows)
    count_total = ref(total, COMBINATIONS, absolute=True)
    if w.total_combinations >= EXACT_NUMBER:  # held as text: VALUE reads its digits
        count_total = f"VALUE({count_total})"
    fixed: list[str] = []
    for n, r in enumerate(w.rows, start=first):
        pay = pays.get(r.pay_ref) if r.pay_coef else None
        if r.pay_ref and r.pay_coef and pay is None:
            fixed.append(r.event)
        units: Value = units_formula(r, pay, cells[pay.ref]) if pay is not None else Fmt(r.units, GENERAL)
        count = ref(n, COMBINATIONS) if r.combinations < EXACT_NUMBER else f"VALUE({ref(n, COMBINATIONS)})"
        ret = Formula(f"={ref(n, UNITS)}*{count}/{count_total}", PROBABILITY, w.row_return(r))
        p = w.probability(r)
        sheet.row([r.event, r.label, r.pays, Exact(frac_str(r.units)), units, Exact(frac_str(r.stake)),
                   r.combinations, Exact(frac_str(p)), Fmt(p, PROBABILITY), Exact(frac_str(w.row_return(r))), ret])
    ev = Formula(f"=SUM({ref(first, RETURN)}:{ref(total - 1, RETURN)})", PROBABILITY, w.expected_value)
    sheet.row(["total", "", "", "", "", "", w.total_combinations, Exact("1"), Fmt(1, PROBABILITY),
               Exact(frac_str(w.expected_value)), ev], bold=True)
    return fixed


PAY_TITLE = ("Pays (change a boxed cell: the units, returns and live figures above follow; the sensitivity is the "
             "change in house edge per unit of pay, the strategy held fixed)")
PAY_HEADER = ("pay", "pays (as printed)", "value", "value (exact)", "kind", "sensitivity")


def _pay_table(sheet: Sheet, w: WagerResult, pays: dict[str, Pay]) -> None:
    for p in pays.values():
        slope = -sum((Fraction(r.combinations) * r.pay_coef for r in w.rows if r.pay_ref == p.ref and r.pay_coef),
                     Fraction(0)) / w.total_combinations
        sheet.row([p.ref, p.printed, Input(p.value, p.format), Exact(frac_str(p.value)), p.kind,
                   Fmt(slope, SENSITIVITY)])
    if not pays:
        sheet.line("This wager has no pay of the table: its rows are fixed by the rules.")


def _other_figures(w: WagerResult) -> list[tuple[str, Value, str]]:
    out: list[tuple[str, Value, str]] = []
    for key, v in w.extras.items():
        x = Fraction(v)
        shown: Value = int(x) if x.denominator == 1 else Fmt(x, PERCENT if key.endswith("frequency") else EV)
        out.append((f"{key.replace('_', ' ').capitalize()} [{key}]", shown, "" if x.denominator == 1 else frac_str(x)))
    return out


def _figures_block(sheet: Sheet, title: str, rows: Sequence[tuple[str, Value, str]]) -> None:
    sheet.line(title, bold=True)
    for label, value, exact in rows:
        sheet.row([label, value, Exact(exact)], unsized=(2, 3))
