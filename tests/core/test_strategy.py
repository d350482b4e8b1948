"""The exact strategy engine (core.strategy) against hand-worked positions, the original's 2-2-4-6
advice, an independent Bellman enumeration, and the simulator (core.simulation).

Hand-worked figures are written as exact fractions here, never obtained by calling the engine twice.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

from core.boxes import Box
from core.levels import Level
from core.rules import BigGeneralMode, Variants
from core.simulation import simulate
from core.strategy import (
    Choice,
    TurnTables,
    choices,
    expected_game,
    held_positions,
    judge,
    open_mask,
    solution,
)
from core.turns import FULL, ROLL_INDEX
from tests.core.gamekit import SHEET_ORDER, reference_score, variants_of

DEFAULT = Variants()
SIXTY = Variants(big_general=BigGeneralMode.SCORES_SIXTY)
ALL_VARIANTS = [
    variants_of(big, full, joker)
    for big, full, joker in itertools.product(BigGeneralMode, (False, True), (True, False))
]
FACES = range(1, 7)
EXACT = 1e-9


def by_box(options: list[Choice]) -> dict[Box, Choice]:
    return {o.box: o for o in options if o.box is not None}


def by_keep(options: list[Choice]) -> dict[tuple[int, ...], Choice]:
    return {o.keep: o for o in options if o.keep is not None}


def throwing_keeps(dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every sub-multiset of the dice that leaves at least one die to throw, from the subsets of
    positions (holding all five is no throw)."""
    return {
        tuple(sorted(subset))
        for size in range(len(dice))
        for subset in itertools.combinations(dice, size)
    }


def table_value(variants: Variants, open_boxes: list[Box] | tuple[Box, ...]) -> float:
    """The engine's V(open set): expected points of the rest of the game from a turn's start."""
    return float(solution(variants).value[open_mask(open_boxes)])


# Each die on its own: the chance it shows a given face within n throws, rerolling until it does.
def hit_within(throws: int) -> Fraction:
    return 1 - Fraction(5, 6) ** throws


# ---------------------------------------------------------------------------------------------
# Small positions worked by hand
# ---------------------------------------------------------------------------------------------


def test_only_sixes_left_scores_sixty_mode() -> None:
    """Keep every six: each of the five dice is a six by the end with chance 1 − (5/6)^3."""
    by_hand = 6 * 5 * hit_within(3)  # = 2730/216 = 12.638…
    assert by_hand == Fraction(2730, 216)
    assert table_value(SIXTY, [Box.SIXES]) == pytest.approx(float(by_hand), abs=EXACT)


def test_only_sixes_left_big_general_ends_the_game() -> None:
    """A first-throw five of a kind ends the game worth 0 more points. Without that rule, the
    first throw 6-6-6-6-6 (chance 1/7776) is worth 30 (write Sixes), and each k-k-k-k-k with k ≠ 6
    (chance 5/7776 together) holds no six and rerolls all five dice twice: 30·(1 − (5/6)^2).
    Every other first throw plays out the same under both rules."""
    sixty = 6 * 5 * hit_within(3)
    worth_otherwise = Fraction(1, 7776) * 30 + Fraction(5, 7776) * 30 * hit_within(2)
    by_hand = sixty - worth_otherwise
    assert worth_otherwise == (30 + Fraction(5 * 30 * 11, 36)) / 7776  # = 0.00975…
    assert table_value(DEFAULT, [Box.SIXES]) == pytest.approx(float(by_hand), abs=EXACT)
    # The two rules' difference is that and only that.
    difference = table_value(SIXTY, [Box.SIXES]) - table_value(DEFAULT, [Box.SIXES])
    assert difference == pytest.approx(float(worth_otherwise), abs=EXACT)


