"""Table files: every number a casino can change, as validated TOML.

A table lives at ``tables/<game>/<id>.toml``. Its top level is common to every game
(``game``, ``title``, ``description``, ``assumptions``, ``[rules]``, ``[pays.<wager>]``,
``[published]``, ``[claimed]``); each game module declares the shape of its own
``rules`` and ``pays`` as a pydantic model deriving from :class:`TableModel`.

Validation reports every problem at once, each with the file, the line where it can be
found, and the key path. Pays are ratio strings ("100:1" pays 100 to 1) read as exact
``Fraction``s; no pay is ever a float.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, model_validator

from oddscalc.datafile import Problem, TableError, header_path, line_for, parse_toml, validate_model
from oddscalc.files import real_path

# --- exact value types -------------------------------------------------------------

_RATIO = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(?::|\s+to\s+)\s*([0-9]+(?:\.[0-9]+)?)\s*$", re.ASCII)
_AMOUNT = re.compile(r"^[0-9]+(?:\.[0-9]+)?$", re.ASCII)
MAX_DIGITS = 40  # no real pay or amount has more; bigger ones are typos (and hard to print exactly)


def parse_ratio(value: Any) -> Fraction:
    """A pay as odds, "to 1": "100:1" -> 100, "1:2" -> 1/2, "0.95:1" -> 19/20; an integer n is n:1."""
    if isinstance(value, bool):
        raise ValueError("a pay is a ratio string such as \"100:1\", not true/false")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"negative pay {value}")
        _check_digits(str(value), value)
        return Fraction(value)
    if isinstance(value, float):
        raise ValueError(f"write pays as exact ratio strings such as \"5:1\", not the float {value!r}")
    if not isinstance(value, str):
        raise ValueError(f"a pay is a ratio string such as \"100:1\", got {type(value).__name__}")
    if value.strip().startswith("-"):
        raise ValueError(f"negative pay {value!r}")
    m = _RATIO.match(value)
    if not m:
        raise ValueError(f"bad ratio {value!r} (write it as \"a:b\", e.g. \"100:1\")")
    _check_digits(m.group(1) + m.group(2), value)
    a, b = Fraction(m.group(1)), Fraction(m.group(2))
    if b == 0:
        raise ValueError(f"bad ratio {value!r}: zero denominator")
    return a / b


def _check_digits(digits: str, shown: object) -> None:
    n = sum(ch.isdigit() for ch in digits)
    if n > MAX_DIGITS:
        raise ValueError(f"{shown!r} has {n} digits; a pay or amount has at most {MAX_DIGITS}")


class Money(Fraction):
    """An amount of money (not a ratio): printed as a decimal amount."""

    __slots__ = ()


def parse_amount(value: Any) -> Fraction:
    """A money amount: an int, or a decimal string ("0.50"), never a float."""
    if isinstance(value, bool) or isinstance(value, float):
        raise ValueError(f"write amounts as integers or decimal strings such as \"0.50\", not {value!r}")
    if isinstance(value, int):
        _check_digits(str(value), value)
        v = Fraction(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", "").replace("_", "")
        if text.startswith("-"):
            raise ValueError(f"negative amount {value!r}")
        if not _AMOUNT.match(text):
            raise ValueError(f"bad amount {value!r} (write it as digits, e.g. \"2500\" or \"0.50\")")
        _check_digits(text, value)
        v = Fraction(text)
    else:
        raise ValueError(f"bad amount {value!r}")
    if v < 0:
        raise ValueError(f"negative amount {value!r}")
    return Money(v)


def ratio_text(x: Fraction) -> str:
    """Print a pay the way a table card would: "100:1", "1:2", "19:20"."""
    return f"{x.numerator}:{x.denominator}"


def _ser_frac(x: Fraction) -> str:
    return ratio_text(x)


Ratio = Annotated[Fraction, BeforeValidator(parse_ratio), PlainSerializer(_ser_frac)]
Amount = Annotated[Fraction, BeforeValidator(parse_amount), PlainSerializer(lambda x: str(x))]


class Odds(Fraction):
    """A prize stated as odds ("50:1" pays 50 stakes and returns the stake), where amounts are also allowed."""

    __slots__ = ()


class MeterShare(Fraction):
    """A progressive prize: this share of the meter ("100% meter", "10% of meter"), paid as an amount."""

    __slots__ = ()


_METER = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*(?:of\s+(?:the\s+)?)?meter\s*$", re.IGNORECASE | re.ASCII)


def parse_prize(value: Any) -> Fraction:
    """A prize: odds as a ratio string ("50:1"), an amount of money (an integer or "0.50"), or a share of
    a progressive meter ("100% meter")."""
    if isinstance(value, str) and "meter" in value.lower():
        m = _METER.match(value)
        if not m or not 0 < Fraction(m.group(1)) <= 100:
            raise ValueError(f"bad meter prize {value!r} (write a share of the meter from 0% to 100%, e.g. "
                             "\"100% meter\" or \"10% meter\")")
        return MeterShare(Fraction(m.group(1)) / 100)
    if isinstance(value, str) and (":" in value or " to " in value):
        return Odds(parse_ratio(value))
    return parse_amount(value)


def _ser_prize(x: Fraction) -> str:
    if isinstance(x, MeterShare):
        return f"{x * 100}% meter"
    return ratio_text(x) if isinstance(x, Odds) else str(x)


Prize = Annotated[Fraction, BeforeValidator(parse_prize), PlainSerializer(_ser_prize)]


def money_text(x: Fraction) -> str:
    """An amount as a pay table prints it: "25,000", "0.50"."""
    from oddscalc.exact import decimal_str

    return f"{x.numerator:,}" if x.denominator == 1 else decimal_str(x, 2)


def prize_units(prize: Fraction, stake: Fraction, meter: Fraction | None = None) -> tuple[str, Fraction, Fraction]:
    """A prize's pays text, its net stakes won, and d(units)/d(prize): odds return the stake, an amount
    is all the player gets back, a meter share is that share of ``meter`` as an amount."""
    if isinstance(prize, Odds):
        return ratio_text(prize), Fraction(prize), Fraction(1)
    if isinstance(prize, MeterShare):
        if meter is None:
            raise ValueError("a meter prize needs the wager's [meter]")
        from oddscalc.exact import percent_str

        amount = prize * meter
        share = percent_str(prize, 0 if (prize * 100).denominator == 1 else 2)
        return f"{share} of meter ({money_text(amount)})", amount / stake - 1, meter / stake
    return f"{money_text(prize)} (amount)", prize / stake - 1, 1 / stake


class Strict(BaseModel):
    """A table block: unknown keys are errors, values frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True, strict=True)


