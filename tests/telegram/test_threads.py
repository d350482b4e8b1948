"""The Telegram front end opens a table's thread: a forum topic where the group has topics,
none elsewhere, through the real bot against the fake Bot API (which refuses what Telegram
refuses, and counts a new topic against the group's limits)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.app
from adapters.chat import cards
from adapters.chat.surface import Platform
from adapters.i18n import translator
from adapters.telegram.frontend import TelegramFrontEnd
from core.dice import ScriptedRoller
from core.identity import ChannelKey
from tests.fakes.telegram import FakeTelegram
from tests.telegram.kit import bot_settings, running

T = translator("en")
HERE = cards.Lines(("Your table is laid here.",))


@pytest.fixture
async def platform(
    fake: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Platform]:
    """The running bot's own Platform: its front end's, as its tables hold it."""
    made: list[Any] = []
    real = bot.app.chat_front_ends

    def capture(*args: Any) -> list[Any]:
        front_ends = real(*args)
        made.extend(front_ends)
        return front_ends

    monkeypatch.setattr(bot.app, "chat_front_ends", capture)
    async with running(bot_settings(fake, tmp_path / "general.db"), ScriptedRoller()):
        (front,) = made
        assert isinstance(front, TelegramFrontEnd)
        yield front.tables.platform


def key(chat_id: int) -> ChannelKey:
    return ChannelKey("tg", str(chat_id))


async def test_a_forum_gets_a_topic_where_its_table_is_played(
    fake: FakeTelegram, platform: Platform
) -> None:
    alice = fake.user(1001, "Alice")
    forum = fake.forum(-100700, title="Dice club", creator=alice)
    opened = await platform.open_thread(key(forum.id), "Round 1 · Table 2")
    assert opened is not None and (opened.platform, opened.chat) == ("tg", str(forum.id))
    thread = int(opened.thread)
    assert fake.topics(forum) == {thread: "Round 1 · Table 2"}

    await platform.send(opened, HERE, T)
    (card,) = fake.bot_messages(forum, thread)
    assert card.shown == "Your table is laid here." and card.is_topic_message
    assert fake.bot_messages(forum, 0) == []  # nothing in the group's General topic

    await fake.send_message(alice, forum, "/general start", thread_id=thread)
    await fake.settle()
    lobby = fake.last_bot_message(forum, thread)  # the topic's own table
    assert "A table of General is open" in lobby.plain_text and lobby.reply_markup
    assert fake.bot_messages(forum, 0) == []


async def test_no_topic_where_the_chat_has_none_or_the_bot_may_not_make_one(
    fake: FakeTelegram, platform: Platform
) -> None:
    alice = fake.user(1001, "Alice")
    plain = fake.chat(-100701, title="No topics", creator=alice)
    basic = fake.chat(-702, type="group", title="Basic", creator=alice)
    private = fake.private_chat(alice)
    bare = fake.forum(-100703, creator=alice, bot_rights=False)
    for chat in (plain, basic, private, bare):
        assert await platform.open_thread(key(chat.id), "Round 1 · Table 1") is None, chat
    assert [fake.topics(chat) for chat in (plain, bare)] == [{}, {}]
    assert [call["chat_id"] for call in fake.calls("createForumTopic")] == [bare.id]  # refused
    assert [call["chat_id"] for call in fake.calls("getChat")] == [plain.id, bare.id]
    assert fake.messages(plain) == [] and fake.messages(basic) == []


async def test_a_long_title_is_cut_to_telegrams_limit(
    fake: FakeTelegram, platform: Platform
) -> None:
    forum = fake.forum(-100704)
    title = "Spring cup · " + "x" * 200
    opened = await platform.open_thread(key(forum.id), f"  {title}  ")
    assert opened is not None
    assert fake.topics(forum) == {int(opened.thread): title[:128]}
    with pytest.raises(ValueError, match="name"):
        await platform.open_thread(key(forum.id), "   ")
    assert len(fake.topics(forum)) == 1
