"""A Discord member's hands on the fake Discord, and the real bot entry run as production does."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import bot.app
from adapters.discord import frontend
from adapters.discord.frontend import DiscordFrontEnd
from bot.settings import Settings
from core.dice import Roller, ScriptedRoller
from tests.fakes.discord import (
    FakeChannel,
    FakeComponent,
    FakeDiscord,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
)

TOKEN = "fake-discord-token"


@dataclass
class RunningBot:
    fake: FakeDiscord
    roller: ScriptedRoller
    database: Path
    front: DiscordFrontEnd
    guild: FakeGuild
    channel: FakeChannel


class Handled(logging.Handler):
    """The interactions the in-process bot has finished with (it logs each at DEBUG), so that a
    test waits for exactly that instead of for a quiet period."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.ids: set[str] = set()
        self._changed = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == "interaction %s handled" and isinstance(record.args, tuple):
            self.ids.add(str(record.args[0]))
            self._changed.set()

    async def wait(self, interaction: FakeInteraction, timeout: float = 12.0) -> None:
        """At most `timeout`: longer than two of the strict fake's 5-second windows, which a
        press's next board may wait out (discord.py keeps the buckets) on a loaded machine."""
        async with asyncio.timeout(timeout):
            while interaction.id not in self.ids:
                self._changed.clear()
                await self._changed.wait()


_handled: list[Handled] = []


@contextlib.contextmanager
def watching(handler: Handled) -> Iterator[None]:
    """Make `handled` wait on this test's handler while the block runs."""
    _handled.append(handler)
    try:
        yield
    finally:
        _handled.remove(handler)


async def handled(interaction: FakeInteraction) -> None:
    """Wait until the bot has done all it does about the interaction."""
    await _handled[-1].wait(interaction)


def bot_settings(fake: FakeDiscord, database: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "discord_token": fake.token,
        "discord_api_base_url": fake.api_base,
        "discord_gateway_url": fake.gateway_url,
        "general_database": str(database),
        "general_language": "en",
        "telegram_token": None,
        "discord_guild_id": None,
        "general_computer_pause": 0,
        "general_flood_burst": 10_000,  # tests press far faster than people
        "general_flood_rate": 10_000,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    database: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    roller: Roller | None = None,
    **overrides: Any,
) -> AsyncIterator[tuple[DiscordFrontEnd, Any]]:
    """`serve()` as `python -m bot` runs it, with scripted dice (or `roller`); fails if the
    gateway connection task died during the test."""
    monkeypatch.setattr(frontend, "GUILD_READY_TIMEOUT", 0.01)
    made: list[Any] = []
    real = bot.app.chat_front_ends

    def capture(*args: Any) -> list[Any]:
        front_ends = real(*args)
        made.extend(front_ends)
        return front_ends

    monkeypatch.setattr(bot.app, "chat_front_ends", capture)
    roller = roller or ScriptedRoller()
    stop, ready = asyncio.Event(), asyncio.Event()
    settings = bot_settings(fake, database, **overrides)
    task = asyncio.create_task(bot.app.serve(settings, stop, ready, roller))
    waiter = asyncio.create_task(ready.wait())
    done, _ = await asyncio.wait({task, waiter}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()
    assert ready.is_set(), "the bot did not become ready"
    (front,) = made
    assert isinstance(front, DiscordFrontEnd)
    try:
        yield front, roller
        await fake.settle()
        assert front.connection is not None and not front.connection.done(), (
            "the gateway connection task died"
        )
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


def bot_messages(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel) if m.author is fake.bot_user]


def live_board(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    """The newest message with buttons (every board but the live one has lost them)."""
    boards = [m for m in bot_messages(fake, channel) if m.buttons]
    assert boards, [m.content for m in bot_messages(fake, channel)]
    return boards[-1]


def button(message: FakeMessage, code: str) -> FakeComponent:
    """The button whose payload ends in `code` (r roll, v sheet, h0…h4 dice, s0…s9 boxes)."""
    found = [b for b in message.buttons if (b.custom_id or "").endswith(f"|{code}")]
    assert len(found) == 1, (code, [b.label for b in message.buttons])
    return found[0]


def first_box(message: FakeMessage) -> str:
    """The custom_id of the board's first box button (its code, after the last "|", is s0…s9:
    the game's id before it may hold an "s" too)."""
    codes = ((b.custom_id or "") for b in message.buttons)
    return next(c for c in codes if c.rsplit("|", 1)[-1].startswith("s"))


def has_button(message: FakeMessage, code: str) -> bool:
    return any((b.custom_id or "").endswith(f"|{code}") for b in message.buttons)


def picture(message: FakeMessage) -> bytes | None:
    """The PNG attached to a message, if any."""
    pngs = [a.data for a in message.attachments if a.data.startswith(b"\x89PNG")]
    return pngs[0] if pngs else None


async def slash(
    fake: FakeDiscord, member: FakeMember, channel: FakeChannel, sub: str, **options: Any
) -> FakeInteraction:
    """`/general <sub> [options]`; returns once the bot has done all it does about it."""
    interaction = await fake.slash(member, channel, "general", sub, options=options)
    await interaction.wait_response()
    await handled(interaction)
    return interaction


async def press(
    fake: FakeDiscord,
    member: FakeMember,
    message: FakeMessage,
    code: str | None = None,
    *,
    custom_id: str | None = None,
) -> FakeInteraction:
    """Press the button `code` (or send a raw custom_id); returns once the bot has done all it
    does about it."""
    if custom_id is None:
        assert code is not None
        custom_id = button(message, code).custom_id
    interaction = await fake.press(member, message, custom_id=custom_id)
    await interaction.wait_response()
    await handled(interaction)
    return interaction


async def open_table(
    dc: RunningBot, channel: FakeChannel, host: FakeMember, *others: FakeMember
) -> FakeMessage:
    """`/general start` by the host, then every other player joins; the lobby."""
    fake = dc.fake
    started = await slash(fake, host, channel, "start")
    lobby = started.original
    assert lobby is not None
    for member in others:
        await press(fake, member, lobby, "j")
    return lobby


async def ask(
    dc: RunningBot, member: FakeMember, channel: FakeChannel, sub: str, **options: Any
) -> str:
    """`/general <sub>`, answered to the whole channel; the answer's text."""
    asked = await slash(dc.fake, member, channel, sub, **options)
    assert asked.original is not None and not asked.original.ephemeral  # said to the channel
    return "\n".join(asked.texts())


async def quick_win(dc: RunningBot, channel: FakeChannel, member: FakeMember) -> None:
    """A solo game won at once with a big general."""
    fake = dc.fake
    lobby = (await slash(fake, member, channel, "start")).original
    assert lobby is not None
    await press(fake, member, lobby, "b")
    dc.roller.push([3, 3, 3, 3, 3])
    await press(fake, member, live_board(fake, channel), "r")


async def settings_screen(dc: RunningBot, member: FakeMember) -> FakeMessage:
    """`/general settings`: the screen only the asker sees."""
    opened = await slash(dc.fake, member, dc.channel, "settings")
    screen = opened.original
    assert screen is not None and screen.ephemeral and screen.buttons
    return screen


def labels(message: FakeMessage) -> list[str]:
    return [b.label or "" for b in message.buttons]
