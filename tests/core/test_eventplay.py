"""The event player (core.eventplay): at two seats it is the Grandmaster, its place points add up
as places must, its big-general branches rank the others by their totals of then, a mid-turn
value agrees with the turn start's, and behind the leader but near third it plays for second."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from math import comb

import pytest

from core.actions import Score
from core.boxes import ALL_BOXES, Box
from core.chances import Standing
from core.computer import next_action
from core.distribution import distributions
from core.eventplay import choice_points, event_choice, event_choice_at, hint_points, place_points
from core.levels import Level
from core.rules import BigGeneralMode, Variants
from core.strategy import choices, open_mask
from core.table import Game, Phase, Seat, Turn
from core.turns import FIRST_ROLL, FIVE_OF_A_KIND, KEEPS, ROLLS
from core.winplay import choice_shares, winning_choice, winning_choice_at
from tests.core.gamekit import ALICE, BOB, CAROL, CHANNEL

DEFAULT = Variants()
SIXTY = Variants(big_general=BigGeneralMode.SCORES_SIXTY)
Q = Fraction(6, 7776)
GENERAL_IN_THREE = Fraction(2783176, 60466176)


def _position(rng: random.Random, seats: int) -> tuple[list[Standing], int, tuple[int, ...], int]:
    """A random position in play: sheets about as far on, the mover's dice after 1 to 3 throws."""
    left = rng.randint(1, 10)
    table = []
    for _ in range(seats):
        size = max(0, min(10, left + rng.choice((-1, 0, 0, 1))))
        table.append(
            Standing(rng.randint(0, 25 * (10 - size) + 20), frozenset(rng.sample(ALL_BOXES, size)))
        )
    mover = rng.randrange(seats)
    if not table[mover].open:
        table[mover] = Standing(table[mover].total, frozenset({rng.choice(ALL_BOXES)}))
    while True:
        dice, throws = tuple(rng.randint(1, 6) for _ in range(5)), rng.randint(1, 3)
        if throws > 1 or len(set(dice)) > 1:
            return table, mover, dice, throws


@pytest.mark.parametrize("variants", [DEFAULT, SIXTY])
def test_at_two_seats_place_points_are_the_win_share(variants: Variants) -> None:
    rng = random.Random(20)
    for _ in range(60):
        table, mover, dice, throws = _position(rng, 2)
        points = choice_points(variants, table, mover, dice, throws)
        shares = choice_shares(variants, table, mover, dice, throws)
        for (choice, value), (same, share) in zip(points, shares, strict=True):
            assert choice == same and value == pytest.approx(share, abs=1e-9)
        chosen = event_choice_at(variants, table, mover, dice, throws)
        assert chosen == winning_choice_at(variants, table, mover, dice, throws)


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_place_points_of_a_table_add_up_to_half_its_seats(seats: int) -> None:
    """Each pair of seats shares one point, however the game ends (big generals and a player
    who left included): n/2 in all, each seat's between 0 and 1."""
    rng = random.Random(seats)
    for case in range(6):
        table, mover, _, _ = _position(rng, seats)
        if case % 2:
            gone = (mover + 1) % seats
            table[gone] = replace(table[gone], playing=False)
        values = place_points(DEFAULT, table, mover)
        assert all(-1e-12 <= value <= 1 + 1e-12 for value in values)
        assert sum(values) == pytest.approx(seats / 2, abs=1e-9)


def test_a_big_general_ranks_the_others_by_their_totals_of_then() -> None:
    """Three at 100 with General alone left, the first to move: a big general of the second's
    comes before the third has played, so this player's general of the turn before puts them
    above the third; a big general of the third's leaves the first two to their 50-50."""
    sheet = Standing(100, frozenset({Box.GENERAL}))
    q = float(Q)
    general = float((GENERAL_IN_THREE - Q) / (1 - Q))  # a small general, given no big one
    expected = q + (1 - q) * q * (1 + general) / 4 + (1 - q) ** 2 * q / 4 + (1 - q) ** 3 / 2
    values = place_points(DEFAULT, [sheet] * 3, 0)
    assert values[0] == pytest.approx(expected, abs=1e-13)
    assert values[2] < 0.5 < values[0]


MIDGAME = [
    Standing(61, frozenset(ALL_BOXES[:4] + ALL_BOXES[7:9])),
    Standing(80, frozenset(ALL_BOXES[3:8])),
    Standing(55, frozenset(ALL_BOXES[4:])),
    Standing(70, frozenset(ALL_BOXES[1:6]), playing=False),
]


