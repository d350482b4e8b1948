"""What one action costs the game's own Python: the rules, the view, the save's row.

`uv run python -m bench.actions [--runs 5]` times, in this process, a roll, a hold and a box
applied to a solo game in its sixth round (`core.game.apply`), the view of the thrown turn
(`core.view.make_view`) and the SQLite save's parameters (`adapters.sqlite.saves.save_row`):
the best of `runs` repetitions of `number` calls each, in microseconds a call. These are the
parts of every action that no storage or platform can take off (BENCHMARKS.md, issue 20).
"""

from __future__ import annotations

import argparse
import timeit
from collections.abc import Callable, Sequence

from adapters.sqlite.saves import save_row
from core.actions import Open, Roll, Score, Start, ToggleHold
from core.boxes import Box
from core.dice import SeededRoller
from core.events import Event
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.table import Game
from core.view import make_view

PLAYER = PlayerRef("1", "Ann")


def thrown_turn() -> tuple[Game, SeededRoller, tuple[Event, ...]]:
    """A solo game after five rounds, its sixth turn thrown once; the roller and the events."""
    roller = SeededRoller(5)
    game, _ = open_lobby("bench", ChannelKey("tg", "5"), PLAYER, Open())
    game, _ = apply(game, PLAYER, Start(), roller)
    for box in list(Box)[:5]:
        game, _ = apply(game, PLAYER, Roll(), roller)
        game, _ = apply(game, PLAYER, Score(box), roller)
    thrown, events = apply(game, PLAYER, Roll(), roller)
    return thrown, roller, events


def figures(runs: int, number: int) -> dict[str, float]:
    """Microseconds a call of each part, the best of `runs`."""
    game, roller, events = thrown_turn()
    before = apply(game, PLAYER, ToggleHold(0), roller)[0]  # a game to roll from, mid-turn
    parts: dict[str, Callable[[], object]] = {
        "apply: a roll": lambda: apply(before, PLAYER, Roll(), roller),
        "apply: a hold": lambda: apply(game, PLAYER, ToggleHold(2), roller),
        "apply: a box": lambda: apply(game, PLAYER, Score(Box.GENERAL), roller),
        "make_view": lambda: make_view(game, PLAYER.id, events),
        "save_row": lambda: save_row(game, events, game.version - 1),
    }
    return {
        name: min(timeit.repeat(part, number=number, repeat=runs)) / number * 1e6
        for name, part in parts.items()
    }


def lines(found: dict[str, float]) -> list[str]:
    return [f"{name:<16} {micro:7.2f} µs" for name, micro in found.items()]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--number", type=int, default=20_000)
    args = parser.parse_args(argv)
    print("\n".join(lines(figures(args.runs, args.number))))


if __name__ == "__main__":
    main()
