"""Win shares (core.chances): they add up, symmetric seats share alike, certain and hand-worked
outcomes come out exactly, players who left have none, and a small simulation agrees."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bench.chances import Position, simulate_shares
from core.boxes import ALL_BOXES, Box
from core.chances import Standing, game_shares, turn_starts, win_shares
from core.rules import BigGeneralMode, Variants
from core.table import Game, Phase, Seat, Turn
from tests.core.gamekit import ALICE, BOB, CAROL, CHANNEL

DEFAULT = Variants()
SIXTY = Variants(big_general=BigGeneralMode.SCORES_SIXTY)
BIG = 6 / 7776
EVERY = frozenset(ALL_BOXES)
LATE = (
    Standing(120, frozenset({Box.FIVES, Box.FOUR, Box.GENERAL})),
    Standing(131, frozenset({Box.ONES, Box.STRAIGHT, Box.GENERAL})),
    Standing(104, frozenset({Box.SIXES, Box.FULL_HOUSE, Box.FOUR})),
)


@pytest.mark.parametrize("variants", [DEFAULT, SIXTY])
def test_shares_add_up_to_one(variants: Variants) -> None:
    assert sum(win_shares(variants, LATE, 1)) == pytest.approx(1, abs=1e-12)
    assert sum(win_shares(variants, LATE, 0, (5, 5, 5, 2, 1), 2)) == pytest.approx(1, abs=1e-12)
    table = [Standing(10 * i, EVERY - {ALL_BOXES[i]}) for i in range(10)]
    shares = win_shares(variants, table, 0)
    assert sum(shares) == pytest.approx(1, abs=1e-12)
    assert shares[9] > shares[0]  # ninety points ahead with one box less to fill


def test_symmetric_seats_share_alike() -> None:
    same = [Standing(70, frozenset({Box.SIXES, Box.FOUR, Box.GENERAL}))] * 3
    assert win_shares(SIXTY, same, 0) == pytest.approx((1 / 3,) * 3, abs=1e-12)
    # A big general ends the game: the earlier turn starts come first, nothing else differs.
    first, second, third = win_shares(DEFAULT, same, 0)
    assert first > second > third
    assert first - second == pytest.approx(second - third, rel=0.01)


def test_a_certain_win_and_the_big_generals_that_can_spoil_it() -> None:
    leader, trailer = Standing(250, frozenset({Box.ONES})), Standing(10, frozenset({Box.ONES}))
    assert win_shares(SIXTY, [leader, trailer], 0) == pytest.approx((1, 0), abs=1e-12)
    # The leader throws first; the trailer wins only by a big general of their own.
    shares = win_shares(DEFAULT, [leader, trailer], 0)
    assert shares[1] == pytest.approx((1 - BIG) * BIG, abs=1e-15)
    assert shares[0] == pytest.approx(1 - (1 - BIG) * BIG, abs=1e-15)


@pytest.mark.parametrize(("opponent", "share"), [(110, Fraction(91, 216)), (107, None)])
def test_mid_turn_last_throw_for_sixes(opponent: int, share: Fraction | None) -> None:
    """Sixes alone, 6-6 held with one throw left: three dice for at least one more six."""
    hit = Fraction(91, 216)
    expected = share if share is not None else hit + (1 - hit) / 2  # 107 all: level, shared
    table = [Standing(opponent, frozenset()), Standing(95, frozenset({Box.SIXES}))]
    for variants in (DEFAULT, SIXTY):
        done, mover = win_shares(variants, table, 1, (6, 2, 6, 3, 4), 2)
        assert mover == pytest.approx(float(expected), abs=1e-12)
        assert done == pytest.approx(1 - float(expected), abs=1e-12)


def test_players_who_left_have_no_share() -> None:
    away = Standing(500, EVERY, playing=False)
    a, b = LATE[0], LATE[2]
    with_left = win_shares(DEFAULT, [a, away, b], 0)
    assert with_left[1] == 0
    assert with_left[::2] == pytest.approx(win_shares(DEFAULT, [a, b], 0), abs=1e-12)
    assert win_shares(DEFAULT, [away, b, away], 1) == pytest.approx((0, 1, 0), abs=1e-12)
    with pytest.raises(ValueError):
        win_shares(DEFAULT, [away, b], 0)


def test_turn_starts_follow_the_seating() -> None:
    two, one = frozenset({Box.ONES, Box.TWOS}), frozenset({Box.ONES})
    table = [Standing(0, one), Standing(0, two), Standing(0, two)]
    assert turn_starts(table, 1, 0) == [1, 2, 0, 1, 2]
    assert turn_starts(table, 1, 2) == [2, 0, 1, 2]  # the turn under way has started


def test_positions_are_checked() -> None:
    table = list(LATE)
    for dice, throws in (((1, 2, 3, 4, 5), 0), (None, 2), ((1, 2, 3), 1), ((1, 2, 3, 4, 7), 1)):
        with pytest.raises(ValueError):
            win_shares(DEFAULT, table, 0, dice, throws)
    with pytest.raises(ValueError, match="big general"):
        win_shares(DEFAULT, table, 0, (4, 4, 4, 4, 4), 1)
    assert sum(win_shares(SIXTY, table, 0, (4, 4, 4, 4, 4), 1)) == pytest.approx(1, abs=1e-12)


def test_a_game_in_play() -> None:
    seats = (
        Seat(ALICE, (1, 4, 9, 12, None, 18, 20, 30, None, None)),
        Seat(BOB, (2, 6, 6, 12, 15, None, 25, 0, None, None), active=False),
        Seat(CAROL, (3, 4, 9, 16, 10, 24, None, None, None, None)),
    )
    game = Game(
        "g-1", CHANNEL, ALICE.id, DEFAULT, Phase.PLAYING, seats, current=2, round=7,
        turn=Turn(throws=1, dice=(3, 3, 5, 5, 5), held=(False,) * 5),
    )  # fmt: skip
    standings = [Standing(s.total, frozenset(s.open_boxes()), s.active) for s in seats]
    assert game_shares(game) == win_shares(DEFAULT, standings, 2, (3, 3, 5, 5, 5), 1)
    assert game_shares(game)[1] == 0


def test_a_small_simulation_agrees() -> None:
    position = Position("late", LATE, 0, (5, 5, 5, 2, 1), 2)
    for number, variants in enumerate((DEFAULT, SIXTY)):
        exact = win_shares(variants, LATE, 0, (5, 5, 5, 2, 1), 2)
        mean, error = simulate_shares(variants, position, 20_000, seed=7 + number)
        for e, m, s in zip(exact, mean, error, strict=True):
            assert abs(m - e) < 4 * s