def test_only_general_left_is_the_classic_yahtzee_chance() -> None:
    """P(five of a kind within three throws, keeping the most common face) = 2783176/60466176."""
    yahtzee = Fraction(2783176, 60466176)
    sixty = table_value(SIXTY, [Box.GENERAL])
    assert sixty >= float(60 * yahtzee) - EXACT  # the engine can do no worse than that policy
    assert sixty == pytest.approx(float(60 * yahtzee), abs=EXACT)  # and that policy is optimal
    # With the default rule the first-throw five of a kind (chance 6/7776) ends the game instead
    # of scoring 60; nothing else changes.
    ends = table_value(DEFAULT, [Box.GENERAL])
    assert ends == pytest.approx(float(60 * (yahtzee - Fraction(6, 7776))), abs=EXACT)


def test_only_general_after_first_throw_keeps_the_most_common_face() -> None:
    options = choices(SIXTY, [Box.GENERAL], (3, 3, 3, 5, 1), 1)
    assert options[0].keep == (3, 3, 3)
    # Two throws left for the two free dice: each must come up 3; a die that does is kept.
    by_hand = 60 * hit_within(2) ** 2
    assert options[0].expected == pytest.approx(float(by_hand), abs=EXACT)
    # Writing now scores 0 in General.
    assert by_box(options)[Box.GENERAL].expected == 0


@pytest.mark.parametrize(
    ("variants", "box", "dice", "points"),
    [
        (DEFAULT, Box.FOURS, (4, 4, 1, 2, 4), 12),
        (DEFAULT, Box.FULL_HOUSE, (3, 3, 5, 5, 5), 30),
        (DEFAULT, Box.STRAIGHT, (1, 3, 4, 5, 6), 20),  # the 1 plays the 2
        (variants_of(BigGeneralMode.ENDS_GAME, False, False), Box.STRAIGHT, (1, 3, 4, 5, 6), 0),
        (DEFAULT, Box.FULL_HOUSE, (2, 2, 2, 2, 2), 0),
        (variants_of(BigGeneralMode.ENDS_GAME, True, True), Box.FULL_HOUSE, (2, 2, 2, 2, 2), 30),
        (DEFAULT, Box.FOUR, (6, 6, 6, 6, 1), 40),
        (DEFAULT, Box.GENERAL, (6, 6, 6, 6, 6), 60),
        (DEFAULT, Box.ONES, (2, 3, 4, 5, 6), 0),
    ],
)
def test_one_box_open_last_throw_is_the_score_now(
    variants: Variants, box: Box, dice: tuple[int, ...], points: int
) -> None:
    options = choices(variants, [box], dice, 3, total=97)
    assert options == [Choice(97.0 + points, box=box, points=points)]


def test_two_boxes_open_last_throw_weighs_now_against_later() -> None:
    """(2,2,2,1,1) with Ones and Twos open, last throw of the second-to-last turn (SCORES_SIXTY):
    Twos now is 6 + V(Ones) = 6 + 5·(1 − (5/6)^3);
    Ones now is 2 + V(Twos) = 2 + 10·(1 − (5/6)^3)."""
    options = choices(SIXTY, [Box.ONES, Box.TWOS], (2, 2, 2, 1, 1), 3)
    twos = 6 + 1 * 5 * hit_within(3)
    ones = 2 + 2 * 5 * hit_within(3)
    assert [o.box for o in options] == [Box.TWOS, Box.ONES]
    assert options[0].expected == pytest.approx(float(twos), abs=EXACT)
    assert options[1].expected == pytest.approx(float(ones), abs=EXACT)


def test_first_throw_prices_and_the_only_four_box() -> None:
    """5-5-5-5-1 on the first throw with only Four open: writing now is 45 exactly."""
    options = choices(DEFAULT, [Box.FOUR], (5, 5, 5, 5, 1), 1, total=10)
    assert by_box(options)[Box.FOUR].expected == 55
    assert options[0].box is Box.FOUR  # 45 now beats anything later (40 at most)


def test_choices_on_the_last_throw_are_only_boxes() -> None:
    rng = random.Random(7)
    for _ in range(20):
        open_boxes = [b for b in SHEET_ORDER if rng.random() < 0.6] or [Box.GENERAL]
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        options = choices(DEFAULT, open_boxes, dice, 3)
        assert all(o.keep is None for o in options)
        assert sorted(o.box.index for o in options if o.box) == sorted(b.index for b in open_boxes)


