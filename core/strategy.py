"""The exact expected-score-maximising strategy for one player's sheet, for each rule variant.

With no bonus, the best play depends only on which boxes are still open (2^10 sheets), the dice
showing and the throws made: a retrograde dynamic programme over the open sets, and within a turn
over the 252 distinct dice sets, the keeps between throws and the box to write. A keep throws at
least one die (holding all five is no throw: stopping is writing a box). A big general that ends
the game is a terminal chance outcome worth no further points: it is never a choice.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from core.boxes import ALL_BOXES, Box
from core.dice import DICE_COUNT, FACES, Dice
from core.once import once
from core.rules import BigGeneralMode, Variants, sheet_scores

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
MASKS = np.arange(FULL + 1, dtype=np.int64)
ZERO_FUTURE = np.zeros(FULL + 1)  # the greedy (Club) engine's value of every later sheet
ZERO_FUTURE.flags.writeable = False


def _lattice() -> tuple[list[tuple[int, int, IntArray]], IntArray]:
    """The keeps as a lattice, for the best keep below a dice set without listing its options:
    for each size s ≥ 1, the range of KEEPS of that size and, per keep, the s keeps one die
    smaller (a repeated face repeats one); and for each dice set its five keeps of four dice
    (every proper sub-multiset of a dice set lies inside one of them)."""
    levels: list[tuple[int, int, IntArray]] = []
    for size in range(1, DICE_COUNT):
        members = [k for k, keep in enumerate(KEEPS) if len(keep) == size]
        parents = [
            [KEEP_INDEX[KEEPS[k][:i] + KEEPS[k][i + 1 :]] for i in range(size)] for k in members
        ]
        levels.append((members[0], members[-1] + 1, np.array(parents, dtype=np.int64)))
    rolls = [[KEEP_INDEX[roll[:i] + roll[i + 1 :]] for i in range(DICE_COUNT)] for roll in ROLLS]
    return levels, np.array(rolls, dtype=np.int64)


KEEP_LATTICE, ROLL_PARENTS = _lattice()


def _open_sets() -> tuple[IntArray, IntArray, list[IntArray]]:
    """Per open set: how many boxes are open and which (in sheet order, padded with −1); the open
    sets of each size in increasing order (the order of the retrograde solve)."""
    sizes = np.array([mask.bit_count() for mask in range(FULL + 1)], dtype=np.int64)
    boxes = np.full((FULL + 1, BOX_COUNT), -1, dtype=np.int64)
    for mask in range(FULL + 1):
        found = [b for b in range(BOX_COUNT) if mask >> b & 1]
        boxes[mask, : len(found)] = found
    return sizes, boxes, [MASKS[sizes == size] for size in range(BOX_COUNT + 1)]


OPEN_COUNT, OPEN_BOXES, MASKS_OF_SIZE = _open_sets()


def best_keep_value(keep_values: FloatArray) -> FloatArray:
    """Per (open set, dice set): the value of its best keep, the largest over the dice set's
    proper sub-multisets. Through the lattice: a keep's best is the larger of its own value and
    its one-die-smaller keeps' bests, and a dice set's the largest of its five four-dice keeps'
    (1,980 row maxima in all, against 31 × 252 columns when every option is taken; a maximum
    does not round, so the result is the same to the bit). Rows are keeps and dice sets there,
    every step a whole contiguous row. The result is a transposed view."""
    below = keep_values.T.copy()  # (210, sets): per keep, the best keep inside it
    for low, high, parents in KEEP_LATTICE:
        level = below[low:high]
        for column in parents.T:
            np.maximum(level, below[column], out=level)
    best = below[ROLL_PARENTS[:, 0]]
    for column in ROLL_PARENTS.T[1:]:
        np.maximum(best, below[column], out=best)
    result: FloatArray = best.T
    return result


def best_keep(keep_values: FloatArray) -> tuple[FloatArray, IntArray]:
    """best_keep_value with the best keep's index: the first of equals in KEEPS order (as taking
    each dice set's options in that order and replacing the best only by a larger value)."""
    value = keep_values.T.copy()
    index = np.repeat(np.arange(len(KEEPS), dtype=np.int64)[:, None], value.shape[1], axis=1)

    def take(value_to: FloatArray, index_to: IntArray, rows: IntArray) -> None:
        other, other_index = value[rows], index[rows]
        better = (other > value_to) | ((other == value_to) & (other_index < index_to))
        np.copyto(value_to, other, where=better)
        np.copyto(index_to, other_index, where=better)

    for low, high, parents in KEEP_LATTICE:
        for column in parents.T:
            take(value[low:high], index[low:high], column)
    best, best_index = value[ROLL_PARENTS[:, 0]], index[ROLL_PARENTS[:, 0]]
    for column in ROLL_PARENTS.T[1:]:
        take(best, best_index, column)
    return best.T, best_index.T


def box_candidates(
    masks: IntArray, size: int, points: FloatArray, future: FloatArray
) -> tuple[IntArray, FloatArray]:
    """For open sets of one size: their open boxes (sheet order) and, per box and dice set, its
    points now plus the value of what stays open: (sets, size) and (sets, size, 252)."""
    boxes = OPEN_BOXES[masks, :size]
    candidates = points[boxes] + future[masks[:, None] ^ (1 << boxes)][:, :, None]
    return boxes, candidates


def stops(masks: IntArray, points: FloatArray, future: FloatArray) -> FloatArray:
    """Per (open set, dice set): the best box to write now, its points plus the future (NEG
    where no box is open). Open sets of each size at once, every open box a column."""
    sizes = OPEN_COUNT[masks]
    if len(masks) and (sizes == sizes[0]).all() and sizes[0] > 0:
        best: FloatArray = box_candidates(masks, int(sizes[0]), points, future)[1].max(axis=1)
        return best
    best = np.full((len(masks), len(ROLLS)), NEG)
    for size in np.unique(sizes[sizes > 0]):
        rows = np.flatnonzero(sizes == size)
        best[rows] = box_candidates(masks[rows], int(size), points, future)[1].max(axis=1)
    return best


def _row_by_row(rows: FloatArray, matrix: FloatArray) -> FloatArray:
    """rows @ matrix one row at a time (numpy's matmul over a stack of 1 × n matrices calls the
    BLAS for each as it would for that row alone): the rounding of a single open set's tables,
    which a product of many rows at once does not keep to the bit."""
    product: FloatArray = np.matmul(rows[:, None, :], matrix)[:, 0]
    return product


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
        variants = rules.variants()
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
        """turns(masks, future).values without keeping the tables on the way."""
        stop_later = stops(masks, self.points_later, future)
        best = np.maximum(stop_later, best_keep_value(stop_later @ TRANSITION.T), order="C")
        best = np.maximum(
            stops(masks, self.points_first, future),
            best_keep_value(best @ TRANSITION.T),
            order="C",
        )
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
        keep2 = _row_by_row(stop_later, TRANSITION.T)
        best2 = np.maximum(stop_later, best_keep_value(keep2), order="C")
        del stop_later
        return KeepTables(_row_by_row(best2, TRANSITION.T), keep2)


# Solutions are small (the value table and the points: 50 KiB) and there are only eight rule
# sets: all are kept. What is big is kept in bounded caches: the keep values of the open sets
# hints and computers have asked about (KEEP_ROWS_KEPT rows, 3.4 KiB each: 7 MiB at most, one
# rule set's every open set for Master and Club), and core.distribution's distributions.
RULE_SETS = 8
KEEP_ROWS_KEPT = 2 * FULL + 2


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
