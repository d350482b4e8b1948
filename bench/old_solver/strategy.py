"""The exact expected-score-maximising strategy for one player's sheet, for each rule variant.

With no bonus, the best play depends only on which boxes are still open (2^10 sheets), the dice
showing and the throws made: a retrograde dynamic programme over the open sets, and within a turn
over the 252 distinct dice sets, the keeps between throws and the box to write. A keep throws at
least one die (holding all five is no throw: stopping is writing a box). A big general that ends
the game is a terminal chance outcome worth no further points: it is never a choice.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from core.boxes import ALL_BOXES, Box
from core.dice import DICE_COUNT, FACES, Dice
from core.rules import BigGeneralMode, Variants, score

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

BOX_COUNT = len(ALL_BOXES)
FULL = (1 << BOX_COUNT) - 1
NEG = -1e18


def _multisets(size: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations_with_replacement(range(1, FACES + 1), size))


ROLLS: list[Dice] = _multisets(DICE_COUNT)
ROLL_INDEX: dict[Dice, int] = {roll: i for i, roll in enumerate(ROLLS)}
# Every keep throws at least one die: sizes 0 to 4, 210 in all.
KEEPS: list[tuple[int, ...]] = [k for size in range(DICE_COUNT) for k in _multisets(size)]
KEEP_INDEX: dict[tuple[int, ...], int] = {keep: i for i, keep in enumerate(KEEPS)}


def _probability(outcome: tuple[int, ...]) -> float:
    """Chance that len(outcome) fair dice show exactly this multiset."""
    ways = math.factorial(len(outcome))
    for count in Counter(outcome).values():
        ways //= math.factorial(count)
    return ways / math.pow(FACES, len(outcome))


def _tables() -> tuple[FloatArray, IntArray, list[list[int]]]:
    """Keep → dice transition probabilities; for each dice set, the keeps it allows (its proper
    sub-multisets: holding all five is not a throw)."""
    transition = np.zeros((len(KEEPS), len(ROLLS)))
    for k, keep in enumerate(KEEPS):
        for outcome in _multisets(DICE_COUNT - len(keep)):
            result = tuple(sorted(keep + outcome))
            transition[k, ROLL_INDEX[result]] += _probability(outcome)
    options: list[list[int]] = []
    for roll in ROLLS:
        subsets = {
            tuple(sorted(roll[i] for i in range(DICE_COUNT) if mask >> i & 1))
            for mask in range((1 << DICE_COUNT) - 1)
        }
        options.append(sorted(KEEP_INDEX[s] for s in subsets))
    width = max(len(o) for o in options)
    padded = np.array([o + [o[-1]] * (width - len(o)) for o in options], dtype=np.int64)
    return transition, padded, options


TRANSITION, KEEP_CHOICES, KEEP_OPTIONS = _tables()
FIRST_ROLL = TRANSITION[KEEP_INDEX[()]]
FIVE_OF_A_KIND = np.array([len(set(r)) == 1 for r in ROLLS])


def best_keep_value(keep_values: FloatArray) -> FloatArray:
    """Per (open set, dice set): the value of its best keep. One column of keeps at a time: all
    of them at once (`keep_values[:, KEEP_CHOICES]`) built 64 MB and took several times longer."""
    best = keep_values[:, KEEP_CHOICES[:, 0]]
    for column in KEEP_CHOICES.T[1:]:
        best = np.maximum(best, keep_values[:, column])
    return best


@dataclass(frozen=True)
class RuleKey:
    """The part of the variants that changes scoring (the table cap does not)."""

    big_general_ends: bool
    five_of_a_kind_full_house: bool
    straight_joker: bool

    @classmethod
    def of(cls, variants: Variants) -> RuleKey:
        return cls(
            variants.big_general is BigGeneralMode.ENDS_GAME,
            variants.five_of_a_kind_full_house,
            variants.straight_joker,
        )

    def variants(self) -> Variants:
        mode = BigGeneralMode.ENDS_GAME if self.big_general_ends else BigGeneralMode.SCORES_SIXTY
        return Variants(mode, self.five_of_a_kind_full_house, self.straight_joker)


@dataclass(frozen=True)
class TurnTables:
    """Everything about one turn from an open set: values of stopping and of each keep."""

    stop_first: FloatArray  # (252,) write the best box at first-throw prices, + future
    stop_later: FloatArray  # (252,) the same at later prices
    keep_after_second: FloatArray  # (210,) keep K after throw 2, roll the rest once
    best_after_second: FloatArray  # (252,) value of dice showing after throw 2
    keep_after_first: FloatArray  # (210,) keep K after throw 1, play on optimally
    best_after_first: FloatArray  # (252,) value of dice showing after throw 1
    value: float  # expected points of this turn and all later ones


@dataclass(frozen=True)
class TurnBatch:
    """TurnTables for many open sets at once: each table has one row per set."""

    stop_first: FloatArray  # (sets, 252)
    stop_later: FloatArray  # (sets, 252)
    keep_after_second: FloatArray  # (sets, 210)
    best_after_second: FloatArray  # (sets, 252)
    keep_after_first: FloatArray  # (sets, 210)
    best_after_first: FloatArray  # (sets, 252)
    values: FloatArray  # (sets,)

    def row(self, index: int) -> TurnTables:
        return TurnTables(
            self.stop_first[index],
            self.stop_later[index],
            self.keep_after_second[index],
            self.best_after_second[index],
            self.keep_after_first[index],
            self.best_after_first[index],
            float(self.values[index]),
        )


class Solution:
    """The solved game for one rule set: V[open set] and per-turn tables on demand."""

    def __init__(self, rules: RuleKey) -> None:
        self.rules = rules
        variants = rules.variants()
        self.points_first = np.array(
            [[score(b, r, True, variants) for r in ROLLS] for b in ALL_BOXES], dtype=np.float64
        )
        self.points_later = np.array(
            [[score(b, r, False, variants) for r in ROLLS] for b in ALL_BOXES], dtype=np.float64
        )
        self.value = np.zeros(FULL + 1)
        self._solve()

    def _solve(self) -> None:
        by_size: dict[int, list[int]] = {}
        for mask in range(1, FULL + 1):
            by_size.setdefault(mask.bit_count(), []).append(mask)
        for size in range(1, BOX_COUNT + 1):
            masks = np.array(by_size[size], dtype=np.int64)
            self.value[masks] = self.turns(masks).values

    def _stops(self, masks: IntArray, points: FloatArray, future: FloatArray) -> FloatArray:
        best = np.full((len(masks), len(ROLLS)), NEG)
        for b in range(BOX_COUNT):
            bit = 1 << b
            has = (masks & bit) != 0
            candidate = points[b][None, :] + future[masks ^ bit][:, None]
            best = np.where(has[:, None], np.maximum(best, candidate), best)
        return best

    def turns(self, masks: IntArray, future: FloatArray | None = None) -> TurnBatch:
        """Turn tables for many open sets at once (vectorised over the sets); `future` values
        the sheets after this turn (by default the solution's own values)."""
        future = self.value if future is None else future
        stop_first = self._stops(masks, self.points_first, future)
        stop_later = self._stops(masks, self.points_later, future)
        # After throws 2 and 1: write now, or keep some dice and throw the others.
        keep2 = stop_later @ TRANSITION.T
        best2 = np.maximum(stop_later, best_keep_value(keep2))
        keep1 = best2 @ TRANSITION.T
        best1 = np.maximum(stop_first, best_keep_value(keep1))
        outcome = np.where(FIVE_OF_A_KIND, 0.0, best1) if self.rules.big_general_ends else best1
        values = outcome @ FIRST_ROLL
        return TurnBatch(stop_first, stop_later, keep2, best2, keep1, best1, values)

    @cache  # noqa: B019 - one Solution per rule set lives for the process
    def turn(self, open_mask: int, greedy: bool = False) -> TurnTables:
        """The tables of a turn; `greedy` values only this turn's points (the Club computer)."""
        future = np.zeros(FULL + 1) if greedy else self.value
        return self.turns(np.array([open_mask], dtype=np.int64), future).row(0)


@cache
def solve(rules: RuleKey) -> Solution:
    return Solution(rules)


def solution(variants: Variants) -> Solution:
    return solve(RuleKey.of(variants))


def open_mask(boxes: tuple[Box, ...] | list[Box]) -> int:
    mask = 0
    for box in boxes:
        mask |= 1 << box.index
    return mask


@dataclass(frozen=True)
class Choice:
    """A legal decision and the expected final points after it with best play (`total` included).

    `keep` is the dice held before the next throw (sorted faces, four at most: a throw throws at
    least one die), or `box` the box written.
    """

    expected: float
    keep: tuple[int, ...] | None = None
    box: Box | None = None
    points: int = 0  # what the box would get now (box choices only)

    @property
    def is_score(self) -> bool:
        return self.box is not None


class _Option(NamedTuple):
    """A choice before it is a Choice (the same fields, in the same order), cheap in bulk."""

    expected: float
    keep: tuple[int, ...] | None
    box: Box | None
    points: int


def _options(
    variants: Variants,
    open_boxes: tuple[Box, ...] | list[Box],
    dice: Dice,
    throws: int,
    total: int,
    greedy: bool,
) -> list[_Option]:
    """Every legal choice, boxes in sheet order then keeps, unranked."""
    if not 1 <= throws <= 3:
        raise ValueError("choices exist once the dice are thrown, after throw 1, 2 or 3")
    sol = solution(variants)
    mask = open_mask(open_boxes)
    future = np.zeros(FULL + 1) if greedy else sol.value
    roll = ROLL_INDEX[tuple(sorted(dice))]
    points = sol.points_first if throws == 1 else sol.points_later
    found = [
        _Option(
            total + float(points[b.index, roll] + future[mask ^ (1 << b.index)]),
            None,
            b,
            int(points[b.index, roll]),
        )
        for b in open_boxes
    ]
    if throws < 3:
        tables = sol.turn(mask, greedy)
        keeps = tables.keep_after_first if throws == 1 else tables.keep_after_second
        found += [_Option(total + float(keeps[k]), KEEPS[k], None, 0) for k in KEEP_OPTIONS[roll]]
    return found


def _rank(option: _Option) -> tuple[float, bool, int]:
    """Best first: the higher expectation; on a tie a box before a keep, a shorter keep first."""
    return -option.expected, option.box is None, len(option.keep or ())


def choices(
    variants: Variants,
    open_boxes: tuple[Box, ...] | list[Box],
    dice: Dice,
    throws: int,
    total: int = 0,
    greedy: bool = False,
) -> list[Choice]:
    """Every legal choice with its expected final points, best first (for `throws` made ≥ 1)."""
    ranked = sorted(_options(variants, open_boxes, dice, throws, total, greedy), key=_rank)
    return [Choice(expected, keep, box, points) for expected, keep, box, points in ranked]


def judge(
    variants: Variants,
    open_boxes: tuple[Box, ...] | list[Box],
    dice: Dice,
    throws: int,
    made: Choice,
    total: int = 0,
) -> tuple[Choice, Choice]:
    """The choice `made` (its box or keep) valued, and the best choice: what choices() would
    list, without ranking them all (the post-game review weighs every decision of a game)."""
    options = _options(variants, open_boxes, dice, throws, total, False)
    mine = next((o for o in options if o.box == made.box and o.keep == made.keep), None)
    if mine is None:
        mine = _threw_nothing(variants, open_boxes, dice, throws, made, total)
    best = min(options, key=_rank)  # the first of equals, as the stable sort of choices()
    return Choice(*mine), Choice(*best)


def _threw_nothing(
    variants: Variants,
    open_boxes: tuple[Box, ...] | list[Box],
    dice: Dice,
    throws: int,
    made: Choice,
    total: int,
) -> _Option:
    """A throw with all five dice held, never a choice but in logs from before the rules refused
    it: worth what the same dice are worth after one more throw (at later prices)."""
    shown = tuple(sorted(dice))
    if made.keep != shown or throws >= 3:
        raise ValueError(f"{made} is no choice with {dice} after throw {throws}")
    tables = solution(variants).turn(open_mask(open_boxes))
    after = tables.best_after_second if throws == 1 else tables.stop_later
    return _Option(total + float(after[ROLL_INDEX[shown]]), shown, None, 0)


def expected_game(variants: Variants) -> float:
    """The optimal expected final score of a whole solo game under these rules."""
    return float(solution(variants).value[FULL])


def held_positions(dice: Dice, keep: tuple[int, ...]) -> frozenset[int]:
    """Which positions to hold so that exactly the faces `keep` stay."""
    wanted = Counter(keep)
    positions = set()
    for i, face in enumerate(dice):
        if wanted[face] > 0:
            wanted[face] -= 1
            positions.add(i)
    if +wanted:
        raise ValueError(f"{keep} is not part of {dice}")
    return frozenset(positions)
