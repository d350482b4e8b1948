"""The exact expected-score-maximising strategy for one player's sheet, for each rule variant.

With no bonus, the best play depends only on which boxes are still open (2^10 sheets), the dice
showing and the throws made: a retrograde dynamic programme over the open sets, and within a turn
over the 252 distinct dice sets, the keeps between throws and the box to write. A keep throws at
least one die (holding all five is no throw: stopping is writing a box). A big general that ends
the game is a terminal chance outcome worth no further points: it is never a choice.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from core.boxes import Box
from core.dice import Dice
from core.once import once
from core.rules import BigGeneralMode, Variants, sheet_scores
from core.turns import (
    BOX_COUNT,
    FIRST_ROLL,
    FIVE_OF_A_KIND,
    FULL,
    KEEP_INDEX,
    KEEP_OPTIONS,
    KEEPS,
    MASKS,
    MASKS_OF_SIZE,
    ROLL_INDEX,
    ROLLS,
    TRANSITION,
    ZERO_FUTURE,
    FloatArray,
    IntArray,
    best_keep_value,
    row_by_row,
    stops,
)


@dataclass(frozen=True)
class RuleKey:
    """The rules a strategy is solved for: the variants that change scoring, every other at its
    default (Variants.scoring), so that tables differing only in their cap share a solution."""

    variants: Variants

    @classmethod
    def of(cls, variants: Variants) -> RuleKey:
        return cls(variants.scoring())

    @property
    def big_general_ends(self) -> bool:
        """A first-throw five of a kind ends the game: a terminal outcome, never a choice."""
        return self.variants.big_general is BigGeneralMode.ENDS_GAME


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


@dataclass(frozen=True)
class KeepTables:
    """The value of each keep after throws 1 and 2, one row per open set: what a hint, a computer
    and the review read of a turn (each row exactly as Solution.turn computes it for that set
    alone)."""

    keep_after_first: FloatArray  # (sets, 210)
    keep_after_second: FloatArray  # (sets, 210)


class Solution:
    """The solved game for one rule set: V[open set] (8 KiB) and per-turn tables on demand."""

    def __init__(self, rules: RuleKey) -> None:
        self.rules = rules
        variants = rules.variants
        first = [sheet_scores(roll, True, variants) for roll in ROLLS]
        later = [sheet_scores(roll, False, variants) for roll in ROLLS]
        self.points_first = np.ascontiguousarray(np.array(first, dtype=np.float64).T)
        self.points_later = np.ascontiguousarray(np.array(later, dtype=np.float64).T)
        self.value = np.zeros(FULL + 1)
        self._solve()

    def _solve(self) -> None:
        """Open sets of each size at once, from one box up (each size one product of as many
        rows: the value table's rounding)."""
        for size in range(1, BOX_COUNT + 1):
            masks = MASKS_OF_SIZE[size]
            self.value[masks] = self._values(masks, self.value)

    def _values(self, masks: IntArray, future: FloatArray) -> FloatArray:
        """turns(masks, future).values without keeping the tables on the way (each throw's
        best written over its stops: fewer fresh arrays, whose pages cost more than the work)."""
        stop = stops(masks, self.points_later, future)
        best = np.maximum(stop, best_keep_value(stop @ TRANSITION.T), out=stop)
        stop = stops(masks, self.points_first, future)
        best = np.maximum(stop, best_keep_value(best @ TRANSITION.T), out=stop)
        if self.rules.big_general_ends:
            best[:, FIVE_OF_A_KIND] = 0.0
        values: FloatArray = best @ FIRST_ROLL
        return values

    def turns(self, masks: IntArray, future: FloatArray | None = None) -> TurnBatch:
        """Turn tables for many open sets at once (vectorised over the sets); `future` values
        the sheets after this turn (by default the solution's own values)."""
        future = self.value if future is None else future
        stop_first = stops(masks, self.points_first, future)
        stop_later = stops(masks, self.points_later, future)
        # After throws 2 and 1: write now, or keep some dice and throw the others.
        keep2 = stop_later @ TRANSITION.T
        best2 = np.maximum(stop_later, best_keep_value(keep2), order="C")
        keep1 = best2 @ TRANSITION.T
        best1 = np.maximum(stop_first, best_keep_value(keep1), order="C")
        outcome = np.where(FIVE_OF_A_KIND, 0.0, best1) if self.rules.big_general_ends else best1
        values = outcome @ FIRST_ROLL
        return TurnBatch(stop_first, stop_later, keep2, best2, keep1, best1, values)

    def turn(self, open_mask: int, greedy: bool = False) -> TurnTables:
        """The tables of a turn; `greedy` values only this turn's points (the Club computer).
        Worked out on each call (about 0.2 ms; nothing kept: hints read keep_row())."""
        future = ZERO_FUTURE if greedy else self.value
        return self.turns(np.array([open_mask], dtype=np.int64), future).row(0)

    def keep_tables(self, masks: IntArray = MASKS[1:], greedy: bool = False) -> KeepTables:
        """The keep values of these open sets' turns (by default every open set), each row as
        turn() computes it alone: the products row by row, the rest for all at once."""
        future = ZERO_FUTURE if greedy else self.value
        stop_later = stops(masks, self.points_later, future)
        keep2 = row_by_row(stop_later, TRANSITION.T)
        best2 = np.maximum(stop_later, best_keep_value(keep2), out=stop_later)
        return KeepTables(row_by_row(best2, TRANSITION.T), keep2)


# Solutions are small (the value table and the points: 50 KiB) and there are only eight rule
# sets: all are kept. What is big is kept in bounded caches: the keep values of the open sets
# hints and computers have asked about (KEEP_ROWS_KEPT rows, 3.4 KiB each: 7 MiB at most, one
# rule set's every open set for Master and Club), and core.distribution's distributions.
RULE_SETS = 8
KEEP_ROWS_KEPT = 2 * FULL + 2


# Each dice set's keeps as an index array, in KEEP_OPTIONS order: by size, so the first of equal
# values is also the shortest keep, the one choices() ranks first.
KEEP_CHOICES = [np.array(options, dtype=np.int64) for options in KEEP_OPTIONS]


@once(RULE_SETS)
def solve(rules: RuleKey) -> Solution:
    return Solution(rules)


@functools.lru_cache(maxsize=KEEP_ROWS_KEPT)
def keep_row(rules: RuleKey, greedy: bool, mask: int) -> tuple[FloatArray, FloatArray]:
    """One open set's keep values after throws 1 and 2 (Master's, or with `greedy` the Club's),
    kept in a bounded cache: on a miss about 0.1 ms."""
    tables = solve(rules).keep_tables(np.array([mask], dtype=np.int64), greedy)
    first, second = tables.keep_after_first[0], tables.keep_after_second[0]
    first.flags.writeable = second.flags.writeable = False
    return first, second


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
    future = ZERO_FUTURE if greedy else sol.value
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
        keeps = keep_row(sol.rules, greedy, mask)[0 if throws == 1 else 1]
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
    list first, ties broken as it breaks them, found by array lookups instead of one option
    each (the post-game review weighs every decision of every game)."""
    if not 1 <= throws <= 3:
        raise ValueError("choices exist once the dice are thrown, after throw 1, 2 or 3")
    sol = solution(variants)
    mask = open_mask(open_boxes)
    roll = ROLL_INDEX[tuple(sorted(dice))]
    points = sol.points_first if throws == 1 else sol.points_later
    indices = [box.index for box in open_boxes]
    box_points = points[indices, roll]
    box_values = box_points + sol.value[[mask ^ (1 << index) for index in indices]] + total
    first = int(box_values.argmax())  # the first of equals, in the order the boxes came
    best = Choice(float(box_values[first]), None, open_boxes[first], int(box_points[first]))
    mine = None
    if made.box is not None and made.box in open_boxes:
        at = open_boxes.index(made.box)
        mine = Choice(float(box_values[at]), None, made.box, int(box_points[at]))
    if throws < 3:
        keeps = keep_row(sol.rules, False, mask)[0 if throws == 1 else 1]
        allowed = KEEP_CHOICES[roll]
        keep_values = keeps[allowed] + total
        top = int(keep_values.argmax())  # the first of equals is the shortest (KEEP_CHOICES)
        if keep_values[top] > best.expected:  # on a tie a box comes first, as _rank has it
            best = Choice(float(keep_values[top]), KEEPS[int(allowed[top])])
        kept = KEEP_INDEX.get(made.keep) if made.box is None and made.keep is not None else None
        if kept is not None and kept in KEEP_OPTIONS[roll]:
            mine = Choice(total + float(keeps[kept]), KEEPS[kept])
    if mine is None:
        mine = Choice(*_threw_nothing(variants, open_boxes, dice, throws, made, total))
    return mine, best


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