@pytest.mark.parametrize("dice", [(1, 2, 3, 4, 5), (2, 2, 4, 6, 5), (3, 3, 3, 1, 1), (6,) * 5])
@pytest.mark.parametrize("throws", [1, 2])
def test_choices_before_the_last_throw_include_every_keep_that_throws(
    dice: tuple[int, ...], throws: int
) -> None:
    open_boxes = [Box.TWOS, Box.STRAIGHT, Box.GENERAL]
    options = choices(SIXTY, open_boxes, dice, throws)
    keeps = [o.keep for o in options if o.keep is not None]
    assert len(keeps) == len(set(keeps))
    assert set(keeps) == throwing_keeps(dice)
    # Every sub-multiset but the whole: all five held is no throw.
    assert len(keeps) == math.prod(c + 1 for c in Counter(dice).values()) - 1
    assert {o.box for o in options if o.box is not None} == set(open_boxes)
    # Best first.
    assert [o.expected for o in options] == sorted((o.expected for o in options), reverse=True)


def test_judge_values_the_choice_made_and_the_best_as_choices_ranks_them() -> None:
    """The review's shortcut agrees with the full ranking, ties included (all-ones dice, a
    single open box and the like make equal expectations common)."""
    rng = random.Random(11)
    for variants in (DEFAULT, SIXTY):
        for _ in range(150):
            open_boxes = [b for b in SHEET_ORDER if rng.random() < 0.5] or [rng.choice(SHEET_ORDER)]
            dice = tuple(rng.choice((1, 1, 6, rng.randint(1, 6))) for _ in range(5))
            throws, total = rng.randint(1, 3), rng.randint(0, 200)
            options = choices(variants, open_boxes, dice, throws, total)
            for made in options:
                assert judge(variants, open_boxes, dice, throws, made, total) == (made, options[0])


def test_choices_need_thrown_dice() -> None:
    for throws in (0, 4):
        with pytest.raises(ValueError):
            choices(DEFAULT, [Box.ONES], (1, 2, 3, 4, 5), throws)


def test_held_positions_hold_exactly_the_kept_faces() -> None:
    assert held_positions((2, 6, 2, 4, 5), (2, 2)) == frozenset({0, 2})
    assert held_positions((2, 6, 2, 4, 5), ()) == frozenset()
    assert held_positions((3, 3, 3, 3, 3), (3, 3, 3)) == frozenset({0, 1, 2})
    with pytest.raises(ValueError):
        held_positions((2, 6, 2, 4, 5), (2, 2, 2))


# ---------------------------------------------------------------------------------------------
# The original's advice: 2-2-4-6 early in the game
# ---------------------------------------------------------------------------------------------

TWO_TWO_FOUR_SIX = (2, 2, 4, 6, 5)


def test_two_two_four_six_early_write_twos_not_sixes() -> None:
    """All boxes open, the first turn's last throw shows 2-2-4-6 and a 5. Twos now is 4 points,
    Sixes now 6, but an open Sixes box is worth far more later than an open Twos box: Twos leads
    to 148.13 expected final points, Sixes to 140.22 — a gap of 7.91 points. Twos is the best
    choice of all."""
    options = choices(DEFAULT, list(SHEET_ORDER), TWO_TWO_FOUR_SIX, 3)
    boxes = by_box(options)
    twos, sixes = boxes[Box.TWOS], boxes[Box.SIXES]
    assert (twos.points, sixes.points) == (4, 6)
    assert options[0] == twos
    gap = twos.expected - sixes.expected
    assert 7.9 < gap < 7.92
    assert twos.expected == pytest.approx(148.13, abs=0.01)
    assert sixes.expected == pytest.approx(140.22, abs=0.01)
    # The gap is the two points given up now against what the still-open box is worth later.
    later = table_value(DEFAULT, [b for b in SHEET_ORDER if b is not Box.TWOS]) - table_value(
        DEFAULT, [b for b in SHEET_ORDER if b is not Box.SIXES]
    )
    assert gap == pytest.approx((4 - 6) + later, abs=EXACT)
    # Whatever the fifth die, Twos beats Sixes; a sixth six narrows the gap to under two points.
    for fifth in FACES:
        boxes = by_box(choices(DEFAULT, list(SHEET_ORDER), (2, 2, 4, 6, fifth), 3))
        gap = boxes[Box.TWOS].expected - boxes[Box.SIXES].expected
        assert 1.9 < gap < 1.92 if fifth == 6 else gap > 7.9