@pytest.mark.parametrize("seats", [3, 4])
def test_a_turn_start_is_the_mean_of_its_first_throws(seats: int) -> None:
    """At a turn's start, the mover's place points are a big general's chance plus, over every
    other first throw, the points of the Master's choice there: the mid-turn values (through
    box, points and the partial totals of later turns) agree with the turn start's."""
    table, mover = MIDGAME[:seats], 1
    dist = distributions(DEFAULT)
    mask = open_mask(list(table[mover].open))
    total = float(dist.big_general)
    for roll, dice in enumerate(ROLLS):
        if FIVE_OF_A_KIND[roll]:
            continue
        keep = int(dist.policy.keep_after_first[mask, roll])
        box = int(dist.policy.box_first[mask, roll])
        for choice, value in choice_points(DEFAULT, table, mover, dice, 1):
            if (keep >= 0 and choice.keep == KEEPS[keep]) or (
                keep < 0 and choice.box is not None and choice.box.index == box
            ):
                total += float(FIRST_ROLL[roll]) * value
                break
        else:
            raise AssertionError(f"the Master's choice on {dice} is not listed")
    assert place_points(DEFAULT, table, mover)[mover] == pytest.approx(total, abs=1e-12)


# Far behind the finished leader (153), just behind the finished third (107): 101, with Fours and
# General open and a bust 2-3-4-5-5 after the third throw.
BEHIND = [
    Standing(153, frozenset()),
    Standing(107, frozenset()),
    Standing(101, frozenset({Box.FOURS, Box.GENERAL})),
]
BUST = (2, 3, 4, 5, 5)


def _fours_at_least_two(chance: Fraction) -> Fraction:
    """At least two fours among five dice each a four with this chance."""
    return sum((comb(5, k) * chance**k * (1 - chance) ** (5 - k) for k in range(2, 6)), Fraction())


def test_behind_the_leader_it_plays_for_second_place() -> None:
    """The Grandmaster writes the bust's four into Fours (105): only a general can win, and
    without one it is last. For place points second is worth half: it scratches General and
    throws for two fours (109, above the third's 107) in its last turn."""
    master = choices(DEFAULT, [Box.FOURS, Box.GENERAL], BUST, 3, 101)[0]
    grandmaster = winning_choice_at(DEFAULT, BEHIND, 2, BUST, 3)
    chosen = event_choice_at(DEFAULT, BEHIND, 2, BUST, 3)
    assert grandmaster.box is Box.FOURS
    assert chosen.box is Box.GENERAL and master.box is Box.GENERAL
    values = {choice.box: value for choice, value in choice_points(DEFAULT, BEHIND, 2, BUST, 3)}
    # Fours now: first with any general in the last turn, else last.
    assert values[Box.FOURS] == pytest.approx(float(GENERAL_IN_THREE), abs=1e-12)
    # General scratched: first with a big general; else above the third with two fours or more.
    # Fours alone open, every four is kept: a die is a four within three throws with chance
    # 91/216. Taken out, the first throws that are a big general: 4-4-4-4-4, and five of another
    # face (whose dice would have had two throws left: a four with chance 11/36 each).
    two = _fours_at_least_two(Fraction(91, 216)) - Fraction(1, 7776)
    two -= 5 * Fraction(1, 7776) * _fours_at_least_two(Fraction(11, 36))
    assert values[Box.GENERAL] == pytest.approx(float(Q + two / 2), abs=1e-12)
    assert values[Box.GENERAL] > values[Box.FOURS] + 0.3


def _behind_game(event: str) -> Game:
    seats = (
        Seat(ALICE, (3, 6, 9, 12, 15, 18, 20, 30, 40, 0)),
        Seat(BOB, (3, 6, 9, 12, 10, 12, 25, 30, 0, 0)),
        Seat(CAROL, (3, 6, 9, None, 15, 18, 20, 30, 0, None)),
    )
    turn = Turn(throws=3, dice=BUST, held=(False,) * 5)
    return Game(
        "g-1", CHANNEL, ALICE.id, DEFAULT, Phase.PLAYING, seats, current=2, round=10, turn=turn,
        event=event,
    )  # fmt: skip


def test_the_grandmaster_plays_for_places_at_a_tournament_table() -> None:
    plain, event = _behind_game(""), _behind_game("ev1:1:1")
    assert [seat.total for seat in event.seats] == [153, 107, 101]
    assert event_choice(event).box is Box.GENERAL and winning_choice(plain).box is Box.FOURS
    assert next_action(event, Level.GRANDMASTER) == Score(Box.GENERAL)
    assert next_action(plain, Level.GRANDMASTER) == Score(Box.FOURS)
    assert next_action(event, Level.MASTER) == Score(Box.GENERAL)


def test_hint_points_follow_the_options() -> None:
    game = _behind_game("ev1:1:1")
    options = choices(DEFAULT, [Box.FOURS, Box.GENERAL], BUST, 3, 101)
    values = dict(
        (choice.box, value) for choice, value in choice_points(DEFAULT, BEHIND, 2, BUST, 3)
    )
    assert hint_points(game, options) == tuple(values[option.box] for option in options)
    assert hint_points(replace(game, turn=Turn()), options) == ()
    alone = tuple(replace(seat, active=i == 2) for i, seat in enumerate(game.seats))
    assert hint_points(replace(game, seats=alone), options) == ()
