"""Leaderboards, player statistics and history from real games, on every backend."""

from __future__ import annotations

import time

import pytest

from core.actions import AddComputer, Join, Open, Roll, Score, Start
from core.boxes import ALL_BOXES, Box
from core.dice import ScriptedRoller
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.records import LuckOrder
from core.review import review
from core.rules import Variants
from core.service import GameService
from tests.storage.conftest import Repository

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


async def test_leaderboard_stats_and_history(repository: Repository) -> None:
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
    assert len(await repository.leaderboard("tg", HERE, time.time() - 600)) == 2
    assert await repository.leaderboard("dc", None, None) == []
    assert [s.name for s in await repository.leaderboard("tg", None, None, limit=1)] == ["Ann"]

    stats = await repository.player_stats("tg", ANN.id, None)
    assert stats is not None
    assert (stats.games, stats.wins, stats.best, stats.big_generals) == (4, 2, 63, 0)
    assert stats.small_generals == 0
    assert stats.average == (63 + 40 + 63 + 40) / 4
    assert stats.box_averages[Box.FULL_HOUSE] == 35 * 2 / 4
    assert stats.box_averages[Box.STRAIGHT] == 25 * 2 / 4
    assert stats.box_averages[Box.SIXES] == 18 * 2 / 4
    assert set(stats.box_averages) == set(ALL_BOXES)
    assert stats.accuracy is not None and 0 <= stats.accuracy <= 100
    here_only = await repository.player_stats("tg", ANN.id, HERE)
    assert here_only is not None and (here_only.games, here_only.wins) == (3, 2)
    assert await repository.player_stats("tg", "nobody", None) is None
    assert await repository.player_stats("dc", ANN.id, None) is None
    assert await repository.find_player("tg", HERE, "bob") == BOB.id
    assert await repository.find_player("tg", HERE, "@Ann ") == ANN.id
    assert await repository.find_player("tg", HERE, "Carol") is None

    history = await repository.history(HERE)
    assert len(history) == 3
    assert history[0].players == (("Ann", 63, True), ("Bob", 40, False))
    assert history[1].players == (("Ann", 40, False), ("Bob", 63, True))
    assert history[0].finished_at >= history[1].finished_at >= history[-1].finished_at
    assert all(isinstance(past.finished_at, float) for past in history)
    assert {past.end_reason for past in history} == {"completed"}
    assert len(await repository.history(HERE, limit=2)) == 2
    assert await repository.history(ChannelKey("tg", "-300")) == []


async def test_a_new_name_shows_on_the_leaderboard(repository: Repository) -> None:
    """A player shows under the name they last played under."""
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    strong, weak = [6, 6, 6, 5, 5], [1, 2, 3, 4, 5]
    await play(service, roller, HERE, {"1": strong, "2": weak})
    renamed = PlayerRef(ANN.id, "Anna")
    await service.act(HERE, renamed, Open())
    await service.act(HERE, BOB, Join())
    roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])
    await service.act(HERE, renamed, Start())
    roller.push([3, 3, 3, 3, 3])
    await service.act(HERE, renamed, Roll())  # a big general ends it
    board = await repository.leaderboard("tg", HERE, None)
    assert [(s.player_id, s.name, s.wins) for s in board] == [("1", "Anna", 2), ("2", "Bob", 0)]
    assert await repository.find_player("tg", HERE, "anna") == ANN.id
    stats = await repository.player_stats("tg", ANN.id, None)
    assert stats is not None and stats.name == "Anna" and stats.big_generals == 1


async def test_computers_rank_by_level_as_their_ratings_do(repository: Repository) -> None:
    """Every seat a level played is that one computer ("cpu-novice-1" and "-2": "cpu-novice"),
    on the leaderboard and in its statistics, as on the rating board."""
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await service.act(HERE, ANN, Open())
    for _ in range(2):
        await service.act(HERE, ANN, AddComputer(Level.NOVICE, "Robot"))
    roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5, 6, 6, 6, 6, 4])  # the lot: Ann starts
    await service.act(HERE, ANN, Start())
    roller.push([3, 3, 3, 3, 3])
    outcome = await service.act(HERE, ANN, Roll())
    assert outcome.game.winners == (ANN.id,)
    board = await repository.leaderboard("tg", HERE, None)
    assert [(s.player_id, s.name, s.games, s.wins) for s in board] == [
        (ANN.id, "Ann", 1, 1),
        ("cpu-novice", "Robot", 2, 0),
    ]
    stats = await repository.player_stats("tg", ANN.id, HERE)
    assert stats is not None and stats.big_generals == 1
    level = await repository.player_stats("tg", "cpu-novice", None)
    assert level is not None and (level.player_id, level.games, level.wins) == ("cpu-novice", 2, 0)
    assert await repository.player_stats("tg", "cpu-club", None) is None
    assert len((await repository.history(HERE))[0].players) == 3  # the computers are in history


async def test_the_luck_board_and_a_persons_dice_and_decisions(repository: Repository) -> None:
    """Each person's dice and decisions per reviewed game (core.luck, in expected points) are
    averaged as the reviews found them; the board ranks the luckiest dice or the best decisions
    of those with LUCK_GAMES games or more."""
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    strong, weak = [6, 6, 6, 5, 5], [1, 2, 3, 4, 5]
    for ann in (strong, weak, strong):
        await play(service, roller, HERE, {"1": ann, "2": weak if ann is strong else strong})
    await play(service, roller, THERE, {"1": weak, "2": strong})
    found: dict[str, list[tuple[float, float]]] = {ANN.id: [], BOB.id: []}
    for past in await repository.history(HERE):
        for player_id, player_review in review(
            await repository.events(past.game_id), Variants()
        ).items():
            luck = player_review.luck
            assert luck is not None
            found[player_id].append((luck.dice, luck.decisions))
    dice = {p: sum(d for d, _ in figures) / 3 for p, figures in found.items()}
    decisions = {p: sum(d for _, d in figures) / 3 for p, figures in found.items()}
    assert dice[ANN.id] > dice[BOB.id]  # two games of the strong dice to one

    luckiest = await repository.luck_board("tg", HERE, None, LuckOrder.DICE)
    assert [(f.player_id, f.name, f.games) for f in luckiest] == [("1", "Ann", 3), ("2", "Bob", 3)]
    for fortune in luckiest:
        assert fortune.dice == pytest.approx(dice[fortune.player_id])
        assert fortune.decisions == pytest.approx(decisions[fortune.player_id])
    best = await repository.luck_board("tg", HERE, None, LuckOrder.DECISIONS)
    assert [f.player_id for f in best] == sorted(decisions, key=lambda p: -decisions[p])
    assert await repository.luck_board("tg", THERE, None, LuckOrder.DICE) == []  # one game each
    assert len(await repository.luck_board("tg", None, None, LuckOrder.DICE, limit=1)) == 1

    stats = await repository.player_stats("tg", ANN.id, HERE)
    assert stats is not None and stats.dice is not None and stats.decisions is not None
    assert stats.dice == pytest.approx(dice[ANN.id])
    assert stats.decisions == pytest.approx(decisions[ANN.id]) and stats.decisions <= 0