def test_near_the_end_the_weighing_changes() -> None:
    """With 2-2-4-6-6 Twos (4) beats Sixes (12) early, but with only Twos, Sixes, Full house and
    Four left, Sixes is better by about 2.4 points."""
    early = by_box(choices(DEFAULT, list(SHEET_ORDER), (2, 2, 4, 6, 6), 3))
    assert early[Box.TWOS].expected - early[Box.SIXES].expected == pytest.approx(1.91, abs=0.01)
    late = by_box(
        choices(DEFAULT, [Box.TWOS, Box.SIXES, Box.FULL_HOUSE, Box.FOUR], (2, 2, 4, 6, 6), 3)
    )
    assert late[Box.SIXES].expected - late[Box.TWOS].expected == pytest.approx(2.38, abs=0.01)


def test_first_throw_four_of_a_kind_is_written_only_when_general_is_closed() -> None:
    """6-6-6-6-2 on the first throw: with General open the engine keeps the four sixes and
    throws for the general; with General closed it takes Four at 45 — in every open set."""
    others = [b for b in SHEET_ORDER if b not in (Box.FOUR, Box.GENERAL)]
    for mask in range(1 << len(others)):
        rest = [b for i, b in enumerate(others) if mask >> i & 1]
        for general in (False, True):
            open_boxes = [*rest, Box.FOUR] + ([Box.GENERAL] if general else [])
            best = choices(DEFAULT, open_boxes, (6, 6, 6, 6, 2), 1)[0]
            if general:
                assert best.keep == (6, 6, 6, 6)
            else:
                assert best.box is Box.FOUR


def test_six_six_six_six_two_first_throw_hint_offers_no_wasted_throw() -> None:
    """Issue 14: all boxes open, 6-6-6-6-2 on the first throw. Holding all five and throwing
    nothing would only trade the first-throw price for a later one: it is no option. Keeping the
    four sixes is best; writing Four at 45 now is second, worth 45 + V(the other nine boxes)."""
    options = choices(DEFAULT, list(SHEET_ORDER), (6, 6, 6, 6, 2), 1, total=0)
    assert all(o.keep is None or len(o.keep) < 5 for o in options)
    four = by_box(options)[Box.FOUR]
    rest = [b for b in SHEET_ORDER if b is not Box.FOUR]
    assert four.points == 45
    assert four.expected == pytest.approx(45 + table_value(DEFAULT, rest), abs=EXACT)
    assert [(o.keep, o.box) for o in options[:4]] == [
        ((6, 6, 6, 6), None),
        (None, Box.FOUR),
        ((6, 6, 6), None),
        (None, Box.SIXES),
    ]


def test_no_option_anywhere_holds_all_five() -> None:
    """Over many random positions, rules and both engines (Master's and Club's), every keep
    throws at least one die, and the value of the dice showing after throws 1 and 2 is exactly
    the best of the boxes and those keeps."""
    rng = random.Random(14)
    for _ in range(600):
        variants = rng.choice(ALL_VARIANTS)
        open_boxes = [b for b in SHEET_ORDER if rng.random() < 0.5] or [rng.choice(SHEET_ORDER)]
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        throws, greedy = rng.choice((1, 2)), rng.random() < 0.3
        options = choices(variants, open_boxes, dice, throws, greedy=greedy)
        keeps = [o.keep for o in options if o.keep is not None]
        assert keeps and all(len(keep) < 5 for keep in keeps), (dice, throws)
        tables = solution(variants).turn(open_mask(open_boxes), greedy)
        best = tables.best_after_first if throws == 1 else tables.best_after_second
        assert best[ROLL_INDEX[tuple(sorted(dice))]] == pytest.approx(
            options[0].expected, abs=EXACT
        )


