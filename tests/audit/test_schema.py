"""docs/hand-log.schema.json holds to the reader's models: the same keys, the same required ones, the same card and
amount patterns; and every example line of docs/hand-log.md reads."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from oddscalc.audit import logformat
from oddscalc.audit.logformat import Cards, Decision, Generator, Header, Round

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "hand-log.schema.json").read_text())


@pytest.mark.parametrize(("model", "where"), [
    (Header, ("Header",)), (Round, ("Round",)), (Decision, ("Decision",)),
    (Generator, ("Header", "properties", "generator")), (Cards, ("Round", "properties", "cards"))])
def test_the_schema_has_the_models_keys(model: type[BaseModel], where: tuple[str, ...]) -> None:
    node = SCHEMA["$defs"]
    for key in where:
        node = node[key]
    assert set(node["properties"]) == set(model.model_fields)
    assert set(node.get("required", [])) == {n for n, f in model.model_fields.items() if f.is_required()}
    assert node["additionalProperties"] is False


def test_the_patterns_are_the_readers() -> None:
    assert SCHEMA["$defs"]["card"]["pattern"] == r"^(10|[2-9TJQKAtjqka])[shdcSHDC]$"
    amount = SCHEMA["$defs"]["amount"]["oneOf"][1]["pattern"]
    assert amount == logformat.AMOUNT.pattern
    assert re.fullmatch(amount[1:-1], "19/20") and not re.fullmatch(amount[1:-1], "0.95e0")


def test_the_reference_pages_examples_read() -> None:
    page = (ROOT / "docs" / "hand-log.md").read_text()
    blocks = re.findall(r"```json\n(.*?)```", page, re.S)
    assert len(blocks) == 4
    Header.model_validate_json(blocks[0])
    for block in blocks[1:]:
        Round.model_validate_json(block)
