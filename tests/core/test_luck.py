"""Luck against skill (core.luck, read by core.review's walk): the start and the changes put down
to the dice, the decisions and the rest add up to the result, the parts mean what they say, and
a player's decisions never gain on the best choice."""

from __future__ import annotations

import itertools
import random

import pytest

from core.actions import Join, Open, Roll, Score, Start
from core.boxes import Box
from core.computer import next_action
from core.dice import ScriptedRoller, SeededRoller
from core.events import BigGeneralThrown, Event, GameEnded
from core.game import apply, open_lobby
from core.levels import Level
from core.luck import Cause, Luck, Unit
from core.review import review, story
from core.rules import BigGeneralMode, Variants
from core.strategy import expected_game
from core.table import Game, Phase
from tests.core.gamekit import ALICE, BOB, CHANNEL, PLAYERS, play_random_game, variants_of
from tests.kit import LOT_ALICE_LOW

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
        big = any(isinstance(e, BigGeneralThrown) for e in log)  # see the test below
        assert big or luck.result == seat.total
        assert luck.start == pytest.approx(expected_game(variants))
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


def test_a_big_general_is_its_throwers_luck_in_points_as_in_win_shares() -> None:
    """Each writes Ones after 1-2-3-4-6, then five sixes on Alice's first throw end the game.
    In win shares she ends with the whole win and Bob with nothing; in points, which cannot
    weigh a win, each one's result is the score expected had the game gone on: Alice's last
    throw gave her what five sixes are worth, and the end took nothing from Bob."""
    poor = [1, 2, 3, 4, 6]
    roller = ScriptedRoller(LOT_ALICE_LOW + poor + poor + [6] * 5)
    game, log = open_lobby("g-big", CHANNEL, ALICE, Open(Variants()))
    log = list(log)
    moves = [(BOB, Join()), (ALICE, Start())]
    moves += [(ALICE, Roll()), (ALICE, Score(Box.ONES)), (BOB, Roll()), (BOB, Score(Box.ONES))]
    for player, action in [*moves, (ALICE, Roll())]:
        game, events = apply(game, player, action, roller)
        log += events
    assert game.phase is Phase.FINISHED and results(log) == (ALICE.id,)
    alice, bob = (review(log, Variants())[p.id].luck for p in (ALICE, BOB))
    assert alice is not None and bob is not None
    adds_up(alice)
    adds_up(bob)
    last = alice.steps[-1]
    assert last.cause is Cause.DICE and last.round == 2 and last.change > 40
    assert alice.result > alice.start and alice.rest == pytest.approx(0, abs=EXACT)
    assert bob.rest == pytest.approx(0, abs=EXACT)  # the end took nothing from Bob in points
    told = story(log, Variants())
    assert told is not None
    shares = {p: r.luck for p, r in told.reviews.items()}
    luck = shares[ALICE.id]
    assert luck is not None and luck.result == 1 and luck.steps[-1].cause is Cause.DICE
    adds_up(luck)
    bobs = shares[BOB.id]
    assert bobs is not None and bobs.result == 0 and bobs.steps[-1].cause is Cause.REST