@pytest.mark.parametrize("variants", ALL_VARIANTS)
def test_throwing_nothing_never_beat_best_play_so_the_optimum_stands(variants: Variants) -> None:
    """What holding all five after throw 1 used to be worth (the same dice after throw 2) is, in
    every open set, never more than best play after throw 1: later prices are never higher. So
    dropping that option leaves every value — and the game's optimum — as it was."""
    batch = solution(variants).turns(np.arange(1, FULL + 1, dtype=np.int64))
    assert (batch.best_after_second <= batch.best_after_first + EXACT).all()
    assert (batch.stop_later <= batch.stop_first).all()
    if variants == DEFAULT:
        assert expected_game(DEFAULT) == pytest.approx(155.33515777671414, abs=EXACT)


# ---------------------------------------------------------------------------------------------
# Bellman check by independent enumeration
# ---------------------------------------------------------------------------------------------

# The 7776 equally likely first throws, grouped by the sorted dice they show.
FIRST_THROWS = Counter(tuple(sorted(t)) for t in itertools.product(FACES, repeat=5))


def first_throw_value(variants: Variants, open_boxes: list[Box]) -> float:
    """V(open set) by enumerating the first throw and taking the engine's best choice for each;
    a first-throw five of a kind ends the game worth nothing more where that is the rule."""
    ends = variants.big_general is BigGeneralMode.ENDS_GAME
    total = 0.0
    for dice, ways in FIRST_THROWS.items():
        if ends and len(set(dice)) == 1:
            continue
        total += ways * choices(variants, open_boxes, dice, 1)[0].expected
    return total / 6**5


def test_turn_values_agree_with_first_throw_enumeration() -> None:
    rng = random.Random(11)
    cases = [(DEFAULT, list(SHEET_ORDER)), (SIXTY, [Box.GENERAL, Box.SIXES])]
    for _ in range(6):
        variants = rng.choice(ALL_VARIANTS)
        open_boxes = [b for b in SHEET_ORDER if rng.random() < 0.4] or [Box.FOUR]
        cases.append((variants, open_boxes))
    for variants, open_boxes in cases:
        assert first_throw_value(variants, open_boxes) == pytest.approx(
            table_value(variants, open_boxes), abs=EXACT
        )


def next_stage_best(
    variants: Variants, open_boxes: list[Box], throws: int, total: int
) -> Callable[[tuple[int, ...]], float]:
    """The engine's best expected value for the dice showing after throw `throws` (memoised)."""
    best: dict[tuple[int, ...], float] = {}

    def best_after(shown: tuple[int, ...]) -> float:
        key = tuple(sorted(shown))
        if key not in best:
            best[key] = max(o.expected for o in choices(variants, open_boxes, key, throws, total))
        return best[key]

    return best_after


def test_bellman_no_single_deviation_improves_on_sampled_positions() -> None:
    """For ~30 random positions: each keep's value is the plain average, over every outcome of
    throwing the other dice, of the best choice after that throw; each box's value is its score
    now (by the reference scorer) plus the engine's value of the rest; no option beats the best."""
    rng = random.Random(20240605)
    checked_keeps = 0
    for _ in range(30):
        variants = rng.choice(ALL_VARIANTS)
        open_boxes = [b for b in SHEET_ORDER if rng.random() < 0.5] or [rng.choice(SHEET_ORDER)]
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        throws = rng.choice((1, 2))
        total = rng.randint(0, 150)
        options = choices(variants, open_boxes, dice, throws, total)
        assert {o.keep for o in options if o.keep is not None} == throwing_keeps(dice)

        best_after = next_stage_best(variants, open_boxes, throws + 1, total)
        enumerated = []
        for option in options:
            if option.keep is not None:
                outcomes = list(itertools.product(FACES, repeat=5 - len(option.keep)))
                value = sum(best_after(option.keep + o) for o in outcomes) / len(outcomes)
                checked_keeps += 1
            else:
                assert option.box is not None
                rest = [b for b in open_boxes if b is not option.box]
                now = reference_score(option.box, dice, throws == 1, variants)
                assert option.points == now
                value = total + now + table_value(variants, rest)
            assert value == pytest.approx(option.expected, abs=EXACT), (dice, throws, option)
            enumerated.append(value)
        assert max(enumerated) <= options[0].expected + EXACT
        assert max(enumerated) == pytest.approx(options[0].expected, abs=EXACT)
    assert checked_keeps > 300


