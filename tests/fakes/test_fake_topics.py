"""The fakes' threads over raw HTTP: Telegram's forum topics (createForumTopic) and Discord's
threads without a starter message, made where the real platforms make them, refused in their
words where they refuse, and then written in, and spoken in by people, as threads of their own."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakes.discord import FakeDiscord
from tests.fakes.discord.protocol import DEFAULT_BOT_PERMISSIONS, PERMISSIONS
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.limits import Limits

TG_TOKEN = "123456:TEST"
DC_TOKEN = "fake-token"


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TG_TOKEN) as server:
        yield server


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=DC_TOKEN) as server:
        yield server


async def bot_api(fake: FakeTelegram, method: str, **params: Any) -> tuple[int, dict[str, Any]]:
    """A Bot API call as JSON: its HTTP status and Telegram's answer."""
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{fake.base_url}{fake.token}/{method}", json=params) as response,
    ):
        return response.status, await response.json()


async def rest(fake: FakeDiscord, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """A REST call as the bot: its HTTP status and Discord's answer."""
    auth = {"Authorization": f"Bot {DC_TOKEN}"}
    async with (
        aiohttp.ClientSession(headers=auth) as http,
        http.request(method, f"{fake.api_base}{path}", json=body) as response,
    ):
        return response.status, await response.json() if response.content_length else None


async def test_a_forum_topic_is_made_written_in_and_spoken_in(tg: FakeTelegram) -> None:
    alice = tg.user(1001, "Alice")
    forum = tg.forum(-100900, title="Dice club", creator=alice)
    assert tg.forum(-100900) is forum  # made once
    status, answer = await bot_api(tg, "createForumTopic", chat_id=forum.id, name=" Table 1 ")
    assert status == 200
    topic = answer["result"]
    thread = topic["message_thread_id"]
    assert topic == {"message_thread_id": thread, "name": "Table 1", "icon_color": 0x6FB9F0}
    assert tg.topics(forum) == {thread: "Table 1"}
    assert tg.messages(forum) == []  # "topic created" is a service message

    status, sent = await bot_api(
        tg, "sendMessage", chat_id=forum.id, text="A table", message_thread_id=thread
    )
    assert status == 200 and sent["result"]["message_thread_id"] == thread
    assert sent["result"]["is_topic_message"] is True
    (card,) = tg.bot_messages(forum, thread)
    assert card.shown == "A table" and tg.bot_messages(forum, 0) == []

    said = await tg.send_message(alice, forum, "/general", thread_id=thread)
    status, polled = await bot_api(tg, "getUpdates", timeout=0)
    (update,) = polled["result"]
    message = update["message"]
    assert message["message_id"] == said.message_id
    assert message["message_thread_id"] == thread and message["is_topic_message"] is True
    assert tg.unhandled == []


async def test_topics_are_refused_where_telegram_refuses_them(tg: FakeTelegram) -> None:
    alice = tg.user(1001, "Alice")
    plain = tg.chat(-100901, title="No topics", creator=alice)
    basic = tg.chat(-902, type="group", title="A basic group", creator=alice)
    bare = tg.forum(-100903, creator=alice, bot_rights=False)
    forum = tg.forum(-100904, creator=alice)
    refused = {
        "Bad Request: the chat is not a forum": [(plain.id, "x"), (basic.id, "x")],
        "Bad Request: not enough rights to create a topic": [(bare.id, "x")],
        "Bad Request: title must be non-empty": [(forum.id, "   "), (forum.id, "")],
        "Bad Request: [fake] topic name over 128 characters": [(forum.id, "x" * 129)],
        "Bad Request: chat not found": [(-100999, "x")],
    }
    for description, calls in refused.items():
        for chat_id, name in calls:
            status, answer = await bot_api(tg, "createForumTopic", chat_id=chat_id, name=name)
            assert (status, answer["description"]) == (400, description), (chat_id, name)
    status, _ = await bot_api(tg, "createForumTopic", chat_id=forum.id, name="x" * 128)
    assert status == 200
    status, answer = await bot_api(
        tg, "sendMessage", chat_id=forum.id, text="lost", message_thread_id=4242
    )
    assert (status, answer["description"]) == (400, "Bad Request: message thread not found")
    tg.set_member(forum, tg.bot_user, "kicked")
    status, answer = await bot_api(tg, "createForumTopic", chat_id=forum.id, name="Gone")
    assert status == 403 and "not a member" in answer["description"]
    assert [tg.topics(chat) for chat in (plain, bare)] == [{}, {}]
    assert list(tg.topics(forum).values()) == ["x" * 128]
    assert tg.messages(forum) == []
    assert tg.unhandled == []


async def test_a_new_topic_counts_against_the_groups_limits(tg: FakeTelegram) -> None:
    forum = tg.forum(-100905)
    tg.limits = Limits.STRICT  # three at once in a chat, then one a second
    answers = [
        await bot_api(tg, "createForumTopic", chat_id=forum.id, name=f"Table {n}")
        for n in range(1, 5)
    ]
    assert [status for status, _ in answers] == [200, 200, 200, 429]
    assert answers[-1][1]["parameters"]["retry_after"] >= 1
    assert len(tg.topics(forum)) == 3 and tg.rate_limited_in(forum) == 1


async def test_a_thread_without_a_message_is_made_written_in_and_spoken_in(
    dc: FakeDiscord,
) -> None:
    guild = dc.guild("Dice club")
    channel = guild.default_channel
    alice = dc.member(guild, "Alice")
    body = {  # as discord.py sends it
        "name": "Table 1",
        "type": 11,
        "auto_archive_duration": 1440,
        "invitable": True,
        "rate_limit_per_user": None,
    }
    status, made = await rest(dc, "POST", f"/channels/{channel.id}/threads", body)
    assert status == 201
    assert (made["type"], made["name"], made["parent_id"]) == (11, "Table 1", channel.id)
    assert made["owner_id"] == dc.bot_user.id
    assert made["thread_metadata"]["auto_archive_duration"] == 1440
    (thread,) = dc.threads_of(channel)
    assert thread.id == made["id"] and dc.channel_messages(channel) == []

    status, sent = await rest(dc, "POST", f"/channels/{thread.id}/messages", {"content": "Hi"})
    assert status == 200 and sent["channel_id"] == thread.id
    assert [m.content for m in dc.channel_messages(thread)] == ["Hi"]

    command = {"name": "general", "description": "General", "type": 1}
    path = f"/applications/{dc.application_id}/commands"
    status, _ = await rest(dc, "PUT", path, [command])
    assert status == 200
    asked = await dc.slash(alice, thread, "general")
    assert asked.payload["channel_id"] == thread.id
    assert asked.payload["channel"]["parent_id"] == channel.id
    callback = f"/interactions/{asked.id}/{asked.token}/callback"
    status, _ = await rest(dc, "POST", callback, {"type": 4, "data": {"content": "Seen"}})
    assert status in (200, 204)
    assert [m.content for m in dc.channel_messages(thread)] == ["Hi", "Seen"]
    assert dc.unhandled == []


async def test_threads_are_refused_where_discord_refuses_them(dc: FakeDiscord) -> None:
    guild = dc.guild("Dice club")
    channel = guild.default_channel
    thread = dc.thread(channel, "Already a thread")
    url = f"/channels/{channel.id}/threads"
    for body, where in [
        ({"name": "", "type": 11}, "name"),
        ({"name": "x" * 101, "type": 11}, "name"),
        ({"type": 11}, "name"),
        ({"name": "x", "type": 0}, "type"),
        ({"name": "x", "type": 11, "auto_archive_duration": 30}, "auto_archive_duration"),
    ]:
        status, answer = await rest(dc, "POST", url, body)
        assert (status, answer["code"]) == (400, 50035), body
        assert list(answer["errors"]) == [where], body
    status, _ = await rest(dc, "POST", url, {"name": "x" * 100, "type": 11})
    assert status == 201

    status, answer = await rest(dc, "POST", f"/channels/{thread.id}/threads", {"name": "x"})
    assert (status, answer["code"]) == (400, 50024)

    alice = dc.member(guild, "Alice")
    status, dm = await rest(dc, "POST", "/users/@me/channels", {"recipient_id": alice.id})
    assert status == 200
    status, answer = await rest(dc, "POST", f"/channels/{dm['id']}/threads", {"name": "x"})
    assert (status, answer["code"]) == (403, 50003)

    without = DEFAULT_BOT_PERMISSIONS & ~PERMISSIONS["create_public_threads"]
    locked = dc.guild("Locked", bot_permissions=without)
    locked.everyone.permissions &= ~PERMISSIONS["create_public_threads"]
    status, answer = await rest(
        dc, "POST", f"/channels/{locked.default_channel.id}/threads", {"name": "x", "type": 11}
    )
    assert (status, answer["code"]) == (403, 50013)
    assert dc.threads_of(locked.default_channel) == []
    assert [t.name for t in dc.threads_of(channel)] == ["Already a thread", "x" * 100]
    assert dc.unhandled == []
