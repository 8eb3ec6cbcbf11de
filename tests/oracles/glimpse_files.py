"""A test-only reader of information model files (``tables/information/<id>.toml``) into ``protection.glimpse``'s
Model, until the project's loader lands: plain tomllib, no validation beyond what building the model needs."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from oddscalc.protection.glimpse import Glimpse, Model

INFORMATION = Path(__file__).resolve().parents[2] / "tables" / "information"


def read_model(path: Path) -> Model:
    """The model a file declares (its id is the file's stem)."""
    data: dict[str, Any] = tomllib.loads(path.read_text("utf-8"))
    glimpses = tuple(Glimpse(g["position"], g["shows"], tuple(frozenset(x) for x in g.get("groups", ())),
                             g.get("before", "")) for g in data["glimpse"])
    return Model(path.stem, data["title"], data["game"], glimpses, tuple(data.get("choices", ())),
                 data.get("source", ""))


def shipped(prefix: str) -> list[Path]:
    """The shipped model files whose names start with ``prefix``."""
    return sorted(INFORMATION.glob(f"{prefix}*.toml"))
