"""A Telegram user's hands on the fake Bot API, and the real bot entry run as production runs it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from adapters.chat.pacing import unshown
from bot.app import serve
from bot.settings import Settings
from core.dice import Roller, ScriptedRoller
from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser


@dataclass
class RunningBot:
    fake: FakeTelegram
    roller: ScriptedRoller
    database: Path
    settings: Settings


@dataclass
class SeededBot:
    fake: FakeTelegram
    database: Path


# The bot's pace at the numbers of the fake's Limits.GAME (Telegram's, 30 times faster), with
# less to spare for the way there (a call crosses 127.0.0.1): for the bot in this process, and
# (upper-cased) in the environment of a bot process (tests.process.on_telegram).
GAME_PACE = {
    "telegram_chat_rate": 30.0,
    "telegram_chat_burst": 3,
    "telegram_group_messages": 20,
    "telegram_group_window": 2.0,
    "telegram_overall_messages": 900,
    "telegram_pace_slack": 0.02,
}


def bot_settings(fake: FakeTelegram, database: Path) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=fake.token,
        telegram_base_url=fake.base_url,
        general_database=str(database),
        general_computer_pause=0,
        general_flood_burst=10_000,  # tests press far faster than people
        general_flood_rate=10_000,
        **GAME_PACE,
        discord_token=None,
    )


def holding() -> bool:
    """Whether the bot holds writes back for a chat's pace: it has not settled yet."""
    return unshown() > 0


@contextlib.asynccontextmanager
async def running(settings: Settings, roller: Roller) -> AsyncIterator[None]:
    """`bot.app.serve` as production runs it, until the block ends."""
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(serve(settings, stop, ready, roller))
    waiter = asyncio.create_task(ready.wait())
    done, _ = await asyncio.wait({task, waiter}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()
    assert ready.is_set(), "the bot did not become ready"
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


async def board_shown(
    fake: FakeTelegram, chat: FakeChat, besides: tuple[int, ...] = ()
) -> FakeMessage:
    """The live board once there is one (a message other than `besides`): a freshly started
    bot may take longer for its first answer than the fake's quiet moment (its first board
    loads what start-up left out)."""
    await fake.wait_for(
        lambda: any(
            m.reply_markup and not m.deleted and m.message_id not in besides
            for m in fake.bot_messages(chat)
        ),
        timeout=20,
    )
    return live_board(fake, chat)


def live_board(fake: FakeTelegram, chat: FakeChat, thread_id: int | None = None) -> FakeMessage:
    """The newest bot message that still has buttons."""
    boards = [m for m in fake.bot_messages(chat, thread_id) if m.reply_markup and not m.deleted]
    assert boards, [m.plain_text for m in fake.bot_messages(chat, thread_id)]
    return boards[-1]


def board_showing(fake: FakeTelegram, chat: FakeChat, text: str) -> FakeMessage | None:
    """The newest bot message with buttons once it shows `text`; None meanwhile, without
    failing (a closed board loses its buttons a moment before the next one comes)."""
    boards = [m for m in fake.bot_messages(chat) if m.reply_markup and not m.deleted]
    return boards[-1] if boards and text in boards[-1].plain_text else None


def to_move(fake: FakeTelegram, chat: FakeChat, user: FakeUser) -> bool:
    """Whether the newest board with buttons is `user`'s turn (it mentions them); False
    meanwhile, without failing."""
    boards = [m for m in fake.bot_messages(chat) if m.reply_markup and not m.deleted]
    return bool(boards) and f"id={user.id}" in boards[-1].text


async def press(
    fake: FakeTelegram, user: FakeUser, message: FakeMessage, label: str, settle: float = 5.0
) -> str:
    """Press a button and wait for the answer and for the bot to finish reacting (within
    `settle` seconds: computers' turns after it are drawn at the group's pace)."""
    query = await fake.press(user, message, label)
    text, _ = await fake.wait_answer(query)
    await fake.settle(timeout=settle)
    return text or ""


async def ask(fake: FakeTelegram, user: FakeUser, chat: FakeChat, text: str) -> str:
    """Send a command; the bot's last message after it."""
    await fake.send_message(user, chat, text)
    await fake.settle()
    return fake.bot_messages(chat)[-1].plain_text


async def open_table(tg: RunningBot, chat: FakeChat, host: FakeUser, *others: FakeUser) -> None:
    """`/general start` by the host, then every other player joins."""
    fake = tg.fake
    await fake.send_message(host, chat, "/general start")
    await fake.settle()
    lobby = live_board(fake, chat)
    assert "A table of General is open" in lobby.plain_text
    for user in others:
        await press(fake, user, lobby, "Join")
    assert all(u.first_name in fake.message(chat, lobby.message_id).plain_text for u in others)


async def quick_win(tg: RunningBot, chat: FakeChat, user: FakeUser) -> None:
    """A solo game won at once with a big general."""
    fake = tg.fake
    await fake.send_message(user, chat, "/general start")
    await fake.settle()
    await press(fake, user, live_board(fake, chat), "Start")
    tg.roller.push([3, 3, 3, 3, 3])
    await press(fake, user, live_board(fake, chat), "Roll")


def settings_screen(fake: FakeTelegram, chat: FakeChat) -> FakeMessage:
    """The newest settings screen in the chat."""
    return next(m for m in reversed(fake.bot_messages(chat)) if "cfg|" in str(m.raw_reply_markup))
