"""Exact distributions of the points still to come when a player follows the Master policy.

The mean is what core.strategy maximises; the win chances (core.chances) need the whole spread.
Under the default rule a big general (chance 6/7776 at the start of every turn, whatever is open)
ends the game: it is kept apart as a per-turn event, and every distribution here is conditioned
on no big general at any turn start still to come (later throws of a turn never end the game).
The policy is the Master's as core.simulation tabulates it: core.strategy's best choice, a stop
preferred to a keep within 1e-9.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.boxes import Box
from core.dice import Dice
from core.levels import Level
from core.once import once
from core.rules import MAX_THROWS, Variants
from core.simulation import Policy, PolicyArray, policy_of
from core.strategy import Choice, RuleKey, Solution, choices, open_mask, solve
from core.turns import (
    BOX_COUNT,
    FIRST_ROLL,
    FIVE_OF_A_KIND,
    FULL,
    KEEP_INDEX,
    KEEPS,
    MASKS,
    MASKS_OF_SIZE,
    ROLL_INDEX,
    ROLLS,
    TRANSITION,
)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

BOX_SPAN = 61  # a box takes 0 to 60 points


@dataclass(frozen=True, eq=False)
class Distributions:
    """One rule set's distributions for every open set (index: the open-set mask)."""

    rules: RuleKey
    solution: Solution
    policy: Policy
    big_general: float  # chance that a turn's first throw ends the game (0 under scores sixty)
    rest: FloatArray  # (1024, length): points still to come, given no big general to the end

    @property
    def turn(self) -> FloatArray:
        """(1024, 10, 61): this turn writes box b for p points, given no big general. Worked out
        again on each read (about 20 ms): only the solve needs it, and it would keep 4.8 MiB."""
        return _turn_table(self.solution, self.policy)

    @property
    def length(self) -> int:
        """Index range of a points distribution (the most a whole sheet can score, plus 1)."""
        return int(self.rest.shape[1])

    def from_start(self, open_boxes: tuple[Box, ...] | list[Box]) -> FloatArray:
        """Points still to come from the start of a turn with these boxes open."""
        pmf: FloatArray = self.rest[open_mask(open_boxes)]
        return pmf


def distributions(variants: Variants) -> Distributions:
    """The distributions of a rule set, solved on first use (the table cap plays no part)."""
    return solve_distributions(RuleKey.of(variants))


DISTRIBUTIONS_KEPT = 4  # rule sets whose distributions are kept: 4.1 MiB each (rest, policy)


@once(DISTRIBUTIONS_KEPT)
def solve_distributions(rules: RuleKey) -> Distributions:
    """Solved on first use, the last DISTRIBUTIONS_KEPT rule sets used kept (a bot whose chats use
    more solves one again when it comes back: about 0.05 s)."""
    return _solve(solve(rules))


def _start(rules: RuleKey) -> tuple[FloatArray, float]:
    """The chance of each first throw given no big general, and that of a big general."""
    start = np.where(FIVE_OF_A_KIND, 0.0, FIRST_ROLL) if rules.big_general_ends else FIRST_ROLL
    return start / start.sum(), 1.0 - float(start.sum())


def _solve(sol: Solution) -> Distributions:
    """The per-turn outcomes of every open set, then chained."""
    tables = policy_of(sol, Level.MASTER)
    most = np.maximum(sol.points_first, sol.points_later).max(axis=1).astype(np.int64)
    rest = _chain(*_turn_cells(sol, tables), int(most.sum()) + 1, most)
    return Distributions(sol.rules, sol, tables, _start(sol.rules)[1], rest)


def _turn_table(sol: Solution, tables: Policy) -> FloatArray:
    """turn[m, b, p]: the chance that the Master's turn from open set m writes p points in box
    b, given no big general (row 0, the full sheet, has no turn left: zeros)."""
    chances, spots = _turn_cells(sol, tables)
    turn = np.zeros((FULL + 1, BOX_COUNT * BOX_SPAN))
    turn[1:, spots] = chances
    return turn.reshape(FULL + 1, BOX_COUNT, BOX_SPAN)


