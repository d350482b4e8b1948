"""The faster solve of issue 20 computes exactly what the solve before it computed, to the bit.

bench/old_solver holds the three modules as they were (commit d9039ab). For each of the eight
rule sets: the value table, the points, the Master's decision tables and the distributions are
compared with np.array_equal (no tolerance); so are the turn tables and keep values of sampled open
sets (every open set where it is cheap), both engines, and the choices of random positions. Both
run in this process, with the same numpy and BLAS, so every matrix product is made by the same
call on the same rows: the rounding is the same, not merely close.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from bench.old_solver import distribution as old_distribution
from bench.old_solver import simulation as old_simulation
from bench.old_solver import strategy as old_strategy
from core import distribution, simulation, strategy, turns
from core.boxes import ALL_BOXES
from core.levels import Level
from core.rules import Variants, rule_sets

RULES = [strategy.RuleKey.of(variants) for variants in rule_sets()]
POLICY_FIELDS = ("keep_after_first", "keep_after_second", "box_first", "box_later")


def old_key(rules: strategy.RuleKey) -> old_strategy.RuleKey:
    return old_strategy.RuleKey.of(rules.variants)


@pytest.fixture(autouse=True)
def _forget_the_old() -> Iterator[None]:
    """The old caches are unbounded (15 MiB a rule set's distributions): emptied after each test,
    the old solutions (small) at the end of the module."""
    yield
    old_distribution.solve_distributions.cache_clear()


@pytest.fixture(autouse=True, scope="module")
def _forget_the_old_solutions() -> Iterator[None]:
    yield
    old_strategy.solve.cache_clear()


def sampled_masks(seed: int) -> list[int]:
    """The full sheet, one single box and ten random open sets."""
    rng = random.Random(seed)
    return sorted({turns.FULL, 1 << seed % 10, *rng.sample(range(1, turns.FULL), 10)})


@pytest.mark.parametrize("number", range(len(RULES)), ids=lambda n: str(RULES[n]))
def test_the_tables_and_distributions_are_those_of_the_old_solve(number: int) -> None:
    rules = RULES[number]
    old, new = old_strategy.solve(old_key(rules)), strategy.solve(rules)
    assert np.array_equal(old.points_first, new.points_first)
    assert np.array_equal(old.points_later, new.points_later)
    assert np.array_equal(old.value, new.value)  # the value table, bit for bit

    sample = sampled_masks(number)
    for greedy in (False, True):
        bulk = new.keep_tables(np.array(sample, dtype=np.int64), greedy)
        for row, mask in enumerate(sample):
            before, now = old.turn(mask, greedy), new.turn(mask, greedy)  # the hint's shape
            for name in strategy.TurnTables.__dataclass_fields__:
                assert np.array_equal(getattr(before, name), getattr(now, name)), (mask, name)
            assert np.array_equal(before.keep_after_first, bulk.keep_after_first[row])
            assert np.array_equal(before.keep_after_second, bulk.keep_after_second[row])

    # The Master's decision tables (from products of all 1,024 open sets) and the distributions.
    old_dist = old_distribution.solve_distributions(old_key(rules))
    new_dist = distribution.solve_distributions(rules)
    assert old_dist.big_general == new_dist.big_general
    assert np.array_equal(old_dist.rest, new_dist.rest)
    assert np.array_equal(old_dist.turn, new_dist.turn)
    for name in POLICY_FIELDS:
        assert np.array_equal(getattr(old_dist.policy, name), getattr(new_dist.policy, name))


def test_every_open_sets_tables_are_the_old_ones() -> None:
    """Default rules: the turn tables of all 1,024 open sets at once (the simulator's shape) are
    the old ones; the bulk keep values of all 1,023 (both engines) row by row are what a hint
    reads of each set alone, and what the old solve's turn of each eighth set gave."""
    rules = strategy.RuleKey.of(Variants())
    old, new = old_strategy.solve(old_key(rules)), strategy.solve(rules)
    masks = np.arange(turns.FULL + 1, dtype=np.int64)
    old_batch, new_batch = old.turns(masks), new.turns(masks)
    for name in strategy.TurnBatch.__dataclass_fields__:
        assert np.array_equal(getattr(old_batch, name), getattr(new_batch, name)), name
    for greedy in (False, True):
        bulk = new.keep_tables(greedy=greedy)
        for mask in range(1, turns.FULL + 1):
            first, second = strategy.keep_row(rules, greedy, mask)
            assert np.array_equal(bulk.keep_after_first[mask - 1], first)
            assert np.array_equal(bulk.keep_after_second[mask - 1], second)
            if mask % 8 == 1:
                assert np.array_equal(old.turn(mask, greedy).keep_after_first, first)


def test_the_stops_of_open_sets_in_any_number_and_order_are_the_old_ones() -> None:
    """core.turns.stops takes a few open sets size by size and most of them through every
    open set at once (a run of masks as a view, any other order gathered): every way gives the
    old solve's stops, for both engines and both prices."""
    rules = strategy.RuleKey.of(Variants())
    old, new = old_strategy.solve(old_key(rules)), strategy.solve(rules)
    shuffled = np.random.default_rng(20).permutation(np.arange(turns.FULL + 1))
    runs = [turns.MASKS, turns.MASKS[1:], turns.MASKS[300:], shuffled, shuffled[:40]]
    for future in (new.value, turns.ZERO_FUTURE):
        for points in (new.points_first, new.points_later):
            for masks in runs:
                before = old._stops(masks, points, future)
                assert np.array_equal(before, turns.stops(masks, points, future))
            assert np.array_equal(
                old._stops(turns.MASKS, points, future), turns.every_stop(points, future)
            )


@pytest.mark.parametrize("level", [Level.CLUB, Level.NOVICE], ids=str)
def test_the_other_levels_decision_tables_are_the_old_ones(level: Level) -> None:
    old, new = old_simulation.policy(Variants(), level), simulation.policy(Variants(), level)
    for name in POLICY_FIELDS:
        assert np.array_equal(getattr(old, name), getattr(new, name)), name


def test_the_choices_of_random_positions_are_the_old_ones() -> None:
    """Every option, its order and its expected points, for both engines and all rule sets."""
    rng = random.Random(20)
    all_variants = [rules.variants for rules in RULES]
    for _ in range(200):
        variants = rng.choice(all_variants)
        boxes = [b for b in ALL_BOXES if rng.random() < 0.5] or [rng.choice(ALL_BOXES)]
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        throws, total, greedy = rng.choice((1, 2, 3)), rng.randint(0, 150), rng.random() < 0.3
        before = old_strategy.choices(variants, boxes, dice, throws, total, greedy)
        now = strategy.choices(variants, boxes, dice, throws, total, greedy)
        assert [tuple(vars(c).values()) for c in now] == [tuple(vars(c).values()) for c in before]
