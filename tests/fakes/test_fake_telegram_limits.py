"""The fake Bot API's flood control, seen through the real python-telegram-bot: the 429s it
answers, the RetryAfter PTB raises from them, and that nothing is limited unless asked."""

from __future__ import annotations

import datetime as dtm
from collections.abc import AsyncIterator

import aiohttp
import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import RetryAfter

from tests.fakes.telegram import FakeChat, FakeTelegram
from tests.fakes.telegram.limits import Limits, RateLimited

TOKEN = "123456:TEST"


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PTB_TIMEDELTA", "true")  # RetryAfter.retry_after as a timedelta


class Clock:
    """A clock the test moves by hand, so minutes of flood control pass in no time."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def fake(clock: Clock) -> AsyncIterator[FakeTelegram]:
    server = FakeTelegram(token=TOKEN, limits=Limits.STRICT)
    server.limit_clock = clock
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=fake.base_url, base_file_url=fake.base_file_url) as b:
        yield b


async def retry_after(bot: Bot, chat: FakeChat, text: str = "hi") -> dtm.timedelta:
    """The wait PTB raises for a sendMessage the fake refuses."""
    with pytest.raises(RetryAfter) as err:
        await bot.send_message(chat.id, text)
    wait = err.value.retry_after
    assert isinstance(wait, dtm.timedelta)
    return wait


def seconds(n: int) -> dtm.timedelta:
    return dtm.timedelta(seconds=n)


async def test_off_by_default() -> None:
    async with FakeTelegram(token=TOKEN) as fake:
        group = fake.chat(-100500, type="supergroup", title="Dice night")
        async with Bot(TOKEN, base_url=fake.base_url) as bot:
            for i in range(50):
                await bot.send_message(group.id, f"roll {i}")
        assert len(fake.bot_messages(group)) == 50
        assert fake.rate_limited == [] and fake.unhandled == []


async def test_a_burst_in_one_chat_is_refused_the_way_telegram_does(
    fake: FakeTelegram, bot: Bot, clock: Clock
) -> None:
    alice = fake.user(1001, "Alice")
    chat = fake.private_chat(alice)
    sent = [await bot.send_message(chat.id, f"roll {i}") for i in range(3)]  # the burst
    assert await retry_after(bot, chat) == seconds(1)
    with pytest.raises(RetryAfter):  # edits draw on the same bucket
        await bot.edit_message_text("rolled", chat.id, sent[0].message_id)

    # the exact answer, as the real server words it
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{fake.base_url}{TOKEN}/sendMessage", json={"chat_id": chat.id, "text": "x"}
        ) as response,
    ):
        assert response.status == 429
        assert await response.json() == {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 1",
            "parameters": {"retry_after": 1},
        }

    clock.advance(1.0)  # one token back
    await bot.send_message(chat.id, "after the wait")
    assert await retry_after(bot, chat) == seconds(1)
    assert len(fake.bot_messages(chat)) == 4  # refused calls did nothing
    assert [r.reason for r in fake.rate_limited] == ["chat"] * 4
    assert fake.rate_limited_in(chat) == 4
    assert fake.rate_limited[0] == RateLimited("sendMessage", chat.id, 1, "chat")
    assert fake.unhandled == []


async def test_other_chats_are_unaffected(fake: FakeTelegram, bot: Bot) -> None:
    busy = fake.private_chat(fake.user(1001, "Alice"))
    quiet = fake.private_chat(fake.user(1002, "Boris"))
    for _ in range(3):
        await bot.send_message(busy.id, "roll")
    await retry_after(bot, busy)
    for _ in range(3):
        await bot.send_message(quiet.id, "roll")
    assert (fake.rate_limited_in(busy), fake.rate_limited_in(quiet)) == (1, 0)


async def test_long_messages_cost_two(fake: FakeTelegram, bot: Bot, clock: Clock) -> None:
    chat = fake.private_chat(fake.user(1001, "Alice"))
    long = "6" * 1001
    await bot.send_message(chat.id, long)
    await bot.send_message(chat.id, "short")  # 3 tokens spent
    assert await retry_after(bot, chat) == seconds(1)
    clock.advance(1.0)
    assert await retry_after(bot, chat, long) == seconds(1)  # one token back, two needed
    clock.advance(1.0)
    await bot.send_message(chat.id, long)


async def test_twenty_sends_and_edits_a_minute_in_a_group(
    fake: FakeTelegram, bot: Bot, clock: Clock
) -> None:
    """Sends and edits share one group minute (tdlib/td issues 2592 and 3034)."""
    group = fake.chat(-100500, type="supergroup", title="Dice night")
    sent = []
    for i in range(10):
        sent.append(await bot.send_message(group.id, f"roll {i}"))
        clock.advance(1.0)  # slow enough for the per-chat bucket
    for i in range(10):
        await bot.edit_message_text(f"rolled {i}", group.id, sent[i].message_id)
        clock.advance(1.0)
    assert await retry_after(bot, group) == seconds(40)  # the first one leaves at 60 s
    assert fake.rate_limited[-1].reason == "group"
    with pytest.raises(RetryAfter):  # an edit is refused by the group's minute as well
        await bot.edit_message_text("again", group.id, sent[0].message_id)
    with pytest.raises(RetryAfter):  # and so is a change of buttons alone
        await bot.edit_message_reply_markup(group.id, sent[0].message_id)
    clock.advance(40.0)
    await bot.send_message(group.id, "a minute later")
    assert len(fake.bot_messages(group)) == 11
    private = fake.private_chat(fake.user(7, "Ann"))
    for i in range(25):  # a private chat keeps the per-chat pace alone
        await bot.send_message(private.id, f"solo {i}")
        clock.advance(1.0)


async def test_thirty_calls_a_second_in_all(fake: FakeTelegram, bot: Bot, clock: Clock) -> None:
    chats = [fake.private_chat(fake.user(2000 + i, f"Player {i}")) for i in range(11)]
    for chat in chats[:10]:
        for _ in range(3):
            await bot.send_message(chat.id, "roll")
    assert await retry_after(bot, chats[10]) == seconds(1)
    assert fake.rate_limited == [RateLimited("sendMessage", chats[10].id, 1, "global")]
    clock.advance(1.0)
    await bot.send_message(chats[10].id, "roll")


async def test_a_storm_holds_a_chat_then_lifts(bot: Bot, fake: FakeTelegram, clock: Clock) -> None:
    fake.limits = None  # storms need no limits
    chat = fake.chat(-100500, type="supergroup", title="Dice night")
    other = fake.chat(-100600, type="supergroup", title="Other table")
    fake.storm(chat, 10)
    assert await retry_after(bot, chat) == seconds(10)
    with pytest.raises(RetryAfter):  # every call naming the chat
        await bot.send_chat_action(chat.id, "typing")
    await bot.send_message(other.id, "roll")
    clock.advance(4.5)
    assert await retry_after(bot, chat) == seconds(6)  # what is left, rounded up
    clock.advance(5.5)
    await bot.send_message(chat.id, "the storm is over")
    assert [r.retry_after for r in fake.rate_limited] == [10, 10, 6]
    assert {r.reason for r in fake.rate_limited} == {"storm"}


async def test_answer_callback_query_is_never_limited(fake: FakeTelegram, bot: Bot) -> None:
    chat = fake.private_chat(fake.user(1001, "Alice"))
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Roll", callback_data="roll")]])
    await bot.send_message(chat.id, "Your turn", reply_markup=keyboard)
    message = fake.last_bot_message(chat)
    alice = fake.users[1001]
    queries = [await fake.press(alice, message, "Roll") for _ in range(40)]
    fake.storm(chat, 60)
    for query in queries:  # over every limit, in a storm
        assert await bot.answer_callback_query(query, text="rolled")
    assert all(fake.callback_queries[q].answered for q in queries)
    assert fake.rate_limited == []
