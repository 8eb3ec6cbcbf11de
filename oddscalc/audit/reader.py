"""Reading a hand log: its header, then its rounds one line at a time (never the whole file in memory).

:func:`rounds` yields ``(line, Round)`` as it reads; :func:`decisions` yields one
:class:`~oddscalc.audit.observed.Observed` per decision, what the evidence engine reads. A bad line raises
``TableError`` (what: "hand log") naming the file, the line and the key, which the command line turns into exit
code 3, as for a bad table file.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from oddscalc.audit.logformat import FORMAT, MOST_LINE, VERSION, WHAT, Header, Round, amount, card_ids
from oddscalc.audit.observed import Observed
from oddscalc.datafile import Problem, TableError
from oddscalc.files import note_read

# the wager whose stake is the unit of ``Observed.won``: the ante, or the one bet a punto banco player makes
UNIT_WAGER = {"caribbean": "main", "let-it-ride": "main"}


def _fail(path: Path, line: int | None, key: str, message: str) -> TableError:
    return TableError([Problem(str(path), line, key, message)], WHAT)


def _problems(path: Path, line: int, e: ValidationError) -> TableError:
    found = []
    for err in e.errors()[:20]:
        key = ".".join(str(p) for p in err["loc"])
        kind = err.get("type", "")
        message = ("unknown key" if kind == "extra_forbidden" else "missing" if kind == "missing"
                   else str(err.get("msg", "invalid")).removeprefix("Value error, "))
        if kind == "json_invalid":
            key, message = "", f"not a JSON object ({err.get('msg', '')})"
        found.append(Problem(str(path), line, key, message))
    return TableError(found, WHAT)


def _lines(path: Path, start: int = 0, end: int | None = None, number: int = 0) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of each line starting in the bytes [start, end) (``number``: the lines before
    ``start``), read in blocks: a line longer than MOST_LINE is refused unread."""
    note_read(path)
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below, after the generator is done
    except OSError as e:
        raise _fail(path, None, "", f"cannot read: {e.strerror or e}") from None
    with f:
        f.seek(start)
        at = start
        while end is None or at < end:
            try:
                raw = f.readline(MOST_LINE + 1)
            except OSError as e:
                raise _fail(path, number + 1, "", f"cannot read: {e.strerror or e}") from None
            if not raw:
                return
            number += 1
            at += len(raw)
            if len(raw) > MOST_LINE and not raw.endswith(b"\n"):
                raise _fail(path, number, "", f"a line longer than {MOST_LINE:,} bytes: not a round")
            if raw.strip():
                yield number, raw


def split(path: Path, parts: int) -> list[tuple[int, int, int]]:
    """The log's rounds cut into ``parts`` byte ranges at line starts, for reading side by side: (start, end, lines
    before start) each; the header line is in none."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            first = f.readline(MOST_LINE + 1)
            cuts = [len(first)]
            for k in range(1, parts):
                f.seek(max(cuts[-1], size * k // parts))
                f.readline(MOST_LINE + 1)
                cuts.append(max(cuts[-1], f.tell()))
            cuts.append(size)
            out, lines, at = [], 1, len(first)
            for a, b in zip(cuts, cuts[1:]):
                f.seek(at)
                while at < a:  # the lines before each cut, counted in blocks
                    block = f.read(min(1 << 20, a - at))
                    lines += block.count(b"\n")
                    at += len(block)
                out.append((a, b, lines))
    except OSError as e:
        raise _fail(path, None, "", f"cannot read: {e.strerror or e}") from None
    return [(a, b, n) for a, b, n in out if b > a]


def _parse(path: Path, line: int, raw: bytes, model: type[BaseModel]) -> Any:
    # the model's compiled validator called as it is: ``model_validate_json``'s own wrapper (its keyword arguments,
    # all unset here) was an eighth of validating a round, and a log has a million
    try:
        return model.__pydantic_validator__.validate_json(raw)
    except ValidationError as e:
        raise _problems(path, line, e) from None


def header(path: Path) -> Header:
    """The log's header (its first line), checked: the format and a version this reader knows."""
    for line, raw in _lines(path):
        if b'"format"' not in raw or b'"version"' not in raw:
            raise _fail(path, line, "format", f"the first line must be the header ({{\"format\": \"{FORMAT}\", "
                                              f"\"version\": {VERSION}, ...}})")
        return _parse(path, line, raw, Header)  # type: ignore[no-any-return]
    raise _fail(path, None, "", "an empty file: no header line")


