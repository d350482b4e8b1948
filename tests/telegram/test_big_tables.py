"""A table of fifty (the largest the settings allow) with long and hostile names plays on
Telegram: the lobby, the lot, a whole round and the end all fit the Bot API's limits, names show
shortened and neutralised, and no placeholder of a failed translation reaches anyone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adapters.i18n.names import shown_name
from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.kit import Rigged
from tests.telegram.kit import bot_settings, live_board, press, running, settings_screen

SEATS = 50
# Telegram allows 64 characters a name; the bot must not rely on it.
NAMES = (
    "Wilhelmina-Augusta von Straubenhausen-Liechtenstein zu Hohenzollern-Sigmaringen",
    "\u202eevil override\u202c " + "R" * 60,
    "Zero\u200bWidth\u200d\ufeff" + "Z" * 60,
    "<b>&amp;</b> " + "&" * 60,
    "Alef \u05d0\u05d1\u05d2 \u2067isolate" + "A" * 60,
    *(f"Player number {n} " + "x" * 60 for n in range(5, 10)),
)
COMPUTERS = ("+ Master", "+ Club", "+ Novice")
INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
ROUND_TWO = re.compile(r"round 2/")


def check_limits(fake: FakeTelegram, chat: FakeChat) -> None:
    """What the chat shows fits Telegram's limits and holds no failed placeable nor hidden
    character (the fake refuses a text too long; this says which message broke what)."""
    for message in fake.bot_messages(chat):
        for text in [message.plain_text or "", *(old.plain_text or "" for old in message.history)]:
            assert len(text) <= 4096, text[:200]
            assert "{???}" not in text and not INVISIBLE.search(text), repr(text[:200])
        caption = message.plain_caption or ""
        assert len(caption) <= 1024 and "{???}" not in caption, caption[:200]
        rows = message.reply_markup  # Telegram takes at most 100 buttons, 8 to a row
        assert sum(map(len, rows)) <= 100 and all(len(row) <= 8 for row in rows)
    sent = len(fake.calls("sendMessage")) + len(fake.calls("sendPhoto"))
    assert sent == len(fake.bot_messages(chat)), "a message the bot sent was refused"


async def cap_at_fifty(fake: FakeTelegram, boss: FakeUser, chat: FakeChat) -> None:
    await fake.send_message(boss, chat, "/general settings")
    await fake.settle()
    screen = settings_screen(fake, chat)
    for cap in (10, 20):
        await press(fake, boss, fake.message(chat, screen.message_id), f"Seats at a table: {cap}")
    screen = fake.message(chat, screen.message_id)
    assert "Seats at a table: 50" in [b.text for b in screen.buttons]
    await press(fake, boss, screen, "Done")


def newest_board(fake: FakeTelegram, chat: FakeChat) -> FakeMessage | None:
    """The newest message with buttons, if any (between two computers' turns there is none)."""
    boards = [m for m in fake.bot_messages(chat) if m.reply_markup and not m.deleted]
    return boards[-1] if boards else None


def turn_of(board: FakeMessage | None, humans: dict[int, FakeUser]) -> FakeUser | None:
    """The person whose new board this is (it mentions them), if a person's."""
    found = re.search(r"tg://user\?id=(\d+)", board.text or "") if board else None
    return humans.get(int(found.group(1))) if found else None


def round_two(board: FakeMessage | None) -> bool:
    return board is not None and ROUND_TWO.search(board.plain_text or "") is not None


@pytest.mark.slow
async def test_fifty_seats_of_long_names_play_a_round_and_end(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    roller = Rigged()
    async with running(bot_settings(fake, tmp_path / "general.db"), roller):
        await play(fake, roller)


async def play(fake: FakeTelegram, roller: Rigged) -> None:
    group = fake.chat(-100950, title="Big table")
    people = [fake.user(5000 + n, name) for n, name in enumerate(NAMES)]
    host = people[0]
    for person in people:
        fake.set_member(group, person, "creator" if person is host else "member")
    await cap_at_fifty(fake, host, group)
    await fake.send_message(host, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    for person in people[1:]:
        await press(fake, person, fake.message(group, lobby.message_id), "Join")
    for n in range(SEATS - len(people)):
        level = COMPUTERS[n % len(COMPUTERS)]
        await press(fake, host, fake.message(group, lobby.message_id), level)
    seated = fake.message(group, lobby.message_id).plain_text
    assert f"Seated ({SEATS}):" in seated and shown_name(NAMES[0]) in seated
    assert NAMES[0] not in seated  # shown shortened, kept whole in the game
    await press(fake, host, fake.message(group, lobby.message_id), "Start", settle=60)
    humans = {p.id: p for p in people}
    played: set[int] = set()
    while not round_two(board := await next_board(fake, group, humans)):
        person = turn_of(board, humans)
        assert person is not None and "🏅 " in board.plain_text  # the standings, within limits
        await press(fake, person, board, "Roll")
        board = fake.message(group, board.message_id)
        box = next(b.text for b in board.buttons if "·" in b.text)
        await press(fake, person, board, box, settle=60)  # the computers after them, drawn
        played.add(person.id)
    assert played == set(humans), "every person played their turn of the first round"
    check_limits(fake, group)
    await fake.wait_for(lambda: turn_of(newest_board(fake, group), humans), timeout=20)
    board = live_board(fake, group)
    person = turn_of(board, humans)
    assert person is not None
    roller.pushed.append((6, 6, 6, 6, 6))  # a big general ends the game
    before = len(fake.bot_messages(group))
    await press(fake, person, board, "Roll")
    await fake.wait_for(  # the seed's reveal comes last, after the review
        lambda: "seed" in (fake.bot_messages(group)[-1].plain_text or "")
    )
    await fake.settle()
    ending = "\n".join(m.plain_text or "" for m in fake.bot_messages(group)[before - 1 :])
    assert "BIG GENERAL" in ending and "How everyone played" in ending
    assert all(f"{shown_name(name)}:" in ending for name in NAMES)  # the review names everyone
    rated = ending[ending.index("📈 Ratings here:") : ending.index("How everyone played")]
    assert all(f"{shown_name(name)} " in rated for name in NAMES)  # and so do the ratings
    check_limits(fake, group)


async def next_board(
    fake: FakeTelegram, chat: FakeChat, humans: dict[int, FakeUser]
) -> FakeMessage:
    """The next board to look at: a person's turn, or the second round begun."""
    await fake.wait_for(
        lambda: turn_of(newest_board(fake, chat), humans) or round_two(newest_board(fake, chat)),
        timeout=20,
    )
    return live_board(fake, chat)
