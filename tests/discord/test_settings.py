"""Server settings: those who may manage the server only, the language, rule variants for new
games only, picture score sheets."""

from __future__ import annotations

import json
import sqlite3

from tests.discord.kit import (
    RunningBot,
    bot_messages,
    button,
    has_button,
    labels,
    live_board,
    picture,
    press,
    settings_screen,
    slash,
)
from tests.fakes.discord import UPDATE_MESSAGE


async def test_only_managers_change_settings_and_the_language_follows(dc: RunningBot) -> None:
    fake = dc.fake
    boss = fake.member(dc.guild, "Boss", manage_guild=True)
    guest = fake.member(dc.guild, "Guest")
    moderator = fake.member(dc.guild, "Moderator", manage_channels=True)  # one channel's, not all
    for member in (guest, moderator):
        refused = await slash(fake, member, dc.channel, "settings")
        assert refused.ephemeral_texts() == [
            "Only members with the Manage Server permission can change the settings."
        ]
    screen = await settings_screen(dc, boss)
    assert screen.content.startswith("**⚙️ Settings of this server")
    assert "Language: the host's, table by table" in labels(screen)
    assert "Turn timer: 10 minutes" in labels(screen) and labels(screen)[-1] == "✅ Done"
    assert len(screen.components) <= 5 and all(len(row) <= 5 for row in screen.components)
    # The screen is the boss's alone; a settings custom_id forged onto a public message is
    # refused, whoever sends it, and changes nothing.
    lobby = (await slash(fake, guest, dc.channel, "start")).original
    assert lobby is not None
    for member in (guest, boss):
        forged = await press(fake, member, lobby, custom_id="cfg|hints")
        assert forged.ephemeral_texts() == ["That button is not valid."]
    assert lobby.buttons and "Hints: on" in labels(screen)
    pressed = await press(fake, boss, screen, "language")  # → English
    assert pressed.response is not None and pressed.response.type == UPDATE_MESSAGE
    assert "Language: English" in labels(screen)
    await press(fake, boss, screen, "language")  # → Russian
    assert "Язык: Русский" in labels(screen) and screen.content.startswith("**⚙️ Настройки")
    await press(fake, boss, screen, "done")
    assert screen.content == "Настройки сохранены." and screen.buttons == []
    # The next table in any channel of the server speaks Russian, whoever opens it.
    await slash(fake, guest, dc.channel, "stop")
    russian = (await slash(fake, guest, dc.channel, "start")).original
    assert russian is not None and russian.content.startswith("**🎲 Открыт стол")
    other = fake.text_channel(dc.guild, "other")
    there = (await slash(fake, guest, other, "start")).original
    assert there is not None and "Открыт стол" in there.content
    assert "Сесть" in " ".join(labels(there))


async def test_the_language_is_the_persons_where_the_server_chose_none(dc: RunningBot) -> None:
    fake = dc.fake
    ivan = fake.member(dc.guild, "Иван", locale="ru")
    ann = fake.member(dc.guild, "Ann", locale="en-GB")
    lobby = (await slash(fake, ivan, dc.channel, "start")).original
    assert lobby is not None and lobby.content.startswith("**🎲 Открыт стол")
    refused = await slash(fake, ann, dc.channel, "start")
    assert refused.ephemeral_texts() == ["A game is already open at this table."]


async def test_variants_apply_to_new_games_only(dc: RunningBot) -> None:
    fake = dc.fake
    boss = fake.member(dc.guild, "Boss", manage_guild=True)
    lobby = (await slash(fake, boss, dc.channel, "start")).original  # the default rules
    assert lobby is not None
    screen = await settings_screen(dc, boss)
    await press(fake, boss, screen, "big_general")
    assert "Big general: scores 60" in labels(screen)
    await press(fake, boss, screen, "hints")
    assert "Hints: off" in labels(screen)
    await press(fake, boss, screen, "done")
    # The open table keeps the rules it started with: a big general still ends it.
    await press(fake, boss, lobby, "b")
    dc.roller.push([3, 3, 3, 3, 3])
    board = live_board(fake, dc.channel)
    assert has_button(board, "r")
    await press(fake, boss, board, "r")
    assert (
        "BIG GENERAL" in board.content
        and "big general" in bot_messages(fake, dc.channel)[-1].content
    )
    # A new game takes the new rules: five threes on the first throw go on, worth 60 as General.
    lobby = (await slash(fake, boss, dc.channel, "start")).original
    assert lobby is not None
    await press(fake, boss, lobby, "b")
    board = live_board(fake, dc.channel)
    dc.roller.push([3, 3, 3, 3, 3])
    await press(fake, boss, board, "r")
    assert "General · 60" in labels(board) and "Four of a kind · 45" in labels(board)
    assert not has_button(board, "t")  # hints were turned off
    hint = await slash(fake, boss, dc.channel, "hint")
    assert hint.ephemeral_texts() == ["Hints are off at this table."]
    with sqlite3.connect(dc.database) as db:
        stored = [json.loads(s)["variants"] for (s,) in db.execute("SELECT snapshot FROM games")]
    assert sorted(v["big_general"] for v in stored) == ["ends_game", "scores_sixty"]


async def test_picture_sheets_where_the_server_chose_them(dc: RunningBot) -> None:
    fake = dc.fake
    boss = fake.member(dc.guild, "Boss", manage_guild=True)
    guest = fake.member(dc.guild, "Гость")
    lobby = (await slash(fake, boss, dc.channel, "start")).original
    assert lobby is not None
    await press(fake, guest, lobby, "j")
    shown = await slash(fake, boss, dc.channel, "sheet")
    assert shown.original is not None and picture(shown.original) is None  # text by default
    screen = await settings_screen(dc, boss)
    await press(fake, boss, screen, "sheet")
    assert "Score sheets: picture" in labels(screen)
    shown = await slash(fake, boss, dc.channel, "sheet")
    assert shown.original is not None and not shown.original.ephemeral
    png = picture(shown.original)
    assert png is not None and len(png) > 1000
    assert shown.original.content == "**Score sheet**"
    assert shown.original.attachments[0].filename.endswith(".png")
    texted = await slash(fake, boss, dc.channel, "sheet", text=True)
    assert texted.original is not None and picture(texted.original) is None
    assert "```" in texted.original.content
    dc.roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])  # Boss starts
    await press(fake, boss, lobby, "b")
    board = live_board(fake, dc.channel)
    looked = await press(fake, guest, board, "v")  # the sheet button: the presser's eyes only
    (private,) = looked.messages
    assert private.ephemeral and picture(private) is not None
    # The final message carries the picture too.
    dc.roller.push([1, 2, 3, 4, 6])
    await press(fake, boss, board, "r")
    await press(fake, boss, board, "s0")
    await slash(fake, boss, dc.channel, "stop")
    final = bot_messages(fake, dc.channel)[-1]
    assert final.content.startswith("The game was cancelled.") and picture(final) is not None
    assert button(screen, "done").label == "✅ Done"
