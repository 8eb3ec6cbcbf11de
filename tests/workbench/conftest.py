"""The workbench's application over a temporary folder of its own (its answers are read with
``oracles.workbench_pages``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from oddscalc.workbench.app import create_app


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    made = tmp_path / "server"
    made.mkdir()
    return made


@pytest.fixture()
def app(folder: Path) -> Iterator[Flask]:
    app = create_app(folder)
    app.config["TESTING"] = True
    yield app


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()