class HandPays(Strict):
    """A pay for every five-card class from a pair up (keys are the HandClass vocabulary)."""

    royal_flush: Ratio
    straight_flush: Ratio
    four_of_a_kind: Ratio
    full_house: Ratio
    flush: Ratio
    straight: Ratio
    three_of_a_kind: Ratio
    two_pair: Ratio
    pair: Ratio


class Published(BaseModel):
    """Figures from a public analysis (or a casino's claim) and their source.

    ``source`` names where they come from; every other key is a wager id mapping
    figure names to values: ints are exact, "p/q" strings exact, decimal or percent strings
    are rounded figures compared within their printed precision.
    """

    model_config = ConfigDict(extra="allow", frozen=True)
    source: str
    # the fingerprint (:func:`rules_and_pays_sha256`) of the rules and pays the figures were published for: a
    # table whose own differs is another table, and its figures are not compared (a copy with one pay changed)
    rules_and_pays_sha256: str | None = Field(
        None, pattern=r"^[0-9a-f]{64}$",
        description="the fingerprint of the rules and pays the figures describe (64 hex digits; "
                    "`oddscalc tables copy` leaves the block out)")

    def figures(self) -> dict[str, dict[str, Any]]:
        """The figure blocks by wager."""
        extra = self.model_extra or {}
        return {k: v for k, v in extra.items() if isinstance(v, dict)}


class BetLimit(Strict):
    """The smallest and largest bet on a wager, in money per unit of the wager (an ante, a base bet, a stake)."""

    min: Amount
    max: Amount

    @model_validator(mode="after")
    def _ordered(self) -> BetLimit:
        if not 0 < self.min <= self.max:
            raise ValueError(f"a bet limit needs 0 < min <= max, not min {self.min} and max {self.max}")
        return self


class Limits(Strict):
    """The table's limits: bets per wager, seats, and a cap on what one seat can be paid in one round."""

    currency: str = ""
    seats: int = Field(7, ge=1, le=12)
    bets: dict[str, BetLimit] = Field(default_factory=dict)
    cap: Amount | None = None  # the most one seat is paid (net) in one round, over its wagers
    # the pace an hourly figure is taken at (rounds a seat plays in an hour); a report that needs one and finds none
    # states the pace it assumes
    rounds_per_hour: int | None = Field(None, ge=1, le=10_000)

    def pace(self, assumed: int) -> tuple[int, str]:
        """Rounds an hour for an hourly figure, and how the report says where the number comes from."""
        if self.rounds_per_hour is not None:
            return self.rounds_per_hour, f"{self.rounds_per_hour} rounds an hour (the table's [limits] rounds_per_hour)"
        return assumed, (f"{assumed} rounds an hour (an assumption: the table's [limits] states no rounds_per_hour)")


