"""The strategy solve beside the solve before it (bench/old_solver, commit d9039ab), in one run:
per rule set, the value table alone and everything a computer, a hint and the review need, and
the memory of building and keeping it.

    uv run python -m bench.solve [--runs 3] [--rules 8]

"Everything" is the value table, the keep values of every open set's turn for the Master and for
the Club (what hints, computers and the review read; the old solve's `turn` of each open set)
and the Master's score distributions with their decision tables (core.distribution: win chances,
the Grandmaster, the review). Each figure is the median of `--runs` runs, old and new taking turns
within a run, every cache emptied before each; each run also checks that both made the same
tables, to the bit.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from bench.old_solver import distribution as old_distribution
from bench.old_solver import simulation as old_simulation
from bench.old_solver import strategy as old_strategy
from bench.strategy import machine
from core import distribution, simulation, strategy, turns
from core.levels import Level
from core.rules import Variants, rule_sets

RULES = [strategy.RuleKey.of(variants) for variants in rule_sets()]


def describe(rules: strategy.RuleKey) -> str:
    big = "ends game" if rules.big_general_ends else "scores 60"
    full = "yes" if rules.variants.five_of_a_kind_full_house else "no"
    joker = "yes" if rules.variants.straight_joker else "no"
    return f"{big:<11} {full:<5} {joker:<5}"


def old_key(rules: strategy.RuleKey) -> old_strategy.RuleKey:
    return old_strategy.RuleKey.of(rules.variants)


def clock(work: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    made = work()
    return time.perf_counter() - start, made


def old_solve(rules: strategy.RuleKey) -> tuple[float, float, tuple[object, ...]]:
    """Seconds for the old value table, and for everything; what was made."""
    old_strategy.solve.cache_clear()
    old_distribution.solve_distributions.cache_clear()
    key = old_key(rules)
    value, sol = clock(lambda: old_strategy.solve(key))
    assert isinstance(sol, old_strategy.Solution)

    def rest() -> object:
        for mask in range(1, turns.FULL + 1):
            sol.turn(mask, False)
            sol.turn(mask, True)
        return old_distribution.solve_distributions(key)

    more, dist = clock(rest)
    assert isinstance(dist, old_distribution.Distributions)
    made = (sol.value, sol.turn(turns.FULL, True).keep_after_first, dist.rest, dist.policy)
    old_strategy.solve.cache_clear()
    old_distribution.solve_distributions.cache_clear()
    return value, value + more, made


def new_solve(rules: strategy.RuleKey) -> tuple[float, float, tuple[object, ...]]:
    strategy.solve.cache_clear()
    strategy.keep_row.cache_clear()
    distribution.solve_distributions.cache_clear()
    value, sol = clock(lambda: strategy.solve(rules))
    assert isinstance(sol, strategy.Solution)

    def rest() -> object:
        sol.keep_tables(greedy=False)
        club = sol.keep_tables(greedy=True)
        return club, distribution.solve_distributions(rules)

    more, (club, dist) = clock(rest)  # type: ignore[misc]
    made = (sol.value, club.keep_after_first[-1], dist.rest, dist.policy)
    return value, value + more, made


def same(old: tuple[object, ...], new: tuple[object, ...]) -> bool:
    *arrays, old_policy = old
    *new_arrays, new_policy = new
    fields = ("keep_after_first", "keep_after_second", "box_first", "box_later")
    return all(
        np.array_equal(a, b)  # type: ignore[arg-type]
        for a, b in zip(arrays, new_arrays, strict=True)
    ) and all(np.array_equal(getattr(old_policy, f), getattr(new_policy, f)) for f in fields)


@dataclass
class Row:
    old_value: list[float] = field(default_factory=list)
    new_value: list[float] = field(default_factory=list)
    old_all: list[float] = field(default_factory=list)
    new_all: list[float] = field(default_factory=list)
    equal: bool = True


def traced_peak(work: Callable[[], object]) -> float:
    """MiB: the peak of Python's traced allocations (numpy's included) while `work` runs."""
    gc.collect()
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def memory_lines() -> list[str]:
    rules = strategy.RuleKey.of(Variants())
    old_strategy.solve(old_key(rules))
    strategy.solve(rules)
    variants = rules.variants
    old_peak = traced_peak(lambda: old_simulation.policy(variants, Level.MASTER))
    new_peak = traced_peak(lambda: simulation.policy(variants, Level.MASTER))
    dist = distribution.solve_distributions(rules)
    tables = dist.policy
    policy_mib = sum(getattr(tables, f).nbytes for f in vars(tables)) / 2**20
    keep_mib = sum(a.nbytes for a in strategy.keep_row(rules, False, turns.FULL)) / 2**10
    old_strategy.solve.cache_clear()
    return [
        "Memory (default rules):",
        f"  building the Master's decision tables (core.simulation.policy), traced peak: "
        f"old {old_peak:.1f} MiB, new {new_peak:.1f} MiB",
        f"  kept per rule set: distributions {dist.rest.nbytes / 2**20:.1f} MiB + decision "
        f"tables {policy_mib:.1f} MiB (old: + the turn table 4.8 MiB, decision tables 7.9 MiB);"
        f" keep values {keep_mib:.1f} KiB per open set and engine (old: a whole turn's tables, "
        f"11.4 KiB, for every open set asked, unbounded)",
        f"  bounds: solutions {strategy.RULE_SETS} rule sets (50 KiB each), keep values "
        f"{strategy.KEEP_ROWS_KEPT} open sets, distributions "
        f"{distribution.DISTRIBUTIONS_KEPT} rule sets",
    ]


def run(runs: int, rules: Sequence[strategy.RuleKey]) -> list[str]:
    rows = {key: Row() for key in rules}
    for _ in range(runs):
        for key in rules:
            row = rows[key]
            old_value, old_all, old_made = old_solve(key)
            new_value, new_all, new_made = new_solve(key)
            row.old_value.append(old_value)
            row.new_value.append(new_value)
            row.old_all.append(old_all)
            row.new_all.append(new_all)
            row.equal &= same(old_made, new_made)
    header = (
        f"{'big general':<11} {'5=FH':<5} {'joker':<5} {'value old':>9} {'new':>6} {'×':>5} "
        f"{'everything old':>14} {'new':>6} {'×':>5}  same"
    )
    lines = [
        f"Strategy solve, ms, median of {runs} run(s), old (d9039ab) and new in the same run",
        header,
        "-" * len(header),
    ]
    med = statistics.median
    totals = [0.0, 0.0, 0.0, 0.0]
    for key, row in rows.items():
        figures = [1e3 * med(row.old_value), 1e3 * med(row.new_value)]
        figures += [1e3 * med(row.old_all), 1e3 * med(row.new_all)]
        totals = [t + f for t, f in zip(totals, figures, strict=True)]
        lines.append(
            f"{describe(key)} {figures[0]:>9.1f} {figures[1]:>6.1f} "
            f"{figures[0] / figures[1]:>5.1f} {figures[2]:>14.1f} {figures[3]:>6.1f} "
            f"{figures[2] / figures[3]:>5.1f}  {'yes' if row.equal else 'NO'}"
        )
    count = len(rows)
    lines.append(
        f"{'mean':<23} {totals[0] / count:>9.1f} {totals[1] / count:>6.1f} "
        f"{totals[0] / totals[1]:>5.1f} {totals[2] / count:>14.1f} {totals[3] / count:>6.1f} "
        f"{totals[2] / totals[3]:>5.1f}"
    )
    lines.append(
        "(everything: the value table, every open set's keep values for Master and Club, the "
        "Master's distributions and decision tables; same: the tables equal to the bit)"
    )
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rules", type=int, default=len(RULES), help="how many rule sets")
    args = parser.parse_args(argv)
    print(machine())
    strategy.solve(RULES[0])  # numpy's and the BLAS's first-call costs, outside the figures
    old_strategy.solve(old_key(RULES[0]))
    print("\n".join(run(args.runs, RULES[: args.rules])))
    print()
    print("\n".join(memory_lines()))


if __name__ == "__main__":
    main()
