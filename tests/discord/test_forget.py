"""/general forget through discord.py and the fake Discord: the confirmation is ephemeral, in the
asker's language; its custom_id forged onto a public message is refused; "Forget me" seats them
out (the lobby redrawn without their name) and says so on the confirmation itself."""

from __future__ import annotations

import sqlite3

from tests.discord.kit import RunningBot, labels, open_table, press, slash


async def test_forget_me_in_russian_and_a_forged_press(dc: RunningBot) -> None:
    fake = dc.fake
    host = fake.member(dc.guild, "Ann", locale="en-GB")
    guest = fake.member(dc.guild, "Борис", locale="ru")
    lobby = await open_table(dc, dc.channel, host, guest)
    assert "Борис" in lobby.content
    asked = await slash(fake, guest, dc.channel, "forget")
    screen = asked.original
    assert screen is not None and screen.ephemeral
    assert screen.content.startswith("**Забыть вас?**")
    assert labels(screen) == ["Забыть меня", "Не надо"]
    for member in (host, guest):  # onto the lobby, which shows no such button
        forged = await press(fake, member, lobby, custom_id=f"fgt|{guest.id}|y")
        assert forged.ephemeral_texts() == [
            "That button is not valid." if member is host else "Эта кнопка не работает."
        ]
    assert "Борис" in lobby.content
    await press(fake, guest, screen, "y")
    assert screen.content.startswith("Готово: бот вас забыл.") and screen.buttons == []
    assert "Борис" not in lobby.content
    with sqlite3.connect(dc.database) as db:
        (named,) = db.execute("SELECT COUNT(*) FROM games WHERE snapshot LIKE '%Борис%'").fetchone()
    assert named == 0


async def test_keep_me(dc: RunningBot) -> None:
    fake = dc.fake
    ann = fake.member(dc.guild, "Ann")
    screen = (await slash(fake, ann, dc.channel, "forget")).original
    assert screen is not None and labels(screen) == ["Forget me", "Keep me"]
    await press(fake, ann, screen, "n")
    assert screen.content == "Nothing was forgotten." and screen.buttons == []