class TableModel(Strict):
    """Common top level of every table file; games subclass it with typed rules and pays."""

    game: str
    title: str
    description: str = ""
    assumptions: list[str] = Field(default_factory=list)
    limits: Limits | None = None
    published: Published | None = None
    claimed: Published | None = None

    GAME: ClassVar[str] = ""

    def wager_ids(self) -> tuple[str, ...]:
        """The table's wagers, in file order: every block of its ``[pays]`` is one (a side bet's block makes it
        a wager), and they are the ids of the analysis's wagers (a test holds every shipped table to that)."""
        pays = getattr(self, "pays", None)
        return tuple(k for k, v in pays if v is not None) if isinstance(pays, BaseModel) else ()

    def name_problems(self) -> list[tuple[tuple[str, ...], str]]:
        """Keys that name a wager no ``[pays]`` block declares (``[limits.bets.<wager>]``, ``[published.<wager>]``,
        a ``[[published.differs]]`` entry's wager) or a figure in a shape no wager has, each as (key path,
        message): what pydantic cannot see, since the wagers are the file's own. A figure's name that depends on
        the analysis (an event id, a section's cell) is checked by ``oddscalc validate`` against the analysis."""
        wagers = self.wager_ids()
        known = ", ".join(wagers)
        out: list[tuple[tuple[str, ...], str]] = []
        for name in self.limits.bets if self.limits is not None else ():
            if name not in wagers:
                out.append((("limits", "bets", name), f"no wager {name!r} in this table; wagers: {known}"))
        for block_name in FIGURE_BLOCKS:
            block = getattr(self, block_name)
            for key, value in (block.model_extra or {}).items() if block is not None else ():
                out += _block_problems(block_name, key, value, wagers)
        return out


FIGURE_BLOCKS = ("published", "claimed")
SECTIONS = "sections"  # [published.sections.<section id>]: a report section's cells
DIFFERS = "differs"  # [[published.differs]]: a source's figure found wrong, with the reason
DIFFERS_KEYS = ("wager", "figure", "published", "reason")
ROW_FIGURES = ("combinations", "probability", "units", "stake", "return")
PRECISE = "_precise"  # a second, more precise printing of the same figure


def _block_problems(block: str, key: str, value: Any, wagers: Sequence[str]) -> list[tuple[tuple[str, ...], str]]:
    known = ", ".join(wagers)
    if key == DIFFERS:
        entries = value if isinstance(value, list) else [value]
        out: list[tuple[tuple[str, ...], str]] = []
        for i, e in enumerate(entries):
            where = (block, DIFFERS, str(i))
            shape = differs_shape(block, e)
            if shape is not None:
                out.append((where, shape))
            elif e["wager"] not in wagers and not e["wager"].startswith(f"{SECTIONS}."):
                out.append(((*where, "wager"), f"no wager {e['wager']!r} in this table; wagers: {known} "
                                               f"(or {SECTIONS}.<section id>)"))
        return out
    if key == SECTIONS and key not in wagers:
        if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
            return [((block, key), f"write each section's figures in [{block}.{SECTIONS}.<section id>]")]
        return []
    if not isinstance(value, dict):
        return [((block, key), f"figure {key!r} is not under a wager: write it in [{block}.<wager>], "
                               f"e.g. [{block}.{wagers[0] if wagers else 'main'}]")]
    if key not in wagers:
        return [((block, key), f"no wager {key!r} in this table; wagers: {known} (or {SECTIONS}, {DIFFERS})")]
    out = []
    for name, shape in _figure_shapes(value):
        parts = name.removesuffix(PRECISE).split(".")
        if parts[0] == "rows" and (len(parts) != 3 or parts[2] not in ROW_FIGURES):
            out.append(((block, key, *name.split(".")),
                        f"write rows.<event>.<figure> with a figure of: {', '.join(ROW_FIGURES)}"))
        elif shape is not None:
            out.append(((block, key, *name.split(".")), shape))
    return out


