"""Turn timers, idle tables and kicks: pure deadlines, and the service's clocks on a real file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.actions import Join, Kick, Open, Roll, Score, Start
from core.boxes import ALL_BOXES
from core.dice import ScriptedRoller, SeededRoller
from core.errors import ErrorCode, GameError
from core.events import (
    BoxScored,
    EndReason,
    PlayerRemoved,
    TurnReminder,
    TurnStarted,
    TurnTimedOut,
)
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.outcome import Outcome
from core.rules import Variants
from core.service import GameService
from core.table import Game, Phase
from core.timeouts import IDLE_LIFETIME, LOBBY_LIFETIME, Deadline, Due, act_on, next_deadline

ANN, BOB = PlayerRef("1", "Ann"), PlayerRef("2", "Bob")
HERE = ChannelKey("tg", "-1")
LOT = [1, 1, 1, 1, 2, 6, 6, 6, 6, 5]  # Ann 6, Bob 29: Ann starts


def started(timer: int = 600, at: float = 1000.0) -> Game:
    roller = ScriptedRoller(LOT)
    game, _ = open_lobby("g", HERE, ANN, Open(Variants(turn_timer=timer)), now=at)
    game, _ = apply(game, BOB, Join(), roller, at)
    game, _ = apply(game, ANN, Start(), roller, at)
    return game


def test_deadlines_of_a_turn() -> None:
    game = started(timer=600, at=1000.0)
    assert next_deadline(game) == type(next_deadline(game))(1300.0, Due.REMIND)  # type: ignore[misc]
    reminded, events = act_on(game, Due.REMIND, SeededRoller(1), 1300.0)
    assert events == (TurnReminder(ANN.id, 300),)
    assert reminded.version == game.version + 1  # old buttons are out of date after it
    deadline = next_deadline(reminded)
    assert deadline is not None and (deadline.at, deadline.due) == (1600.0, Due.EXPIRE)
    assert next_deadline(started(timer=0)) is not None  # no timer: only the idle limit
    idle = next_deadline(started(timer=0, at=5.0))
    assert idle is not None and (idle.at, idle.due) == (5.0 + IDLE_LIFETIME, Due.ABANDON)


def test_a_turn_is_reminded_once_however_many_throws() -> None:
    """Issue 29: a throw made the turn anew and forgot its reminder, so a reminder fell due
    again at once after every throw (three in one turn)."""
    game = started(timer=600, at=1000.0)
    roller = ScriptedRoller([2, 3, 4, 5, 6] * 3)
    game, _ = apply(game, ANN, Roll(), roller, 1100.0)
    game, events = act_on(game, Due.REMIND, roller, 1300.0)
    assert events == (TurnReminder(ANN.id, 300),)
    for now in (1310.0, 1320.0):
        game, _ = apply(game, ANN, Roll(), roller, now)
        assert next_deadline(game) == Deadline(1600.0, Due.EXPIRE)
    assert game.turn.throws == 3 and game.turn.reminded


def test_lobby_closes_after_half_an_hour() -> None:
    game, _ = open_lobby("g", HERE, ANN, Open(), now=100.0)
    deadline = next_deadline(game)
    assert deadline is not None and (deadline.at, deadline.due) == (
        100.0 + LOBBY_LIFETIME,
        Due.ABANDON,
    )
    closed, _ = act_on(game, Due.ABANDON, SeededRoller(1), deadline.at)
    assert (closed.phase, closed.end_reason) == (Phase.FINISHED, EndReason.IDLE)
    assert next_deadline(closed) is None


def test_an_expired_turn_is_played_for_the_player_then_two_in_a_row_leave() -> None:
    game = started()
    roller = SeededRoller(3)
    game, events = act_on(game, Due.EXPIRE, roller, 2000.0)
    assert events[0] == TurnTimedOut(ANN.id)
    scored = [e for e in events if isinstance(e, BoxScored)]
    assert [e.player_id for e in scored] == [ANN.id]
    assert isinstance(events[-1], TurnStarted) and events[-1].player_id == BOB.id
    assert game.seats[0].missed == 1 and game.seats[0].active
    # Bob plays his turn himself; Ann's time runs out again: she leaves, her sheet stays.
    game, _ = apply(game, BOB, Roll(), roller, 2100.0)
    game, _ = apply(game, BOB, Score(game.seats[1].open_boxes()[0]), roller, 2100.0)
    game, events = act_on(game, Due.EXPIRE, roller, 3000.0)
    assert PlayerRemoved(ANN.id, "timeout") in events
    assert not game.seats[0].active and game.seats[0].total == sum(
        p for p in game.seats[0].scores if p is not None
    )
    assert game.seats[game.current].player == BOB


def test_playing_a_turn_resets_the_missed_count() -> None:
    game = started()
    roller = SeededRoller(5)
    game, _ = act_on(game, Due.EXPIRE, roller, 2000.0)
    game, _ = act_on(game, Due.EXPIRE, roller, 2500.0)  # Bob's turn expires once too
    game, _ = apply(game, ANN, Roll(), roller, 2600.0)
    game, _ = apply(game, ANN, Score(game.seats[0].open_boxes()[0]), roller, 2600.0)
    assert game.seats[0].missed == 0 and game.seats[1].missed == 1


def test_kick_is_for_the_host_only() -> None:
    game = started()
    roller = SeededRoller(1)
    with pytest.raises(GameError) as refused:
        apply(game, BOB, Kick(ANN.id), roller)
    assert refused.value.code is ErrorCode.NOT_HOST
    kicked, events = apply(game, ANN, Kick(BOB.id), roller)
    assert events[0] == PlayerRemoved(BOB.id, "kicked")
    assert not kicked.seats[1].active
    with pytest.raises(GameError):
        apply(game, ANN, Kick(ANN.id), roller)


async def timed_table(repository: SqliteRepository) -> Game:
    """Ann and Bob's game with a one-second turn timer, begun (by another service, as if
    before a restart): Ann's clock runs."""
    scripted = GameService(repository, ScriptedRoller(LOT))
    await scripted.act(HERE, ANN, Open(Variants(turn_timer=1)))
    await scripted.act(HERE, BOB, Join())
    return (await scripted.act(HERE, ANN, Start())).game


