"""The Discord front end opens a table's thread: a public thread under a text channel, a
channel of its own, through the real bot against the fake Discord (which refuses what Discord
refuses: a thread under a thread, a bot without the right)."""

from __future__ import annotations

import pytest

from adapters.chat import cards
from adapters.i18n import translator
from core.identity import ChannelKey
from tests.discord.kit import RunningBot, bot_messages, slash
from tests.fakes.discord.protocol import DEFAULT_BOT_PERMISSIONS, PERMISSIONS

T = translator("en")
HERE = cards.Lines(("Your table is laid here.",))


def key(channel_id: str) -> ChannelKey:
    return ChannelKey("dc", channel_id)


def thread_posts(dc: RunningBot) -> list[str]:
    """The paths of every thread the bot asked Discord to make."""
    return [r.path for r in dc.fake.requests if r.method == "POST" and r.path.endswith("/threads")]


async def test_a_text_channel_gets_a_thread_where_its_table_is_played(dc: RunningBot) -> None:
    fake, platform = dc.fake, dc.front.tables.platform
    opened = await platform.open_thread(key(dc.channel.id), "Round 1 · Table 2")
    assert opened is not None and opened.thread == ""
    (thread,) = fake.threads_of(dc.channel)
    assert opened == key(thread.id)
    assert (thread.name, thread.type, thread.owner_id) == (
        "Round 1 · Table 2",
        11,
        fake.bot_user.id,
    )
    assert fake.channel_messages(dc.channel) == []  # no starter message

    await platform.send(opened, HERE, T)
    (card,) = bot_messages(fake, thread)
    assert "Your table is laid here." in card.text

    alice = fake.member(dc.guild, "Alice")
    asked = await slash(fake, alice, thread, "start")
    assert asked.payload["channel_id"] == thread.id
    lobby = asked.original
    assert lobby is not None and lobby.channel is thread and lobby.buttons
    assert fake.channel_messages(dc.channel) == []
    assert await platform.place(opened) == await platform.place(key(dc.channel.id))


async def test_a_thread_has_no_thread_of_its_own(dc: RunningBot) -> None:
    fake, platform = dc.fake, dc.front.tables.platform
    opened = await platform.open_thread(key(dc.channel.id), "Round 1 · Table 1")
    assert opened is not None
    await fake.settle()  # the bot has heard of the thread
    assert await platform.open_thread(opened, "Round 1 · Table 1 · again") is None
    assert len(fake.threads_of(dc.channel)) == 1
    assert thread_posts(dc) == [f"/channels/{dc.channel.id}/threads"]  # known without asking


async def test_no_thread_where_the_bot_may_not_make_one(dc: RunningBot) -> None:
    fake, platform = dc.fake, dc.front.tables.platform
    locked = fake.guild("Locked", bot_permissions=DEFAULT_BOT_PERMISSIONS)
    for role in (locked.everyone, *[r for r in locked.roles.values() if r.managed]):
        role.permissions &= ~PERMISSIONS["create_public_threads"]
    await fake.settle()
    assert await platform.open_thread(key(locked.default_channel.id), "Table") is None
    assert fake.threads_of(locked.default_channel) == []


async def test_a_long_title_is_cut_to_discords_limit(dc: RunningBot) -> None:
    platform = dc.front.tables.platform
    title = "Spring cup · " + "x" * 200
    opened = await platform.open_thread(key(dc.channel.id), f"  {title}  ")
    assert opened is not None
    (thread,) = dc.fake.threads_of(dc.channel)
    assert thread.name == title[:100]
    with pytest.raises(ValueError, match="name"):
        await platform.open_thread(key(dc.channel.id), " ")
    assert len(dc.fake.threads_of(dc.channel)) == 1
