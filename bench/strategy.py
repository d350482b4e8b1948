"""Benchmark of the strategy engine: solve time and optimal expected score per rule variant, the
time of one hint query, and each computer level's mean over many simulated solo games.

    uv run python -m bench.strategy [--games N] [--seed S] [--profile-games M]
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import platform
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from core.boxes import ALL_BOXES, Box
from core.dice import Dice
from core.levels import Level
from core.rules import BigGeneralMode, Variants, score
from core.simulation import simulate
from core.strategy import Choice, choices, expected_game, keep_row, solution, solve

VARIANTS = [
    Variants(big_general=big, five_of_a_kind_full_house=full, straight_joker=joker)
    for big, full, joker in itertools.product(BigGeneralMode, (False, True), (True, False))
]
HINT_POSITIONS = 5_000
PROFILE_GAMES = 20_000


def describe(variants: Variants) -> str:
    big = "ends game" if variants.big_general is BigGeneralMode.ENDS_GAME else "scores 60"
    full = "yes" if variants.five_of_a_kind_full_house else "no"
    joker = "yes" if variants.straight_joker else "no"
    return f"{big:<11} {full:<5} {joker:<5}"


def machine() -> str:
    return (
        f"machine: {os.cpu_count()} CPUs, {platform.machine()}, {platform.system()}; "
        f"Python {platform.python_version()}, numpy {np.__version__}"
    )


def solve_fresh(variants: Variants) -> tuple[float, float]:
    """Seconds to solve one rule set from nothing, and its optimal expected score (the value
    table; bench.solve times the rest, beside the solve before issue 20)."""
    solve.cache_clear()
    keep_row.cache_clear()
    start = time.perf_counter()
    solution(variants)
    elapsed = time.perf_counter() - start
    return elapsed, expected_game(variants)


def hint_times(variants: Variants, count: int, seed: int) -> tuple[float, float, float]:
    """Median and 99th percentile of one warm choices() call, and the slowest cold one (seconds)."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        open_boxes = [b for b in ALL_BOXES if rng.random() < 0.5] or [rng.choice(ALL_BOXES)]
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        positions.append((open_boxes, dice, rng.choice((1, 2, 3)), rng.randint(0, 200)))
    solve.cache_clear()
    keep_row.cache_clear()
    solution(variants)
    cold = []
    for open_boxes, dice, throws, total in positions:  # the first query of an open set
        start = time.perf_counter()
        choices(variants, open_boxes, dice, throws, total)
        cold.append(time.perf_counter() - start)
    warm = []
    for open_boxes, dice, throws, total in positions:
        start = time.perf_counter()
        choices(variants, open_boxes, dice, throws, total)
        warm.append(time.perf_counter() - start)
    warm.sort()
    return statistics.median(warm), warm[int(0.99 * len(warm))], max(cold)


@dataclass
class Profile:
    """How the Master plays, from games played one decision at a time through choices()."""

    games: int = 0
    totals: list[int] = field(default_factory=list)
    big_generals: int = 0
    points: Counter[Box] = field(default_factory=Counter)
    zeros: Counter[Box] = field(default_factory=Counter)
    first_throw: Counter[Box] = field(default_factory=Counter)
    zero_rounds: dict[Box, list[int]] = field(default_factory=dict)
    stops: Counter[int] = field(default_factory=Counter)


def profile_master(variants: Variants, games: int, seed: int) -> Profile:
    """Play solo games with the engine's best choice at every step (plain Python, not the
    vectorised simulator), recording each box's points and after which throw turns end."""
    rng = random.Random(seed)
    ends = variants.big_general is BigGeneralMode.ENDS_GAME
    best: dict[tuple[tuple[Box, ...], Dice, int], Choice] = {}
    profile = Profile(games=games)
    for _ in range(games):
        open_boxes = tuple(ALL_BOXES)
        total = 0
        for round_ in range(1, len(ALL_BOXES) + 1):
            dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
            if ends and len(set(dice)) == 1:
                profile.big_generals += 1
                break
            throws = 1
            while True:
                key = (open_boxes, dice, throws)
                if key not in best:
                    best[key] = choices(variants, open_boxes, dice, throws)[0]
                choice = best[key]
                if choice.keep is None:
                    break
                fresh = [rng.randint(1, 6) for _ in range(5 - len(choice.keep))]
                dice = tuple(sorted(choice.keep + tuple(fresh)))
                throws += 1
            box = choice.box
            assert box is not None
            points = score(box, dice, throws == 1, variants)
            total += points
            profile.points[box] += points
            profile.stops[throws] += 1
            if points == 0:
                profile.zeros[box] += 1
                profile.zero_rounds.setdefault(box, []).append(round_)
            elif throws == 1 and box.face is None:
                profile.first_throw[box] += 1
            open_boxes = tuple(b for b in open_boxes if b is not box)
        profile.totals.append(total)
    return profile