def differs_shape(block: str, entry: Any) -> str | None:
    """What is wrong with the shape of a ``[[<block>.differs]]`` entry, or None when it has exactly the keys."""
    if not isinstance(entry, dict) or set(entry) != set(DIFFERS_KEYS) or not all(
            isinstance(entry[k], str) for k in ("wager", "figure", "reason")) or not entry["reason"].strip():
        return (f"a [[{block}.{DIFFERS}]] entry has exactly the keys {', '.join(DIFFERS_KEYS)} "
                "(wager, figure and a non-empty reason as strings)")
    return None


def figure_names(figures: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Flatten nested tables (``rows.<event>.combinations``) into dotted names, in file order."""
    for key, value in figures.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from figure_names(value, name + ".")
        else:
            yield name, value


def _figure_shapes(figures: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """Each figure's dotted name, with a message when its value is not a figure at all."""
    return [(name, "write a figure as an integer or a string such as \"3.51%\" or \"3/7\""
             if isinstance(v, bool) or not isinstance(v, (int, str)) else None) for name, v in figure_names(figures)]


@dataclass(frozen=True)
class Table:
    """A loaded, validated table file."""

    id: str
    path: Path
    sha256: str
    model: TableModel

    @property
    def game(self) -> str:
        """The game key the file declares."""
        return self.model.game

    @property
    def title(self) -> str:
        """The table's title."""
        return self.model.title


def rules_and_pays(model: TableModel) -> dict[str, Any]:
    """What a table's figures depend on, as plain data: its ``rules`` and ``pays`` as validated (defaults filled
    in, pays in lowest terms), keyed ``rules.<key>`` and ``pays.<wager>.<key>``; a list is one value."""
    data = model.model_dump(mode="json", include={"rules", "pays"}, exclude_none=True)
    return dict(figure_names(data))


def rules_and_pays_sha256(model: TableModel) -> str:
    """The fingerprint of a table's rules and pays: the sha256 of :func:`rules_and_pays` as canonical JSON (keys
    sorted, no spaces). Two tables with the same fingerprint have the same figures, whatever their titles, notes,
    key order, comments or ratio spellings ("10:2" is "5:1")."""
    text = json.dumps(rules_and_pays(model), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def differing_keys(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """The keys of two :func:`rules_and_pays` that differ (present in one only, or with other values)."""
    missing = object()
    return sorted(k for k in set(a) | set(b) if a.get(k, missing) != b.get(k, missing))


def load_table_file(path: Path, models: Mapping[str, type[TableModel]], expect_game: str | None = None,
                    ident: str | None = None) -> Table:
    """Read and validate one table file against its game's model (``models``: game key -> model).

    Raises :class:`TableError` listing every problem found.
    """
    name = str(path)
    data, lines, raw = parse_toml(path)
    game = data.get("game")
    known = ", ".join(models)
    if not isinstance(game, str):
        raise TableError([Problem(name, line_for(lines, ("game",)), "game",
                                  "missing or not a string; one of: " + known)])
    if game not in models:
        raise TableError([Problem(name, line_for(lines, ("game",)), "game",
                                  f"unknown game {game!r}; one of: {known}")])
    problems: list[Problem] = []
    folder = real_path(path).parent.name
    if folder in models and folder != game:
        problems.append(Problem(name, line_for(lines, ("game",)), "game",
                                f"says {game!r} but the file is in the {folder!r} folder"))
    if expect_game is not None and game != expect_game:
        problems.append(Problem(name, line_for(lines, ("game",)), "game",
                                f"is a {game!r} table, not a {expect_game!r} table"))
    model = validate_model(name, lines, models[game], data, problems)
    if isinstance(model, TableModel):
        problems += [Problem(name, line_for(lines, loc), ".".join(loc), message)
                     for loc, message in model.name_problems()]
    if problems or model is None:
        raise TableError(problems)
    assert isinstance(model, TableModel)
    return Table(id=ident or path.stem, path=path, sha256=hashlib.sha256(raw).hexdigest(), model=model)


def without_figures(text: str) -> str:
    """A table file's text without its figure blocks (``[published]``, ``[claimed]`` and their sub-tables), with
    the comments right above them: everything else (rules, pays, comments, layout) as written. The figures
    describe the table they were published for, not a copy made to be changed."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    dropping = False
    for line in lines:
        header = header_path(line)
        if header is not None:
            dropping = bool(header) and header[0] in FIGURE_BLOCKS
            if dropping:
                while out and (out[-1].lstrip().startswith("#") or not out[-1].strip()):
                    out.pop()  # the comments introducing the block, and the blank lines before them
                out.append("\n")
        if not dropping:
            out.append(line)
    return "".join(out).rstrip("\n") + "\n"
