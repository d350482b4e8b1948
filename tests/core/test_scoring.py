"""Scoring by RULES.md: the worked examples, every straight, every box's edge cases, variants."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement, permutations, product

import pytest

from core.boxes import ALL_BOXES, Box
from core.dice import counts, is_five_of_a_kind
from core.rules import (
    DEFAULT_VARIANTS,
    BigGeneralMode,
    Variants,
    is_big_general,
    is_full_house,
    is_straight,
    score,
)
from tests.core.gamekit import (
    FACE_OF,
    RULES_NATURAL_STRAIGHTS,
    RULES_STRAIGHTS,
    SHEET_ORDER,
    reference_score,
    variants_of,
)

ALL_THROWS = list(product(range(1, 7), repeat=5))
MULTISETS = list(combinations_with_replacement(range(1, 7), 5))
NO_JOKER = Variants(straight_joker=False)
FIVE_FULL = Variants(five_of_a_kind_full_house=True)
SIXTY = Variants(big_general=BigGeneralMode.SCORES_SIXTY)
FACE_OF_BOX = {face: box for box, face in FACE_OF.items()}
ALL_VARIANTS = [
    variants_of(big, full, joker)
    for big in BigGeneralMode
    for full in (False, True)
    for joker in (False, True)
]


def sheet(dice: tuple[int, ...], first: bool, variants: Variants = DEFAULT_VARIANTS) -> dict:
    return {box: score(box, dice, first, variants) for box in ALL_BOXES}


# --- the sheet itself -----------------------------------------------------------------------


def test_sheet_has_ten_boxes_in_rules_order() -> None:
    assert tuple(Box) == SHEET_ORDER
    assert [box.index for box in SHEET_ORDER] == list(range(10))
    assert [Box.from_index(i) for i in range(10)] == list(SHEET_ORDER)
    assert {box: box.face for box in SHEET_ORDER if box.face is not None} == FACE_OF
    assert [box.face for box in SHEET_ORDER[6:]] == [None] * 4


# --- worked examples of RULES.md ------------------------------------------------------------


@pytest.mark.parametrize("first", [True, False])
def test_example_4_1_5_2_2_no_combination(first: bool) -> None:
    points = sheet((4, 1, 5, 2, 2), first)
    assert points[Box.TWOS] == 4
    assert points[Box.FIVES] == 5
    assert points[Box.ONES] == 1
    assert points[Box.FOURS] == 4
    for box in (Box.THREES, Box.SIXES, Box.STRAIGHT, Box.FULL_HOUSE, Box.FOUR, Box.GENERAL):
        assert points[box] == 0, box


def test_example_5_5_5_5_1_first_and_later() -> None:
    dice = (5, 5, 5, 5, 1)
    assert score(Box.FOUR, dice, True) == 45
    assert score(Box.FOUR, dice, False) == 40
    assert score(Box.FIVES, dice, True) == 20
    assert score(Box.FIVES, dice, False) == 20
    assert score(Box.FULL_HOUSE, dice, True) == 0
    assert score(Box.GENERAL, dice, False) == 0


def test_example_5_5_1_1_1_later() -> None:
    dice = (5, 5, 1, 1, 1)
    assert score(Box.FULL_HOUSE, dice, False) == 30
    assert score(Box.ONES, dice, False) == 3
    assert score(Box.FIVES, dice, False) == 10
    assert score(Box.FOUR, dice, False) == 0
    assert score(Box.FULL_HOUSE, dice, True) == 35


def test_example_joker_straights() -> None:
    assert score(Box.STRAIGHT, (1, 3, 4, 5, 6), True) == 25
    assert score(Box.STRAIGHT, (1, 1, 3, 4, 5), False) == 20


@pytest.mark.parametrize("first", [True, False])
def test_example_1_2_3_4_6_is_not_a_straight(first: bool) -> None:
    for dice in permutations((1, 2, 3, 4, 6)):
        assert score(Box.STRAIGHT, dice, first) == 0
    assert not is_straight((1, 2, 3, 4, 6))


def test_example_six_sixes_second_throw() -> None:
    dice = (6, 6, 6, 6, 6)
    assert score(Box.GENERAL, dice, False) == 60
    assert score(Box.FOUR, dice, False) == 40
    assert score(Box.SIXES, dice, False) == 30
    assert not is_big_general(dice, 2)
    assert not is_big_general(dice, 3)


def test_example_six_sixes_first_throw_is_big_general() -> None:
    assert is_big_general((6, 6, 6, 6, 6), 1)
    assert is_big_general((6, 6, 6, 6, 6), 1, DEFAULT_VARIANTS)


# --- the straight -----------------------------------------------------------------------------


def test_exactly_four_straights_with_the_joker_over_all_7776_throws() -> None:
    straights = {tuple(sorted(t)) for t in ALL_THROWS if score(Box.STRAIGHT, t, True) > 0}
    assert straights == RULES_STRAIGHTS
    # and the order of the dice never matters
    for throw in ALL_THROWS:
        expected = tuple(sorted(throw)) in RULES_STRAIGHTS
        assert is_straight(throw) is expected, throw


def test_exactly_two_straights_without_the_joker() -> None:
    straights = {m for m in MULTISETS if score(Box.STRAIGHT, m, True, NO_JOKER) > 0}
    assert straights == RULES_NATURAL_STRAIGHTS
    assert score(Box.STRAIGHT, (6, 5, 4, 3, 1), True, NO_JOKER) == 0
    assert score(Box.STRAIGHT, (3, 1, 4, 1, 5), False, NO_JOKER) == 0


@pytest.mark.parametrize("shape", sorted(RULES_STRAIGHTS))
def test_straight_prices_for_every_ordering(shape: tuple[int, ...]) -> None:
    for dice in set(permutations(shape)):
        assert score(Box.STRAIGHT, dice, True) == 25
        assert score(Box.STRAIGHT, dice, False) == 20


# --- five of a kind in every box ---------------------------------------------------------------


@pytest.mark.parametrize("face", range(1, 7))
@pytest.mark.parametrize("first", [True, False])
def test_five_of_a_kind_in_every_box(face: int, first: bool) -> None:
    dice = (face,) * 5
    variants = SIXTY  # where a first-throw five of a kind is written at all
    points = sheet(dice, first, variants)
    for box, box_face in FACE_OF.items():
        assert points[box] == (5 * face if box_face == face else 0), box
    assert points[Box.STRAIGHT] == 0
    assert points[Box.FULL_HOUSE] == 0
    assert points[Box.FOUR] == (45 if first else 40)
    assert points[Box.GENERAL] == 60
    assert is_five_of_a_kind(dice)


@pytest.mark.parametrize("face", range(1, 7))
def test_five_of_a_kind_later_in_default_rules(face: int) -> None:
    points = sheet((face,) * 5, False)
    assert points[Box.GENERAL] == 60
    assert points[Box.FOUR] == 40
    assert points[Box.FULL_HOUSE] == 0
    assert points[FACE_OF_BOX[face]] == 5 * face


@pytest.mark.parametrize("face", range(1, 7))
def test_five_of_a_kind_is_a_full_house_only_in_that_variant(face: int) -> None:
    dice = (face,) * 5
    assert not is_full_house(dice)
    assert is_full_house(dice, five_of_a_kind_counts=True)
    assert score(Box.FULL_HOUSE, dice, True, FIVE_FULL) == 35
    assert score(Box.FULL_HOUSE, dice, False, FIVE_FULL) == 30
    assert score(Box.FULL_HOUSE, dice, False, DEFAULT_VARIANTS) == 0
    # the variant does not make four of a kind a full house
    assert score(Box.FULL_HOUSE, (face,) * 4 + (face % 6 + 1,), False, FIVE_FULL) == 0


def test_big_general_needs_first_throw_and_the_ending_mode() -> None:
    for face in range(1, 7):
        dice = (face,) * 5
        assert is_big_general(dice, 1)
        assert not is_big_general(dice, 1, SIXTY)
        assert not is_big_general(dice, 2)
    assert not is_big_general((6, 6, 6, 6, 5), 1)


# --- full house vs four -------------------------------------------------------------------------


def test_full_house_versus_four() -> None:
    assert score(Box.FULL_HOUSE, (3, 3, 3, 2, 2), True) == 35
    assert score(Box.FOUR, (3, 3, 3, 2, 2), True) == 0
    assert score(Box.FOUR, (3, 3, 3, 3, 2), True) == 45
    assert score(Box.FULL_HOUSE, (3, 3, 3, 3, 2), True) == 0
    assert score(Box.FULL_HOUSE, (2, 3, 2, 3, 3), False) == 30
    assert score(Box.FULL_HOUSE, (3, 3, 2, 2, 1), False) == 0
    assert score(Box.FOUR, (1, 4, 4, 4, 4), False) == 40


# --- every multiset, every box, every variant, against a reference written from RULES.md ---------


@pytest.mark.parametrize("variants", ALL_VARIANTS, ids=lambda v: str(v.to_dict()))
def test_every_multiset_every_box_matches_the_rules_table(variants: Variants) -> None:
    mismatches = []
    for dice in MULTISETS:
        for first in (True, False):
            if first and len(set(dice)) == 1 and variants.big_general is BigGeneralMode.ENDS_GAME:
                continue  # a big general: the game ends, nothing is written
            for box in ALL_BOXES:
                got = score(box, dice, first, variants)
                want = reference_score(box, dice, first, variants)
                if got != want:
                    mismatches.append((dice, first, box, got, want))
    assert mismatches == []


def test_first_throw_and_later_prices() -> None:
    cases = {
        Box.STRAIGHT: ((2, 3, 4, 5, 6), 25, 20),
        Box.FULL_HOUSE: ((4, 4, 6, 6, 6), 35, 30),
        Box.FOUR: ((2, 2, 2, 2, 6), 45, 40),
    }
    for box, (dice, first, later) in cases.items():
        assert score(box, dice, True) == first, box
        assert score(box, dice, False) == later, box


@pytest.mark.parametrize("first", [True, False])
def test_face_boxes_are_face_times_count(first: bool) -> None:
    for dice in ALL_THROWS[::7]:
        for box, face in FACE_OF.items():
            assert score(box, dice, first) == face * Counter(dice)[face]


def test_scratch_is_zero_when_the_dice_do_not_fit() -> None:
    dice = (1, 2, 2, 4, 6)  # no combination, no threes, no fives
    for box in (Box.THREES, Box.FIVES, Box.STRAIGHT, Box.FULL_HOUSE, Box.FOUR, Box.GENERAL):
        assert score(box, dice, True) == 0
        assert score(box, dice, False) == 0


def test_counts_per_face() -> None:
    assert counts((4, 1, 5, 2, 2)) == (1, 2, 0, 1, 1, 0)
    assert counts((6, 6, 6, 6, 6)) == (0, 0, 0, 0, 0, 5)


# --- variants ---------------------------------------------------------------------------------


def test_variant_defaults_are_the_contract() -> None:
    assert DEFAULT_VARIANTS.big_general is BigGeneralMode.ENDS_GAME
    assert DEFAULT_VARIANTS.five_of_a_kind_full_house is False
    assert DEFAULT_VARIANTS.straight_joker is True
    assert DEFAULT_VARIANTS.table_cap == 10


@pytest.mark.parametrize("cap", [1, 2, 10, 50])
def test_table_cap_in_range_is_accepted(cap: int) -> None:
    assert Variants(table_cap=cap).table_cap == cap


@pytest.mark.parametrize("cap", [0, -1, 51, 1000])
def test_table_cap_out_of_range_is_refused(cap: int) -> None:
    with pytest.raises(ValueError):
        Variants(table_cap=cap)


@pytest.mark.parametrize("variants", ALL_VARIANTS, ids=lambda v: str(v.to_dict()))
def test_variants_dict_round_trip(variants: Variants) -> None:
    assert Variants.from_dict(variants.to_dict()) == variants
    odd = Variants.from_dict({**variants.to_dict(), "table_cap": 37})
    assert odd.table_cap == 37


def test_variants_from_empty_dict_are_the_defaults() -> None:
    assert Variants.from_dict({}) == DEFAULT_VARIANTS
