"""The fake Telegram server, proven against the real python-telegram-bot 22 code."""

from __future__ import annotations

import asyncio
import datetime as dtm
import html
import logging
import struct
import time
import zlib
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest
from telegram import (
    BotCommand,
    BotCommandScopeChat,
    ChatMemberAdministrator,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
    WebAppInfo,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, EndPointNotFound, Forbidden, NetworkError, RetryAfter
from telegram.ext import (
    Application,
    BaseRateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from tests.fakes.telegram import FakeTelegram, parse_html, parse_markdown_v2

TOKEN = "123456:TEST"
NOT_MODIFIED = "Message is not modified"  # PTB capitalises the server's description


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PTB_TIMEDELTA", "true")  # RetryAfter.retry_after as a timedelta


@pytest.fixture(autouse=True)
def _no_error_logs(caplog: pytest.LogCaptureFixture) -> Any:
    """PTB logs handler exceptions instead of raising them: any ERROR record fails the test."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, "\n".join(f"{r.name}: {r.getMessage()}" for r in errors)


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    server = FakeTelegram(token=TOKEN)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


# ------------------------------------------------------------------------- a tiny real bot


async def cmd_general(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None and update.effective_user is not None
    args = " ".join(context.args or [])
    keyboard = InlineKeyboardMarkup(
        [[InlineKeyboardButton("🎲 Roll", callback_data="roll"),
          InlineKeyboardButton("Stop", callback_data="stop")]]
    )  # fmt: skip
    await update.effective_message.reply_text(
        f"<b>General</b> {html.escape(args)} for {html.escape(update.effective_user.first_name)}",
        parse_mode=ParseMode.HTML,
        reply_markup=keyboard,
    )


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.message is not None
    if query.data == "roll":
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Stop", callback_data="stop")]])
        await query.edit_message_text(f"{query.from_user.first_name} rolled", reply_markup=keyboard)
        await query.answer("You rolled 6-6")
    else:
        await query.edit_message_text("Game over")  # no reply_markup: the keyboard goes away
        await query.answer("Bye", show_alert=True)


def build_app(fake: FakeTelegram, rate_limiter: BaseRateLimiter[Any] | None = None) -> Application:
    builder = (
        Application.builder()
        .token(fake.token)
        .base_url(fake.base_url)
        .base_file_url(fake.base_file_url)
    )
    if rate_limiter is not None:
        builder = builder.rate_limiter(rate_limiter)
    app = builder.build()
    app.add_handler(CommandHandler("general", cmd_general))
    app.add_handler(CallbackQueryHandler(on_button))
    return app


@asynccontextmanager
async def running(app: Application) -> AsyncIterator[Application]:
    await app.initialize()
    if app.post_init is not None:  # only run_polling() calls it by itself
        await app.post_init(app)
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=10)
    try:
        yield app
    finally:
        started = time.monotonic()
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
        assert time.monotonic() - started < 1.0, "PTB shutdown hung on the fake"


@asynccontextmanager
async def initialized(app: Application) -> AsyncIterator[Application]:
    """A bot that is not polling: for calling API methods directly from the test."""
    await app.initialize()
    try:
        yield app
    finally:
        await app.shutdown()


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


# ------------------------------------------------------------------------- tests


async def test_command_reply_and_button_round_trip(fake: FakeTelegram) -> None:
    alice = fake.user(1001, "Alice", username="alice", language_code="en")
    group = fake.chat(-100500, type="supergroup", title="Dice night")
    async with running(build_app(fake)) as app:
        await fake.send_message(alice, group, "/general start")
        reply = await fake.wait_for(lambda: fake.bot_messages(group))
        msg = reply[0]
        assert msg.plain_text == "General start for Alice"
        assert msg.text == "<b>General</b> start for Alice"
        assert msg.parse_mode == "HTML"
        assert msg.entities == [{"type": "bold", "offset": 0, "length": 7}]
        assert [[b.text for b in row] for row in msg.reply_markup] == [["🎲 Roll", "Stop"]]
        assert msg.reply_to is not None and msg.reply_to.text == "/general start"

        # the button is found by a part of its label; the bot edits and answers
        q = await fake.press(alice, msg, text="Roll")
        assert await fake.wait_answer(q) == ("You rolled 6-6", False)
        assert msg.plain_text == "Alice rolled" and msg.edits == 1
        assert [b.callback_data for b in msg.buttons] == ["stop"]
        assert msg.history[0].plain_text == "General start for Alice"

        q2 = await fake.press(alice, msg, text="Stop")
        assert await fake.wait_answer(q2) == ("Bye", True)
        assert msg.plain_text == "Game over" and msg.reply_markup == [] and msg.edits == 2

        # a query is answered once; afterwards it is "too old"
        with pytest.raises(BadRequest, match="Query is too old"):
            await app.bot.answer_callback_query(q2)

        # "/general@botname" is a command for this bot too
        await fake.send_message(alice, group, "/general@general_test_bot again")
        await fake.wait_for(lambda: len(fake.bot_messages(group)) == 2)
        assert fake.last_bot_message(group).plain_text == "General again for Alice"

        await fake.settle()
    assert [m for m, _ in fake.requests if m not in ("getUpdates",)] == [
        "getMe", "deleteWebhook", "sendMessage", "editMessageText", "answerCallbackQuery",
        "editMessageText", "answerCallbackQuery", "answerCallbackQuery", "sendMessage",
    ]  # fmt: skip
    # on stop PTB cancelled its open poll and confirmed everything with a last, short poll
    assert fake.calls("getUpdates")[-1]["timeout"] == 0
    assert fake.pending_updates == [] and fake.conflicts == 0
    assert fake.unhandled == []


async def test_edit_rules(fake: FakeTelegram) -> None:
    alice = fake.user(1001, "Alice")
    chat = fake.private_chat(alice)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Roll", callback_data="roll")]])
    async with initialized(build_app(fake)) as app:
        sent = await app.bot.send_message(chat.id, "Your turn", reply_markup=keyboard)
        msg = fake.message(chat, sent.message_id)
        with pytest.raises(BadRequest, match=NOT_MODIFIED):
            await app.bot.edit_message_text("Your turn", chat.id, sent.message_id,
                                            reply_markup=keyboard)  # fmt: skip
        # same text, keyboard left out: that is a change (the keyboard is removed)
        await app.bot.edit_message_text("Your turn", chat.id, sent.message_id)
        assert msg.reply_markup == [] and msg.edits == 1
        with pytest.raises(BadRequest, match=NOT_MODIFIED):
            await app.bot.edit_message_reply_markup(chat.id, sent.message_id)
        await app.bot.edit_message_reply_markup(chat.id, sent.message_id, reply_markup=keyboard)
        assert msg.buttons[0].text == "Roll" and msg.plain_text == "Your turn"
        with pytest.raises(BadRequest, match="Message to edit not found"):
            await app.bot.edit_message_text("x", chat.id, 9999)
        assert await app.bot.delete_message(chat.id, sent.message_id) is True
        assert msg.deleted
        with pytest.raises(BadRequest, match="Message to edit not found"):
            await app.bot.edit_message_text("x", chat.id, sent.message_id)
        with pytest.raises(BadRequest, match="Message to delete not found"):
            await app.bot.delete_message(chat.id, sent.message_id)
        with pytest.raises(BadRequest, match="Chat not found"):
            await app.bot.send_message(-42, "hello?")
    assert fake.unhandled == []


async def test_button_and_text_limits(fake: FakeTelegram) -> None:
    alice = fake.user(1001, "Alice")
    chat = fake.private_chat(alice)
    async with initialized(build_app(fake)) as app:
        ok = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="a" * 64)]])
        await app.bot.send_message(chat.id, "fits", reply_markup=ok)
        for data in ("a" * 65, "я" * 33):  # 65 bytes; 66 bytes in 33 characters
            markup = InlineKeyboardMarkup(
                [[InlineKeyboardButton("ok", callback_data="ok")],
                 [InlineKeyboardButton("x", callback_data=data)]]
            )  # fmt: skip
            with pytest.raises(BadRequest, match="Button_data_invalid"):
                await app.bot.send_message(chat.id, "too much", reply_markup=markup)
        with pytest.raises(BadRequest, match="Message is too long"):
            await app.bot.send_message(chat.id, "x" * 4097)
        await app.bot.send_message(chat.id, "é" * 4096)
        with pytest.raises(BadRequest, match="Message text is empty"):
            await app.bot.send_message(chat.id, "   ")
        # a text of digits stays a string although form values are JSON-decoded per field
        sent = await app.bot.send_message(chat.id, "123")
        assert sent.text == "123" and fake.last_bot_message(chat).plain_text == "123"
        assert fake.calls("sendMessage")[-1] == {"chat_id": chat.id, "text": "123"}
    assert [m.plain_text[:4] for m in fake.bot_messages(chat)] == ["fits", "éééé", "123"]
    assert fake.unhandled == []


async def test_a_mini_app_button_only_in_a_private_chat_and_over_https(
    fake: FakeTelegram,
) -> None:
    """Telegram refuses an inline `web_app` button in a group (a group links to a Mini App
    instead), and one whose page is not HTTPS anywhere."""
    alice = fake.user(1001, "Alice")
    chat, group = fake.private_chat(alice), fake.chat(-100500, title="Home")

    def opening(url: str) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup([[InlineKeyboardButton("x", web_app=WebAppInfo(url))]])

    async with initialized(build_app(fake)) as app:
        sent = await app.bot.send_message(chat.id, "ok", reply_markup=opening("https://a.org/"))
        assert sent.reply_markup is not None
        for where, url in ((group.id, "https://a.org/"), (chat.id, "http://a.org/")):
            with pytest.raises(BadRequest, match="Button_type_invalid"):
                await app.bot.send_message(where, "no", reply_markup=opening(url))
    assert [m.plain_text for m in fake.bot_messages(chat)] == ["ok"]
    assert fake.bot_messages(chat)[0].buttons[0].raw["web_app"] == {"url": "https://a.org/"}


async def test_html_and_markdown_validation(fake: FakeTelegram) -> None:
    alice = fake.user(1001, "Alice")
    chat = fake.private_chat(alice)
    async with initialized(build_app(fake)) as app:
        sent = await app.bot.send_message(
            chat.id,
            '<b>Dice</b> &lt;6&gt; &amp; <a href="https://example.org/?a=1&amp;b=2">rules</a> '
            '<tg-spoiler>42</tg-spoiler> <pre><code class="language-py">x</code></pre>',
            parse_mode=ParseMode.HTML,
        )
        assert sent.text == "Dice <6> & rules 42 x"
        assert [e.type for e in sent.entities] == ["bold", "text_link", "spoiler", "pre"]
        assert sent.entities[1].url == "https://example.org/?a=1&b=2"
        assert sent.entities[3].language == "py"
        for bad, why in [
            ("1 < 2", 'Unsupported start tag ""'),
            ("<b>bold", 'end tag corresponding to start tag "b"'),
            ("<br>", 'Unsupported start tag "br"'),
            ("<b>x</i>", "Unmatched end tag"),
            ("<span>x</span>", 'must have class "tg-spoiler"'),
            ("Tom & Jerry", "stray '&'"),
        ]:
            with pytest.raises(BadRequest, match="Can't parse entities") as err:
                await app.bot.send_message(chat.id, bad, parse_mode=ParseMode.HTML)
            assert why.lower() in str(err.value).lower(), (bad, str(err.value))

        sent = await app.bot.send_message(
            chat.id, r"*Score* 1\.5 _x_ __u__ ||s|| `c`", parse_mode=ParseMode.MARKDOWN_V2
        )
        assert sent.text == "Score 1.5 x u s c"
        assert [e.type for e in sent.entities] == [
            "bold", "italic", "underline", "spoiler", "code",
        ]  # fmt: skip
        with pytest.raises(BadRequest, match=r"(?i)character '\.' is reserved"):
            await app.bot.send_message(chat.id, "Score 1.5", parse_mode=ParseMode.MARKDOWN_V2)
        with pytest.raises(BadRequest, match=r"(?i)can't find end of bold entity"):
            await app.bot.send_message(chat.id, "*open", parse_mode=ParseMode.MARKDOWN_V2)
    # offsets are UTF-16 code units, as in the real API
    assert parse_html("🎲 <b>x</b>")[1] == [{"type": "bold", "offset": 3, "length": 1}]
    assert parse_markdown_v2(r">quote\!")[1] == [{"type": "blockquote", "offset": 0, "length": 6}]
    assert parse_html("Tom & Jerry", strict=False)[0] == "Tom & Jerry"  # the real server's way
    assert fake.unhandled == []


async def test_flood_control_429(fake: FakeTelegram) -> None:
    # aiolimiter (python-telegram-bot[rate-limiter]) is not installed, so PTB's AIORateLimiter
    # can't be used: first the bare RetryAfter, then a minimal retrying BaseRateLimiter.
    alice = fake.user(1001, "Alice")
    chat = fake.private_chat(alice)
    async with initialized(build_app(fake)) as app:
        fake.fail_next("sendMessage", status=429, retry_after=3)
        with pytest.raises(RetryAfter) as err:
            await app.bot.send_message(chat.id, "hi")
        assert err.value.retry_after == dtm.timedelta(seconds=3)
        assert fake.bot_messages(chat) == []
        await app.bot.send_message(chat.id, "hi")  # the fault was used up
        assert len(fake.bot_messages(chat)) == 1

    class RetryingLimiter(BaseRateLimiter[None]):
        def __init__(self) -> None:
            self.waits: list[tuple[str, dtm.timedelta]] = []

        async def initialize(self) -> None:
            pass

        async def shutdown(self) -> None:
            pass

        async def process_request(
            self,
            callback: Callable[..., Coroutine[Any, Any, Any]],
            args: Any,
            kwargs: dict[str, Any],
            endpoint: str,
            data: dict[str, Any],
            rate_limit_args: None,
        ) -> Any:
            for _ in range(2):
                try:
                    return await callback(*args, **kwargs)
                except RetryAfter as exc:
                    wait = exc.retry_after
                    assert isinstance(wait, dtm.timedelta)
                    self.waits.append((endpoint, wait))
                    await asyncio.sleep(0.01)  # a real limiter sleeps `wait`; a test need not
            return await callback(*args, **kwargs)

    limiter = RetryingLimiter()
    async with initialized(build_app(fake, rate_limiter=limiter)) as app:
        sent = await app.bot.send_message(chat.id, "Your turn")
        fake.fail_next("editMessageText", status=429, retry_after=1, times=2)
        await app.bot.edit_message_text("Rolled", chat.id, sent.message_id)
    assert limiter.waits == [("editMessageText", dtm.timedelta(seconds=1))] * 2
    assert fake.last_bot_message(chat).plain_text == "Rolled"
    assert len(fake.calls("editMessageText")) == 3
    assert fake.unhandled == []


async def test_server_errors_and_dropped_connections(fake: FakeTelegram) -> None:
    alice = fake.user(1001, "Alice")
    chat = fake.private_chat(alice)
    async with initialized(build_app(fake)) as app:
        fake.fail_next("sendMessage", status=502)
        with pytest.raises(NetworkError, match="Bad Gateway"):
            await app.bot.send_message(chat.id, "a")
        fake.fail_next("sendMessage", status=500)
        with pytest.raises(NetworkError, match="Internal Server Error"):
            await app.bot.send_message(chat.id, "b")
        fake.fail_next("sendMessage", mode="drop")
        with pytest.raises(NetworkError):
            await app.bot.send_message(chat.id, "c")
        assert fake.bot_messages(chat) == []
        # the dangerous kind: the message was sent, the answer was lost
        fake.fail_next("sendMessage", mode="drop_after")
        with pytest.raises(NetworkError):
            await app.bot.send_message(chat.id, "d")
        assert [m.plain_text for m in fake.bot_messages(chat)] == ["d"]
        await app.bot.send_message(chat.id, "e")  # and the bot recovers
        fake.block_bot(alice)
        with pytest.raises(Forbidden, match="blocked"):
            await app.bot.send_message(chat.id, "f")
    assert fake.unhandled == []


async def test_forum_topics(fake: FakeTelegram) -> None:
    alice = fake.user(1001, "Alice")
    bob = fake.user(1002, "Bob")
    forum = fake.chat(-100777, type="supergroup", title="Dice club", is_forum=True, creator=alice)
    topic = fake.create_topic(forum, "Tuesday games")
    async with running(build_app(fake)):
        await fake.send_message(bob, forum, "/general", thread_id=topic)
        await fake.send_message(bob, forum, "/general")  # the General topic: no thread id
        await fake.wait_for(lambda: len(fake.bot_messages(forum)) == 2)
        in_topic = fake.last_bot_message(forum, thread_id=topic)
        assert in_topic.thread_id == topic and in_topic.is_topic_message
        assert fake.calls("sendMessage")[0]["message_thread_id"] == topic
        outside = fake.bot_messages(forum, thread_id=0)
        assert len(outside) == 1 and outside[0].thread_id is None
        q = await fake.press(bob, in_topic, text="Roll")
        await fake.wait_answer(q)
        assert in_topic.plain_text == "Bob rolled"
        await fake.settle()
    # sending into a topic that does not exist fails like the real server
    async with initialized(build_app(fake)) as app:
        with pytest.raises(BadRequest, match="Message thread not found"):
            await app.bot.send_message(forum.id, "x", message_thread_id=999)
    assert fake.unhandled == []


async def test_long_polling_is_real(fake: FakeTelegram) -> None:
    alice = fake.user(1001, "Alice")
    chat = fake.private_chat(alice)
    url = f"{fake.base_url}{TOKEN}/getUpdates"
    async with aiohttp.ClientSession() as http:

        async def poll(**params: Any) -> tuple[float, dict[str, Any]]:
            started = time.monotonic()
            async with http.post(url, data={k: str(v) for k, v in params.items()}) as resp:
                return time.monotonic() - started, await resp.json()

        async def later() -> None:
            await asyncio.sleep(0.2)
            await fake.send_message(alice, chat, "hello")

        task = asyncio.create_task(later())
        elapsed, body = await poll(timeout=5)
        await task
        assert 0.15 < elapsed < 1.0  # it blocked, then returned as soon as the update existed
        [update] = body["result"]
        assert update["message"]["text"] == "hello"
        # not confirmed yet: delivered again; confirmed through offset: gone
        _, again = await poll(timeout=0)
        assert again["result"] == [update]
        elapsed, empty = await poll(offset=update["update_id"] + 1, timeout=0)
        assert empty == {"ok": True, "result": []} and elapsed < 0.5

        # a second poller terminates the first one, like the real server
        first = asyncio.create_task(poll(timeout=5))
        await fake.wait_for(lambda: len(fake.calls("getUpdates")) == 4)
        _, second = await poll(timeout=0)
        _, conflict = await first
        assert second["ok"] and conflict["error_code"] == 409

        async with http.post(f"{fake.base_url}999:WRONG/getMe") as resp:
            assert resp.status == 401 and (await resp.json())["description"] == "Unauthorized"
        # application/json bodies work too
        async with http.post(f"{fake.base_url}{TOKEN}/sendMessage",
                             json={"chat_id": chat.id, "text": "json"}) as resp:  # fmt: skip
            assert (await resp.json())["result"]["text"] == "json"
    assert fake.unhandled == []


async def test_commands_photos_chats_and_members(fake: FakeTelegram) -> None:
    alice = fake.user(1001, "Alice")
    bob = fake.user(1002, "Bob")
    group = fake.chat(-100500, type="supergroup", title="Dice night", creator=alice)
    fake.set_member(group, bob, "administrator", can_delete_messages=False)
    async with initialized(build_app(fake)) as app:
        bot = app.bot
        await bot.set_my_commands([BotCommand("general", "Start a game")])
        await bot.set_my_commands([BotCommand("general", "Начать игру")], language_code="ru")
        scope = BotCommandScopeChat(group.id)
        await bot.set_my_commands([BotCommand("stop", "Stop")], scope=scope)
        assert [c.command for c in await bot.get_my_commands()] == ["general"]
        assert (await bot.get_my_commands(language_code="ru"))[0].description == "Начать игру"
        assert [c.command for c in await bot.get_my_commands(scope=scope)] == ["stop"]
        await bot.delete_my_commands(scope=scope)
        assert await bot.get_my_commands(scope=scope) == ()
        assert fake.commands_for(language_code="ru")[0]["command"] == "general"
        with pytest.raises(BadRequest, match="Bot_command_invalid"):
            await bot.set_my_commands([BotCommand("Bad-Name", "x")])

        png = tiny_png()
        sent = await bot.send_photo(group.id, png, caption="<i>Board</i>", parse_mode="HTML")
        stored = fake.last_bot_message(group)
        assert stored.photo == png and stored.plain_caption == "Board"
        assert (sent.photo[-1].width, sent.photo[-1].height) == (3, 2)
        assert sent.caption == "Board"
        downloaded = await (await bot.get_file(sent.photo[-1].file_id)).download_as_bytearray()
        assert bytes(downloaded) == png
        with pytest.raises(BadRequest, match="Image_process_failed"):
            await bot.send_photo(group.id, b"not an image")

        info = await bot.get_chat(group.id)
        assert info.title == "Dice night" and info.type == "supergroup"
        owner = await bot.get_chat_member(group.id, alice.id)
        admin = await bot.get_chat_member(group.id, bob.id)
        assert isinstance(owner, ChatMemberOwner)
        assert isinstance(admin, ChatMemberAdministrator) and not admin.can_delete_messages
        assert (await bot.get_chat_member(group.id, bot.id)).status == "member"
        admins = await bot.get_chat_administrators(group.id)
        assert [m.user.id for m in admins] == [alice.id, bob.id]
        # the bot is no admin, so it can't delete Alice's message
        said = await fake.send_message(alice, group, "hi")
        with pytest.raises(BadRequest, match="Message can't be deleted"):
            await bot.delete_message(group.id, said.message_id)
        fake.set_member(group, fake.bot_user, "administrator")
        assert await bot.delete_message(group.id, said.message_id)
    assert fake.unhandled == []


async def test_unknown_methods_and_parameters_are_recorded(fake: FakeTelegram) -> None:
    alice = fake.user(1001, "Alice")
    chat = fake.private_chat(alice)
    async with initialized(build_app(fake)) as app:
        with pytest.raises(EndPointNotFound):
            await app.bot.do_api_request("rollTheDice", api_kwargs={"chat_id": chat.id})
        with pytest.raises(BadRequest):
            await app.bot.send_message(chat.id, "x", api_kwargs={"frobnicate": True})
    assert len(fake.unhandled) == 2
    assert fake.unhandled[0].startswith("rollTheDice: unknown method")
    assert "frobnicate" in fake.unhandled[1]
    fake.unhandled.clear()


async def test_settle_waits_for_the_bot(fake: FakeTelegram) -> None:
    alice = fake.user(1001, "Alice")
    chat = fake.private_chat(alice)
    await fake.send_message(alice, chat, "/general")
    with pytest.raises(AssertionError, match="not confirmed"):
        await fake.settle(timeout=0.1)  # nobody polls
    async with running(build_app(fake)):
        await fake.settle()
        assert fake.last_bot_message(chat).plain_text == "General  for Alice"
    with pytest.raises(AssertionError, match="wait_for timed out"):
        await fake.wait_for(lambda: False, timeout=0.05)
    assert fake.unhandled == []


async def test_command_entities_and_privacy_mode() -> None:
    fake = FakeTelegram(token=TOKEN, privacy_mode=True)
    alice = fake.user(1001, "Alice")
    group = fake.chat(-100500, title="Dice night")
    msg = await fake.send_message(alice, group, "/general@general_test_bot, then /stop")
    assert msg.entities == [
        {"type": "bot_command", "offset": 0, "length": 25},
        {"type": "bot_command", "offset": 32, "length": 5},
    ]
    await fake.send_message(alice, group, "just chatting")  # not a command: not delivered
    await fake.send_message(alice, fake.private_chat(alice), "hi")  # private: delivered
    texts = [u["message"]["text"] for u in fake.pending_updates]
    assert texts == ["/general@general_test_bot, then /stop", "hi"]
    ids = [u["update_id"] for u in fake.pending_updates]
    assert ids == sorted(ids) and len(set(ids)) == 2
