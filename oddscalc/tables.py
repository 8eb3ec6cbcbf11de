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
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, ValidationError

TABLES_DIR = Path(__file__).resolve().parent.parent / "tables"


class TableError(Exception):
    """A table file that cannot be used; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Problem:
    file: str
    line: int | None
    key: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


# --- exact value types -------------------------------------------------------------

_RATIO = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?::|\s+to\s+)\s*(\d+(?:\.\d+)?)\s*$")


def parse_ratio(value: Any) -> Fraction:
    """"100:1" -> 100, "1:2" -> 1/2, "0.95:1" -> 19/20. Ints are accepted as n:1."""
    if isinstance(value, bool):
        raise ValueError("a pay is a ratio string such as \"100:1\", not true/false")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"negative pay {value}")
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
    a, b = Fraction(m.group(1)), Fraction(m.group(2))
    if b == 0:
        raise ValueError(f"bad ratio {value!r}: zero denominator")
    return a / b


class Money(Fraction):
    """An amount of money (not a ratio): printed as a decimal amount."""

    __slots__ = ()


def parse_amount(value: Any) -> Fraction:
    """A money amount: an int, or a decimal string ("0.50"), never a float."""
    if isinstance(value, bool) or isinstance(value, float):
        raise ValueError(f"write amounts as integers or decimal strings such as \"0.50\", not {value!r}")
    if isinstance(value, int):
        v = Fraction(value)
    elif isinstance(value, str):
        try:
            v = Fraction(value.strip().replace(",", "").replace("_", ""))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"bad amount {value!r}") from None
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


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)


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

    def figures(self) -> dict[str, dict[str, Any]]:
        extra = self.model_extra or {}
        return {k: v for k, v in extra.items() if isinstance(v, dict)}


class TableModel(Strict):
    """Common top level of every table file; games subclass it with typed rules and pays."""

    game: str
    title: str
    description: str = ""
    assumptions: list[str] = Field(default_factory=list)
    published: Published | None = None
    claimed: Published | None = None

    GAME: ClassVar[str] = ""


@dataclass(frozen=True)
class Table:
    """A loaded, validated table file."""

    id: str
    path: Path
    sha256: str
    model: TableModel

    @property
    def game(self) -> str:
        return self.model.game

    @property
    def title(self) -> str:
        return self.model.title


# --- line lookup -------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEYLINE = re.compile(r"^\s*([A-Za-z0-9_\-\".]+)\s*=")


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Map each key path to the (1-based) line that defines it, as well as TOML lets us see."""
    lines: dict[tuple[str, ...], int] = {}
    prefix: tuple[str, ...] = ()
    for n, raw in enumerate(text.splitlines(), start=1):
        m = _HEADER.match(raw)
        if m:
            prefix = tuple(p.strip().strip('"') for p in m.group(1).split("."))
            lines.setdefault(prefix, n)
            continue
        m = _KEYLINE.match(raw)
        if m:
            path = prefix + tuple(p.strip().strip('"') for p in m.group(1).split("."))
            for i in range(len(prefix) + 1, len(path) + 1):
                lines.setdefault(path[:i], n)
    return lines


def _line_for(lines: Mapping[tuple[str, ...], int], loc: tuple[str, ...]) -> int | None:
    for i in range(len(loc), 0, -1):
        if loc[:i] in lines:
            return lines[loc[:i]]
    return None


# --- loading -------------------------------------------------------------------------


def _model_for(game: str) -> type[TableModel]:
    from .games import GAMES  # games import tables; resolve lazily

    return GAMES[game].table_model


def load_table_file(path: Path, expect_game: str | None = None) -> Table:
    """Read and validate one table file; raises :class:`TableError` listing every problem."""
    name = str(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise TableError([Problem(name, None, "", f"cannot read file: {e.strerror or e}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TableError([Problem(name, None, "", "not UTF-8 text")]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise TableError([Problem(name, int(m.group(1)) if m else None, "", f"not valid TOML: {e}")]) from None

    from .games import GAME_KEYS, GAMES

    lines = key_lines(text)
    game = data.get("game")
    if not isinstance(game, str):
        raise TableError([Problem(name, _line_for(lines, ("game",)), "game",
                                  "missing or not a string; one of: " + ", ".join(GAMES))])
    if game not in GAMES:
        raise TableError([Problem(name, _line_for(lines, ("game",)), "game",
                                  f"unknown game {game!r}; one of: " + ", ".join(GAMES))])
    problems: list[Problem] = []
    folder = path.resolve().parent.name
    if folder in GAME_KEYS and folder != game:
        problems.append(Problem(name, _line_for(lines, ("game",)), "game",
                                f"says {game!r} but the file is in the {folder!r} folder"))
    if expect_game is not None and game != expect_game:
        problems.append(Problem(name, _line_for(lines, ("game",)), "game",
                                f"is a {game!r} table, not a {expect_game!r} table"))
    model_cls = _model_for(game)
    model: TableModel | None = None
    try:
        model = model_cls.model_validate(data)
    except ValidationError as e:
        for err in e.errors():
            loc = tuple(str(p) for p in err["loc"])
            problems.append(Problem(name, _line_for(lines, loc), ".".join(loc), _message(err)))
    if problems or model is None:
        raise TableError(problems)
    return Table(id=path.stem, path=path, sha256=hashlib.sha256(raw).hexdigest(), model=model)


def _message(err: Any) -> str:
    kind = err.get("type", "")
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "missing"
    msg = str(err.get("msg", "invalid"))
    return msg.removeprefix("Value error, ")


def shipped_tables(game: str | None = None) -> list[Path]:
    games = [game] if game else sorted(p.name for p in TABLES_DIR.iterdir() if p.is_dir())
    out: list[Path] = []
    for g in games:
        out.extend(sorted((TABLES_DIR / g).glob("*.toml")))
    return out


def resolve_table(game: str, table: str | None) -> Table:
    """``table`` is a shipped id, a path, or None for the game's default table."""
    from .games import GAMES

    ident = table or GAMES[game].default_table
    p = Path(ident)
    if ident.endswith(".toml") or p.exists() or "/" in ident:
        return load_table_file(p, expect_game=game)
    candidate = TABLES_DIR / game / f"{ident}.toml"
    if not candidate.exists():
        known = ", ".join(t.stem for t in shipped_tables(game)) or "none"
        raise TableError([Problem(ident, None, "", f"no {game!r} table with this id; shipped: {known}")])
    return load_table_file(candidate, expect_game=game)