def _turn_cells(sol: Solution, tables: Policy) -> tuple[FloatArray, IntArray]:
    """The turn table's cells that can occur (47 of its 610 (box, points) under every rule set:
    few enough to stay in the cache): per open set but the full sheet (row m − 1), the chance of
    each; and each cell's place (box × BOX_SPAN + points). Each throw's stops counted into the
    cells, the throws' counts added in turn."""
    start = np.broadcast_to(_start(sol.rules)[0], (FULL, len(ROLLS)))
    masks = MASKS[1:]
    cells, spots = _cells(sol)
    rows = np.arange(FULL)[:, None] * len(spots)
    flat = np.zeros(0)
    for first, chance in _walk(tables, masks, start, 1):
        boxes = (tables.box_first if first else tables.box_later)[masks]
        index = rows + np.take(cells[int(first)], boxes * len(ROLLS) + np.arange(len(ROLLS)))
        counts = np.bincount(index.ravel(), chance.ravel(), minlength=rows.size * len(spots))
        if flat.size:
            flat += counts
        else:  # 0.0 + x is x: the first counts are the sum so far (weighted: float64, no copy)
            flat = counts.astype(np.float64, copy=False)
    return flat.reshape(FULL, len(spots)), spots


def _cells(sol: Solution) -> tuple[IntArray, IntArray]:
    """The (box, points) cells writing can reach: per price (later, first), box and dice set its
    cell's number, and per cell its place (box × BOX_SPAN + points) in a turn table's row."""
    points = np.stack([sol.points_later, sol.points_first]).astype(np.int64)
    places = np.arange(BOX_COUNT)[:, None] * BOX_SPAN + points
    spots, cells = np.unique(places, return_inverse=True)
    return cells.reshape(places.shape), spots


# Per size and box: the open sets of that size holding the box.
_HAVING = [[masks[(masks >> b) & 1 == 1] for b in range(BOX_COUNT)] for masks in MASKS_OF_SIZE]


