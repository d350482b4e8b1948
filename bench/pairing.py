"""How long a tournament's round takes to pair (core.pairing.swiss), at the largest events the bot
allows: 64 entrants at every table size, six rounds of history, each round's ranking shuffled (as
results would), the meetings and byes carried from round to round.

    uv run python -m bench.pairing [--rounds 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from core.pairing import swiss

FIELDS = ((16, 4), (64, 2), (64, 3), (64, 4), (64, 5), (64, 6))


@dataclass(frozen=True)
class Figure:
    players: int
    size: int
    times: tuple[float, ...]  # seconds, a round each
    repeats: int  # pairs seated together again, over every round

    def line(self) -> str:
        median, worst = statistics.median(self.times) * 1000, max(self.times) * 1000
        return (
            f"{self.players} players, tables of {self.size}: median {median:.1f} ms, "
            f"worst {worst:.1f} ms a round; {self.repeats} repeat meetings in "
            f"{len(self.times)} rounds"
        )


def field(players: int, size: int, rounds: int, seed: int) -> Figure:
    rng = random.Random(seed)
    ids = [str(i) for i in range(players)]
    met: dict[frozenset[str], int] = {}
    byes: dict[str, int] = {}
    times, repeats = [], 0
    for _ in range(rounds):
        ranked = ids[:]
        rng.shuffle(ranked)
        start = time.perf_counter()
        pairing = swiss(ranked, met, byes, size)
        times.append(time.perf_counter() - start)
        for table in pairing.tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    pair = frozenset((a, b))
                    repeats += pair in met
                    met[pair] = met.get(pair, 0) + 1
        for player in pairing.byes:
            byes[player] = byes.get(player, 0) + 1
    return Figure(players, size, tuple(times), repeats)


def figures(rounds: int = 6, seed: int = 1) -> list[Figure]:
    return [field(players, size, rounds, seed) for players, size in FIELDS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    for figure in figures(arguments.rounds, arguments.seed):
        print(figure.line())


if __name__ == "__main__":
    main()
