"""/general forget through python-telegram-bot and the fake Bot API: the confirmation in the
asker's language, a press by anyone else refused in its callback answer, "Forget me" seats
them out (the lobby redrawn without their name) and answers in their language."""

from __future__ import annotations

import sqlite3

from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram
from tests.telegram.kit import RunningBot, live_board, open_table, press


def confirmation(fake: FakeTelegram, chat: FakeChat) -> FakeMessage:
    return next(m for m in reversed(fake.bot_messages(chat)) if "fgt|" in str(m.raw_reply_markup))


async def test_forget_me_in_a_group_in_russian(tg: RunningBot) -> None:
    fake = tg.fake
    host, guest = fake.user(1001, "Ann"), fake.user(1002, "Борис", language_code="ru")
    group = fake.chat(-102000, title="Forget")
    await open_table(tg, group, host, guest)
    lobby = live_board(fake, group)
    await fake.send_message(guest, group, "/general forget")
    await fake.settle()
    asked = confirmation(fake, group)
    assert "Забыть вас?" in asked.plain_text
    assert [b.text for b in asked.buttons] == ["Забыть меня", "Не надо"]
    assert await press(fake, host, asked, "Забыть меня") == (
        "Only the person who asked to be forgotten may press this."
    )
    assert "Борис" in fake.message(group, lobby.message_id).plain_text
    done = await press(fake, guest, asked, "Забыть меня")
    assert done.startswith("Готово: бот вас забыл.")
    answered = fake.message(group, asked.message_id)
    assert answered.plain_text.startswith("Готово") and not answered.buttons
    assert "Борис" not in fake.message(group, lobby.message_id).plain_text
    assert any("anon-" in m.plain_text for m in fake.bot_messages(group))
    with sqlite3.connect(tg.database) as db:
        (named,) = db.execute("SELECT COUNT(*) FROM events WHERE data LIKE '%Борис%'").fetchone()
    assert named == 0


async def test_keep_me_in_english(tg: RunningBot) -> None:
    fake = tg.fake
    user = fake.user(1003, "Cid", language_code="en")
    chat = fake.private_chat(user)
    await fake.send_message(user, chat, "/general forget")
    await fake.settle()
    asked = confirmation(fake, chat)
    assert "Should the bot forget you?" in asked.plain_text
    await press(fake, user, asked, "Keep me")
    assert fake.message(chat, asked.message_id).plain_text == "Nothing was forgotten."
