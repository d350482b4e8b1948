"""A table of fifty (the largest the settings allow) with long and hostile names plays on
Discord: the lobby, the lot, a whole round and the end fit Discord's limits, names show
shortened and neutralised, and no placeholder of a failed translation reaches anyone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adapters.discord.render import esc
from adapters.i18n.names import shown_name
from tests.discord.kit import first_box, live_board, press, running_bot, slash
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMember, FakeMessage
from tests.kit import Rigged

SEATS = 50
NAMES = (
    "Wilhelmina-Augusta von Straubenhausen-Liechtenstein zu Hohenzollern-Sigmaringen",
    "\u202eevil override\u202c " + "R" * 60,
    "Zero\u200bWidth\u200d\ufeff" + "Z" * 60,
    "**bold** `code` @everyone " + "_" * 60,
    "Alef \u05d0\u05d1\u05d2 \u2067isolate" + "A" * 60,
    *(f"Player number {n} " + "x" * 60 for n in range(5, 10)),
)
COMPUTERS = ("am", "ac", "an")
INVISIBLE = re.compile("[\u200c-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def check_limits(fake: FakeDiscord, channel: FakeChannel) -> None:
    """What the channel shows fits Discord's limits (the fake refuses what does not; this says
    which message broke what) and holds no failed placeable nor hidden character."""
    for message in fake.channel_messages(channel, include_ephemeral=True):
        text = message.content or ""
        assert len(text) <= 2000, text[:200]
        assert "{???}" not in text and not INVISIBLE.search(text), repr(text[:200])
        assert len(message.components) <= 5 and all(len(row) <= 5 for row in message.components)
    refused = [r for r in fake.requests if r.status is not None and r.status >= 400]
    assert refused == [], [(r.method, r.path, r.status) for r in refused]


def turn_of(board: FakeMessage | None, people: dict[str, FakeMember]) -> FakeMember | None:
    """The person whose new board this is (it mentions them), if a person's."""
    found = re.search(r"<@(\d+)>", board.content or "") if board else None
    return people.get(found.group(1)) if found else None


def newest_board(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage | None:
    boards = [m for m in fake.channel_messages(channel) if m.buttons]
    return boards[-1] if boards else None


def round_two(board: FakeMessage | None) -> bool:
    return board is not None and "round 2/" in (board.content or "")


@pytest.mark.slow
async def test_fifty_seats_of_long_names_play_a_round_and_end(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roller = Rigged()
    guild = fake.guild("Big server")
    channel = fake.text_channel(guild, "big-table")
    people = [fake.member(guild, name, manage_guild=n == 0) for n, name in enumerate(NAMES)]
    host = people[0]
    async with running_bot(fake, tmp_path / "general.db", monkeypatch, roller=roller):
        screen = await settings_screen_in(fake, host, channel)
        for _ in range(2):  # 10 → 20 → 50 seats
            await press(fake, host, screen, "table_cap")
        lobby = (await slash(fake, host, channel, "start")).original
        assert lobby is not None
        for person in people[1:]:
            await press(fake, person, lobby, "j")
        for n in range(SEATS - len(people)):
            await press(fake, host, lobby, COMPUTERS[n % len(COMPUTERS)])
        assert f"Seated ({SEATS}):" in lobby.content
        assert NAMES[0] not in lobby.content  # shown shortened, kept whole in the game
        await press(fake, host, lobby, "b")
        humans = {p.id: p for p in people}
        played: set[str] = set()
        while True:
            await fake.wait_for(
                lambda: (
                    turn_of(newest_board(fake, channel), humans)
                    or round_two(newest_board(fake, channel))
                ),
                timeout=20,
            )
            board = live_board(fake, channel)
            if round_two(board):
                break
            person = turn_of(board, humans)
            assert person is not None and "🏅 " in board.content  # the standings, within limits
            await press(fake, person, board, "r")
            board = live_board(fake, channel)
            box = first_box(board)
            taken = await press(fake, person, board, custom_id=box)
            said = [m.content for m in taken.followups]
            assert live_board(fake, channel) is not board, ("box not taken", taken.response, said)
            played.add(person.id)
        assert played == set(humans), "every person played their turn of the first round"
        check_limits(fake, channel)
        await fake.wait_for(lambda: turn_of(newest_board(fake, channel), humans), timeout=20)
        board = live_board(fake, channel)
        person = turn_of(board, humans)
        assert person is not None
        roller.pushed.append((6, 6, 6, 6, 6))  # a big general ends the game
        await press(fake, person, board, "r")
        await fake.wait_for(
            lambda: any("How everyone played" in m.content for m in fake.channel_messages(channel))
        )
        await fake.settle()
        ending = "\n".join(m.content for m in fake.channel_messages(channel))
        assert "BIG GENERAL" in ending
        review = ending[ending.index("How everyone played") :]
        assert all(f"{esc(shown_name(name))}:" in review for name in NAMES)  # everyone reviewed
        rated = ending[ending.index("📈 Ratings here:") : ending.index("How everyone played")]
        assert all(f"{esc(shown_name(name))} " in rated for name in NAMES)  # and rated
        check_limits(fake, channel)


async def settings_screen_in(
    fake: FakeDiscord, member: FakeMember, channel: FakeChannel
) -> FakeMessage:
    """`/general settings` in `channel`: the screen only the asker sees."""
    opened = await slash(fake, member, channel, "settings")
    screen = opened.original
    assert screen is not None and screen.ephemeral and screen.buttons
    return screen
