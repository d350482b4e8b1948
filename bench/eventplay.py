"""Playing for place points (core.eventplay) against playing for the win (core.winplay), duplicate.

Each game has its own committed seed (core.fairdice): a die is a function of the seed and its
place (round, seat, throw, die), as at a real table, so both runs of a game see the same dice
wherever their choices agree. Seat A (going round the table) plays for place points, the others
are Grandmasters; the same game again with A a Grandmaster too. A's place points
(core.tournament.placings) are paired per game. The run for the win starts where A's choices
first differ (before that both runs are the same game); a game where they never differ is the
same game twice (difference 0) and is played once.

    uv run python -m bench.eventplay [--games N] [--seats 4 [3 6 ...]] [--seed S]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import NamedTuple

from core.boxes import ALL_BOXES
from core.chances import Standing
from core.dice import DICE_COUNT, Dice
from core.eventplay import event_choice_at
from core.fairdice import Place, Stage, faces
from core.rules import Variants, is_big_general, score
from core.strategy import Choice, held_positions
from core.winplay import winning_choice_at

RULES = Variants()  # the default rules: a big general ends the game


class Result(NamedTuple):
    """Seat A's result: its place points and its share of the win."""

    points: float
    won: float


@dataclass(frozen=True)
class Duplicate:
    """One duplicate game: A's result each way, whether A's choices ever differed, and the time
    of A's decisions each way (seconds, in the run where A plays for places)."""

    event: Result
    grandmaster: Result
    differed: bool
    event_times: tuple[float, ...]
    win_times: tuple[float, ...]


def seed_of(base: int, seats: int, game: int) -> str:
    """A game's committed seed (32 bytes in hex), fixed by the run's seed, size and number."""
    return hashlib.sha256(f"bench.eventplay {base} {seats} {game}".encode()).hexdigest()


@dataclass(frozen=True)
class Position:
    """A decision of a game: the sheets, whose turn, the dice showing after `throws`."""

    standings: tuple[Standing, ...]
    round: int
    seat: int
    dice: Dice
    throws: int


def play(
    seed: str,
    seats: int,
    a: int,
    event: bool,
    start: Position | None = None,
    timing: list[list[float]] | None = None,
) -> tuple[Result, Position | None]:
    """A game from its start or from `start`, seat `a` playing for place points (`event`) or
    for the win, the others for the win: A's result and, when A plays for place points,
    the first decision where the win would have chosen otherwise (there the other run forks).
    With `timing`, both of A's choices are timed there ([place points, win] lists)."""
    standings = list(start.standings) if start else [Standing(0, frozenset(ALL_BOXES))] * seats
    fork: Position | None = None
    first = (start.round, start.seat) if start else (1, 0)
    for round_ in range(first[0], len(ALL_BOXES) + 1):
        for seat in range(first[1] if round_ == first[0] else 0, seats):
            if start is not None and (round_, seat) == first:
                dice, throws = start.dice, start.throws
            else:
                dice, throws = _throw(seed, round_, seat, 1, (), frozenset()), 1
                if is_big_general(dice, throws, RULES):
                    return _placed(standings, a, seat), fork
            while True:
                if seat == a and event:
                    choice, other = _both(standings, seat, dice, throws, timing)
                    if fork is None and (choice.keep, choice.box) != (other.keep, other.box):
                        fork = Position(tuple(standings), round_, seat, dice, throws)
                else:
                    choice = winning_choice_at(RULES, standings, seat, dice, throws)
                if choice.box is not None:
                    break
                assert choice.keep is not None
                held = held_positions(dice, choice.keep)
                throws += 1
                dice = _throw(seed, round_, seat, throws, dice, held)
            mine = standings[seat]
            points = score(choice.box, dice, throws == 1, RULES)
            standings[seat] = Standing(mine.total + points, mine.open - {choice.box})
    return _placed(standings, a, None), fork


def _both(
    standings: Sequence[Standing],
    seat: int,
    dice: Dice,
    throws: int,
    timing: list[list[float]] | None,
) -> tuple[Choice, Choice]:
    """A's choice for place points, and the one for the win (timed when asked)."""
    begin = time.perf_counter()
    places = event_choice_at(RULES, standings, seat, dice, throws)
    middle = time.perf_counter()
    win = winning_choice_at(RULES, standings, seat, dice, throws)
    if timing is not None:
        timing[0].append(middle - begin)
        timing[1].append(time.perf_counter() - middle)
    return places, win


def _throw(seed: str, round_: int, seat: int, throw: int, dice: Dice, held: frozenset[int]) -> Dice:
    """The dice after a throw, held dice staying, as core.game throws them."""
    places = [Place(Stage.TURN, round_, seat, throw, d) for d in range(DICE_COUNT) if d not in held]
    fresh = iter(faces(seed, places))
    return tuple(dice[d] if d in held else next(fresh) for d in range(DICE_COUNT))


