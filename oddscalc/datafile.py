"""Validated TOML files (tables, strategy cards, profiles): read safely, parsed, and every problem reported at
once with the file, the line where it can be found and the key path.

A file is read only when it is a regular file of at most MAX_TABLE_BYTES of UTF-8 text, so a FIFO, a device,
a loop of links or a flood never blocks or traces back; a pydantic model validates it, and each error's location
is turned back into the key as written in the file and the line that defines it.
"""

from __future__ import annotations

import hashlib
import re
import stat
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from oddscalc.files import note_read

ModelT = TypeVar("ModelT", bound=BaseModel)


class TableError(Exception):
    """A table file that cannot be used; carries every problem found."""

    def __init__(self, problems: Sequence[Problem], what: str = "table"):
        self.problems = tuple(problems)
        self.what = what  # the kind of file: "table", "strategy card"
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Problem:
    """One problem of a table file: file, line (when known), key path, message."""

    file: str
    line: int | None
    key: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


# --- line lookup -------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""  # a bare, basic-quoted or literal-quoted key
_KEYLINE = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")
_PARTS = re.compile(_PART)


def _dotted(key: str) -> tuple[str, ...]:
    """A dotted key's parts, a quoted part whole whatever it holds (``"break-even meter.meter"`` is one key)."""
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in _PARTS.findall(key))


def header_path(line: str) -> tuple[str, ...] | None:
    """The key path a table header line opens (``[published.main]`` or ``[[rules]]``), None for any other line."""
    m = _HEADER.match(line)
    return None if m is None else _dotted(m.group(1))


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Map each key path to the (1-based) line that defines it, as well as TOML lets us see.

    Lines inside a multi-line string are text, not keys or headers, whatever they look like.
    """
    lines: dict[tuple[str, ...], int] = {}
    prefix: tuple[str, ...] = ()
    inside: str | None = None  # the delimiter of the multi-line string we are in
    arrays: dict[tuple[str, ...], int] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        if inside is not None:
            if raw.count(inside) % 2:
                inside = None
            continue
        header = header_path(raw)
        if header is not None:
            prefix = header
            lines.setdefault(prefix, n)
            if raw.lstrip().startswith("[["):  # an array of tables: its i-th element is key path + (i,)
                index = arrays.get(prefix, 0)
                arrays[prefix] = index + 1
                prefix = (*prefix, str(index))
                lines.setdefault(prefix, n)
            continue
        m = _KEYLINE.match(raw)
        if m:
            path = prefix + _dotted(m.group(1))
            for i in range(len(prefix) + 1, len(path) + 1):
                lines.setdefault(path[:i], n)
        for delimiter in ('"""', "'''"):
            if raw.count(delimiter) % 2:
                inside = delimiter
                break
    return lines


def line_for(lines: Mapping[tuple[str, ...], int], loc: tuple[str, ...]) -> int | None:
    """The line of ``loc``, or of the nearest key enclosing it that has one (None when no key does).

    A figure's name is dotted text (``rows.push.combinations``), written in a file as one quoted key or as
    nested keys alike, so a path is also found by its parts joined with dots:

    >>> lines = key_lines('[published.main]\\n"rows.push.combinations" = 1\\n')
    >>> line_for(lines, ("published", "main", "rows", "push", "combinations"))
    2
    """
    flat: dict[str, int] = {}
    for key, line in lines.items():
        flat.setdefault(".".join(key), line)
    for i in range(len(loc), 0, -1):
        found = lines.get(loc[:i]) or flat.get(".".join(loc[:i]))
        if found is not None:
            return found
    return None


# --- loading -------------------------------------------------------------------------

MAX_TABLE_BYTES = 1 << 20  # a table file is a page of TOML; anything bigger is not one


