"""Wiring: settings → storage → service → front ends."""

from __future__ import annotations

import logging

from adapters.console import run_console
from adapters.i18n import translator
from adapters.sqlite import SqliteRepository
from bot.settings import Settings
from core.dice import Roller, SecureRoller, SeededRoller
from core.service import GameService

log = logging.getLogger("bot")


def make_roller(settings: Settings) -> Roller:
    seed = settings.general_dice_seed
    return SeededRoller(seed) if seed else SecureRoller()


async def main(settings: Settings | None = None) -> int:
    settings = settings or Settings()
    logging.basicConfig(
        level=settings.general_log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    repository = await SqliteRepository.open(settings.general_database)
    try:
        service = GameService(repository, make_roller(settings))
        if settings.console_mode:
            await run_console(service, translator(settings.general_language))
            return 0
        log.error("chat front ends are not available in this build yet")
        return 2
    finally:
        await repository.close()
