"""What the interpreter's lock costs a group of saves: the same groups committed in a thread,
alone and beside a thread that runs Python without pause (as the event loop does at 100 tables).

`uv run python -m bench.convoy` builds solo games' saves (the real rules, the real save rows),
then commits them in groups of 50 from a second thread, as the repository's writer does (a
savepoint, the statement and its release for each save), first with the main thread idle, then
with it busy. SQLite runs each statement without the interpreter's lock, but the thread needs
the lock back after every statement, and a busy thread gives it up only every switch interval
(5 ms): a group that takes milliseconds alone takes far longer beside a busy loop, which is why
the service's groups are committed mostly while the loop waits for them. The same groups as one
multi-row statement each (no per-save savepoints: a diagnostic only) show what fewer hand-backs
would leave.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adapters.sqlite import SqliteRepository
from adapters.sqlite.saves import SAVE, save_row
from core.actions import Open, Roll, Score, Start
from core.dice import SeededRoller
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.table import Phase

GAMES = 50
MANY = SAVE.split(" VALUES ")[0] + " VALUES "
ONE_ROW = "(?,?,?,?,?,?,?,?,?,?,?)"


def saves(games: int = GAMES, actions: int = 40) -> list[list[tuple[Any, ...]]]:
    """Groups of one save per game, in the order tables would make them."""
    roller = SeededRoller(1)
    per_game: list[list[tuple[Any, ...]]] = []
    for number in range(games):
        person = PlayerRef(str(number), f"P{number}")
        game, events = open_lobby(f"g{number}", ChannelKey("tg", str(number)), person, Open())
        rows = [save_row(game, events, None)]
        new, events = apply(game, person, Start(), roller)
        rows.append(save_row(new, events, game.version))
        game = new
        for _ in range(actions):
            if game.phase is Phase.FINISHED:
                break
            boxes = game.seats[0].open_boxes()
            action = Roll() if game.turn.throws < 3 else Score(boxes[0])
            new, events = apply(game, person, action, roller)
            rows.append(save_row(new, events, game.version))
            game = new
        per_game.append(rows)
    depth = min(len(rows) for rows in per_game)
    return [[rows[step] for rows in per_game] for step in range(depth)]


def commit(connection: sqlite3.Connection, groups: Sequence[Sequence[Any]], many: bool) -> None:
    for group in groups:
        connection.execute("BEGIN IMMEDIATE")
        if many:
            sql = MANY + ",".join([ONE_ROW] * len(group))
            connection.execute(sql, [value for row in group for value in row]).close()
        else:
            for row in group:
                connection.execute("SAVEPOINT save")
                connection.execute(SAVE, row).close()
                connection.execute("RELEASE save")
        connection.execute("COMMIT")


def fresh(directory: Path, name: str) -> sqlite3.Connection:
    path = directory / name

    async def create() -> None:
        await (await SqliteRepository.open(path)).close()

    asyncio.run(create())
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    return connection


def timed(
    directory: Path, name: str, many: bool, busy: bool, groups: Sequence[Sequence[Any]]
) -> tuple[float, float]:
    """Microseconds a save in the committing thread, and the busy thread's share of its speed
    alone (1.0 where none ran)."""
    connection = fresh(directory, name)
    took: list[float] = []

    def run() -> None:
        began = time.perf_counter()
        commit(connection, groups, many)
        took.append(time.perf_counter() - began)

    thread = threading.Thread(target=run)
    share = 1.0
    if busy:
        alone = _spin_rate(0.5)
        began, count = time.perf_counter(), 0
        thread.start()
        while True:  # at least once: a tiny group may be committed before a first look
            count += _spin(1000)
            if not thread.is_alive():
                break
        share = count / (time.perf_counter() - began) / alone
    else:
        thread.start()
    thread.join()
    connection.close()
    return 1e6 * took[0] / sum(len(group) for group in groups), share


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return n


def _spin_rate(seconds: float) -> float:
    began, count = time.perf_counter(), 0
    while time.perf_counter() - began < seconds:
        count += _spin(1000)
    return count / (time.perf_counter() - began)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    print(f"groups of {GAMES} saves, switch interval {sys.getswitchinterval() * 1000:.1f} ms")
    print(f"{'statements':<28} {'main thread':<12} {'µs a save':>10} {'busy thread speed':>18}")
    groups = saves()
    with tempfile.TemporaryDirectory(prefix="general-convoy-") as directory:
        for many, label in ((False, "a savepoint each (writer)"), (True, "one multi-row INSERT")):
            for busy in (False, True):
                micros, share = timed(Path(directory), f"{many}-{busy}.db", many, busy, groups)
                where = "busy" if busy else "idle"
                shown = f"{share:.2f}" if busy else "-"
                print(f"{label:<28} {where:<12} {micros:>10.0f} {shown:>18}")


if __name__ == "__main__":
    main()
