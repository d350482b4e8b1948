"""Presses that must change nothing: the wrong player, stale boards, forged custom_ids, double
taps; and failures and slow steps that must still be answered in time."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest

from adapters.chat import payload
from adapters.discord import answer
from core.service import GameService
from tests.discord.kit import RunningBot, bot_messages, button, handled, live_board, press, slash
from tests.fakes.discord import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    FakeMember,
    FakeMessage,
)
from tests.kit import game_rows

LOT_ALICE_LOW = [1, 1, 1, 1, 2, 6, 6, 6, 6, 5]
THROWN = "The dice have been thrown since — here they are: {}."  # a press on the board before


async def two_player_board(dc: RunningBot) -> tuple[FakeMember, FakeMember, FakeMessage]:
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    bob = fake.member(dc.guild, "Bob")
    lobby = (await slash(fake, alice, dc.channel, "start")).original
    assert lobby is not None
    await press(fake, bob, lobby, "j")
    dc.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, lobby, "b")
    return alice, bob, live_board(fake, dc.channel)


def stored(dc: RunningBot) -> dict[str, Any]:
    ((_, _, snapshot),) = game_rows(dc.database)
    return json.loads(snapshot)  # type: ignore[no-any-return]


async def test_only_the_current_player_can_act(dc: RunningBot) -> None:
    fake = dc.fake
    alice, bob, board = await two_player_board(dc)
    stranger = fake.member(dc.guild, "Stranger")
    before = (stored(dc)["version"], board.content, len(board.edits))
    for member, code in ((bob, "r"), (stranger, "r"), (bob, "v")):
        answer = await press(fake, member, board, code)
        assert answer.response is not None and answer.response.type == CHANNEL_MESSAGE
        if code == "v":  # anyone may look at the sheet
            assert answer.ephemeral_texts()[0].startswith("**Score sheet**")
        else:  # a player or a stranger: either way it is Alice's turn
            assert answer.ephemeral_texts() == ["It's Alice's turn."]
    assert (stored(dc)["version"], board.content, len(board.edits)) == before
    dc.roller.push([1, 1, 2, 3, 4])
    await press(fake, alice, board, "r")
    for code in ("h0", "s1"):
        answer = await press(fake, bob, board, code)
        assert answer.ephemeral_texts() == ["It's Alice's turn."]
    assert stored(dc)["turn"]["throws"] == 1 and stored(dc)["turn"]["held"] == [False] * 5


async def test_a_stale_press_changes_nothing(dc: RunningBot) -> None:
    fake = dc.fake
    alice, _, board = await two_player_board(dc)
    dc.roller.push([1, 2, 2, 3, 4, 5, 5, 5, 5])
    await press(fake, alice, board, "r")
    old_hold = button(board, "h0").custom_id
    await press(fake, alice, board, "h1")
    await press(fake, alice, board, "r")  # a second throw: the dice she saw are gone
    version = stored(dc)["version"]
    edits = len(board.edits)
    # A client that still shows the board before that throw presses its first die. The message
    # shows the game as it is already: it is not edited again (see test_faults for a redraw).
    stale = await press(fake, alice, board, custom_id=old_hold)
    assert stale.response is not None and stale.response.type == CHANNEL_MESSAGE
    assert stale.ephemeral_texts() == [THROWN.format("5-2-5-5-5")]
    assert len(board.edits) == edits
    assert button(board, "h0").custom_id == payload.encode(stored(dc)["id"], version, "h0")
    assert stored(dc)["version"] == version and stored(dc)["turn"]["held"][0] is False


async def test_forged_custom_ids_are_refused_politely(dc: RunningBot) -> None:
    fake = dc.fake
    alice, bob, board = await two_player_board(dc)
    game = stored(dc)
    version, game_id = game["version"], game["id"]
    refusals = {
        "garbage": "That button is not valid.",
        "x" * 100: "That button is not valid.",
        payload.encode(game_id, version, "s9") + "x": "That button is not valid.",
        "g1|zzzzzzzz|1|r": "That game is over.",  # well formed, but no such game here
        payload.encode(game_id, version, "s3"): "Throw the dice first.",  # not on the board
        payload.encode(game_id, version + 5, "r"): "This board is out of date.",
    }
    for custom_id, text in refusals.items():
        answer = await press(fake, alice, board, custom_id=custom_id)
        assert answer.ephemeral_texts() == [text], custom_id
    answer = await press(fake, bob, board, custom_id=payload.encode(game_id, version, "r"))
    assert answer.ephemeral_texts() == ["It's Alice's turn."]
    # The lobby's host buttons made up on the turn's board, or for another game: not valid,
    # whoever presses them (not "only the host", not "the game is under way").
    for member in (alice, bob):
        for custom_id in (
            payload.encode(game_id, version, "b"),
            payload.encode(game_id, version, "ag"),
            payload.encode("zzzzzzzz", 1, "b"),
        ):
            answer = await press(fake, member, board, custom_id=custom_id)
            assert answer.ephemeral_texts() == ["That button is not valid."], custom_id
    assert stored(dc)["version"] == version and dc.roller.remaining == 0
    assert len(board.buttons) == 2  # the live board kept its buttons
    assert len([m for m in bot_messages(fake, dc.channel) if m.buttons]) == 1


async def test_a_double_tap_applies_once(dc: RunningBot) -> None:
    fake = dc.fake
    alice, bob, board = await two_player_board(dc)
    dc.roller.push([2, 3, 3, 5, 6, 6, 6, 6, 6, 6])
    roll = button(board, "r").custom_id
    taps = [await fake.press(alice, board, custom_id=roll) for _ in range(2)]
    await asyncio.gather(*(handled(tap) for tap in taps))
    assert stored(dc)["turn"]["throws"] == 1 and dc.roller.remaining == 5
    texts = sorted(tuple(tap.ephemeral_texts()) for tap in taps)
    assert texts == [(), (THROWN.format("2-3-3-5-6"),)]
    assert "throw 1/3" in board.content
    # Two taps on a box: one score; the finished board keeps what was written.
    box = button(board, "s1").custom_id
    taps = [await fake.press(alice, board, custom_id=box) for _ in range(2)]
    await asyncio.gather(*(handled(tap) for tap in taps))
    texts = sorted(tuple(tap.ephemeral_texts()) for tap in taps)
    assert texts == [(), ("That turn is over: it's Bob's turn now.",)]
    assert "Alice wrote 2 in Twos." in board.content and board.buttons == []
    next_board = live_board(fake, dc.channel)
    assert f"<@{bob.id}>'s turn" in next_board.content and len(next_board.edits) == 0
    assert stored(dc)["seats"][1]["scores"][1] == 2 or stored(dc)["seats"][0]["scores"][1] == 2


async def test_an_unexpected_error_is_answered_and_logged_once(
    dc: RunningBot, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fake = dc.fake
    alice, _, board = await two_player_board(dc)
    real_act = GameService.act

    async def broken(self: GameService, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(GameService, "act", broken)
    pressed = await press(fake, alice, board, "r")
    commanded = await slash(fake, alice, dc.channel, "leave")
    unexpected = "Something went wrong on our side; the game is unchanged. Please try again."
    assert pressed.ephemeral_texts() == [unexpected]
    assert commanded.ephemeral_texts() == [unexpected]
    records = caplog.get_records("call")
    errors = [r for r in records if r.levelno >= logging.ERROR]
    assert [r.name for r in errors] == ["adapters.discord.frontend"] * 2
    assert all(r.exc_info and "the disk caught fire" in str(r.exc_info[1]) for r in errors)
    records[:] = [r for r in records if r not in errors]  # expected: not a failure of the test
    monkeypatch.setattr(GameService, "act", real_act)
    dc.roller.push([1, 2, 3, 4, 5])
    await press(fake, alice, board, "r")
    assert "throw 1/3" in board.content


async def test_slow_work_is_deferred_in_time(
    dc: RunningBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = dc.fake
    alice, _, board = await two_player_board(dc)
    monkeypatch.setattr(answer, "ACK_AFTER", 0.05)
    real_act = GameService.act
    go_on = asyncio.Event()

    async def slow(self: GameService, *args: Any, **kwargs: Any) -> Any:
        await go_on.wait()
        return await real_act(self, *args, **kwargs)

    monkeypatch.setattr(GameService, "act", slow)
    dc.roller.push([6, 5, 4, 3, 1])
    pressed = await fake.press(alice, board, custom_id=button(board, "r").custom_id)
    assert (await pressed.wait_response()).type == DEFERRED_UPDATE_MESSAGE
    go_on.set()
    await handled(pressed)
    assert "throw 1/3" in board.content  # edited through the channel
    carol = fake.member(dc.guild, "Carol")
    go_on.clear()
    joined = await fake.slash(carol, dc.channel, "general", "join")
    assert (await joined.wait_response()).type == DEFERRED_CHANNEL_MESSAGE
    go_on.set()
    await handled(joined)
    assert joined.ephemeral_texts() == [
        "The game is already under way; joining is only possible before it starts."
    ]
    assert joined.original is not None and not joined.original.loading
    # A command whose answer is public: the "thinking…" placeholder goes, the news is posted.
    thread = fake.thread(dc.channel, "slow")
    lobby = (await slash(fake, alice, thread, "start")).original
    assert lobby is not None
    go_on.clear()
    seated = await fake.slash(carol, thread, "general", "join")
    assert (await seated.wait_response()).type == DEFERRED_CHANNEL_MESSAGE
    go_on.set()
    await handled(seated)
    assert seated.original is not None and seated.original.deleted
    assert bot_messages(fake, thread)[-1].content == "Carol sat down at the table."
    assert "Seated (2): Alice, Carol" in lobby.content
