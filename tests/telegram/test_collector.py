"""The bot settles the garbage collector at ready (bot/collector.py): what start-up built is
frozen out of the collector's walks, and the young generation is collected rarely."""

from __future__ import annotations

import gc
from pathlib import Path

from bot import collector
from core.dice import SeededRoller
from tests.fakes.telegram import FakeTelegram
from tests.telegram.kit import bot_settings, running


async def test_the_collector_is_settled_at_ready(fake: FakeTelegram, tmp_path: Path) -> None:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # the interpreter's defaults
    gc.unfreeze()
    try:
        async with running(bot_settings(fake, tmp_path / "general.db"), SeededRoller(1)):
            assert gc.get_threshold() == (collector.YOUNG, 10, 10)
            assert gc.get_freeze_count() > 0
    finally:
        gc.set_threshold(*before)
