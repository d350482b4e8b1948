"""The live table's fixtures: the fake Telegram of tests/telegram, the bot serving pages, and a
real browser (tests/web/browser.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.dice import ScriptedRoller
from tests.fakes.telegram import FakeTelegram
from tests.telegram.conftest import _no_proxy, fake
from tests.telegram.kit import RunningBot, running
from tests.web.browser import browser
from tests.web.kit import web_settings

__all__ = ["_no_proxy", "browser", "fake"]


@pytest.fixture
async def web(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[RunningBot]:
    """The bot as production runs it on the fake Telegram, its live table on a free port."""
    settings = web_settings(fake, tmp_path / "general.db")
    roller = ScriptedRoller()
    async with running(settings, roller):
        yield RunningBot(fake, roller, tmp_path / "general.db", settings)
