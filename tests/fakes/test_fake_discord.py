"""Proof that the real discord.py runs unchanged against the fake Discord."""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from discord.ext import commands

from tests.fakes.discord import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    UPDATE_MESSAGE,
    FakeDiscord,
)

TOKEN = "fake-token"
_games = itertools.count(1)

RU = {
    "Dice game General": "Игра «Генерал»",
    "start": "старт",
    "Start a game": "Начать игру",
}


class RuTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return RU.get(string.message) if locale is discord.Locale.russian else None


def game_view(game: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RollButton(game))
    view.add_item(PassButton(game))
    return view


class RollButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gen:roll:(?P<g>\d+)"):
    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Roll", style=discord.ButtonStyle.primary, custom_id=f"gen:roll:{game}"
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RollButton:
        return cls(int(match["g"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, DiceBot)
        bot.handled.append(f"roll:{self.game}")
        who = interaction.user.display_name
        await interaction.response.edit_message(
            content=f"Game {self.game}: {who} rolled", view=game_view(self.game)
        )
        await interaction.followup.send("You rolled 6 6 6 6 6", ephemeral=True)


class PassButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gen:pass:(?P<g>\d+)"):
    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Pass", custom_id=f"gen:pass:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PassButton:
        return cls(int(match["g"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # deferred update (type 6), then an ordinary channel-message edit (PATCH /channels/...)
        await interaction.response.defer()
        assert interaction.message is not None
        await interaction.message.edit(content=f"Game {self.game}: passed", view=None)


class General(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="general", description=app_commands.locale_str("Dice game General"))

    @app_commands.command(
        name=app_commands.locale_str("start"), description=app_commands.locale_str("Start a game")
    )
    async def start(self, interaction: discord.Interaction) -> None:
        game = next(_games)
        await interaction.response.send_message(f"Game {game} started", view=game_view(game))

    @app_commands.command(name="help", description="How to play")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.01)
        rules = discord.Embed(title="Rules", description="Roll five dice, three times.")
        await interaction.followup.send(embed=rules)


class DiceBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.01,
            help_command=None,
        )
        self.handled: list[str] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(RollButton, PassButton)
        self.tree.add_command(General())
        await self.tree.set_translator(RuTranslator())
        await self.tree.sync()


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def discord_errors() -> Iterator[list[logging.LogRecord]]:
    """Fails the test on any ERROR logged by discord.py (it logs handler exceptions)."""
    handler = _Errors()
    logger = logging.getLogger("discord")
    logger.addHandler(handler)
    try:
        yield handler.records
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
    yield server
    while _running:  # a failed test must not leave a bot reconnecting to a stopped fake
        await _running.pop().close()
    await server.stop()


_running: list[DiceBot] = []


async def start_bot(fake: FakeDiscord) -> tuple[DiceBot, asyncio.Task[None]]:
    bot = DiceBot()
    _running.append(bot)
    await bot.login(TOKEN)
    task = asyncio.create_task(bot.connect())
    await fake.wait_ready()
    await asyncio.wait_for(bot.wait_until_ready(), 5)
    return bot, task


async def stop_bot(bot: DiceBot, task: asyncio.Task[None]) -> None:
    assert not task.done(), f"connect() died: {task.exception()!r}"
    await bot.close()
    await asyncio.wait_for(task, 5)  # re-raises whatever ended connect()


async def test_bot_plays_through_the_fake(
    fake: FakeDiscord, discord_errors: list[logging.LogRecord]
) -> None:
    guild = fake.guild(name="Dice club")
    chan = fake.text_channel(guild, name="general")
    thread = fake.thread(chan, name="table-2")
    alice = fake.member(guild, "Alice", locale="en-US")
    boris = fake.member(guild, "Boris", locale="ru", manage_channels=True)
    bot, task = await start_bot(fake)

    # command sync: the group with its subcommands and localizations
    (general,) = fake.commands()
    assert general["name"] == "general"
    assert general["description_localizations"] == {"ru": "Игра «Генерал»"}
    subs = {o["name"]: o for o in general["options"]}
    assert set(subs) == {"start", "help"} and all(o["type"] == 1 for o in subs.values())
    assert subs["start"]["name_localizations"] == {"ru": "старт"}

    # slash command -> type 4 message with buttons
    inter = await fake.slash(alice, chan, "general", "start")
    resp = await inter.wait_response()
    assert resp.type == CHANNEL_MESSAGE
    msg = fake.channel_messages(chan)[-1]
    assert msg is inter.original and not msg.ephemeral
    assert msg.content.endswith("started")
    assert [[b.label for b in row] for row in msg.components] == [["Roll", "Pass"]]
    game = int(msg.content.split()[1])

    # button -> type 7 update of the same message + an ephemeral follow-up
    press = await fake.press(boris, msg, label="Roll")
    assert (await press.wait_response()).type == UPDATE_MESSAGE
    await press.wait_followups(1)
    assert msg.content == f"Game {game}: Boris rolled" and len(msg.edits) == 1
    assert press.ephemeral_texts() == ["You rolled 6 6 6 6 6"]
    assert fake.channel_messages(chan)[-1] is msg  # the ephemeral reply is Boris's alone

    # deferred "thinking" (type 5), then a follow-up that replaces the loading message
    helped = await fake.slash(alice, thread, "general", "help")
    assert (await helped.wait_response()).type == DEFERRED_CHANNEL_MESSAGE
    await helped.wait_followups(1)
    answer = helped.original
    assert answer is not None and answer is helped.followups[0] and not answer.loading
    assert answer.embeds[0]["title"] == "Rules"
    assert fake.channel_messages(thread) == [answer]

    # a 429 on the channel-message PATCH is waited out and retried by discord.py
    fake.fail_next("PATCH", "/channels/*/messages/*", status=429, retry_after=0.05)
    passed = await fake.press(alice, msg, label="Pass")
    assert (await passed.wait_response()).type == DEFERRED_UPDATE_MESSAGE
    await fake.wait_for(lambda: msg.content == f"Game {game}: passed")
    patches = [r.status for r in fake.requests if r.method == "PATCH"]
    assert patches[-2:] == [429, 200]
    assert msg.components == []

    # gateway drop: an interaction sent while disconnected is replayed after RESUME
    await fake.drop_gateway()
    again = await fake.slash(alice, chan, "general", "start")
    assert (await again.wait_response()).type == CHANNEL_MESSAGE
    assert (fake.identifies, fake.resumes) == (1, 1)
    old_message = again.original
    assert old_message is not None
    old_game = int(old_message.content.split()[1])

    # restart: a new bot object handles a press on the old message via the dynamic item
    await stop_bot(bot, task)
    bot, task = await start_bot(fake)
    assert fake.identifies == 2
    late = await fake.press(alice, old_message, label="Roll")
    assert (await late.wait_response()).type == UPDATE_MESSAGE
    assert bot.handled == [f"roll:{old_game}"]
    assert old_message.content == f"Game {old_game}: Alice rolled"

    # discord.py surfaces the fake's validation errors like Discord's
    channel = bot.get_channel(int(chan.id))
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert too_long.value.code == 50035 and "2000 or fewer" in too_long.value.text
    dup = discord.ui.View()
    dup.add_item(discord.ui.Button(label="A", custom_id="same"))
    dup.add_item(discord.ui.Button(label="B", custom_id="same"))
    with pytest.raises(discord.HTTPException) as duplicated:
        await channel.send("two buttons", view=dup)
    assert duplicated.value.code == 50035
    await channel.send("a board", file=discord.File(__file__, filename="board.py"))
    board = fake.channel_messages(chan)[-1]
    assert board.attachments[0].data.startswith(b'"""Proof')

    await fake.settle()
    await stop_bot(bot, task)
    assert fake.unhandled == [] and fake.expired == []
    assert discord_errors == []


async def test_protocol_rules_without_a_bot(fake: FakeDiscord) -> None:
    guild = fake.guild()
    chan = guild.default_channel
    alice = fake.member(guild, "Alice")
    fake.interaction_timeout = 0.2
    auth = {"Authorization": f"Bot {TOKEN}"}
    app = fake.application_id
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{fake.api_base}/users/@me", headers=auth) as r:
            assert r.status == 200 and r.headers["Content-Type"] == "application/json"
            assert (await r.json())["id"] == app
        async with http.get(f"{fake.api_base}/users/@me") as r:
            assert r.status == 401

        bad = [{"name": "General", "description": "x", "type": 1}]
        async with http.put(
            f"{fake.api_base}/applications/{app}/commands", json=bad, headers=auth
        ) as r:
            body = await r.json()
            assert r.status == 400 and body["code"] == 50035 and "0" in body["errors"]
        good = [
            {
                "name": "general",
                "description": "General",
                "type": 1,
                "options": [{"name": "start", "description": "Start", "type": 1}],
            }
        ]
        url = f"{fake.api_base}/applications/{app}/guilds/{guild.id}/commands"
        async with http.put(url, json=good, headers=auth) as r:
            assert r.status == 200
            assert (await r.json())[0]["guild_id"] == guild.id

        inter = await fake.slash(alice, chan, "general", "start")
        hook = f"{fake.api_base}/webhooks/{app}/{inter.token}"
        async with http.post(hook, json={"content": "too early"}) as r:
            assert r.status == 404 and (await r.json())["code"] == 10015
        callback = f"{fake.api_base}/interactions/{inter.id}/{inter.token}/callback"
        rows = [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"} for i in range(6)
                ],
            }
        ]
        async with http.post(callback, json={"type": 4, "data": {"components": rows}}) as r:
            assert r.status == 400 and (await r.json())["code"] == 50035
        async with http.post(
            callback, params={"with_response": "1"}, json={"type": 4, "data": {"content": "hi"}}
        ) as r:
            body = await r.json()
            assert body["interaction"]["response_message_id"] == body["resource"]["message"]["id"]
        async with http.post(callback, json={"type": 4, "data": {"content": "again"}}) as r:
            assert r.status == 400 and (await r.json())["code"] == 40060

        late = await fake.slash(alice, chan, "general", "start")
        await fake.wait_for(lambda: late.expired)
        with pytest.raises(AssertionError, match="This interaction failed"):
            await late.wait_response()

        async with http.get(f"{fake.api_base}/nonsense", headers=auth) as r:
            assert r.status == 404
    assert fake.unhandled == ["GET /nonsense"]
    assert fake.expired == [late]
