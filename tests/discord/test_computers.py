"""Computer opponents, hints and the review, played through Discord."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from core.dice import SeededRoller
from tests.discord.kit import (
    RunningBot,
    bot_messages,
    button,
    has_button,
    live_board,
    press,
    running_bot,
    slash,
)
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMember, FakeMessage


def her_board_or_the_end(
    fake: FakeDiscord, channel: FakeChannel, member: FakeMember
) -> FakeMessage | None:
    """The live board once it is `member`'s turn, or the last message once the game is over."""
    messages = bot_messages(fake, channel)
    boards = [m for m in messages if m.buttons]
    if boards and f"<@{member.id}>'s turn" in boards[-1].content and has_button(boards[-1], "r"):
        return boards[-1]
    if messages and "The game is over." in "".join(m.content for m in messages[-2:]):
        return messages[-1]
    return None


async def test_a_person_against_two_computers_with_hints_and_review(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake.guild("Versus")
    channel = fake.text_channel(guild, "versus")
    ann, bob = fake.member(guild, "Ann"), fake.member(guild, "Bob")
    database = tmp_path / "general.db"
    async with running_bot(fake, database, monkeypatch, roller=SeededRoller(2024)):
        lobby = (await slash(fake, ann, channel, "start")).original
        assert lobby is not None
        refused = await press(fake, bob, lobby, "am")
        assert refused.ephemeral_texts() == ["You are not playing at this table."]
        await press(fake, ann, lobby, "am")
        await press(fake, ann, lobby, "an")
        assert "Seated (3): Ann, 🤖 Master, 🤖 Novice" in lobby.content
        await press(fake, ann, lobby, "b")
        hinted = False
        for _ in range(20):
            board = await fake.wait_for(lambda: her_board_or_the_end(fake, channel, ann), 20)
            if not has_button(board, "r"):  # the final message: its one button is Rematch
                break
            await press(fake, ann, board, "r")
            if not hinted:
                hint = await press(fake, ann, board, "t")
                (text,) = hint.ephemeral_texts()
                assert text.startswith("Best play now") and "→" in text
                assert len(text.splitlines()) >= 3  # the best few choices, best first
                hinted = True
            box = next(b for b in board.buttons if " · " in (b.label or ""))
            await press(fake, ann, board, custom_id=box.custom_id)
        else:
            raise AssertionError("the game did not end")
        await fake.settle()
        messages = bot_messages(fake, channel)
        final = "\n".join(m.content for m in messages[-3:])
        assert "The game is over." in final and "**Score sheet**" in final
        assert "🤖 Master" in final and "How everyone played" in final and "Ann:" in final
        assert hinted and [b.label for m in messages for b in m.buttons] == ["🔁 Rematch"]
        # The computers' boards never had a button to play with: the score sheet only.
        versions = [v for m in messages for v in [*m.edits, m]]
        theirs = [v for v in versions if "**🤖" in v.content and "'s turn" in v.content]
        assert len(theirs) > 20
        assert all(b.custom_id.endswith("|v") for v in theirs for b in v.buttons)
        with sqlite3.connect(database) as db:
            scored = db.execute(
                "SELECT json_extract(data, '$.player_id'), COUNT(*) FROM events"
                " WHERE kind = 'box_scored' GROUP BY 1"
            ).fetchall()
            ((phase, reason),) = db.execute("SELECT phase, end_reason FROM games").fetchall()
        assert (phase, reason) == ("finished", "completed")
        assert sorted(n for _, n in scored) == [10, 10, 10]
        review = await slash(fake, bob, channel, "review")
        (text,) = review.texts()
        assert text.startswith("How everyone played") and not review.original.ephemeral  # type: ignore[union-attr]


async def test_a_computer_turn_cut_short_by_a_restart_is_played_after_it(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake.guild("Restart")
    channel = fake.text_channel(guild, "restart")
    ann = fake.member(guild, "Ann")
    database = tmp_path / "general.db"
    slow = {"roller": SeededRoller(7), "general_computer_pause": 30.0}
    async with running_bot(fake, database, monkeypatch, **slow):  # type: ignore[arg-type]
        lobby = (await slash(fake, ann, channel, "start")).original
        assert lobby is not None
        await press(fake, ann, lobby, "ac")
        await press(fake, ann, lobby, "b")
        board = live_board(fake, channel)
        if f"<@{ann.id}>" in board.content:  # Ann starts: her turn first, then the computer's
            await press(fake, ann, board, "r")
            box = next(b for b in board.buttons if " · " in (b.label or ""))
            await press(fake, ann, board, custom_id=box.custom_id)
        computer = live_board(fake, channel)
        assert "**🤖 Club**'s turn" in computer.content  # to play, slowly
        assert [b.label for b in computer.buttons] == ["📋 Sheet"]
        assert computer.payload["mentions"] == []  # a computer is nobody to notify
    # Stopped during the computer's pause; the new process plays its turn at once.
    async with running_bot(fake, database, monkeypatch, roller=SeededRoller(8)):
        board = await fake.wait_for(lambda: her_board_or_the_end(fake, channel, ann))
        assert button(board, "r").label == "🎲 Roll the dice"
        await fake.wait_for(lambda: computer.buttons == [])  # its edit may follow her board
        assert "🤖 Club" in computer.content
    with sqlite3.connect(database) as db:
        by_computer = db.execute(
            "SELECT COUNT(*) FROM events WHERE kind = 'box_scored'"
            " AND json_extract(data, '$.player_id') LIKE 'cpu-%'"
        ).fetchone()[0]
    assert by_computer == 1


async def test_hint_refusals(dc: RunningBot) -> None:
    fake = dc.fake
    ann, bob = fake.member(dc.guild, "Ann"), fake.member(dc.guild, "Bob")
    none = await slash(fake, ann, dc.channel, "hint")
    assert none.ephemeral_texts() == [
        "There is no game at this table. Start one with /general start."
    ]
    lobby = (await slash(fake, ann, dc.channel, "start")).original
    assert lobby is not None
    await press(fake, bob, lobby, "j")
    dc.roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])  # Ann starts
    await press(fake, ann, lobby, "b")
    board = live_board(fake, dc.channel)
    assert not has_button(board, "t")  # nothing to advise before a throw
    early = await slash(fake, ann, dc.channel, "hint")
    assert early.ephemeral_texts() == ["Throw the dice first."]
    dc.roller.push([2, 2, 4, 6, 1])
    await press(fake, ann, board, "r")
    edits = len(board.edits)
    other = await press(fake, bob, board, "t")
    assert other.ephemeral_texts() == ["It's Ann's turn."]
    mine = await slash(fake, ann, dc.channel, "hint")
    (text,) = mine.ephemeral_texts()
    assert text.startswith("Best play now") and len(text.splitlines()) == 5
    assert len(board.edits) == edits and bot_messages(fake, dc.channel)[-1] is board
