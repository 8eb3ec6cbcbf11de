"""The file-keys page holds to the loader: every key of every shipped file is on it, and what it says of a key
(required, or left out with a default) is what the loader does when the key is taken out of a shipped file."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from oddscalc.filing.compliance import ProfileModel
from oddscalc.games import DECLARED, TABLE_MODELS
from oddscalc.protection.count_system import CountFile
from oddscalc.protection.information import InformationModel
from oddscalc.protocol import load
from oddscalc.report.keys import Key, keys_of, reference_markdown

ROOT = Path(__file__).resolve().parents[2]


def _canonical(key: str) -> tuple[str, bool]:
    """A page key as a dotted pattern (array markers and a rule kind dropped) and whether it names a block."""
    block = key.endswith("]") or " with rule = " in key
    return re.sub(r" with rule = .*", "", key).replace("[", "").replace("]", ""), block


def _pattern(dotted: str) -> re.Pattern[str]:
    return re.compile(re.escape(dotted).replace(re.escape("<name>"), r"[^.]+") + r"\Z")


def _leaves(data: Any, prefix: str, keys: list[Key]) -> Iterator[str]:
    """The dotted path of every key of a parsed file, checked against the page as it goes down (a list of tables
    is walked as one; a key the page calls a block of one's own naming holds whatever its kind holds)."""
    shapes = [(_pattern(d), block, k.takes) for k in keys for name in (k.key, *k.also)
              for d, block in [_canonical(name)]]
    for name, value in data.items():
        path = prefix + name
        found = [(block, takes) for pat, block, takes in shapes if pat.match(path)]
        assert found, f"{path} is in a shipped file but not on the file-keys page"
        if any(block for block, _ in found) and not any("named by you, of the kind" in t for _, t in found):
            for item in value if isinstance(value, list) else [value]:
                yield from _leaves(item, path + ".", keys)
        else:
            yield path


def _shipped() -> Iterator[tuple[Path, type[BaseModel]]]:
    for game, declared in DECLARED.items():
        for path in sorted((ROOT / "tables" / game).glob("*.toml")):
            yield path, TABLE_MODELS[game]
        if declared.card is not None:
            for path in sorted((ROOT / "cards" / game).glob("*.toml")):
                yield path, load(declared.card)
    for path in sorted((ROOT / "profiles").glob("*.toml")):
        yield path, ProfileModel
    for path in sorted((ROOT / "tables" / "information").glob("*.toml")):
        yield path, InformationModel
    for path in sorted((ROOT / "tables" / "counts").glob("*.toml")):
        yield path, CountFile


SHIPPED = list(_shipped())


def test_every_shipped_file_kind_is_covered() -> None:
    kinds = {model for _, model in SHIPPED}
    assert len(kinds) == len(DECLARED) + sum(d.card is not None for d in DECLARED.values()) + 3


@pytest.mark.parametrize(("path", "model"), SHIPPED, ids=[str(p.relative_to(ROOT)) for p, _ in SHIPPED])
def test_every_key_of_a_shipped_file_is_on_the_page(path: Path, model: type[BaseModel]) -> None:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert list(_leaves(data, "", list(keys_of(model))))


def _without(data: dict[str, Any], dotted: str) -> dict[str, Any] | None:
    """A copy of ``data`` without the key (in a table, not in an array of tables); None if the file lacks it."""
    out = copy.deepcopy(data)
    node: Any = out
    *parents, last = dotted.split(".")
    for part in parents:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    if not isinstance(node, dict) or last not in node:
        return None
    del node[last]
    return out


@pytest.mark.parametrize("game", list(DECLARED))
def test_required_and_default_are_what_the_loader_does(game: str) -> None:
    """Take each key out of the default table in turn: a key the page calls required is then refused, and one it
    gives a default is accepted with the default's value (a key whose block holds others is left to them)."""
    model = TABLE_MODELS[game]
    data = tomllib.loads((ROOT / "tables" / game / f"{DECLARED[game].default_table}.toml").read_text("utf-8"))
    tried = 0
    for key in keys_of(model):
        if key.key.endswith("]") or "[" in key.key or "<name>" in key.key:
            continue
        less = _without(data, key.key)
        if less is None:
            continue
        tried += 1
        if key.need == "required":
            with pytest.raises(ValidationError):
                model.model_validate(less)
        else:
            left_out = model.model_validate(less)
            assert left_out is not None, key.key
            if key.need.startswith("default: "):
                value: Any = left_out.model_dump(mode="json")
                for part in key.key.split("."):
                    value = value[part]
                assert json.loads(key.need.removeprefix("default: ")) == value, key.key
    assert tried >= 3


def test_the_page_names_every_game_and_is_escaped_markdown() -> None:
    page = reference_markdown()
    for declared in DECLARED.values():
        assert f"(`{declared.key}`)" in page
    for line in page.splitlines():
        if line.startswith("| `"):
            assert len(re.findall(r"(?<!\\)\|", line)) == 4, line  # three cells: no stray unescaped pipe
    assert "`rules.player_draws_on` or `rules.punto_draws_on`" in page  # a name the loader also accepts