def read_text(path: Path) -> tuple[str, bytes]:
    """The UTF-8 text of a regular file of at most MAX_TABLE_BYTES (a BOM is allowed) and its bytes.

    Checked before reading, so a FIFO, a device or a symlink to one never blocks or floods memory.
    """
    name = str(path)
    try:
        st = path.stat()
    except OSError as e:
        raise TableError([Problem(name, None, "", f"cannot read file: {e.strerror or e}")]) from None
    except ValueError:  # a NUL byte in the name (from a caller in process: a shell cannot pass one)
        raise TableError([Problem(name.replace("\x00", "\\x00"), None, "", "cannot read file: a NUL byte in its "
                                  "name")]) from None
    if not stat.S_ISREG(st.st_mode):
        raise TableError([Problem(name, None, "", "not a regular file")])
    if st.st_size > MAX_TABLE_BYTES:
        raise TableError([Problem(name, None, "", f"too large for a table file ({st.st_size:,} bytes; "
                                                  f"the limit is {MAX_TABLE_BYTES:,})")])
    note_read(path)  # read from here on: no output of this command may replace it
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_TABLE_BYTES + 1)
    except OSError as e:
        raise TableError([Problem(name, None, "", f"cannot read file: {e.strerror or e}")]) from None
    if len(raw) > MAX_TABLE_BYTES:
        raise TableError([Problem(name, None, "", "too large for a table file")])
    try:
        return raw.decode("utf-8-sig"), raw
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise TableError([Problem(name, line, "", "not UTF-8 text")]) from None


def parse_toml(path: Path) -> tuple[dict[str, Any], dict[tuple[str, ...], int], bytes]:
    """A TOML file's data, its key lines, and its bytes; TableError if it is not readable TOML."""
    name = str(path)
    text, raw = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise TableError([Problem(name, int(m.group(1)) if m else None, "", f"not valid TOML: {e}")]) from None
    except RecursionError:
        raise TableError([Problem(name, None, "", "not valid TOML: nested too deeply")]) from None
    return data, key_lines(text), raw


def _file_loc(data: Any, loc: tuple[str, ...]) -> tuple[str, ...]:
    """An error's location as keys of the file: without the tags pydantic inserts for a tagged union
    (``rules.0.award_frequency.once_in`` is ``rules.0.once_in`` in the file)."""
    out: list[str] = []
    node = data
    for i, part in enumerate(loc):
        if isinstance(node, dict) and part not in node and i + 1 < len(loc) and loc[i + 1] in node:
            continue  # a union tag: not a key of the file
        out.append(part)
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            node = None
    return tuple(out)


def validate_model(name: str, lines: Mapping[tuple[str, ...], int], model: type[BaseModel], data: Any,
                   problems: list[Problem]) -> BaseModel | None:
    """``data`` validated against ``model``, or None with every error appended to ``problems`` (file ``name``)."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        for err in e.errors():
            loc = _file_loc(data, tuple(str(p) for p in err["loc"]))
            problems.append(Problem(name, line_for(lines, loc), ".".join(loc), _message(err)))
    except RecursionError:
        problems.append(Problem(name, None, "", "nested too deeply"))
    return None


def load_model_file(path: Path, model: type[ModelT], what: str) -> tuple[ModelT, str]:
    """Read and validate a TOML file (``what``: "strategy card", say) against ``model``, and its sha256.

    Raises :class:`TableError` listing every problem, each with file, line and key.
    """
    try:
        data, lines, raw = parse_toml(path)
    except TableError as e:
        raise TableError(e.problems, what) from None
    problems: list[Problem] = []
    result = validate_model(str(path), lines, model, data, problems)
    if problems or result is None:
        raise TableError(problems, what)
    assert isinstance(result, model)
    return result, hashlib.sha256(raw).hexdigest()


_TYPE_MESSAGES = {
    "int_type": "must be a whole number such as 8",
    "int_parsing": "must be a whole number such as 8",
    "bool_type": "must be true or false",
    "string_type": "must be a string in quotes",
    "list_type": "must be a list [ ... ]",
    "dict_type": "must be a table of keys",
    "model_type": "must be a table of keys",
}


def _message(err: Any) -> str:
    kind = err.get("type", "")
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "missing"
    if kind in _TYPE_MESSAGES:
        return f"{_TYPE_MESSAGES[kind]}, not {err.get('input')!r}"
    msg = str(err.get("msg", "invalid"))
    return msg.removeprefix("Value error, ")
