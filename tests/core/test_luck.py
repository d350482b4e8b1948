"""Luck against skill (core.luck, read by core.review's walk): the start and the changes put down
to the dice, the decisions and the rest add up to the result, the parts mean what they say, and
a player's decisions never gain on the best choice."""

from __future__ import annotations

import itertools
import random

import pytest

from core.actions import Open, Start
from core.computer import next_action
from core.dice import SeededRoller
from core.events import BigGeneralThrown, Event, GameEnded
from core.game import apply, open_lobby
from core.levels import Level
from core.luck import Cause, Luck, Unit
from core.review import review, story
from core.rules import BigGeneralMode, Variants
from core.strategy import expected_game
from core.table import Game, Phase
from tests.core.gamekit import ALICE, CHANNEL, PLAYERS, play_random_game, variants_of

EXACT = 1e-9


def adds_up(luck: Luck) -> None:
    parts = luck.start + luck.dice + luck.decisions + luck.rest
    assert abs(parts - luck.result) < EXACT, luck
    assert all(s.change <= EXACT for s in luck.steps if s.cause is Cause.DECISION)


def results(log: list[Event]) -> tuple[str, ...]:
    return next(e.winners for e in log if isinstance(e, GameEnded))


@pytest.mark.parametrize("seed", range(12))
def test_every_part_adds_up_to_the_result_in_points_and_in_win_shares(seed: int) -> None:
    rng = random.Random(seed)
    count = 2 + seed % 3
    variants = variants_of(rng.choice(list(BigGeneralMode)), rng.random() < 0.5, rng.random() < 0.5)
    game, log = play_random_game(PLAYERS[:count], variants, seed, rng, leave_chance=0.01)
    for player_review in review(log, variants).values():
        luck = player_review.luck
        assert luck is not None and luck.unit is Unit.POINTS
        adds_up(luck)
        seat = next(s for s in game.seats if s.player.id == luck.player_id)
        assert luck.result == seat.total and luck.start == pytest.approx(expected_game(variants))
    told = story(log, variants)
    if told is None:  # everyone but one left: no winner to weigh against
        return
    winners = results(log)
    for player_review in told.reviews.values():
        luck = player_review.luck
        assert luck is not None and luck.unit is Unit.SHARE
        adds_up(luck)
        won = 1 / len(winners) if luck.player_id in winners else 0.0
        assert luck.result == pytest.approx(won)
        assert luck.start == pytest.approx(told.series(luck.player_id)[0])


@pytest.mark.parametrize("seed", range(6))
def test_only_the_dice_and_the_decisions_move_a_players_own_value(seed: int) -> None:
    """A written box's value is the next turn's start's: the rest is the others' doing. In
    expected points nobody else moves a player's value, so the rest is nothing; in win shares
    the step after a player's own box is nothing either."""
    rng = random.Random(100 + seed)
    variants = Variants()
    _, log = play_random_game(PLAYERS[:2], variants, seed, rng)
    big = any(isinstance(e, BigGeneralThrown) for e in log)
    for player_review in review(log, variants).values():
        assert player_review.luck is not None
        rest = [s.change for s in player_review.luck.steps if s.cause is Cause.REST]
        assert all(abs(change) < EXACT for change in rest[:-1])
        assert big or abs(rest[-1]) < EXACT
    told = story(log, variants)
    assert told is not None
    for player_review in told.reviews.values():
        assert player_review.luck is not None
        steps = player_review.luck.steps
        after_own = [b for a, b in itertools.pairwise(steps) if a.cause is Cause.DECISION]
        written = [s.change for s in after_own if s.cause is Cause.REST]
        assert written and all(abs(change) < EXACT for change in written)


def master_alone(seed: int) -> tuple[Game, list[Event]]:
    roller = SeededRoller(seed)
    game, events = open_lobby("g-solo", CHANNEL, ALICE, Open(Variants()))
    log = list(events)
    game, events = apply(game, ALICE, Start(), roller)
    log += events
    while game.phase is Phase.PLAYING:
        game, events = apply(game, ALICE, next_action(game, Level.MASTER), roller)
        log += events
    return game, log


def test_the_master_gives_nothing_away_and_the_dice_explain_its_score() -> None:
    """Alone, the Master's decisions are the best: its score is the expected game's plus its
    dice; over many games the dice average out (a throw's luck has no expectation)."""
    dice = []
    for seed in range(40):
        game, log = master_alone(seed)
        luck = review(log, Variants())[ALICE.id].luck
        assert luck is not None
        assert abs(luck.decisions) < EXACT and abs(luck.rest) < EXACT
        assert game.seats[0].total == pytest.approx(expected_game(Variants()) + luck.dice)
        dice.append(luck.dice)
    mean = sum(dice) / len(dice)
    spread = (sum((d - mean) ** 2 for d in dice) / (len(dice) - 1)) ** 0.5
    assert abs(mean) < 3 * spread / len(dice) ** 0.5  # no bias the size of a standard error
