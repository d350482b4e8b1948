"""Under Discord's real limits (the fake's strict per-route buckets): a table pressed as fast as
people press is answered at once and meets no 429 (discord.py waits out its buckets; a pressed
board is redrawn as the press's own response)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.dice import SeededRoller
from tests.discord.kit import TOKEN, first_box, live_board, press, running_bot, slash
from tests.fakes.discord import FakeDiscord
from tests.fakes.discord.limits import Limits


@pytest.fixture
async def strict() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN, limits=Limits.STRICT) as server:
        yield server
        server.assert_clean()


@pytest.mark.slow
async def test_a_game_pressed_fast_under_strict_limits_meets_no_429(
    strict: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = strict
    guild = fake.guild("Strict")
    channel = fake.text_channel(guild, "strict")
    ann, bob = fake.member(guild, "Ann"), fake.member(guild, "Bob")
    slowest = 0.0
    async with running_bot(fake, tmp_path / "general.db", monkeypatch, roller=SeededRoller(3)):
        lobby = (await slash(fake, ann, channel, "start")).original
        assert lobby is not None
        await press(fake, bob, lobby, "j")
        await press(fake, ann, lobby, "b")
        for _ in range(6):  # three turns each: a throw, three holds, a box, as fast as can be
            board = live_board(fake, channel)
            player = ann if f"<@{ann.id}>" in board.content else bob
            for code in ("r", "h0", "h1", "h2"):
                began = time.time()
                answered = await press(fake, player, board, code)
                assert answered.response is not None
                slowest = max(slowest, answered.response.at - began)
            box = first_box(board)
            taken = await press(fake, player, board, custom_id=box)
            said = [m.content for m in taken.followups]
            assert live_board(fake, channel) is not board, ("box not taken", taken.response, said)
    assert fake.rate_limited == []
    assert slowest < 1.0
