"""The reference of file keys: every key of each game's table file, strategy card and compliance profile.

The page is read off the validating models themselves (pydantic), so it lists exactly the keys a file may hold,
what each takes, and whether it may be left out: a key added to a model appears here the day it is added, and a
key this page names is one the loader accepts. What a value takes is said by the validator that reads it (its
docstring's first sentence), so the page and the error a bad value gets speak alike.

>>> from oddscalc.filing.compliance import ProfileModel
>>> [(k.key, k.need) for k in keys_of(ProfileModel)][:3]
[('title', 'required'), ('source', 'required'), ('note', 'default: ""')]
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import types
import typing
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, BeforeValidator, PlainSerializer
from pydantic.fields import FieldInfo

from oddscalc.games import DECLARED, TABLE_MODELS
from oddscalc.protocol import load

_SIMPLE = {str: "text", int: "a whole number", bool: "true or false", float: "a number", object: "a value"}
_FRACTION = "an exact number"


@dataclasses.dataclass(frozen=True)
class Key:
    """One key of a file: its dotted path (``[[rules]]`` for an array of tables), what it takes, and whether it is
    required, optional or has a default."""

    key: str
    takes: str
    need: str
    also: tuple[str, ...] = ()  # other names the loader accepts for the key (punto banco's punto/banca names)


def _about(model: type[BaseModel]) -> str:
    doc = inspect.getdoc(model) or ""
    return " ".join(doc.split("\n\n")[0].split())


def _said_by(func: Any) -> str:
    """What a validator says its value is: its docstring's first sentence, and a card's features."""
    doc = " ".join((inspect.getdoc(func) or "").split())
    first = doc.split(". ")[0].rstrip(".")
    module = inspect.getmodule(func)
    features = getattr(module, "CARD_FEATURES", None) or getattr(module, "FEATURES", None)
    if features is not None and func.__name__ == "parse_when":
        first += " (features: " + ", ".join(features) + ")"
    return first


def _validators(metadata: list[Any]) -> list[Any]:
    return [m.func for m in metadata if isinstance(m, BeforeValidator)]


def _unwrap(annotation: Any, metadata: list[Any]) -> tuple[Any, list[Any], bool]:
    """The annotation without ``Annotated`` and ``None``: (type, its metadata, whether None is allowed)."""
    optional = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation, *more = typing.get_args(annotation)
            metadata = [*metadata, *more]
        elif origin in (typing.Union, types.UnionType) and type(None) in typing.get_args(annotation):
            rest = tuple(a for a in typing.get_args(annotation) if a is not type(None))
            optional = True
            annotation = rest[0] if len(rest) == 1 else typing.Union[rest]  # noqa: UP007 - a runtime union
        else:
            return annotation, metadata, optional


def _model(t: Any) -> type[BaseModel] | None:
    return t if isinstance(t, type) and issubclass(t, BaseModel) else None


def _takes(t: Any, metadata: list[Any], description: str | None = None) -> str:
    if description:
        return description
    said = [_said_by(f) for f in _validators(metadata) if inspect.getdoc(f)]
    if said:
        return said[0]
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is typing.Literal:
        return "one of " + ", ".join(f'"{a}"' if isinstance(a, str) else str(a) for a in args)
    if origin in (list, tuple):
        return "a list of " + _takes(args[0], []).removeprefix("a ").removeprefix("an ")
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_takes(a, []) for a in args)
    if t.__name__ == "Fraction":
        return _FRACTION
    return _SIMPLE.get(t, str(t.__name__))


def _need(field: FieldInfo, metadata: list[Any], optional: bool) -> str:
    if field.is_required():
        return "required"
    default = field.default
    if field.default_factory is not None or default == ():
        return "optional (empty when left out)"
    if default is None or optional:
        return "optional"
    if isinstance(default, BaseModel):
        return "optional (the defaults of its keys)"
    written: list[Any] = [m.func for m in metadata if isinstance(m, PlainSerializer)]  # each takes the value alone
    if written:
        default = written[0](default)  # as a file writes it: "5%", not 1/20
    return "default: " + json.dumps(list(default) if isinstance(default, tuple) else default, default=str)


def _variants(t: Any) -> list[type[BaseModel]]:
    """The models of a discriminated union (a profile's rule kinds), else of a plain model."""
    t, _, _ = _unwrap(t, [])
    if typing.get_origin(t) in (typing.Union, types.UnionType):
        return [m for a in typing.get_args(t) if (m := _model(_unwrap(a, [])[0])) is not None]
    m = _model(t)
    return [m] if m is not None else []


def _extra_model(model: type[BaseModel]) -> type[BaseModel] | None:
    """The model of a block's extra keys when it declares one (``__pydantic_extra__: dict[str, Model]``)."""
    try:
        hint = typing.get_type_hints(model).get("__pydantic_extra__")
    except (NameError, TypeError):
        return None
    args = typing.get_args(hint)
    return _model(args[1]) if typing.get_origin(hint) is dict and len(args) == 2 else None


def keys_of(model: type[BaseModel], prefix: str = "") -> Iterator[Key]:
    """Every key of ``model`` and of the blocks it holds, each under its dotted path."""
    for name, field in model.model_fields.items():
        path = prefix + (field.alias or name)  # as the file writes it (a count's tags.2, not tags.two)
        t, metadata, optional = _unwrap(field.annotation, list(field.metadata))
        origin, args = typing.get_origin(t), typing.get_args(t)
        nested = _model(t)
        if nested is not None:
            yield Key(f"[{path}]", _about(nested), _need(field, metadata, optional))
            yield from keys_of(nested, path + ".")
            if nested.model_config.get("extra") == "allow":
                extra = _extra_model(nested)
                if extra is None:
                    yield Key(f"[{path}.<name>]", "more blocks, each named by you, of the kind described above",
                              "optional")
                else:  # the extra blocks are a kind of their own (punto banco's side bets): described here
                    yield Key(f"[{path}.<name>]", f"more blocks, each named by you: {_about(extra)}", "optional")
                    yield from keys_of(extra, f"{path}.<name>.")
        elif origin is dict and _model(args[1]) is not None:
            inner = _model(args[1])
            assert inner is not None
            yield Key(f"[{path}]", "one block per name of your choosing, each as the next row says",
                      _need(field, metadata, optional))
            yield Key(f"[{path}.<name>]", _about(inner), "optional")
            yield from keys_of(inner, f"{path}.<name>.")
        elif origin in (list, tuple) and (kinds := _variants(args[0])):
            for kind in kinds:
                tag = kind.model_fields.get("rule")
                which = f" with rule = {_takes(tag.annotation, [])[7:]}" if tag is not None and len(kinds) > 1 else ""
                bare = path.replace("[", "").replace("]", "")  # an array inside an array of tables: one pair
                yield Key(f"[[{bare}]]{which}", _about(kind), _need(field, metadata, optional))
                yield from keys_of(kind, f"[[{bare}]].")
        else:
            choices = getattr(field.validation_alias, "choices", ())
            also = tuple(prefix + c for c in choices if isinstance(c, str) and c != name)
            yield Key(path, _takes(t, metadata, field.description), _need(field, metadata, optional), also)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(keys: list[Key]) -> list[str]:
    out = ["| Key | Takes | Required? |", "|---|---|---|"]
    out += [f"| {' or '.join(f'`{_cell(n)}`' for n in (k.key, *k.also))} | {_cell(k.takes)} | {_cell(k.need)} |"
            for k in keys]
    return out


def reference_markdown() -> str:
    """The page: for each game, the keys of its table files and, when it takes one, of its strategy cards; then the
    keys of a compliance profile, of an information model and of a count system."""
    from oddscalc.filing.compliance import ProfileModel

    out = ["# File keys", "",
           "Every key each file may hold, read off the models that validate the files (so a key named here is one "
           "the loader accepts, and a key it does not know is an error naming its file, line and key). A block is "
           "written `[name]` in TOML; `[[name]]` is an array of tables; `<name>` is a name of your choosing (a "
           "wager's id, a side bet's). `oddscalc tables copy ID FILE` starts a table from a shipped one; "
           "`oddscalc validate FILE` checks it.", ""]
    for key, declared in DECLARED.items():
        out += [f"## {declared.title} (`{key}`)", "", f"### Table file (`tables/{key}/*.toml`)", "",
                *_table(list(keys_of(TABLE_MODELS[key]))), ""]
        if declared.card is not None:
            out += [f"### Strategy card (`cards/{key}/*.toml`, `--strategy FILE`)", "",
                    *_table(list(keys_of(load(declared.card)))), ""]
    out += ["## Compliance profile (`profiles/*.toml`, `--profile ID|FILE`)", "",
            *_table(list(keys_of(ProfileModel))), ""]
    from oddscalc.protection.information import InformationModel

    out += ["## Information model (`tables/information/*.toml`, `oddscalc glimpse GAME --model ID|FILE`)", "",
            *_table(list(keys_of(InformationModel))), ""]
    from oddscalc.protection.count_system import CountFile

    out += ["## Count system (`tables/counts/*.toml`, `oddscalc counting GAME --count ID|FILE`)", "",
            *_table(list(keys_of(CountFile))), ""]
    return "\n".join(out)


__all__ = ["Key", "keys_of", "reference_markdown"]
