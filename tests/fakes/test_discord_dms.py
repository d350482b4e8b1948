"""Direct messages through the fake Discord, with the real discord.py logged in to it (REST and
gateway): the bot opens a DM channel with a member and posts in it; members who take no DMs
refuse them with 403 / 50007; unknown users cannot be DMed at all."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import pytest
import yarl

from tests.fakes.discord import FakeDiscord, FakeGuild

TOKEN = "fake-token"


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def discord_errors() -> Iterator[None]:
    """Fails the test on any ERROR discord.py logs (say, a gateway event it could not parse)."""
    handler = _Errors()
    logger = logging.getLogger("discord")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
    assert not handler.records, [handler.format(r) for r in handler.records]


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(token=TOKEN)
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url)
    )
    try:
        yield server
        server.assert_clean()
    finally:
        await server.stop()


@pytest.fixture
def guild(fake: FakeDiscord) -> FakeGuild:
    return fake.guild("Dice club")


class Client(discord.Client):
    """A discord.py client that notes the messages the gateway brought it."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.01)
        self.seen: list[discord.Message] = []

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)


@pytest.fixture
async def client(fake: FakeDiscord, guild: FakeGuild) -> AsyncIterator[Client]:
    bot = Client()
    await bot.login(TOKEN)
    task = asyncio.create_task(bot.connect(reconnect=False))
    try:
        await fake.wait_ready()
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


def roll_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Roll", custom_id="gen:roll:7"))
    view.add_item(discord.ui.Button(label="Rules", url="https://example.com/rules"))
    return view


async def test_the_bot_writes_to_a_member_privately(
    fake: FakeDiscord, guild: FakeGuild, client: Client
) -> None:
    ann = fake.member(guild, "Ann")
    bob = fake.member(guild, "Bob")
    assert fake.direct_messages(ann) == [] and fake.dm_channel(ann) is None

    channel = await client.create_dm(discord.Object(id=int(ann.id)))
    assert isinstance(channel, discord.DMChannel)
    assert channel.recipient is not None and channel.recipient.id == int(ann.id)
    dm = fake.dm_channel(ann)
    assert dm is not None and channel.id == int(dm.id)
    assert dm.id not in {ann.id, bob.id, guild.id}  # a channel of its own

    sent = await channel.send(content="Your turn at table 7", view=roll_view())
    (msg,) = fake.direct_messages(ann)
    assert msg.id == str(sent.id) and msg.author is fake.bot_user
    assert msg.content == "Your turn at table 7"
    assert [[b.label for b in row] for row in msg.components] == [["Roll", "Rules"]]
    assert msg.button("Roll").custom_id == "gen:roll:7"
    assert msg.button("Rules").url == "https://example.com/rules"
    assert fake.direct_messages(bob) == []  # Ann's alone
    assert fake.channel_messages(guild.default_channel) == []  # not in the guild
    assert fake.channel_messages(dm) == [msg]

    # the gateway brought the bot its own DM, which discord.py parsed as one
    await fake.wait_for(lambda: any(m.id == sent.id for m in client.seen), what="MESSAGE_CREATE")
    (echo,) = [m for m in client.seen if m.id == sent.id]
    assert isinstance(echo.channel, discord.DMChannel) and echo.guild is None
    assert echo.content == "Your turn at table 7"

    # read back, then deleted
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "Your turn at table 7"
    await sent.delete()
    assert fake.direct_messages(ann) == []
    assert fake.direct_messages(ann, include_deleted=True) == [msg] and msg.deleted


async def test_messages_in_a_dm_are_validated_like_any_channel(
    fake: FakeDiscord, guild: FakeGuild, client: Client
) -> None:
    ann = fake.member(guild, "Ann")
    channel = await client.create_dm(discord.Object(id=int(ann.id)))
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert too_long.value.status == 400 and too_long.value.code == 50035
    assert "2000 or fewer" in too_long.value.text
    dup = discord.ui.View()
    dup.add_item(discord.ui.Button(label="A", custom_id="same"))
    dup.add_item(discord.ui.Button(label="B", custom_id="same"))
    with pytest.raises(discord.HTTPException) as duplicated:
        await channel.send("two buttons", view=dup)
    assert duplicated.value.code == 50035
    assert fake.direct_messages(ann) == []


async def test_a_recipient_always_gets_the_same_dm_channel(
    fake: FakeDiscord, guild: FakeGuild, client: Client
) -> None:
    ann = fake.member(guild, "Ann")
    bob = fake.member(guild, "Bob")
    first = await client.create_dm(discord.Object(id=int(ann.id)))
    # discord.py caches DM channels, so ask Discord itself again
    again: dict[str, Any] = await client.http.start_private_message(int(ann.id))
    opened = [r for r in fake.requests if (r.method, r.path) == ("POST", "/users/@me/channels")]
    assert [r.status for r in opened] == [200, 200]
    assert again["id"] == str(first.id) and again["type"] == 1
    assert [u["id"] for u in again["recipients"]] == [ann.id]
    assert again["last_message_id"] is None
    sent = await first.send("hello")
    later = await client.http.start_private_message(int(ann.id))
    assert later["id"] == str(first.id) and later["last_message_id"] == str(sent.id)
    other = await client.create_dm(discord.Object(id=int(bob.id)))
    assert other.id != first.id


async def test_a_member_who_takes_no_dms_refuses_them(
    fake: FakeDiscord, guild: FakeGuild, client: Client
) -> None:
    bea = fake.member(guild, "Bea", dms_open=False)
    assert not bea.dms_open and not bea.user.dms_open
    channel = await client.create_dm(discord.Object(id=int(bea.id)))  # opening works
    assert fake.dm_channel(bea) is not None
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("Your turn", view=roll_view())
    assert refused.value.status == 403 and refused.value.code == 50007
    assert refused.value.text == "Cannot send messages to this user"
    dm = fake.dm_channel(bea)
    assert dm is not None and dm.messages == [] and fake.direct_messages(bea) == []

    bea.dms_open = True  # she opens her DMs: now the same channel takes messages
    await channel.send("Your turn")
    assert [m.content for m in fake.direct_messages(bea)] == ["Your turn"]


async def test_users_sharing_no_guild_and_bots_refuse_dms(
    fake: FakeDiscord, guild: FakeGuild, client: Client
) -> None:
    stranger = fake.user("Stranger")  # in no guild with the bot
    other_bot = fake.member(guild, fake.user("Robot", bot=True))
    for user_id in (stranger.id, other_bot.id):
        channel = await client.create_dm(discord.Object(id=int(user_id)))
        with pytest.raises(discord.Forbidden) as refused:
            await channel.send("hello")
        assert refused.value.code == 50007
    assert fake.direct_messages(stranger) == [] and fake.direct_messages(other_bot) == []


async def test_an_unknown_recipient_is_refused(
    fake: FakeDiscord, guild: FakeGuild, client: Client
) -> None:
    nobody = int(guild.id) + 1  # a snowflake no user has
    with pytest.raises(discord.HTTPException) as unknown:
        await client.create_dm(discord.Object(id=nobody))
    assert unknown.value.status == 400 and unknown.value.code == 50033
    assert unknown.value.text == "Invalid Recipient(s)"
    route = discord.http.Route("POST", "/users/@me/channels")
    with pytest.raises(discord.HTTPException) as malformed:
        await client.http.request(route, json={"recipient_id": "ann"})
    assert malformed.value.status == 400 and malformed.value.code == 50035
    assert "recipient_id" in malformed.value.text
    with pytest.raises(discord.HTTPException) as missing:
        await client.http.request(route, json={})
    assert missing.value.code == 50035
