"""Slash commands through the real discord.py and the fake Discord: sync, lobby, help, sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from adapters.chat.catalogue import COMMANDS, NAMES, usage
from adapters.chat.commands import Asked
from adapters.discord.commands import command_group
from adapters.i18n import translator
from tests.discord.kit import RunningBot, bot_messages, live_board, press, running_bot, slash
from tests.fakes.discord import CHANNEL_MESSAGE, UPDATE_MESSAGE, FakeDiscord

T = translator("en")


def _described(command: dict[str, object]) -> dict[str, str]:
    return {o["name"]: o["description"] for o in command["options"]}  # type: ignore[attr-defined,index]


OPTIONS = {
    "sheet": ["text"],
    "leaderboard": ["scope", "period", "order", "season"],
    "stats": ["player"],
    "kick": ["player"],
    "notify": ["off"],
}


async def test_commands_are_synced_globally_with_descriptions(dc: RunningBot) -> None:
    (general,) = dc.fake.commands()
    assert general["name"] == "general"
    assert general["description"] == T("cmd-general")
    options = general["options"]
    assert [o["name"] for o in options] == list(NAMES)
    assert all(o["type"] == 1 for o in options)  # subcommands
    assert {o["name"]: [p["name"] for p in o.get("options") or []] for o in options} == {
        name: OPTIONS.get(name, []) for name in NAMES
    }
    assert _described(general) == {name: T(f"cmd-{name}") for name in NAMES}
    assert all(0 < len(o["description"]) <= 100 for o in options)
    assert dc.fake.commands(dc.guild) == []
    # Russian describes the group, every subcommand and every option; option and choice names
    # are Russian too. The group and subcommand names stay: every text says "/general start".
    ru = translator("ru")
    assert general["description_localizations"] == {"ru": ru("cmd-general")}
    assert [o["description_localizations"] for o in options] == [
        {"ru": ru(f"cmd-{name}")} for name in NAMES
    ]
    assert not general["name_localizations"] and not any(o["name_localizations"] for o in options)
    parameters = [p for o in options for p in o.get("options") or []]
    assert len(parameters) == 8
    for parameter in parameters:
        assert parameter["name_localizations"] == {"ru": ru(f"opt-{parameter['name']}")}
        assert set(parameter["description_localizations"]) == {"ru"}
        assert parameter["description_localizations"]["ru"] != parameter["description"]
    (order,) = [p for p in parameters if p["name"] == "order"]
    assert [(c["value"], c["name_localizations"]) for c in order["choices"]] == [
        ("rating", {"ru": ru("choice-rating")}),
        ("wins", {"ru": ru("choice-wins")}),
        ("luck", {"ru": ru("choice-luck")}),
        ("skill", {"ru": ru("choice-skill")}),
    ]
    (scope,) = [p for p in parameters if p["name"] == "scope"]
    assert [(c["value"], c["name_localizations"]) for c in scope["choices"]] == [
        ("channel", {"ru": translator("ru")("choice-channel")}),
        ("global", {"ru": translator("ru")("choice-global")}),
    ]
    (kicked,) = [p for o in options if o["name"] == "kick" for p in o["options"]]
    assert kicked["type"] == 6 and kicked["required"]  # a user, picked from Discord's list


async def test_commands_sync_to_one_guild_when_asked(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake.guild("Development")
    alice = fake.member(guild, "Alice")
    async with running_bot(fake, tmp_path / "g.db", monkeypatch, discord_guild_id=int(guild.id)):
        assert fake.commands() == []
        (general,) = fake.commands(guild)
        assert general["guild_id"] == guild.id
        assert [o["name"] for o in general["options"]] == list(NAMES)
        helped = await slash(fake, alice, guild.default_channel, "help")
        (text,) = helped.ephemeral_texts()
        assert "`/general start` — Open a table of General here" in text


async def test_help_and_rules_are_private(dc: RunningBot) -> None:
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    helped = await slash(fake, alice, dc.channel, "help")
    assert helped.response is not None and helped.response.type == CHANNEL_MESSAGE
    (text,) = helped.ephemeral_texts()
    assert text.splitlines() == [
        "**General (Генерал) — a dice game for any number of players.**",
        *(f"`{usage(c, T, typed=False)}` — {T(c.about)}" for c in COMMANDS),
    ]
    rules = await slash(fake, alice, dc.channel, "rules")
    (text,) = rules.ephemeral_texts()
    assert text.startswith("**General (Генерал)") and "BIG GENERAL" in text
    assert bot_messages(fake, dc.channel) == []  # nothing public


async def test_lobby_join_leave_host_only_start_and_stop(dc: RunningBot) -> None:
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    bob = fake.member(dc.guild, "Bob")
    carol = fake.member(dc.guild, "Carol")
    started = await slash(fake, alice, dc.channel, "start")
    lobby = started.original
    assert lobby is not None and not lobby.ephemeral
    assert lobby.content.startswith("**🎲 A table of General is open**")
    assert "Host: Alice" in lobby.content and "Seated (1): Alice" in lobby.content
    assert [b.label for b in lobby.buttons] == [
        "✋ Join", "🚪 Leave", "▶️ Start", "✖️ Cancel",
        "🤖 + Grandmaster", "🤖 + Master", "🤖 + Club", "🤖 + Novice",
    ]  # fmt: skip

    # A second /general start is refused privately; the board is shown again at the bottom.
    again = await slash(fake, bob, dc.channel, "start")
    assert again.ephemeral_texts() == ["A game is already open at this table."]
    lobby_again = live_board(fake, dc.channel)
    assert lobby_again is not lobby and lobby.buttons == []

    joined = await press(fake, bob, lobby_again, "j")
    assert joined.response is not None and joined.response.type == UPDATE_MESSAGE
    assert "Seated (2): Alice, Bob" in lobby_again.content
    by_command = await slash(fake, carol, dc.channel, "join")
    assert by_command.texts() == ["Carol sat down at the table."]
    assert "Seated (3): Alice, Bob, Carol" in lobby_again.content
    left = await slash(fake, carol, dc.channel, "leave")
    assert left.texts() == ["Carol left the table."]
    assert "Seated (2): Alice, Bob" in lobby_again.content

    refused = await press(fake, bob, lobby_again, "b")
    assert refused.ephemeral_texts() == ["Only the host (Alice) can do that."]
    assert "Seated (2)" in lobby_again.content and lobby_again.buttons
    not_host = await slash(fake, bob, dc.channel, "stop")
    assert not_host.ephemeral_texts() == ["Only the host (Alice) can do that."]

    stopped = await slash(fake, alice, dc.channel, "stop")
    assert stopped.texts() == ["The game was cancelled."]
    assert lobby_again.buttons == [] and "The lobby is closed." in lobby_again.content
    none = await slash(fake, alice, dc.channel, "sheet")
    assert none.ephemeral_texts() == ["There is no game at this table to show."]


async def test_an_outdated_command_is_answered(dc: RunningBot) -> None:
    """A subcommand Discord still offers but this bot no longer has (an old registration)."""
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    (general,) = fake.commands()
    general["options"].append({"name": "dance", "description": "Gone", "type": 1})
    url = f"{fake.api_base}/applications/{fake.application_id}/commands"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as http, http.post(url, json=general, headers=headers) as r:
        assert r.status == 200
    answer = await fake.slash(alice, dc.channel, "general", "dance")
    await answer.wait_response()
    assert answer.ephemeral_texts() == [T("error-unexpected")]


def test_each_command_s_callback_takes_the_catalogue_s_options() -> None:
    """Each command is bound to its callback by name: its parameters are the command's options,
    required as the catalogue says."""
    asked: list[Asked] = []

    async def on_command(interaction: discord.Interaction[Any], question: Asked) -> None:
        asked.append(question)

    made = {made.name: made for made in command_group(T, on_command).commands}
    assert list(made) == list(NAMES)
    for command in COMMANDS:
        subcommand = made[command.name]
        assert isinstance(subcommand, app_commands.Command)
        parameters = [(p.name, p.required) for p in subcommand.parameters]
        assert parameters == [(o.name, o.required) for o in command.options]
