"""A round robin of four on the fake Discord, through the real bot: a manager opens it, a
member enters, two computers are entered, every round's tables play in threads of the
channel, and the channel hears each round and the final table."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.dice import SecureRoller
from core.tournament import EventPhase
from core.tournament_snapshot import event_from_record
from tests.discord.kit import (
    RunningBot,
    bot_messages,
    first_box,
    has_button,
    press,
    running_bot,
    slash,
)
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMember, FakeMessage

FINAL = "🏆 The tournament is over: the final table"


@pytest.fixture
async def dc_fair(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[RunningBot]:
    """The bot with the production dice (committed seeds): a tournament's computers play
    whole games no script could foresee."""
    guild = fake.guild("Dice club")
    channel = fake.text_channel(guild, "general")
    database = tmp_path / "general.db"
    async with running_bot(fake, database, monkeypatch, roller=SecureRoller()) as (front, _):
        yield RunningBot(fake, None, database, front, guild, channel)  # type: ignore[arg-type]


def said(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    return [m.content or "" for m in bot_messages(fake, channel)]


def turn_of(fake: FakeDiscord, channel: FakeChannel, member: FakeMember) -> FakeMessage | None:
    """The member's live board in any thread of the channel."""
    for thread in fake.threads_of(channel):
        boards = [m for m in bot_messages(fake, thread) if m.buttons]
        if boards and f"<@{member.id}>'s turn" in (boards[-1].content or ""):
            board = boards[-1]
            if has_button(board, "r") or any("|s" in (b.custom_id or "") for b in board.buttons):
                return board
    return None


async def play_until(dc: RunningBot, people: list[FakeMember], done: str) -> None:
    fake = dc.fake
    async with asyncio.timeout(90):
        while not any(done in line for line in said(fake, dc.channel)):
            moved = False
            for member in people:
                board = turn_of(fake, dc.channel, member)
                if board is None:
                    continue
                moved = True
                if has_button(board, "r") and "throw 0/3" in (board.content or ""):
                    await press(fake, member, board, "r")
                    board = next(m for m in bot_messages(fake, board.channel) if m.id == board.id)
                await press(fake, member, board, custom_id=first_box(board))
            if not moved:
                await asyncio.sleep(0.05)


async def test_a_round_robin_of_four_plays_in_threads_to_its_final_table(
    dc_fair: RunningBot,
) -> None:
    dc, fake = dc_fair, dc_fair.fake
    alice = fake.member(dc.guild, "Alice", manage_guild=True)
    bob = fake.member(dc.guild, "Bob")
    refused = await slash(fake, bob, dc.channel, "tournament")
    assert refused.ephemeral_texts() == [
        "Only those who manage the chat can open a tournament (the Manage Server permission)."
    ]
    opened = await slash(fake, alice, dc.channel, "tournament")
    card = opened.original
    assert card is not None and "🏆 Tournament" in (card.content or "")
    event_id = _event_id(card)
    await press(fake, bob, card, "j")
    assert (await press(fake, bob, card, "j")).ephemeral_texts() == ["You are in already."]
    await press(fake, alice, card, "am")
    await press(fake, alice, card, "am")
    await press(fake, alice, card, "cformat")
    for _ in range(3):  # tables of 4 → 5 → 6 → 2
        await press(fake, alice, card, "csize")
    shown = next(m for m in bot_messages(fake, dc.channel) if m.id == card.id)
    assert "Round robin · everyone meets everyone (3 rounds) · tables of 2" in (shown.content or "")
    assert "Entered (4)" in (shown.content or "")
    await press(fake, alice, shown, "b")
    await play_until(dc, [alice, bob], FINAL)

    lines = said(fake, dc.channel)
    for n in (1, 2, 3):
        assert any(f"🏆 Round {n} of 3 begins: 2 tables." in line for line in lines), n
        assert any(f"🏁 Round {n} is over." in line for line in lines), n
    assert sum(FINAL in line for line in lines) == 1
    threads = fake.threads_of(dc.channel)
    assert [t.name for t in threads[:2]] == ["Round 1 · Table 1", "Round 1 · Table 2"]
    assert len(threads) == 6
    record = (await dc.front.tables.service.tournaments.open_tournaments("dc")) or []
    assert record == []  # over, and its end said
    stored = await dc.front.tables.service.tournaments.tournament(event_id)
    assert stored is not None
    event = event_from_record(stored)
    assert event.phase is EventPhase.FINISHED
    pairs = {frozenset(t.players) for r in event.rounds for t in r.tables}
    ids = [p.id for p in event.entrants]
    assert pairs == {frozenset(pair) for pair in itertools.combinations(ids, 2)}


def _event_id(card: FakeMessage) -> str:
    data = next(b.custom_id for b in card.buttons if (b.custom_id or "").startswith("ev1|"))
    assert data is not None
    return data.split("|")[1]
