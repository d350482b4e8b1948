"""Chat settings: administrators only, the language, rule variants for new games only."""

from __future__ import annotations

import json
import sqlite3

from tests.telegram.kit import RunningBot, live_board, press, settings_screen


async def test_only_admins_change_settings_and_the_language_follows(tg: RunningBot) -> None:
    fake = tg.fake
    boss, guest = fake.user(1001, "Boss", language_code="en"), fake.user(1002, "Guest")
    group = fake.chat(-101000, title="Settings")
    fake.set_member(group, boss, "creator")
    fake.set_member(group, guest, "member")
    await fake.send_message(guest, group, "/general settings")
    await fake.settle()
    assert "Only the chat's administrators" in fake.bot_messages(group)[-1].plain_text
    await fake.send_message(boss, group, "/general settings")
    await fake.settle()
    screen = settings_screen(fake, group)
    labels = [b.text for b in screen.buttons]
    assert "Language: the host's, table by table" in labels and "Turn timer: 10 minutes" in labels
    assert await press(fake, guest, screen, "Hints: on") == (
        "Only the chat's administrators can change the settings."
    )
    await press(fake, boss, screen, "Language: the host's, table by table")  # → English
    await press(fake, boss, fake.message(group, screen.message_id), "Language: English")  # → ru
    screen = fake.message(group, screen.message_id)
    assert "Язык: Русский" in [b.text for b in screen.buttons]
    await press(fake, boss, screen, "Готово")
    assert "Настройки сохранены." in fake.message(group, screen.message_id).plain_text
    await fake.send_message(guest, group, "/general start")
    await fake.settle()
    assert "Открыт стол для игры в «Генерал»" in live_board(fake, group).plain_text


async def test_variants_apply_to_new_games_only(tg: RunningBot) -> None:
    fake = tg.fake
    boss = fake.user(1001, "Boss")
    chat = fake.private_chat(boss)  # in a private chat the person is the administrator
    await fake.send_message(boss, chat, "/general start")  # a game under the default rules
    await fake.settle()
    lobby = live_board(fake, chat)
    await fake.send_message(boss, chat, "/general settings")
    await fake.settle()
    screen = settings_screen(fake, chat)
    await press(fake, boss, screen, "Big general: ends the game")
    screen = fake.message(chat, screen.message_id)
    assert "Big general: scores 60" in [b.text for b in screen.buttons]
    await press(fake, boss, screen, "Hints: on")
    await press(fake, boss, fake.message(chat, screen.message_id), "Done")
    # The open table keeps the rules it started with: a big general still ends it.
    await press(fake, boss, lobby, "Start")
    tg.roller.push([3, 3, 3, 3, 3])
    await press(fake, boss, live_board(fake, chat), "Roll")
    assert (
        "BIG GENERAL"
        in fake.bot_messages(chat)[-2].plain_text + fake.bot_messages(chat)[-1].plain_text
    )
    # A new game takes the new rules: five threes on the first throw go on, worth 60 as General.
    await fake.send_message(boss, chat, "/general start")
    await fake.settle()
    await press(fake, boss, live_board(fake, chat), "Start")
    board = live_board(fake, chat)
    tg.roller.push([3, 3, 3, 3, 3])
    await press(fake, boss, board, "Roll")
    board = fake.message(chat, board.message_id)
    labels = [b.text for b in board.buttons]
    assert "General · 60" in labels and "Four of a kind · 45" in labels
    assert not any("Hint" in label for label in labels)  # hints were turned off
    with sqlite3.connect(tg.database) as db:
        stored = [json.loads(s)["variants"] for (s,) in db.execute("SELECT snapshot FROM games")]
    assert sorted(v["big_general"] for v in stored) == ["ends_game", "scores_sixty"]


async def test_picture_sheets_by_setting_and_for_big_tables(tg: RunningBot) -> None:
    fake = tg.fake
    boss = fake.user(1001, "Boss")
    group = fake.chat(-101001, title="Pictures")
    fake.set_member(group, boss, "creator")
    guests = [fake.user(2000 + n, f"Гость {n}") for n in range(9)]
    await fake.send_message(boss, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    for guest in guests[:2]:
        await press(fake, guest, lobby, "Join")
    await fake.send_message(boss, group, "/general sheet")
    await fake.settle()
    assert fake.bot_messages(group)[-1].photo is None  # three players: text
    await fake.send_message(boss, group, "/general settings")
    await fake.settle()
    screen = settings_screen(fake, group)
    await press(fake, boss, screen, "Score sheets: text")
    await fake.send_message(boss, group, "/general sheet")
    # Drawing takes a moment in which nothing crosses the wire: wait for the photo itself.
    await fake.wait_for(lambda: fake.bot_messages(group)[-1].photo is not None)
    photo = fake.bot_messages(group)[-1]
    assert photo.photo is not None and photo.photo.startswith(b"\x89PNG")
    assert "Score sheet" in photo.plain_caption
    await fake.send_message(boss, group, "/general sheet text")
    await fake.settle()
    assert fake.bot_messages(group)[-1].photo is None
    await press(fake, boss, fake.message(group, screen.message_id), "Score sheets: picture")
    for guest in guests[2:]:
        await press(fake, guest, lobby, "Join")  # ten at the table: too wide for text
    await fake.send_message(boss, group, "/general sheet")
    await fake.wait_for(lambda: fake.bot_messages(group)[-1].photo is not None)