def _chain(chances: FloatArray, spots: IntArray, length: int, most: IntArray) -> FloatArray:
    """rest[m] = Σ over this turn's (box, points) of its chance × rest[m − box] shifted by points,
    open sets solved from the smallest up, from the turn's cells (_turn_cells). Each open set's
    row is added to in the same order (box, then points) on one copy of the rows of a box,
    written back once. A set's row is zero beyond the most its boxes can score (`most`: per
    box), so each term stops there (adding zeros changes nothing)."""
    rest = np.zeros((FULL + 1, length))
    rest[0, 0] = 1.0
    reach = ((MASKS[:, None] >> np.arange(BOX_COUNT)) & 1) @ most
    scratch = np.empty(rest.size)
    written = np.flatnonzero(chances.any(axis=0))  # the cells some turn writes, in place order
    columns = [written[spots[written] // BOX_SPAN == b] for b in range(BOX_COUNT)]
    for size in range(1, BOX_COUNT + 1):
        for b, having in enumerate(_HAVING[size]):
            left = having ^ (1 << b)
            width = int(reach[left].max()) + 1
            after = rest[left, :width]
            chance = chances[np.ix_(having - 1, columns[b])]
            rows = rest[having]
            term = scratch[: after.size].reshape(after.shape)
            for k, p in enumerate(spots[columns[b]] % BOX_SPAN):
                rows[:, p : p + width] += np.multiply(chance[:, k, None], after, out=term)
            rest[having] = rows
    return rest


def _walk(
    tables: Policy, masks: IntArray, start: FloatArray, throws: int
) -> list[tuple[bool, FloatArray]]:
    """Where the Master's turn stops, from `start` (per row, the chance of each dice set showing
    after `throws` throws, row i with open set masks[i]): per later throw, whether it was the
    first, and the chance of stopping there with each dice set."""
    rows = np.arange(len(masks))[:, None] * len(KEEPS)
    ends: list[tuple[bool, FloatArray]] = []
    showing = start
    for throw in range(throws, MAX_THROWS):
        keeps = (tables.keep_after_first if throw == 1 else tables.keep_after_second)[masks]
        stop = keeps < 0
        ends.append((throw == 1, np.where(stop, showing, 0.0)))
        index = rows + np.maximum(keeps, 0)  # a stop (−1) counts nothing into keep 0
        kept = np.bincount(
            index.ravel(), np.where(stop, 0.0, showing).ravel(), minlength=rows.size * len(KEEPS)
        )
        showing = kept.reshape(len(rows), len(KEEPS)) @ TRANSITION
    ends.append((False, showing))
    return ends


def _stops(
    sol: Solution, tables: Policy, masks: IntArray, first: bool
) -> tuple[PolicyArray, IntArray]:
    """The box the Master writes on each dice set, and its points (per row of masks)."""
    boxes = (tables.box_first if first else tables.box_later)[masks]
    points = (sol.points_first if first else sol.points_later)[boxes, np.arange(len(ROLLS))]
    return boxes, points.astype(np.int64)


def _shifted(rows: FloatArray, by: IntArray) -> FloatArray:
    """Each row's distribution moved up by its own number of points."""
    source = np.arange(rows.shape[1])[None, :] - by[:, None]
    moved = np.take_along_axis(rows, np.clip(source, 0, None), axis=1)
    return np.where(source >= 0, moved, 0.0)


def _onward(dist: Distributions, mask: int, start: FloatArray, throws: int) -> FloatArray:
    """Points still to come (one row per row of `start`) from dice showing after `throws`."""
    masks = np.full(len(start), mask, dtype=np.int64)
    result = np.zeros((len(start), dist.length))
    single = np.array([mask], dtype=np.int64)
    for first, chance in _walk(dist.policy, masks, start, throws):
        boxes, points = _stops(dist.solution, dist.policy, single, first)
        after = _shifted(dist.rest[mask ^ (1 << boxes[0])], points[0])
        result += chance @ after
    return result


def _roll_of(dice: Dice, throws: int) -> int:
    """The dice set showing, once thrown (before the first throw no dice show)."""
    if not 1 <= throws <= MAX_THROWS:
        raise ValueError("dice show after throw 1, 2 or 3")
    return ROLL_INDEX[tuple(sorted(dice))]


def within_turn(
    variants: Variants, open_boxes: tuple[Box, ...] | list[Box], dice: Dice, throws: int
) -> FloatArray:
    """Points still to come (this turn's included) from dice showing after `throws` throws."""
    dist = distributions(variants)
    start = np.zeros((1, len(ROLLS)))
    start[0, _roll_of(dice, throws)] = 1.0
    pmf: FloatArray = _onward(dist, open_mask(open_boxes), start, throws)[0]
    return pmf


def after_choices(
    variants: Variants, open_boxes: tuple[Box, ...] | list[Box], dice: Dice, throws: int
) -> list[tuple[Choice, FloatArray]]:
    """Every legal choice (as core.strategy.choices ranks them, total 0) with the distribution of
    the points still to come after it, this turn's included, Master play afterwards."""
    dist = distributions(variants)
    mask = open_mask(open_boxes)
    options = choices(variants, open_boxes, dice, throws)
    keeps = [KEEP_INDEX[c.keep] for c in options if c.keep is not None]
    kept = iter(_onward(dist, mask, TRANSITION[keeps], throws + 1) if keeps else ())
    found: list[tuple[Choice, FloatArray]] = []
    for choice in options:
        if choice.box is None:
            found.append((choice, next(kept)))
            continue
        after = dist.rest[mask ^ (1 << choice.box.index)][None, :]
        points = np.array([choice.points], dtype=np.int64)
        found.append((choice, _shifted(after, points)[0]))
    return found


def mean(pmf: FloatArray) -> float:
    """The mean points of a distribution indexed by points."""
    return float(np.arange(len(pmf)) @ pmf)


def std(pmf: FloatArray) -> float:
    """Its standard deviation (rounding can leave a tiny negative variance: read as 0)."""
    points = np.arange(len(pmf))
    variance = float((points - mean(pmf)) ** 2 @ pmf)
    return float(np.sqrt(max(0.0, variance)))