# ---------------------------------------------------------------------------------------------
# Whole games: simulation and the variants
# ---------------------------------------------------------------------------------------------

GAMES = 20_000


@pytest.mark.parametrize(
    "variants",
    [DEFAULT, variants_of(BigGeneralMode.SCORES_SIXTY, True, False)],
    ids=["default", "sixty-full-house-no-joker"],
)
def test_master_simulation_agrees_with_the_expected_game(variants: Variants) -> None:
    result = simulate(variants, Level.MASTER, GAMES, seed=5)
    value = expected_game(variants)
    assert result.games == GAMES
    assert result.standard_error == pytest.approx(result.std / math.sqrt(GAMES))
    assert 0.1 < result.standard_error < 0.5
    assert abs(result.mean - value) < 4 * result.standard_error
    if variants.big_general is BigGeneralMode.ENDS_GAME:
        # Each game's turn starts with a 6/7776 chance of a big general that ends it.
        expected = GAMES * (1 - (1 - 6 / 7776) ** 10)
        assert abs(result.big_generals - expected) < 5 * math.sqrt(expected)
    else:
        assert result.big_generals == 0


def test_levels_rank_master_club_novice() -> None:
    means = {}
    for level in Level:
        result = simulate(DEFAULT, level, GAMES, seed=9)
        means[level] = result
    master, club, novice = means[Level.MASTER], means[Level.CLUB], means[Level.NOVICE]
    margin = 4 * max(r.standard_error for r in means.values())
    assert master.mean > club.mean + margin
    assert club.mean > novice.mean + margin
    # No policy can beat the optimum in expectation.
    assert club.mean < expected_game(DEFAULT) + margin


def test_expected_game_for_every_variant() -> None:
    values = {}
    for variants in ALL_VARIANTS:
        value = expected_game(variants)
        assert math.isfinite(value)
        assert 100 < value < 200
        values[
            variants.big_general, variants.five_of_a_kind_full_house, variants.straight_joker
        ] = value
    for big, full in itertools.product(BigGeneralMode, (False, True)):
        # Removing the joker takes straights away: never worth more.
        assert values[big, full, False] < values[big, full, True]
    for big, joker in itertools.product(BigGeneralMode, (False, True)):
        # Five of a kind as a full house adds a way to score: never worth less.
        assert values[big, True, joker] >= values[big, False, joker]
    for full, joker in itertools.product((False, True), (False, True)):
        # A big general that scores instead of ending the game (worth 0 more points) can only help.
        ends = values[BigGeneralMode.ENDS_GAME, full, joker]
        assert values[BigGeneralMode.SCORES_SIXTY, full, joker] > ends
    assert expected_game(DEFAULT) == values[BigGeneralMode.ENDS_GAME, False, True]


def test_the_turn_tables_of_many_sets_are_those_of_each_set() -> None:
    """Solution.turns (the simulator's, vectorised) row by row is Solution.turn (the hint's), up
    to the rounding of matrix products of other shapes."""
    sol = solution(DEFAULT)
    masks = np.array([FULL, 1, open_mask([Box.ONES, Box.STRAIGHT, Box.GENERAL])], dtype=np.int64)
    batch = sol.turns(masks)
    np.testing.assert_allclose(batch.values, sol.value[masks], rtol=0, atol=EXACT)
    for index, mask in enumerate(masks):
        row, one = batch.row(index), sol.turn(int(mask))
        for name in TurnTables.__dataclass_fields__:
            np.testing.assert_allclose(getattr(row, name), getattr(one, name), rtol=0, atol=EXACT)
