"""The turn's combinatorics and the vectorised steps of its solve, over many open sets at once.

The 252 dice sets, the 210 keeps (every keep throws at least one die) and the chances between
them; the 1,024 open sets; and the two maxima every table of core.strategy is made of: the best
keep below each dice set and the best box to write. Kept apart from the solve itself so that
each step can be made fast on its own while computing exactly what it always did.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from core.boxes import ALL_BOXES
from core.dice import DICE_COUNT, FACES, Dice

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Int16Array = npt.NDArray[np.int16]

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


def _tables() -> tuple[FloatArray, list[list[int]]]:
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
    return transition, options


TRANSITION, KEEP_OPTIONS = _tables()
FIRST_ROLL = TRANSITION[KEEP_INDEX[()]]
FIVE_OF_A_KIND = np.array([len(set(r)) == 1 for r in ROLLS])
MASKS = np.arange(FULL + 1, dtype=np.int64)
ZERO_FUTURE = np.zeros(FULL + 1)  # the greedy (Club) engine's value of every later sheet
ZERO_FUTURE.flags.writeable = False


class _Lattice(NamedTuple):
    """The keeps as a lattice, for the best keep below a dice set without listing its options.

    A keep's best is the larger of its own value and the bests of the keeps one die smaller, one
    per distinct face it holds; a dice set's the largest of its four-dice keeps' (one per
    distinct face: every proper sub-multiset lies inside one). Rows of the lattice are keeps by
    size, those with the most distinct faces first, so that each step (the t-th distinct face)
    is a run of leading rows: one maximum over a contiguous block, against a gathered row."""

    order: IntArray  # the KEEPS index of each row
    levels: list[tuple[int, list[IntArray]]]  # per size ≥ 1: first row; per step, parents' rows
    rolls: list[IntArray]  # per step: the four-dice keeps' rows of the leading dice sets
    roll_back: IntArray  # per dice set (ROLLS order), its place among the sorted dice sets


def _steps(groups: list[tuple[int, ...]], row: dict[tuple[int, ...], int]) -> list[IntArray]:
    """For multisets sorted by distinct faces (most first): per step t, the rows of the multisets
    one die smaller by their t-th distinct face, for the leading ones that have t + 1 faces."""
    removed = [[g[: g.index(f)] + g[g.index(f) + 1 :] for f in sorted(set(g))] for g in groups]
    width = max(len(r) for r in removed)
    return [
        np.array([row[r[t]] for r in removed if len(r) > t], dtype=np.int64) for t in range(width)
    ]


def _lattice() -> _Lattice:
    def distinct_first(items: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        return sorted(items, key=lambda g: -len(set(g)))

    sizes = [distinct_first(_multisets(size)) for size in range(DICE_COUNT)]
    row = {keep: i for i, keep in enumerate(k for members in sizes for k in members)}
    levels = [(row[members[0]], _steps(members, row)) for members in sizes[1:]]
    rolls = distinct_first(ROLLS)
    place = {roll: i for i, roll in enumerate(rolls)}
    return _Lattice(
        np.array([KEEP_INDEX[k] for members in sizes for k in members], dtype=np.int64),
        levels,
        _steps(rolls, row),
        np.array([place[roll] for roll in ROLLS], dtype=np.int64),
    )


LATTICE = _lattice()
_OUT_OF_REACH = np.int16(1024)  # above every keep's index


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
    proper sub-multisets, through the lattice (1,260 row maxima in all, against 31 × 252
    columns when every option is taken; a maximum does not round, so the result is the same to
    the bit). Rows are keeps and dice sets there, every step whole rows. The result is a
    transposed view."""
    below = keep_values.T[LATTICE.order]  # (210, sets): per keep, the best keep inside it
    for first, steps in LATTICE.levels:
        for parents in steps:
            level = below[first : first + len(parents)]
            np.maximum(level, below[parents], out=level)
    best = _rolls_best(below)
    result: FloatArray = best[LATTICE.roll_back].T
    return result


def _rolls_best(below: FloatArray) -> FloatArray:
    """Per dice set (sorted as the lattice's): the best of its four-dice keeps' bests."""
    best = below[LATTICE.rolls[0]]
    for parents in LATTICE.rolls[1:]:
        leading = best[: len(parents)]
        np.maximum(leading, below[parents], out=leading)
    return best


def best_keep(keep_values: FloatArray) -> tuple[FloatArray, Int16Array]:
    """best_keep_value with the best keep's index: the first of equals in KEEPS order (as taking
    each dice set's options in that order and replacing the best only by a larger value). The
    values first, through the lattice; then the index of each keep and dice set: the least
    index among its one-die-smaller keeps of the same best value, or its own where none has it
    (all earlier in KEEPS order). Masked numpy steps are slow: an index not taken is pushed out
    of reach by arithmetic, and the least kept."""
    below = keep_values.T[LATTICE.order]
    index = np.repeat(LATTICE.order.astype(np.int16)[:, None], below.shape[1], axis=1)
    scratch = np.empty((len(ROLLS), below.shape[1]), dtype=np.int16)

    def least(found: Int16Array, best: FloatArray, rows: IntArray) -> None:
        away = np.multiply(below[rows] != best, _OUT_OF_REACH, out=scratch[: len(rows)])
        np.minimum(found, np.add(away, index[rows], out=away), out=found)

    for first, steps in LATTICE.levels:
        for parents in steps:
            level = below[first : first + len(parents)]
            np.maximum(level, below[parents], out=level)
        for parents in steps:
            rows = slice(first, first + len(parents))
            least(index[rows], below[rows], parents)
    best = _rolls_best(below)
    found = np.full(best.shape, _OUT_OF_REACH, dtype=np.int16)
    for parents in LATTICE.rolls:
        least(found[: len(parents)], best[: len(parents)], parents)
    return best[LATTICE.roll_back].T, found[LATTICE.roll_back].T


