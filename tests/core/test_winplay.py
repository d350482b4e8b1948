"""The Grandmaster (core.winplay): it leaves the Master's choice where that loses the table, far
behind and far ahead, keeps it where the win chances tie, and its fast shares are the shares of
the final distributions core.distribution gives."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from core.boxes import ALL_BOXES, Box
from core.chances import Standing, big_general_shares, mover_weights
from core.distribution import after_choices
from core.rules import BigGeneralMode, Variants
from core.strategy import choices
from core.table import Game, Phase, Seat, Turn
from core.winplay import choice_shares, winning_choice, winning_choice_at
from tests.core.gamekit import ALICE, BOB, CHANNEL

DEFAULT = Variants()
SIXTY = Variants(big_general=BigGeneralMode.SCORES_SIXTY)
GENERAL_IN_THREE = Fraction(2783176, 60466176)


def test_far_behind_in_the_last_round_it_keeps_general_open() -> None:
    """40 behind the finished leader with Fours and General left: only a general wins, so the
    bust goes into Fours; the Master scratches General for the expected points."""
    table = [Standing(147, frozenset()), Standing(107, frozenset({Box.FOURS, Box.GENERAL}))]
    dice = (5, 2, 3, 4, 5)
    assert choices(DEFAULT, [Box.FOURS, Box.GENERAL], dice, 3)[0].box is Box.GENERAL
    choice = winning_choice_at(DEFAULT, table, 1, dice, 3)
    assert choice.box is Box.FOURS
    shares = dict((c.box, share) for c, share in choice_shares(DEFAULT, table, 1, dice, 3))
    # A general in the last turn wins, a big one included: the classic chance in three throws.
    assert shares[Box.FOURS] == pytest.approx(float(GENERAL_IN_THREE), abs=1e-12)
    assert shares[Box.GENERAL] == pytest.approx(6 / 7776, abs=1e-12)


def test_ahead_it_plays_safe() -> None:
    """15 ahead, Four and Fours left against Sixes and Twos: the Master keeps Four open for its
    40; the Grandmaster keeps Fours, which nearly always scores, and wins more often."""
    table = [
        Standing(134, frozenset({Box.FOUR, Box.FOURS})),
        Standing(119, frozenset({Box.SIXES, Box.TWOS})),
    ]
    dice = (6, 6, 5, 6, 5)
    master = choices(DEFAULT, sorted(table[0].open, key=lambda b: b.index), dice, 3, 134)[0]
    assert master.box is Box.FOURS
    choice = winning_choice_at(DEFAULT, table, 0, dice, 3)
    assert choice.box is Box.FOUR and choice.expected < master.expected - 3
    shares = dict((c.box, share) for c, share in choice_shares(DEFAULT, table, 0, dice, 3))
    assert shares[Box.FOUR] > shares[Box.FOURS] + 0.2


@pytest.mark.parametrize("dice", [(1, 2, 3, 4, 6), (6, 6, 6, 2, 2), (3, 3, 3, 3, 1)])
@pytest.mark.parametrize("throws", [1, 2, 3])
def test_where_the_chances_tie_it_is_the_master(dice: tuple[int, ...], throws: int) -> None:
    boxes = [Box.SIXES, Box.FULL_HOUSE, Box.FOUR]
    for other in (0, 400):  # certain to win, and certain to lose bar a big general
        table = [Standing(other, frozenset()), Standing(200, frozenset(boxes))]
        shares = {share for _, share in choice_shares(DEFAULT, table, 1, dice, throws)}
        assert max(shares) - min(shares) < 1e-12
        master = choices(DEFAULT, boxes, dice, throws, 200)[0]
        assert winning_choice_at(DEFAULT, table, 1, dice, throws) == master


@pytest.mark.parametrize("variants", [DEFAULT, SIXTY])
def test_the_shares_are_those_of_the_final_distributions(variants: Variants) -> None:
    table = [
        Standing(61, frozenset(ALL_BOXES[:6])),
        Standing(80, frozenset(ALL_BOXES[3:9])),
        Standing(72, frozenset(ALL_BOXES[2:8])),
    ]
    dice, throws = (2, 3, 3, 5, 6), 1
    weights = mover_weights(variants, table, 1)
    outright, unbroken = big_general_shares(variants, table, 1, throws)
    mine = sorted(table[1].open, key=lambda b: b.index)
    slow = after_choices(variants, mine, dice, throws)
    fast = choice_shares(variants, table, 1, dice, throws)
    assert len(fast) == len(slow) > 20
    for (choice, share), (plain, pmf) in zip(fast, slow, strict=True):
        assert (choice.box, choice.keep) == (plain.box, plain.keep)
        assert choice.expected == pytest.approx(80 + plain.expected, abs=1e-9)
        beaten = float(pmf @ weights[80 : 80 + len(pmf)])
        assert share == pytest.approx(outright[1] + unbroken * beaten, abs=1e-12)
    assert np.ptp([share for _, share in fast]) > 0.01


def test_from_a_game() -> None:
    seats = (
        Seat(ALICE, (None,) * 8 + (45, 60)),
        Seat(BOB, (None,) * 9 + (0,)),
    )
    game = Game(
        "g-1", CHANNEL, ALICE.id, SIXTY, Phase.PLAYING, seats, current=1, round=2,
        turn=Turn(throws=2, dice=(6, 6, 6, 6, 1), held=(False,) * 5),
    )  # fmt: skip
    standings = [Standing(s.total, frozenset(s.open_boxes())) for s in seats]
    assert winning_choice(game) == winning_choice_at(SIXTY, standings, 1, (6, 6, 6, 6, 1), 2)
    with pytest.raises(ValueError):
        winning_choice(Game("g-2", CHANNEL, ALICE.id, SIXTY, Phase.PLAYING, seats, current=1))
