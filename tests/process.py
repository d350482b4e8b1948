"""The real `python -m bot`, as the tests that start, stop, kill or restart it run it: over this
environment with no platform unless the settings name one, its output in a log file; and the
operator's tools, as an operator runs them."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

from tests.discord.kit import TOKEN
from tests.fakes.discord import FakeDiscord
from tests.fakes.telegram import FakeTelegram
from tests.telegram.kit import GAME_PACE

ROOT = Path(__file__).resolve().parents[1]
# What every bot process starts from: no platform, SQLite, dice the tests can replay, computers
# without pauses, and no flood limit (tests press far faster than people).
BASE = {
    "TELEGRAM_TOKEN": "",
    "DISCORD_TOKEN": "",
    "GENERAL_DATABASE_URL": "",
    "GENERAL_DICE_SEED": "11",
    "GENERAL_COMPUTER_PAUSE": "0",
    "GENERAL_FLOOD_BURST": "10000",
    "GENERAL_FLOOD_RATE": "10000",
    "GENERAL_LANGUAGE": "en",
    "NO_PROXY": "127.0.0.1,localhost",
}


def on_telegram(fake: FakeTelegram) -> dict[str, str]:
    """The fake's address, and the pace of the fake's Limits.GAME (a test waits for no minute)."""
    pace = {name.upper(): str(value) for name, value in GAME_PACE.items()}
    return {"TELEGRAM_TOKEN": fake.token, "TELEGRAM_BASE_URL": fake.base_url, **pace}


def on_discord(fake: FakeDiscord) -> dict[str, str]:
    return {
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE_URL": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DISCORD_GUILD_ID": "",
    }


def text(path: Path) -> str:
    return path.read_text() if path.exists() else ""


class Bot:
    """`python -m bot` with `settings` over BASE, its output appended to `log`."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process, self.log = process, log

    @classmethod
    async def launch(cls, settings: Mapping[str, str], log: Path) -> Bot:
        """Started, not yet ready."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=ROOT, env={**os.environ, **BASE, **settings},
            stdin=asyncio.subprocess.DEVNULL, stdout=log.open("ab"),
            stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        return cls(process, log)

    @classmethod
    async def start(cls, settings: Mapping[str, str], log: Path, timeout: float = 20) -> Bot:
        """Started and ready (it logged so)."""
        written = len(text(log))
        bot = await cls.launch(settings, log)
        async with asyncio.timeout(timeout):
            while " bot: ready" not in text(log)[written:]:
                assert bot.process.returncode is None, text(log)
                await asyncio.sleep(0.05)
        return bot

    async def stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        """SIGTERM, as systemd stops it (or Ctrl-C's SIGINT): a clean exit."""
        self.process.send_signal(sig)
        assert await asyncio.wait_for(self.process.wait(), 15) == 0, text(self.log)

    def kill(self) -> None:
        """SIGKILL, where it still runs: nothing is tidied up."""
        if self.process.returncode is None:
            self.process.kill()

    def clean(self) -> None:
        """Nothing logged as an error."""
        output = text(self.log)
        assert " ERROR " not in output and "Traceback" not in output, output


async def polling(
    fake: FakeTelegram, settings: Mapping[str, str], log: Path
) -> asyncio.subprocess.Process:
    """`python -m bot` on the fake Telegram (with `settings` besides), once it polls."""
    polls = len(fake.calls("getUpdates"))
    bot = await Bot.launch({**on_telegram(fake), **settings}, log)
    await fake.wait_for(lambda: len(fake.calls("getUpdates")) > polls, timeout=20)
    return bot.process


async def tool(database: Path, *argv: str, env: Mapping[str, str] = {}) -> tuple[int, str, str]:
    """`python -m bot <argv>` on `database`, as an operator runs it (in the database's folder,
    with nothing but the path set); (status, stdout, stderr)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *argv,
        cwd=database.parent,
        env={"PATH": os.environ["PATH"], "HOME": str(database.parent), "PYTHONPATH": str(ROOT),
             "GENERAL_DATABASE": str(database), **env},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()