def print_profile(profile: Profile) -> None:
    games = profile.games
    mean = statistics.fmean(profile.totals)
    error = statistics.stdev(profile.totals) / math.sqrt(games)
    turns = sum(profile.stops.values())
    print(
        f"How the Master plays: {games:,} solo games played through choices(), default rules: "
        f"mean {mean:.2f} ± {error:.2f}, {profile.big_generals} big generals"
    )
    stops = ", ".join(
        f"after throw {t}: {100 * profile.stops[t] / turns:.1f}%" for t in sorted(profile.stops)
    )
    print(f"turns written {stops}")
    header = (
        f"{'box':<11} {'mean pts':>8} {'scored 0':>9} {'0 in round (mean)':>18} {'1st-throw':>9}"
    )
    print(header)
    print("-" * len(header))
    for box in ALL_BOXES:
        rounds = profile.zero_rounds.get(box, [])
        when = f"{statistics.fmean(rounds):.1f}" if rounds else "-"
        first = f"{100 * profile.first_throw[box] / games:.1f}%" if box.face is None else ""
        print(
            f"{box.value:<11} {profile.points[box] / games:>8.2f} "
            f"{100 * profile.zeros[box] / games:>8.1f}% {when:>18} {first:>9}"
        )
    print("(share of games; 1st-throw: written at the first-throw price)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="simulated solo games per row")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the simulated dice")
    parser.add_argument(
        "--profile-games", type=int, default=PROFILE_GAMES, help="games of the Master profile"
    )
    args = parser.parse_args(argv)
    games = args.games

    print(machine())
    print(f"simulated solo games per row: {games:,}, seed {args.seed}")
    print()
    print("Optimal expected final score per rule variant (Master policy simulated to confirm)")
    header = (
        f"{'big general':<11} {'5=FH':<5} {'joker':<5} {'solve s':>8} {'optimal E':>10} "
        f"{'Master mean ± SE':>20} {'z':>6} {'sim s':>6}"
    )
    print(header)
    print("-" * len(header))
    for row, variants in enumerate(VARIANTS):
        seconds, value = solve_fresh(variants)
        start = time.perf_counter()
        # Each row its own dice (seed + row), so that the eight confirmations are independent.
        result = simulate(variants, Level.MASTER, games, seed=args.seed + row)
        sim_seconds = time.perf_counter() - start
        z = (result.mean - value) / result.standard_error
        confirmed = f"{result.mean:.3f} ± {result.standard_error:.3f}"
        print(
            f"{describe(variants)} {seconds:>8.3f} {value:>10.4f} {confirmed:>20} {z:>6.2f} "
            f"{sim_seconds:>6.2f}"
        )
    print("(5=FH: five of a kind counts as a full house; z = (mean − optimal E) / SE;")
    print(" each row's dice come from seed + row, so the rows are independent checks)")
    print()

    default = Variants()
    median, p99, cold = hint_times(default, HINT_POSITIONS, args.seed)
    print(
        f"Hint query (choices(), default rules, {HINT_POSITIONS:,} varied positions): "
        f"median {median * 1e6:.0f} µs, 99th percentile {p99 * 1e6:.0f} µs warm; "
        f"slowest first query of an open set {cold * 1e3:.2f} ms"
    )
    print()

    print(f"Computer levels, default rules, {games:,} solo games each (the same dice for all)")
    header = f"{'level':<8} {'mean ± SE':>18} {'std':>7} {'big generals':>13} {'sim s':>6}"
    print(header)
    print("-" * len(header))
    value = expected_game(default)
    for level in Level:
        start = time.perf_counter()
        result = simulate(default, level, games, seed=args.seed)
        seconds = time.perf_counter() - start
        shown = f"{result.mean:.3f} ± {result.standard_error:.3f}"
        print(
            f"{level.value:<8} {shown:>18} {result.std:>7.2f} {result.big_generals:>13,} "
            f"{seconds:>6.2f}"
        )
    print(f"(optimal expected score under the default rules: {value:.4f})")
    if args.profile_games:
        print()
        print_profile(profile_master(default, args.profile_games, args.seed))


if __name__ == "__main__":
    main()
