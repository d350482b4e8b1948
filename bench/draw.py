"""What drawing a board costs: microseconds to turn a card into a platform's message, a lobby
and a turn of two players (five dice, two held, ten open boxes), on Telegram and on Discord.

`uv run python -m bench.draw [--runs 3] [--count 3000]`: the median of the runs, each the mean
of `count` drawings after a warm-up. A board is drawn at every press that changes it: the
layout (adapters/chat/layout*.py) and its serialisation together."""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial

from adapters.chat import cards
from adapters.i18n import translator
from core.actions import Join, Open, Roll, Start, ToggleHold
from core.dice import ScriptedRoller
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.view import GameView, make_view

PLATFORMS = ("telegram", "discord")


def boards() -> dict[str, GameView]:
    """A lobby of two, and the same table's first turn after a throw with two dice held."""
    alice, bob = PlayerRef("1", "Alice"), PlayerRef("2", "Bob")
    roller = ScriptedRoller()
    game, _ = open_lobby("abcdefgh", ChannelKey("tg", "1"), alice, Open(), 0.0)
    game, _ = apply(game, bob, Join(), roller, 0.0)
    lobby = make_view(game)
    roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])
    game, _ = apply(game, alice, Start(), roller, 0.0)
    player = game.seats[game.current].player
    roller.push([1, 2, 3, 4, 5])
    game, _ = apply(game, player, Roll(), roller, 0.0)
    for die in (0, 1):
        game, events = apply(game, player, ToggleHold(die), roller, 0.0)
    return {"lobby": lobby, "turn": make_view(game, None, events)}


def micros(draw: Callable[[], object], count: int) -> float:
    for _ in range(count // 10):
        draw()
    began = time.perf_counter()
    for _ in range(count):
        draw()
    return (time.perf_counter() - began) / count * 1e6


def measure(runs: int, count: int) -> dict[tuple[str, str], list[float]]:
    t = translator("en")
    figures: dict[tuple[str, str], list[float]] = {}
    for _ in range(runs):
        for platform in PLATFORMS:
            draw = importlib.import_module(f"adapters.{platform}.draw").draw
            for name, view in boards().items():
                card = cards.Board(view)
                took = micros(partial(draw, t, card), count)
                figures.setdefault((platform, name), []).append(took)
    return figures


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", type=int, default=3000)
    args = parser.parse_args(argv)
    for (platform, name), values in measure(args.runs, args.count).items():
        low, high = min(values), max(values)
        print(f"{platform:>8} {name:<5} {statistics.median(values):7.1f} µs ({low:.1f}–{high:.1f})")


if __name__ == "__main__":
    main()