def _size_stops(masks: IntArray, size: int, points: FloatArray, future: FloatArray) -> FloatArray:
    """stops() for open sets of one size: their open boxes (sheet order) one at a time, each
    its points now plus the value of what stays open, the best kept (gathered rows of the
    small points table; a maximum does not round)."""
    boxes = OPEN_BOXES[masks, :size]
    left = future[masks[:, None] ^ (1 << boxes)]
    best: FloatArray = points[boxes[:, 0]] + left[:, :1]
    term = np.empty_like(best)
    for j in range(1, size):
        np.maximum(best, np.add(points[boxes[:, j]], left[:, j, None], out=term), out=best)
    return best


def stops(masks: IntArray, points: FloatArray, future: FloatArray) -> FloatArray:
    """Per (open set, dice set): the best box to write now, its points plus the future (NEG
    where no box is open). Open sets of each size at once; for most of the open sets, every
    one through every_stop (fewer and larger steps)."""
    if len(masks) > (FULL + 1) // 2:
        every = every_stop(points, future)
        first = int(masks[0])
        if np.array_equal(masks, MASKS[first : first + len(masks)]):
            return every[first : first + len(masks)]  # a run of masks: a view, not a copy
        chosen: FloatArray = every[masks]
        return chosen
    sizes = OPEN_COUNT[masks]
    if len(masks) and (sizes == sizes[0]).all() and sizes[0] > 0:
        return _size_stops(masks, int(sizes[0]), points, future)
    best = np.full((len(masks), len(ROLLS)), NEG)
    for size in np.unique(sizes[sizes > 0]):
        rows = np.flatnonzero(sizes == size)
        best[rows] = _size_stops(masks[rows], int(size), points, future)
    return best


def _by_box(box: int) -> tuple[int, int, int, int]:
    """The shape that splits the open sets (row = mask) by a box: [:, 1] the sets holding it,
    [:, 0] the sets they leave when it is written, both views."""
    return -1, 2, 1 << box, len(ROLLS)


def _candidates(points: FloatArray, future: FloatArray, box: int, out: FloatArray) -> FloatArray:
    """Per set holding the box (as _by_box splits them) and dice set: the box's points plus
    the future of the set it leaves. With no future (the Club's) the points alone, unrepeated:
    adding 0.0 to them changes nothing."""
    if not future.any():
        alone: FloatArray = points[box]
        return alone
    shape = _by_box(box)
    left = future.reshape(shape[:3])[:, 0, :, None]
    candidate: FloatArray = np.add(left, points[box], out=out.reshape(-1, 1 << box, len(ROLLS)))
    return candidate


def every_stop(points: FloatArray, future: FloatArray) -> FloatArray:
    """stops() of every open set (row = mask), one box at a time over the sets holding it (no
    gathered copies): the same sums as _size_stops', and a maximum does not round."""
    best = np.full((FULL + 1, len(ROLLS)), NEG)
    scratch = np.empty((FULL + 1) // 2 * len(ROLLS))
    for b in range(BOX_COUNT):
        holding = best.reshape(_by_box(b))[:, 1]
        np.maximum(holding, _candidates(points, future, b, scratch), out=holding)
    return best


def best_boxes(points: FloatArray, future: FloatArray) -> tuple[FloatArray, Int16Array]:
    """every_stop with the best box itself: the first of equals in sheet order, as argmax over
    them would take (−1 where no box is open). A box replaces the one held where it is worth
    more, by arithmetic (a masked copy is several times slower)."""
    best = np.full((FULL + 1, len(ROLLS)), NEG)
    boxes = np.full(best.shape, -1, dtype=np.int16)
    scratch = np.empty((FULL + 1) // 2 * len(ROLLS))
    larger = np.empty(scratch.shape, dtype=bool)
    steps = np.empty(scratch.shape, dtype=np.int16)
    for b in range(BOX_COUNT):
        shape = _by_box(b)
        holding, held = best.reshape(shape)[:, 1], boxes.reshape(shape)[:, 1]
        candidate = _candidates(points, future, b, scratch)
        better = np.greater(candidate, holding, out=larger.reshape(holding.shape))
        np.maximum(holding, candidate, out=holding)
        step = np.subtract(np.int16(b), held, out=steps.reshape(held.shape))
        np.add(held, np.multiply(step, better, out=step), out=held)
    return best, boxes


def row_by_row(rows: FloatArray, matrix: FloatArray) -> FloatArray:
    """rows @ matrix one row at a time (numpy's matmul over a stack of 1 × n matrices calls the
    BLAS for each as it would for that row alone): the rounding of a single open set's tables,
    which a product of many rows at once does not keep to the bit."""
    product: FloatArray = np.matmul(rows[:, None, :], matrix)[:, 0]
    return product