def _placed(standings: Sequence[Standing], a: int, thrower: int | None) -> Result:
    """A's place points (core.tournament.placings: a big general's thrower above everyone, the
    others where their totals of then put them) and share of the win."""
    if thrower is not None:
        if thrower == a:
            return Result(1.0, 1.0)
    elif standings[a].total == max(s.total for s in standings):
        best = sum(s.total == standings[a].total for s in standings)
        return Result(_points(standings, a, thrower), 1.0 / best)
    return Result(_points(standings, a, thrower), 0.0)


def _points(standings: Sequence[Standing], a: int, thrower: int | None) -> float:
    rivals = [s.total for i, s in enumerate(standings) if i not in (a, thrower)]
    return sum(_versus(standings[a].total, total) for total in rivals) / (len(standings) - 1)


def _versus(mine: int, theirs: int) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def duplicate(job: tuple[int, int, int]) -> Duplicate:
    """Game `number` of a run both ways, A at seat number mod seats."""
    base, seats, number = job
    seed, a = seed_of(base, seats, number), number % seats
    timing: list[list[float]] = [[], []]
    event, fork = play(seed, seats, a, True, timing=timing)
    grandmaster = play(seed, seats, a, False, fork)[0] if fork else event
    return Duplicate(event, grandmaster, fork is not None, tuple(timing[0]), tuple(timing[1]))


def warm() -> None:
    """Solve the distributions and the partial ones before any decision is timed."""
    event_choice_at(RULES, [Standing(0, frozenset(ALL_BOXES))] * 3, 0, (1, 2, 3, 4, 6), 1)


@dataclass(frozen=True)
class Report:
    seats: int
    games: tuple[Duplicate, ...]
    seconds: float
    workers: int

    def lines(self) -> list[str]:
        n = len(self.games)
        event = [g.event.points for g in self.games]
        plain = [g.grandmaster.points for g in self.games]
        gain = [e - p for e, p in zip(event, plain, strict=True)]
        mean, half = _interval(gain)
        z = mean / (half / 1.96) if half else 0.0
        won, won_half = _interval([g.event.won - g.grandmaster.won for g in self.games])
        differed = sum(g.differed for g in self.games)
        places = [t for g in self.games for t in g.event_times]
        wins = [t for g in self.games for t in g.win_times]
        return [
            f"{self.seats} seats, {n:,} duplicate games (A's seat going round), default rules, "
            f"{self.seconds:.0f} s on {self.workers} processes",
            f"  A plays for place points: mean place points {_shown(event)}, win share "
            f"{_shown([g.event.won for g in self.games])}",
            f"  A plays for the win:      mean place points {_shown(plain)}, win share "
            f"{_shown([g.grandmaster.won for g in self.games])}",
            f"  paired difference {mean:+.4f} ± {half:.4f} (95% CI {mean - half:+.4f} to "
            f"{mean + half:+.4f}, z {z:+.2f}); A's choices differed in {differed:,} games "
            f"({differed / max(1, n):.0%})",
            f"  paired difference in win share {won:+.4f} ± {won_half:.4f}",
            f"  A's decisions: place points {_ms(places)}, win share {_ms(wins)} "
            f"({len(places):,} decisions)",
        ]


def _interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% confidence interval."""
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return mean, 1.96 * spread / math.sqrt(len(values))


def _shown(values: Sequence[float]) -> str:
    mean, half = _interval(values)
    return f"{mean:.4f} ± {half:.4f}"


def _ms(times: Sequence[float]) -> str:
    if not times:
        return "-"
    median, mean = statistics.median(times) * 1e3, statistics.fmean(times) * 1e3
    return f"median {median:.2f} ms, mean {mean:.2f} ms"


def measure(seats: int, games: int, seed: int, workers: int | None = None) -> Report:
    """`games` duplicate games at `seats` seats on `workers` processes (all CPUs by default)."""
    workers = workers or os.cpu_count() or 1
    jobs = [(seed, seats, number) for number in range(games)]
    begin = time.perf_counter()
    if workers == 1:
        warm()
        found = [duplicate(job) for job in jobs]
    else:
        with ProcessPoolExecutor(workers, initializer=warm) as pool:
            found = list(pool.map(duplicate, jobs, chunksize=max(1, games // (8 * workers))))
    return Report(seats, tuple(found), time.perf_counter() - begin, workers)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", type=int, nargs="+", default=[4])
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    for seats in args.seats:
        print("\n".join(measure(seats, args.games, args.seed).lines()), flush=True)


if __name__ == "__main__":
    main()
