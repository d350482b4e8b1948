"""Score distributions under Master play (core.distribution): normalised, their means tied to the
value table of core.strategy, hand-worked one-box sheets, and the positions inside a turn."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from core.boxes import ALL_BOXES, Box
from core.distribution import after_choices, distributions, mean, std, within_turn
from core.rules import BigGeneralMode, Variants
from core.strategy import RuleKey, choices
from core.turns import FULL
from tests.core.gamekit import variants_of

DEFAULT = Variants()
SIXTY = Variants(big_general=BigGeneralMode.SCORES_SIXTY)
ALL_VARIANTS = [
    variants_of(big, full, joker)
    for big, full, joker in itertools.product(BigGeneralMode, (False, True), (True, False))
]
EXACT = 1e-9
# Five of a kind within three throws (the classic figure), and on the first throw.
GENERAL_IN_THREE = Fraction(2783176, 60466176)
BIG = Fraction(6, 7776)


@pytest.mark.parametrize("variants", ALL_VARIANTS, ids=lambda v: repr(RuleKey.of(v)))
def test_every_distribution_sums_to_one_and_its_mean_is_the_value(variants: Variants) -> None:
    dist = distributions(variants)
    value = dist.solution.value
    assert np.abs(dist.rest.sum(axis=1) - 1).max() < EXACT
    assert np.abs(dist.turn[1:].sum(axis=(1, 2)) - 1).max() < EXACT
    assert (dist.rest >= -1e-15).all()
    if variants.big_general is BigGeneralMode.SCORES_SIXTY:
        assert dist.big_general == 0
        assert np.abs(dist.rest @ np.arange(dist.length) - value).max() < EXACT
        return
    assert dist.big_general == pytest.approx(float(BIG), abs=1e-15)
    # V[m] = (1 − q) · E[this turn's points + V(what stays open) | no big general at its start]
    masks = np.arange(1, FULL + 1)
    boxes = np.arange(len(ALL_BOXES))
    is_open = (masks[:, None] >> boxes) & 1 == 1
    after = np.where(is_open, value[masks[:, None] ^ (1 << boxes)], 0.0)
    turn = dist.turn[1:]
    expected = (turn.sum(axis=2) * after).sum(axis=1) + turn @ np.arange(turn.shape[2]) @ np.ones(
        len(ALL_BOXES)
    )
    assert np.abs((1 - dist.big_general) * expected - value[1:]).max() < EXACT
    # Conditioned on no big general at all, the mean is higher than the value.
    assert mean(dist.rest[FULL]) > value[FULL]


def test_general_alone_by_hand() -> None:
    sixty = distributions(SIXTY).from_start([Box.GENERAL])
    assert sixty[60] == pytest.approx(float(GENERAL_IN_THREE), abs=1e-15)
    assert sixty[0] == pytest.approx(1 - float(GENERAL_IN_THREE), abs=1e-15)
    ends = distributions(DEFAULT).from_start([Box.GENERAL])
    assert ends[60] == pytest.approx(float((GENERAL_IN_THREE - BIG) / (1 - BIG)), abs=1e-15)
    assert np.count_nonzero(ends) == 2


def test_sixes_alone_by_hand() -> None:
    """One box, Sixes: the count of sixes in three throws keeping sixes is binomial(5, 91/216)."""
    pmf = distributions(SIXTY).from_start([Box.SIXES])
    hit = 1 - (5 / 6) ** 3
    for sixes in range(6):
        binomial = float(np.prod(range(6 - sixes, 6))) / float(np.prod(range(1, sixes + 1)))
        assert pmf[6 * sixes] == pytest.approx(binomial * hit**sixes * (1 - hit) ** (5 - sixes))
    assert std(pmf) == pytest.approx(6 * (5 * hit * (1 - hit)) ** 0.5)


POSITIONS = [
    (ALL_BOXES, (2, 2, 4, 6, 5), 3),
    (ALL_BOXES, (6, 6, 6, 6, 2), 1),
    ((Box.ONES, Box.STRAIGHT, Box.GENERAL), (1, 3, 4, 5, 5), 2),
    ((Box.FULL_HOUSE, Box.FOUR), (3, 3, 3, 2, 2), 1),
]


@pytest.mark.parametrize(("open_boxes", "dice", "throws"), POSITIONS)
def test_inside_a_turn_the_means_are_the_choices_values(
    open_boxes: tuple[Box, ...], dice: tuple[int, ...], throws: int
) -> None:
    """Under scores sixty nothing is conditioned: each choice's mean is its expected points."""
    found = after_choices(SIXTY, open_boxes, dice, throws)
    assert [c for c, _ in found] == choices(SIXTY, open_boxes, dice, throws)
    for choice, pmf in found:
        assert pmf.sum() == pytest.approx(1, abs=EXACT)
        assert mean(pmf) == pytest.approx(choice.expected, abs=EXACT)
    here = within_turn(SIXTY, open_boxes, dice, throws)
    assert mean(here) == pytest.approx(found[0][0].expected, abs=1e-7)


def test_after_a_box_the_rest_moves_up_by_its_points() -> None:
    found = after_choices(DEFAULT, ALL_BOXES, (2, 2, 4, 6, 5), 3)
    assert all(c.box is not None for c, _ in found)
    rest = distributions(DEFAULT).rest
    for choice, pmf in found:
        assert choice.box is not None
        after = rest[FULL ^ (1 << choice.box.index)]
        assert np.allclose(pmf[choice.points :], after[: len(after) - choice.points], atol=0)
        assert not pmf[: choice.points].any()


def test_a_keep_spreads_over_the_next_throw() -> None:
    """Keeping four sixes after throw 1 with only General open: 1/6 to hit on throw 2, then
    again on throw 3; conditioned on no big general only for later turns (none here)."""
    found = dict(
        (c.keep, pmf) for c, pmf in after_choices(DEFAULT, [Box.GENERAL], (6,) * 4 + (2,), 1)
    )
    pmf = found[(6, 6, 6, 6)]
    assert pmf[60] == pytest.approx(1 - (5 / 6) ** 2, abs=1e-15)


def test_positions_are_checked() -> None:
    with pytest.raises(ValueError):
        within_turn(DEFAULT, ALL_BOXES, (1, 2, 3, 4, 5), 0)
