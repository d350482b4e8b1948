"""Many solo games at once, played by a computer level: checks the engine and measures the levels.

All games advance in lock-step with numpy, so 100,000 games take seconds. The policies are the
same as the computer players' (core.computer): Master follows the exact solution, Club the best
play for the current turn only, Novice keeps the most common face and writes the highest score.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.levels import Level
from core.rules import Variants
from core.strategy import RuleKey, Solution, solution
from core.turns import (
    BOX_COUNT,
    FIVE_OF_A_KIND,
    FULL,
    KEEP_INDEX,
    KEEPS,
    ROLLS,
    TRANSITION,
    ZERO_FUTURE,
    best_boxes,
    best_keep,
)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def _encode(dice: IntArray) -> IntArray:
    """Sorted dice (n, 5) → index into ROLLS."""
    codes = np.zeros(len(dice), dtype=np.int64)
    for column in range(dice.shape[1]):
        codes = codes * 6 + (dice[:, column] - 1)
    return ROLL_OF_CODE[codes]


def _roll_code_table() -> IntArray:
    table = np.full(6**5, -1, dtype=np.int64)
    for index, roll in enumerate(ROLLS):
        code = 0
        for face in roll:
            code = code * 6 + face - 1
        table[code] = index
    return table


ROLL_OF_CODE = _roll_code_table()
KEEP_SIZE = np.array([len(k) for k in KEEPS], dtype=np.int64)
KEEP_FACES = np.array([list(k) + [0] * (5 - len(k)) for k in KEEPS], dtype=np.int64)


def _novice_keeps() -> IntArray:
    """For each dice set, the keep of all dice showing its most common face (ties: the higher);
    −1 (stop) for five of a kind, which needs no more throws and leaves no die to throw."""
    keeps = np.full(len(ROLLS), -1, dtype=np.int64)
    for index, roll in enumerate(ROLLS):
        face = max(set(roll), key=lambda f: (roll.count(f), f))
        if roll.count(face) < len(roll):
            keeps[index] = KEEP_INDEX[(face,) * roll.count(face)]
    return keeps


NOVICE_KEEP = _novice_keeps()


PolicyArray = npt.NDArray[np.int16]


@dataclass(frozen=True)
class Policy:
    """Decision tables for every open set: keep after throws 1 and 2 (−1: stop), box to write.
    Indices fit 16 bits: 2 MiB for the four tables (int64 took 7.9 MiB)."""

    keep_after_first: PolicyArray  # (1024, 252)
    keep_after_second: PolicyArray  # (1024, 252)
    box_first: PolicyArray  # (1024, 252)
    box_later: PolicyArray  # (1024, 252)


def _box_tables(sol: Solution, future: FloatArray) -> tuple[PolicyArray, PolicyArray]:
    """The box to write at first-throw prices and at later prices."""
    return best_boxes(sol.points_first, future)[1], best_boxes(sol.points_later, future)[1]


def _optimal_keeps(stop: FloatArray, keep_values: FloatArray) -> tuple[PolicyArray, FloatArray]:
    """Per (open set, dice): the best keep's index (the first of equals), or −1 where writing
    now is at least as good (within 1e-9); and the value of the dice showing (the better of
    writing and the best keep)."""
    value, index = best_keep(keep_values)
    value = np.ascontiguousarray(value)  # best_keep's is a transposed view
    writing = stop >= value - 1e-9
    table = np.ascontiguousarray(index)
    table -= writing * (table + np.int16(1))  # −1 where writing, by arithmetic (np.where is slow)
    return table, np.maximum(stop, value, out=value)


def policy(variants: Variants, level: Level) -> Policy:
    return policy_of(solution(variants), level)


def policy_of(sol: Solution, level: Level) -> Policy:
    """The level's decision tables under the solution's rules. Master and Club: their keeps
    from the turn tables of all 1,024 open sets at once (one product of 1,024 rows for each
    throw, the rounding these tables always had), built one throw at a time, each throw's
    stops and boxes in one pass: about 13 MiB at the peak."""
    if level is Level.NOVICE:
        keep = np.broadcast_to(NOVICE_KEEP.astype(np.int16), (FULL + 1, len(ROLLS))).copy()
        box_first, box_later = _box_tables(sol, ZERO_FUTURE)
        return Policy(keep, keep.copy(), box_first, box_later)
    future = sol.value if level is Level.MASTER else ZERO_FUTURE
    stop_later, box_later = best_boxes(sol.points_later, future)
    keep_after_second, best = _optimal_keeps(stop_later, stop_later @ TRANSITION.T)
    del stop_later
    keep_values = best @ TRANSITION.T
    del best
    stop_first, box_first = best_boxes(sol.points_first, future)
    keep_after_first = _optimal_keeps(stop_first, keep_values)[0]
    del stop_first, keep_values
    return Policy(keep_after_first, keep_after_second, box_first, box_later)


@dataclass(frozen=True)
class SimulationResult:
    games: int
    mean: float
    std: float
    big_generals: int

    @property
    def standard_error(self) -> float:
        return self.std / float(np.sqrt(self.games))


def simulate(
    variants: Variants, level: Level, games: int, seed: int = 0, batch: int = 50_000
) -> SimulationResult:
    """Play `games` solo games with the level's policy; the mean final score and its spread."""
    rng = np.random.default_rng(seed)
    tables = policy(variants, level)
    ends = RuleKey.of(variants).big_general_ends
    totals: list[FloatArray] = []
    big = 0
    for start in range(0, games, batch):
        size = min(batch, games - start)
        total, generals = _play(rng, tables, size, ends, solution(variants))
        totals.append(total)
        big += generals
    everything = np.concatenate(totals)
    return SimulationResult(games, float(everything.mean()), float(everything.std(ddof=1)), big)


def _throw(rng: np.random.Generator, keep: IntArray) -> IntArray:
    """Keep the faces of `keep` (indices into KEEPS) and throw the other dice anew."""
    fresh = rng.integers(1, 7, size=(len(keep), 5))
    position = np.arange(5)[None, :]
    dice = np.where(position < KEEP_SIZE[keep][:, None], KEEP_FACES[keep], fresh)
    return _encode(np.sort(dice, axis=1))


def _play(
    rng: np.random.Generator, tables: Policy, size: int, ends: bool, sol: Solution
) -> tuple[FloatArray, int]:
    mask = np.full(size, FULL, dtype=np.int64)
    total = np.zeros(size)
    alive = np.ones(size, dtype=bool)
    generals = 0
    nothing = np.zeros(size, dtype=np.int64)
    for _ in range(BOX_COUNT):
        roll = _throw(rng, nothing)
        first = np.ones(size, dtype=bool)
        if ends:
            struck = alive & FIVE_OF_A_KIND[roll]
            generals += int(struck.sum())
            alive &= ~struck
        throwing = np.ones(size, dtype=bool)
        for keep_table in (tables.keep_after_first, tables.keep_after_second):
            keep = keep_table[mask, roll]
            again = throwing & (keep >= 0)
            rolled = _throw(rng, np.where(again, keep, 0))
            roll = np.where(again, rolled, roll)
            first &= ~again
            throwing = again
        box = np.where(first, tables.box_first[mask, roll], tables.box_later[mask, roll])
        points = np.where(first, sol.points_first[box, roll], sol.points_later[box, roll])
        total = np.where(alive, total + points, total)
        mask = np.where(alive, mask ^ (1 << box), mask)
    return total, generals