def rounds(path: Path, part: tuple[int, int, int] | None = None) -> Iterator[tuple[int, Round]]:
    """Every round of the log after its header (or of one ``part`` of it, from :func:`split`), with its line
    number, in file order (streamed). Round numbers never go down."""
    if part is None:
        lines = _lines(path)
        if next(lines, None) is None:
            raise _fail(path, None, "", "an empty file: no header line")
    else:
        lines = _lines(path, *part)
    last = 0
    for line, raw in lines:
        r: Round = _parse(path, line, raw, Round)
        if r.round < last:
            raise _fail(path, line, "round", f"round {r.round} after round {last}: rounds are in order")
        last = r.round
        yield line, r


def hidden_cards(game: str, r: Round) -> tuple[int, ...]:
    """The cards of a round an honest player had not seen at its first decision, in dealing order (Observed)."""
    c = r.cards
    if game == "caribbean":
        return card_ids(c.dealer[1:])
    if game == "let-it-ride":
        return card_ids(c.community)
    return card_ids(c.shoe)


def won_units(game: str, r: Round) -> Fraction:
    """What the seat's wagers in the round won, in units of the base wager's stake (Observed.won)."""
    return _won(UNIT_WAGER.get(game), tuple(r.stakes.items()), tuple(r.paid.items()))


@functools.lru_cache(maxsize=4096)
def _won(base: str | None, stakes: tuple[tuple[str, int | str], ...], paid: tuple[tuple[str, int | str], ...]
         ) -> Fraction:
    """``won_units`` of a round's stakes and payments as written: a log repeats few of them, so each is summed once
    (the Fractions were a fifth of reading a log)."""
    if base is None:  # punto banco: the one bet made (none: nothing staked, nothing won)
        unit = amount(stakes[0][1]) if stakes else Fraction(1)
    else:
        unit = next((amount(v) for w, v in stakes if w == base), Fraction(1))
    return sum((amount(v) for _, v in paid), Fraction(0)) / unit


def observed(game: str, line: int, r: Round) -> Iterator[Observed]:
    """The :class:`Observed` of each decision of one round (see :func:`decisions`)."""
    return iter(observed_all(game, ((line, r),)))


def observed_all(game: str, batch: Iterable[tuple[int, Round]]) -> list[Observed]:
    """The :class:`Observed` of each decision of each (line, round), in order: :func:`observed` of a chunk of
    rounds in one loop (a million rounds are read through here; a generator per round was a tenth of it)."""
    out: list[Observed] = []
    add = out.append
    second_sees = game == "let-it-ride"
    for line, r in batch:
        hidden = hidden_cards(game, r)
        won = won_units(game, r)
        for d in r.decisions:
            seen = card_ids(d.seen)
            if second_sees and len(seen) > 3:  # the second decision: a community card is turned over
                hidden = hidden[len(seen) - 3:]
            add(Observed(line, game, seen, hidden, d.action, won))
    return out


def decisions(path: Path, part: tuple[int, int, int] | None = None) -> Iterator[Observed]:
    """One :class:`Observed` per decision of the log (or of one ``part`` of it, from :func:`split`), in file order,
    streamed (bounded memory): ``seen`` the cards the log says the player saw when deciding, ``hidden`` the round's
    cards an honest player had not seen (see Observed), ``action`` the action taken, ``won`` what the round's
    wagers won in units of the base stake."""
    game = header(path).game
    for line, r in rounds(path, part):
        yield from observed(game, line, r)


__all__ = ["decisions", "header", "hidden_cards", "observed", "observed_all", "rounds", "split", "won_units"]
