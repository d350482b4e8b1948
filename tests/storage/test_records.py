"""Leaderboards, player statistics and history from real games on a real SQLite file."""

from __future__ import annotations

import time
from pathlib import Path

from adapters.sqlite import SqliteRepository
from core.actions import AddComputer, Join, Open, Roll, Score, Start
from core.boxes import ALL_BOXES, Box
from core.dice import ScriptedRoller
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.service import GameService

ANN, BOB = PlayerRef("1", "Ann"), PlayerRef("2", "Bob")
HERE, THERE = ChannelKey("tg", "-100"), ChannelKey("tg", "-200")


async def play(
    service: GameService, roller: ScriptedRoller, channel: ChannelKey, dice: dict[str, list[int]]
) -> None:
    """A two-player game where each player throws the same dice every turn and fills boxes in order.

    Lot: Ann 6, Bob 29, so Ann starts."""
    await service.act(channel, ANN, Open())
    await service.act(channel, BOB, Join())
    roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])
    await service.act(channel, ANN, Start())
    for box in ALL_BOXES:
        for player in (ANN, BOB):
            roller.push(dice[player.id])
            await service.act(channel, player, Roll())
            await service.act(channel, player, Score(box))


async def test_leaderboard_stats_and_history(tmp_path: Path) -> None:
    repository = await SqliteRepository.open(tmp_path / "g.db")
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    # Ann: 6-6-6-5-5 every turn (first throw): Fives 10, Sixes 18, Full house 35 = 63.
    # Bob: 1-2-3-4-5 every turn: Ones..Fives 1+2+3+4+5, Straight 25 = 40.
    strong, weak = [6, 6, 6, 5, 5], [1, 2, 3, 4, 5]
    await play(service, roller, HERE, {"1": strong, "2": weak})
    await play(service, roller, HERE, {"1": weak, "2": strong})
    await play(service, roller, HERE, {"1": strong, "2": weak})
    await play(service, roller, THERE, {"1": weak, "2": strong})

    board = await repository.leaderboard("tg", HERE, None)
    assert [(s.name, s.games, s.wins, s.best) for s in board] == [
        ("Ann", 3, 2, 63),
        ("Bob", 3, 1, 63),
    ]
    assert board[0].average == (63 + 40 + 63) / 3
    assert abs(board[0].win_rate - 2 / 3) < 1e-9
    everywhere = await repository.leaderboard("tg", None, None)
    assert [(s.name, s.games, s.wins) for s in everywhere] == [("Ann", 4, 2), ("Bob", 4, 2)]
    assert await repository.leaderboard("tg", HERE, time.time() + 60) == []
    assert await repository.leaderboard("dc", None, None) == []

    stats = await repository.player_stats("tg", ANN.id, None)
    assert stats is not None
    assert (stats.games, stats.wins, stats.best, stats.big_generals) == (4, 2, 63, 0)
    assert stats.box_averages[Box.FULL_HOUSE] == 35 * 2 / 4
    assert stats.box_averages[Box.STRAIGHT] == 25 * 2 / 4
    assert stats.accuracy is not None and 0 <= stats.accuracy <= 100
    assert await repository.find_player("tg", HERE, "bob") == BOB.id

    history = await repository.history(HERE)
    assert len(history) == 3
    assert history[0].players == (("Ann", 63, True), ("Bob", 40, False))
    assert history[0].finished_at >= history[-1].finished_at
    await repository.close()


async def test_computers_play_but_do_not_rank(tmp_path: Path) -> None:
    repository = await SqliteRepository.open(tmp_path / "g.db")
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await service.act(HERE, ANN, Open())
    await service.act(HERE, ANN, AddComputer(Level.NOVICE, "Robot"))
    roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5, 3, 3, 3, 3, 3])  # the lot, then Ann's big general
    await service.act(HERE, ANN, Start())
    outcome = await service.act(HERE, ANN, Roll())
    assert outcome.game.winners == (ANN.id,)
    board = await repository.leaderboard("tg", HERE, None)
    assert [(s.name, s.wins) for s in board] == [("Ann", 1)]
    stats = await repository.player_stats("tg", ANN.id, HERE)
    assert stats is not None and stats.big_generals == 1
    await repository.close()
