"""Start-up imports only what the settings use (BENCHMARKS.md, start-up): a fresh interpreter
goes through what `python -m bot` does up to starting the front ends — bot.app, the settings read
from the environment, the storage opened, the service and the configured front ends built — and
then says which of the heavy libraries it has loaded. numpy and the strategy come after ready
(the warm-up) or with the first board, hint or computer that needs them; PIL with the first
picture; each platform's library only with its front end; asyncpg only with
GENERAL_DATABASE_URL; aiohttp's server only with GENERAL_HTTP_PORT or a webhook.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

START = """
import asyncio, json, sys
import bot.app
from bot.settings import Settings

async def start():
    settings = Settings()
    repository = await bot.app.open_repository(settings)
    try:
        service = bot.app.GameService(repository, bot.app.make_roller(settings))
        front_ends = bot.app.chat_front_ends(settings, service)
        assert len(front_ends) == int(sys.argv[1]), front_ends
    finally:
        await repository.close()

asyncio.run(start())
print(json.dumps(sorted(sys.modules)))
"""

HEAVY = (
    "numpy",
    "PIL",
    "asyncpg",
    "discord",
    "telegram",
    "aiohttp.web",
    "core.strategy",
    "core.distribution",
    "core.chances",
    "adapters.pictures",
    "adapters.postgres",
    "adapters.console",
    "bot.http",
)


def loaded(tmp_path: Path, front_ends: int, **settings: str) -> set[str]:
    """The modules a start with these settings (and no other of the bot's) has loaded."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GENERAL_", "TELEGRAM_", "DISCORD_"))
    }
    env.update(PYTHONPATH=str(ROOT), GENERAL_DATABASE=":memory:", **settings)
    done = subprocess.run(
        [sys.executable, "-c", START, str(front_ends)],
        cwd=tmp_path,  # no .env file here
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


TELEGRAM = {"TELEGRAM_TOKEN": "123:start-token", "TELEGRAM_BASE_URL": "http://127.0.0.1:9/bot"}
DISCORD = {"DISCORD_TOKEN": "start-token", "DISCORD_API_BASE_URL": "http://127.0.0.1:9/api/v10"}


@pytest.mark.parametrize(
    ("settings", "front_ends", "needed"),
    [
        (TELEGRAM, 1, {"telegram"}),
        (DISCORD, 1, {"discord"}),
        ({**TELEGRAM, **DISCORD}, 2, {"telegram", "discord"}),
    ],
    ids=["telegram", "discord", "both"],
)
def test_a_start_imports_only_what_its_settings_use(
    tmp_path: Path, settings: dict[str, str], front_ends: int, needed: set[str]
) -> None:
    modules = loaded(tmp_path, front_ends, **settings)
    assert needed <= modules
    assert {name for name in HEAVY if name in modules} == needed


def test_the_console_imports_no_platform(tmp_path: Path) -> None:
    """Console mode (no token) builds no front end: no platform's library either."""
    modules = loaded(tmp_path, 0)
    assert not {name for name in HEAVY if name in modules}


def test_a_board_during_the_warm_up_does_not_solve_again() -> None:
    """The warm-up thread and a board asking at the same moment: one solve between them
    (core.once), the other waits for it."""
    code = """
import threading
from core.rules import DEFAULT_VARIANTS
from core.distribution import distributions, solve_distributions
from core.strategy import solve

warm = threading.Thread(target=distributions, args=(DEFAULT_VARIANTS,))
warm.start()
distributions(DEFAULT_VARIANTS)  # the board's call, while the thread is at it
warm.join()
print(solve.cache_info().misses, solve_distributions.cache_info().misses)
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "1"]