async def test_the_service_reminds_and_expires_on_time(tmp_path: Path) -> None:
    repository = await SqliteRepository.open(tmp_path / "g.db")
    service = GameService(repository, SeededRoller(9))
    seen: list[Outcome] = []
    done = asyncio.Event()

    async def publish(channel: ChannelKey, outcome: Outcome) -> None:
        seen.append(outcome)
        if any(isinstance(e, TurnTimedOut) for e in outcome.events):
            done.set()

    service.on_deadline("tg", publish)
    started_game = await timed_table(repository)
    await service.resume_deadlines("tg")  # arms the stored deadline of the running game
    await asyncio.wait_for(done.wait(), 5)
    kinds = [type(e) for o in seen for e in o.events]
    assert kinds[0] is TurnReminder and TurnTimedOut in kinds
    stored = await repository.active_game(HERE)
    assert stored is not None and stored.seats[0].missed == 1
    assert stored.version > started_game.version
    await service.close()
    await repository.close()


async def test_a_moved_chats_clock_follows_it(tmp_path: Path) -> None:
    """A Telegram group upgraded mid-turn: the deadline fires at the new chat id, not the old."""
    repository = await SqliteRepository.open(tmp_path / "g.db")
    service = GameService(repository, SeededRoller(9))
    fired: list[ChannelKey] = []
    done = asyncio.Event()

    async def publish(channel: ChannelKey, outcome: Outcome) -> None:
        fired.append(channel)
        if any(isinstance(e, TurnTimedOut) for e in outcome.events):
            done.set()

    service.on_deadline("tg", publish)
    await timed_table(repository)
    await service.resume_deadlines("tg")
    moved = await service.move_chat("tg", HERE.chat, "-100777")
    new = ChannelKey("tg", "-100777", HERE.thread)
    assert moved is not None and moved.channel == new
    await asyncio.wait_for(done.wait(), 5)
    assert set(fired) == {new}
    assert await repository.active_game(HERE) is None
    await service.close()
    await repository.close()


async def test_a_game_its_clock_ends_has_its_accuracy_recorded(tmp_path: Path) -> None:
    """Ann plays nine rounds alone, then her clock runs out in the tenth: the bot plays it and
    the game is over, its accuracy beside her result as if she had played it out herself."""
    repository = await SqliteRepository.open(tmp_path / "g.db")
    service = GameService(repository, SeededRoller(9))
    ended = asyncio.Event()

    async def publish(channel: ChannelKey, outcome: Outcome) -> None:
        if outcome.game.phase is Phase.FINISHED:
            ended.set()

    service.on_deadline("tg", publish)
    await service.act(HERE, ANN, Open(Variants(turn_timer=2)))
    game = (await service.act(HERE, ANN, Start())).game
    for box in list(ALL_BOXES)[:-1]:
        await service.act(HERE, ANN, Roll())
        game = (await service.act(HERE, ANN, Score(box))).game
    assert game.round == 10 and game.phase is Phase.PLAYING
    await asyncio.wait_for(ended.wait(), 10)
    (result,) = await repository.results(game.id)
    assert result["accuracy"] is not None and 0 <= result["accuracy"] <= 100
    await service.close()
    await repository.close()
