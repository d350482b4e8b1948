"""Benchmark and checks of the win chances: solve time and memory of the distributions, the time
of win_shares at a 10-player table, exact shares against simulated whole games, and the
Grandmaster (core.winplay) head to head against the Master.

    uv run python -m bench.chances [--games N] [--duel-games N] [--table-games N] [--seed S]
                                   [--part timing|check|duel]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.boxes import ALL_BOXES, Box
from core.chances import Standing, turn_starts, win_shares
from core.dice import Dice
from core.distribution import Distributions, distributions, solve_distributions
from core.rules import MAX_THROWS, BigGeneralMode, Variants, is_big_general, score
from core.simulation import KEEP_FACES, KEEP_SIZE, ROLL_OF_CODE
from core.strategy import RuleKey, open_mask, solve
from core.turns import FIVE_OF_A_KIND, KEEPS, ROLL_INDEX
from core.winplay import winning_choice_at

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

RULES = {
    "ends game": Variants(),
    "scores 60": Variants(big_general=BigGeneralMode.SCORES_SIXTY),
}


def _boxes(*names: str) -> frozenset[Box]:
    return frozenset(Box(name) for name in names)


@dataclass(frozen=True)
class Position:
    """A mid-game table: standings in seating order, who is to move, the dice if mid-turn."""

    name: str
    standings: tuple[Standing, ...]
    to_move: int
    dice: Dice | None = None
    throws: int = 0


POSITIONS = (
    Position(
        "2 players, round 6, second to move",
        (
            Standing(92, _boxes("fours", "sixes", "full_house", "four", "general")),
            Standing(71, _boxes("ones", "fives", "sixes", "straight", "four", "general")),
        ),
        1,
    ),
    Position(
        "3 players, round 8, first mid-turn 5-5-5-2-1 after throw 2",
        (
            Standing(120, _boxes("fives", "four", "general")),
            Standing(131, _boxes("ones", "straight", "general")),
            Standing(104, _boxes("sixes", "full_house", "four")),
        ),
        0,
        (5, 5, 5, 2, 1),
        2,
    ),
    Position(
        "4 players, round 9, last seat 6-6-6-2-3 after throw 1",
        (
            Standing(151, _boxes("general")),
            Standing(139, _boxes("four")),
            Standing(160, _boxes("ones")),
            Standing(128, _boxes("full_house", "general")),
        ),
        3,
        (6, 6, 6, 2, 3),
        1,
    ),
    Position(
        "5 players, round 4, third to move",
        tuple(
            Standing(total, frozenset(ALL_BOXES[:open_count]) | _boxes("general"))
            for total, open_count in ((52, 6), (61, 6), (48, 7), (40, 7), (57, 7))
        ),
        2,
    ),
    Position(
        "6 players, round 10, one left the table",
        (
            Standing(171, frozenset()),
            Standing(150, frozenset(), playing=False),
            Standing(166, _boxes("sixes")),
            Standing(158, _boxes("general")),
            Standing(149, _boxes("four")),
            Standing(170, _boxes("ones")),
        ),
        2,
    ),
)


def _throw(rng: np.random.Generator, keep: IntArray) -> IntArray:
    """Hold the faces of each keep (indices into KEEPS), throw the other dice: dice set indices."""
    fresh = rng.integers(1, 7, size=(len(keep), 5))
    dice = np.where(np.arange(5)[None, :] < KEEP_SIZE[keep][:, None], KEEP_FACES[keep], fresh)
    codes = np.zeros(len(keep), dtype=np.int64)
    for column in np.sort(dice, axis=1).T:
        codes = codes * 6 + column - 1
    rolls: IntArray = ROLL_OF_CODE[codes]
    return rolls


def _play_sheet(
    rng: np.random.Generator,
    dist: Distributions,
    standing: Standing,
    games: int,
    dice: Dice | None,
    throws: int,
) -> tuple[FloatArray, IntArray]:
    """One sheet's remaining turns in `games` games at once, Master play: final totals, and which
    of its turn starts threw a big general (−1: none; points stop counting there)."""
    tables, sol = dist.policy, dist.solution
    mask = np.full(games, open_mask(list(standing.open)), dtype=np.int64)
    total = np.full(games, float(standing.total))
    struck = np.full(games, -1, dtype=np.int64)
    started = 0
    for turn in range(len(standing.open)):
        if turn == 0 and dice is not None:
            roll, throw = np.full(games, ROLL_INDEX[tuple(sorted(dice))], dtype=np.int64), throws
        else:
            roll, throw = _throw(rng, np.zeros(games, dtype=np.int64)), 1
            if dist.big_general > 0:
                struck = np.where((struck < 0) & FIVE_OF_A_KIND[roll], started, struck)
            started += 1
        first = np.full(games, throw == 1)
        throwing = np.ones(games, dtype=bool)
        for t in range(throw, MAX_THROWS):
            keep = (tables.keep_after_first if t == 1 else tables.keep_after_second)[mask, roll]
            again = throwing & (keep >= 0)
            roll = np.where(again, _throw(rng, np.where(again, keep, 0)), roll)
            first &= ~again
            throwing = again
        box = np.where(first, tables.box_first[mask, roll], tables.box_later[mask, roll])
        points = np.where(first, sol.points_first[box, roll], sol.points_later[box, roll])
        alive = struck < 0
        total = np.where(alive, total + points, total)
        mask = np.where(alive, mask ^ (1 << box), mask)
    return total, struck


def simulate_shares(
    variants: Variants, position: Position, games: int, seed: int
) -> tuple[FloatArray, FloatArray]:
    """Whole games from the position with every player on the Master policy: each player's mean
    win share and its standard error. Sheets go their own way under Master play, so each is
    played alone and the first big general in turn order decides, as at a real table."""
    rng = np.random.default_rng(seed)
    dist = distributions(variants)
    standings, count = position.standings, len(position.standings)
    starts = turn_starts(standings, position.to_move, position.throws)
    totals = np.full((count, games), -np.inf)
    first = np.full(games, len(starts))
    for i, standing in enumerate(standings):
        if not standing.playing:
            continue
        mine = i == position.to_move
        dice = position.dice if mine else None
        total, struck = _play_sheet(
            rng, dist, standing, games, dice, position.throws if mine else 0
        )
        totals[i] = total
        where = np.array([k for k, seat in enumerate(starts) if seat == i] + [len(starts)])
        first = np.minimum(first, np.where(struck >= 0, where[struck], len(starts)))
    leaders = totals == totals.max(axis=0)
    shares = leaders / leaders.sum(axis=0)
    owners = np.array([*starts, -1])[first]
    struck_games = first < len(starts)
    shares[:, struck_games] = 0.0
    shares[owners[struck_games], np.flatnonzero(struck_games)] = 1.0
    return shares.mean(axis=1), shares.std(axis=1, ddof=1) / np.sqrt(games)


def check(games: int, seed: int) -> None:
    print(f"Exact win shares against {games:,} simulated whole games per row (Master play)")
    worst = 0.0
    for number, (rule, variants) in enumerate(RULES.items()):
        for row, position in enumerate(POSITIONS):
            exact = win_shares(
                variants, position.standings, position.to_move, position.dice, position.throws
            )
            start = time.perf_counter()
            mean, error = simulate_shares(variants, position, games, seed + 100 * number + row)
            elapsed = time.perf_counter() - start
            z = [(m - e) / s if s > 0 else 0.0 for m, e, s in zip(mean, exact, error, strict=True)]
            worst = max(worst, *map(abs, z))
            print(f"{rule}: {position.name} ({elapsed:.1f} s)")
            for seat, (e, m, s, zz) in enumerate(zip(exact, mean, error, z, strict=True)):
                print(f"  seat {seat}: exact {e:.5f}  simulated {m:.5f} ± {s:.5f}  z {zz:+.2f}")
    print(f"largest |z|: {worst:.2f} ({'within' if worst <= 3 else 'OUTSIDE'} 3 SE)")


def timing() -> None:
    for key in map(RuleKey.of, RULES.values()):
        solve.cache_clear()
        solve_distributions.cache_clear()
        start = time.perf_counter()
        solve(key)
        middle = time.perf_counter()
        dist = solve_distributions(key)
        done = time.perf_counter()
        tables = dist.policy
        policy_bytes = sum(
            a.nbytes
            for a in (
                tables.keep_after_first,
                tables.keep_after_second,
                tables.box_first,
                tables.box_later,
            )
        )
        print(
            f"rules {key}: strategy solve {middle - start:.3f} s, distributions "
            f"{done - middle:.3f} s; memory: turn {dist.turn.nbytes / 2**20:.1f} MiB, "
            f"rest {dist.rest.nbytes / 2**20:.1f} MiB, policy tables "
            f"{policy_bytes / 2**20:.1f} MiB"
        )
    variants = Variants()
    ten = [Standing(0, frozenset(ALL_BOXES))] * 10
    late = [Standing(100 + 7 * i, frozenset(ALL_BOXES[i % 5 : i % 5 + 3])) for i in range(10)]
    for name, call in (
        ("10 players, start of game", lambda: win_shares(variants, ten, 0)),
        (
            "10 players, round 8, mid-turn",
            lambda: win_shares(variants, late, 4, (2, 3, 3, 5, 6), 2),
        ),
    ):
        print(f"win_shares, {name}: median {_median_ms(call):.2f} ms")


def _median_ms(call: Callable[[], object], repeat: int = 200) -> float:
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _duel_game(variants: Variants, players: int, grandmaster: int, seed: int) -> float:
    """One game, a Grandmaster at seat `grandmaster`, Masters elsewhere: the Grandmaster's share."""
    rng = random.Random(seed)
    dist = distributions(variants)
    tables = dist.policy
    standings = [Standing(0, frozenset(ALL_BOXES))] * players
    for _ in range(len(ALL_BOXES)):
        for seat in range(players):
            dice, throws = _roll(rng, ()), 1
            if is_big_general(dice, throws, variants):
                return 1.0 if seat == grandmaster else 0.0
            mask = open_mask(list(standings[seat].open))
            while True:
                roll = ROLL_INDEX[tuple(sorted(dice))]
                if seat == grandmaster:
                    choice = winning_choice_at(variants, standings, seat, dice, throws)
                    box, keep = choice.box, choice.keep
                else:
                    keep_table = (
                        tables.keep_after_first if throws == 1 else tables.keep_after_second
                    )
                    kept = int(keep_table[mask, roll]) if throws < MAX_THROWS else -1
                    keep = KEEPS[kept] if kept >= 0 else None
                    box_table = tables.box_first if throws == 1 else tables.box_later
                    box = None if keep is not None else Box.from_index(int(box_table[mask, roll]))
                if box is not None:
                    break
                assert keep is not None
                dice, throws = _roll(rng, keep), throws + 1
            points = score(box, dice, throws == 1, variants)
            mine = standings[seat]
            standings[seat] = Standing(mine.total + points, mine.open - {box})
    best = max(s.total for s in standings)
    leaders = [i for i, s in enumerate(standings) if s.total == best]
    return 1.0 / len(leaders) if grandmaster in leaders else 0.0


