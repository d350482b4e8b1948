"""Every per-chat and per-person map stays bounded however many chats and people the bot meets
(issue 15): each bound is held here with far more distinct keys than the bound."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from telegram import Update
from telegram.ext import Application, ContextTypes, TypeHandler

from adapters.chat.boards import DRAWN_MEMORY, BoardRef, Drawn
from adapters.chat.faults import TROUBLES_MEMORY, Troubles
from adapters.discord.calls import PLACES_MEMORY, DiscordCalls
from adapters.ratelimit import PRUNE_AT, RateLimiter
from adapters.sqlite import SqliteRepository
from adapters.telegram.frontend import TelegramFrontEnd
from adapters.telegram.memory import ForgetfulApplication
from core.identity import ChannelKey
from core.locks import ChannelLocks
from core.service import GameService
from tests.fakes.telegram import FakeTelegram

MANY = 100_000


class Counter(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.warnings = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.warnings += record.levelno == logging.WARNING


@pytest.mark.slow
def test_troubles_remember_the_latest_chats_only() -> None:
    log = logging.getLogger("tests.bounded.troubles")
    counter = Counter()
    log.addHandler(counter)
    try:
        troubles = Troubles(log, "telegram", PermissionError)
        for chat in range(MANY):
            troubles(ChannelKey("tg", str(-chat)), PermissionError("kicked"))
        assert counter.warnings == MANY  # each chat's failure said once
        assert len(troubles._seen) == TROUBLES_MEMORY
        troubles(ChannelKey("tg", str(-(MANY - 1))), PermissionError("kicked"))
        assert counter.warnings == MANY  # a recent chat is still remembered: not said again
    finally:
        log.removeHandler(counter)


def _interaction(channel_id: int) -> Any:
    return SimpleNamespace(channel_id=channel_id, guild_id=7, guild_locale=None)


async def test_discord_places_remember_the_latest_channels_only() -> None:
    calls = DiscordCalls()
    for channel_id in range(1, MANY + 1):
        calls.place_of(cast(Any, _interaction(channel_id)))
    assert len(calls._places) == PLACES_MEMORY
    # the latest channel is known without asking Discord (there is no client to ask)
    assert (await calls.place(ChannelKey("dc", str(MANY)))).chat == "7"
    assert 1 not in calls._places


def test_drawn_remembers_the_latest_boards_only() -> None:
    drawn = Drawn()
    for message in range(MANY):
        drawn.remember(BoardRef(str(-message), str(message)), 1)
    assert len(drawn._versions) == DRAWN_MEMORY
    assert drawn.shows(BoardRef(str(-(MANY - 1)), str(MANY - 1)), 1)


def test_channel_locks_forget_idle_channels() -> None:
    locks = ChannelLocks()
    for chat in range(MANY):
        assert not locks[ChannelKey("tg", str(chat))].locked()
    assert len(locks._locks) == 0


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_flood_limiter_forgets_people_who_have_refilled() -> None:
    clock = Clock()
    limiter = RateLimiter(burst=10, rate=3, clock=clock)
    biggest = 0
    for person in range(MANY):
        clock.now = person / 1000  # a new person every millisecond, each acting once
        limiter.check(str(person))
        biggest = max(biggest, len(limiter._buckets))
    assert biggest <= PRUNE_AT + 1


def test_flood_limiter_prunes_a_crowd_rarely(monkeypatch: pytest.MonkeyPatch) -> None:
    """Everybody acting at once leaves nothing to forget: the scans must not repeat per person."""
    limiter = RateLimiter(burst=10, rate=3, clock=lambda: 0.0)
    scans = 0
    forget = limiter._forget_full

    def counted(now: float) -> None:
        nonlocal scans
        scans += 1
        forget(now)

    monkeypatch.setattr(limiter, "_forget_full", counted)
    for person in range(3 * PRUNE_AT):
        limiter.check(str(person))
    assert len(limiter._buckets) == 3 * PRUNE_AT  # all of them are still refilling
    assert scans == 2  # past 10,000 and past 20,000: the next at 40,000


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    async with FakeTelegram() as server:
        yield server


def _marked(app: Application[Any, Any, Any, Any, Any, Any]) -> tuple[int, int]:
    return (
        len(app._chat_ids_to_be_updated_in_persistence),
        len(app._user_ids_to_be_updated_in_persistence),
    )


@pytest.mark.parametrize("kind", [Application, ForgetfulApplication])
async def test_ptb_persistence_marks(
    fake: FakeTelegram, kind: type[Application[Any, Any, Any, Any, Any, Any]]
) -> None:
    """The installed python-telegram-bot marks every update's chat and user even without
    persistence (nothing drains them); ForgetfulApplication keeps neither."""
    handled: list[Update] = []
    all_handled = asyncio.Event()

    async def handle(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        handled.append(update)
        if len(handled) == 20:
            all_handled.set()

    app = (
        Application.builder()
        .token(fake.token)
        .base_url(fake.base_url)
        .concurrent_updates(True)
        .application_class(kind)
        .build()
    )
    app.add_handler(TypeHandler(Update, handle))
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=1)
    try:
        for number in range(20):
            user = fake.user(10_000 + number, f"P{number}")
            await fake.send_message(user, fake.chat(-10_000 - number), "hello")
        await fake.settle()
        await asyncio.wait_for(all_handled.wait(), 5)
        await asyncio.sleep(0.05)  # process_update marks after its handlers returned
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
    assert _marked(app) == ((20, 20) if kind is Application else (0, 0))


async def test_telegram_front_end_keeps_no_marks(fake: FakeTelegram, tmp_path: Path) -> None:
    """The real front end, 50 chats and 50 people each asking for help: PTB keeps nothing."""
    repository = await SqliteRepository.open(tmp_path / "general.db")
    service = GameService(repository)
    front = TelegramFrontEnd(service, fake.token, base_url=fake.base_url, poll_timeout=1)
    await front.start()
    try:
        chats = [fake.chat(-20_000 - number) for number in range(50)]
        for number, chat in enumerate(chats):
            await fake.send_message(fake.user(20_000 + number, f"P{number}"), chat, "/general help")
        await fake.wait_for(lambda: all(fake.bot_messages(chat) for chat in chats), timeout=30)
        await fake.settle()
        assert _marked(front.app) == (0, 0)
        assert not front.app.chat_data and not front.app.user_data
    finally:
        await front.stop()
        await service.close()
        await repository.close()
