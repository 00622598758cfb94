"""Fixtures shared by the bot's tests: "High card", the game declared in a test
(:mod:`tests.bot.test_plugin_game`), registered for one test at a time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import games
from tests.bot.test_plugin_game import high_card


@pytest.fixture(scope="session")
def high_card_catalogs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder of the game's texts per test run: the catalogs it adds stay registered."""
    return tmp_path_factory.mktemp("highcard") / "locales"


@pytest.fixture
def high_card_game(high_card_catalogs: Path) -> Iterator[None]:
    games.register(high_card(high_card_catalogs))
    yield
    games.unregister("highcard")