def _roll(rng: random.Random, keep: tuple[int, ...]) -> Dice:
    return keep + tuple(rng.randint(1, 6) for _ in range(5 - len(keep)))


def _duel_chunk(job: tuple[Variants, int, int, int]) -> list[float]:
    variants, players, first, count = job
    return [_duel_game(variants, players, g % players, first + g) for g in range(count)]


def duel(players: int, games: int, seed: int) -> None:
    """Grandmaster against Masters, the Grandmaster's seat going round: its mean share."""
    workers = os.cpu_count() or 1
    size = -(-games // (4 * workers))
    for rule, variants in RULES.items():
        jobs = [
            (variants, players, seed * 10**7 + start, min(size, games - start))
            for start in range(0, games, size)
        ]
        begin = time.perf_counter()
        with ProcessPoolExecutor(workers) as pool:
            shares = np.array([s for chunk in pool.map(_duel_chunk, jobs) for s in chunk])
        elapsed = time.perf_counter() - begin
        mean, error = float(shares.mean()), float(shares.std(ddof=1) / np.sqrt(games))
        fair = 1 / players
        z = (mean - fair) / error
        verdict = "significant" if abs(z) > 1.96 else "not significant"
        print(
            f"Grandmaster vs {players - 1} Master(s), {rule}, {games:,} games: share "
            f"{mean:.4f} ± {error:.4f} (fair {fair:.4f}), edge {mean - fair:+.4f}, z {z:+.2f}, "
            f"{verdict} at 5% ({elapsed:.0f} s, {workers} processes)"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--duel-games", type=int, default=20_000)
    parser.add_argument("--table-games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--part", choices=("timing", "check", "duel", "all"), default="all")
    args = parser.parse_args(argv)
    if args.part in ("timing", "all"):
        timing()
    if args.part in ("check", "all"):
        check(args.games, args.seed)
    if args.part in ("duel", "all"):
        for players, games in ((2, args.duel_games), (4, args.table_games)):
            duel(players, games, args.seed)


if __name__ == "__main__":
    main()
