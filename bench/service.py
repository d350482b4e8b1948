"""The service alone: actions a second and their latency, beside the disk's committed-write rate.

`uv run python -m bench.service [--quick] [--runs 3]` plays solo games through
core.service.GameService on adapters.sqlite.SqliteRepository, one asyncio task per channel, at
1, 10, 100 and 500 games at once, each task acting again as soon as its last action returned
(rolls mostly, holds between throws, a box when the throws run out or by chance; a new game
where one ends). Every action is the real thing: loaded, applied, saved in one committed
transaction with its events, the turn timer re-armed, and at a game's end the post-game review.

Beside it, in the same run and directory: the rate of raw single-row committed writes (one
INSERT of a snapshot-sized row per transaction) through aiosqlite with the repository's PRAGMAs
(WAL, synchronous=NORMAL) — the physical ceiling of a durable action through this driver,
measured before and after the levels and the better kept (one measure swings up to twofold
from one minute to the next on a shared machine, the service's rate far less) — and
the same writes through the standard sqlite3 module in the calling thread, which shows what the
driver's thread hop costs.

Beside each level, in the same run, the same games on `OneAtATime`: the repository as it was
before group commit, each save its own statement and its own commit through aiosqlite's queue
(and a recorded game's saver rating every game waiting), so that the gain is measured on the
same machine at the same moment. The repository's saves go through its writer, which commits
the saves that arrive together in one transaction: the mean group size is shown.

Last, the same games on `InMemory`, the repository with its saves kept in memory only and no
disk at all, at 10 games and at 100: the rate of the core and the service themselves (apply,
the view, the timers, the review), which is the ceiling of any storage under them. The line
`durable/in-memory at N games: X` is the price of durability, run by run, its median shown.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from adapters.sqlite import SqliteRepository
from adapters.sqlite.files import FileWatch, ProcessLock
from adapters.sqlite.saves import SAVE, save_row
from bench.roundtrip import Figure, percentile
from bot import collector
from core.actions import Action, Open, Roll, Score, Start, ToggleHold
from core.dice import SeededRoller
from core.errors import ErrorCode, GameError
from core.events import Event
from core.identity import ChannelKey, PlayerRef
from core.outcome import Outcome
from core.ports import GameRepository
from core.records import Weighed
from core.rules import Variants
from core.service import GameService
from core.strategy import RuleKey, keep_row, solve
from core.table import Game, Phase
from core.turns import FULL

LEVELS = (1, 10, 100, 500)
PLATFORM = "tg"
ROW = "x" * 600  # about the size of a solo game's snapshot


@dataclass
class ServiceResult:
    games: int
    latencies: list[float]
    seconds: float
    hops: int = 0  # calls handed to aiosqlite's thread while timed
    groups: int = 0  # transactions the writer committed while timed
    grouped: int = 0  # saves in them

    @property
    def group_size(self) -> float:
        return self.grouped / self.groups if self.groups else 0.0

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def hops_per_action(self) -> float:
        return self.hops / len(self.latencies) if self.latencies else 0.0

    def ms(self, q: float) -> float:
        return 1000 * percentile(sorted(self.latencies), q)


class Player:
    """One task's person and table; chooses its next action from the game it sees."""

    def __init__(self, number: int, prefix: str) -> None:
        self.channel = ChannelKey(PLATFORM, f"{prefix}{number}")
        self.person = PlayerRef(str(10_000 + number), f"P{number}")
        self.random = random.Random(number)
        self.last: Action | None = None

    def next_action(self, game: Game | None) -> Action:
        if game is None or game.phase is Phase.FINISHED:
            return Open()
        if game.phase is Phase.LOBBY:
            return Start()
        turn = game.turn
        boxes = game.seats[game.current].open_boxes()
        if turn.throws == 0:
            return Roll()
        if turn.throws < 3:
            if isinstance(self.last, Roll) and self.random.random() < 0.5:
                return ToggleHold(self.random.randrange(5))
            if self.random.random() < 0.7:
                return Roll()
        return Score(self.random.choice(boxes))

    async def play(
        self, service: GameService, stop: asyncio.Event, latencies: list[float], clock: Clock
    ) -> None:
        game: Game | None = None
        while not stop.is_set():
            action = self.next_action(game)
            began = time.perf_counter()
            outcome: Outcome = await service.act(
                self.channel,
                self.person,
                action,
                game_id=None if isinstance(action, Open) else game.id if game else None,
                version=None if isinstance(action, Open) or game is None else game.version,
            )
            if clock.recording:
                latencies.append(time.perf_counter() - began)
            game, self.last = outcome.game, action
            await asyncio.sleep(0)  # the others' turn (a front end would be drawing meanwhile)


@dataclass
class Clock:
    recording: bool = False


async def service_level(
    repository: GameRepository, games: int, seconds: float, warmup: float, prefix: str
) -> ServiceResult:
    """One level of `games` tables on `repository`; the trips to aiosqlite's thread are counted
    where the repository has one (the PostgreSQL benchmark runs the same loop)."""
    service = GameService(repository, SeededRoller(games))

    async def shown(channel: ChannelKey, outcome: Outcome) -> None:
        return None

    service.on_deadline(PLATFORM, shown)  # the turn timers are armed as in production
    stop, clock = asyncio.Event(), Clock()
    latencies: list[float] = []
    players = [Player(n, prefix) for n in range(games)]
    db = repository._db if isinstance(repository, SqliteRepository) else None
    writer = repository._writer if isinstance(repository, SqliteRepository) else None
    hops = _count_hops(db, clock) if db is not None else [0]
    tasks = [asyncio.create_task(p.play(service, stop, latencies, clock)) for p in players]
    try:
        await asyncio.sleep(warmup)
        clock.recording = True
        before = (writer.groups, writer.saves) if writer else (0, 0)
        began = time.perf_counter()
        await asyncio.sleep(seconds)
        clock.recording = False
        elapsed = time.perf_counter() - began
        after = (writer.groups, writer.saves) if writer else (0, 0)
    finally:
        stop.set()
        await asyncio.gather(*tasks)
        await service.close()
        if db is not None:
            del db._execute  # the connection's own method again
    groups, grouped = after[0] - before[0], after[1] - before[1]
    return ServiceResult(games, latencies, elapsed, hops[0], groups, grouped)


class OneAtATime(SqliteRepository):
    """The repository's save as it was before group commit (for the benchmark only): one
    statement, so one commit, per save through aiosqlite's queue; a recorded game's saver rates
    every game waiting."""

    async def save(self, game: Game, events: Sequence[Event], previous_version: int | None) -> None:
        row = save_row(game, events, previous_version)
        key = str(game.channel)
        try:
            self._writable()
            await self._db.execute_fetchall(SAVE, row)
        except aiosqlite.IntegrityError as error:
            self._active.pop(key, None)
            if str(error) == "stale":
                raise GameError(ErrorCode.STALE) from error
            if previous_version is None:
                raise GameError(ErrorCode.GAME_EXISTS) from error
            raise
        except BaseException:
            self._active.pop(key, None)
            raise
        if game.phase is Phase.FINISHED:
            self._active.pop(key, None)
        else:
            self._active[key] = game
        if row[-1] is not None:
            await self._ratings.rate_recorded()


class InMemory(SqliteRepository):
    """The repository without the disk: games and event logs kept in dicts, saved with the same
    version check. A diagnostic for the benchmark only: what the service costs by itself."""

    def __init__(
        self,
        connection: aiosqlite.Connection,
        lock: ProcessLock | None = None,
        watch: FileWatch | None = None,
    ) -> None:
        super().__init__(connection, lock, watch)
        self._kept_logs: dict[str, list[Event]] = {}
        self._kept: dict[str, Game] = {}

    async def get_game(self, game_id: str) -> Game | None:
        return self._kept.get(game_id)

    async def events(self, game_id: str) -> list[Event]:
        return list(self._kept_logs.get(game_id, ()))

    async def set_weighed(self, game_id: str, weighed: dict[str, Weighed]) -> None:
        """Results are not kept in memory: nothing to mark."""

    async def save(self, game: Game, events: Sequence[Event], previous_version: int | None) -> None:
        stored = self._kept.get(game.id)
        if (stored.version if stored else None) != previous_version:
            raise GameError(ErrorCode.STALE)
        self._kept[game.id] = game
        self._kept_logs.setdefault(game.id, []).extend(events)
        if game.phase is Phase.FINISHED:
            self._active.pop(str(game.channel), None)
        else:
            self._active[str(game.channel)] = game


def warm_strategy() -> None:
    """Solve the strategy tables of the default rules and every open set's turn before timing:
    a running bot has them from its first hour on, while solving them (once a process, about
    a second in all) inside a few seconds' measurement would weigh on every figure. The
    post-game review at each game's end reads them."""
    rules = RuleKey.of(Variants())
    solve(rules)
    for mask in range(1, FULL + 1):
        keep_row(rules, False, mask)  # as choices() and the review ask (a bounded cache)


def _count_hops(db: aiosqlite.Connection, clock: Clock) -> list[int]:
    """Count the calls the connection hands to its thread while `clock` records (aiosqlite runs
    every call, execute, fetchone, a cursor's close, as one trip to its worker thread and back:
    the unit of the service's cost). A diagnostic: it wraps a private method of aiosqlite."""
    count = [0]
    real = db._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if clock.recording:
            count[0] += 1
        return await real(fn, *args, **kwargs)

    db._execute = counted  # type: ignore[method-assign]
    return count


async def raw_writes(path: Path, seconds: float) -> float:
    """Committed single-row INSERTs a second through aiosqlite, as the repository connects."""
    db = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
        await db.execute("CREATE TABLE raw (id INTEGER PRIMARY KEY, data TEXT NOT NULL)")
        count = 0
        began = time.perf_counter()
        while time.perf_counter() - began < seconds:
            await db.execute("INSERT INTO raw (data) VALUES (?)", (ROW,))  # its own transaction
            count += 1
        return count / (time.perf_counter() - began)
    finally:
        await db.close()


def raw_writes_sqlite3(path: Path, seconds: float) -> float:
    """The same writes through sqlite3 in this thread: the disk and SQLite without the hop."""
    db = sqlite3.connect(str(path), isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
        db.execute("CREATE TABLE raw (id INTEGER PRIMARY KEY, data TEXT NOT NULL)")
        count = 0
        began = time.perf_counter()
        while time.perf_counter() - began < seconds:
            db.execute("INSERT INTO raw (data) VALUES (?)", (ROW,))
            count += 1
        return count / (time.perf_counter() - began)
    finally:
        db.close()


def _repository_synchronous() -> str:
    """The synchronous PRAGMA the repository sets (read from its source, so that the raw writes
    follow it if it changes)."""
    import inspect

    from adapters.sqlite import repository

    source = inspect.getsource(repository.SqliteRepository.open)
    for word in ("OFF", "NORMAL", "FULL", "EXTRA"):
        if f"synchronous={word}" in source:
            return word
    return "NORMAL"


SYNCHRONOUS = _repository_synchronous()


# ---------------------------------------------------------------------------- the whole benchmark


@dataclass
class ServiceReport:
    levels: Sequence[int]
    runs: int
    rate: dict[int, Figure] = field(default_factory=dict)
    p50: dict[int, Figure] = field(default_factory=dict)
    p95: dict[int, Figure] = field(default_factory=dict)
    p99: dict[int, Figure] = field(default_factory=dict)
    hops: dict[int, Figure] = field(default_factory=dict)
    group: dict[int, Figure] = field(default_factory=dict)  # mean saves per transaction
    before: dict[int, Figure] = field(default_factory=dict)  # OneAtATime's actions/s
    before_p50: dict[int, Figure] = field(default_factory=dict)
    before_p99: dict[int, Figure] = field(default_factory=dict)
    raw: Figure = field(default_factory=Figure)
    raw_sqlite3: Figure = field(default_factory=Figure)
    in_memory: dict[int, Figure] = field(default_factory=dict)  # InMemory's actions/s, no disk
    target_games: int = 100
    seconds: float = 0.0

    def add(self, result: ServiceResult) -> None:
        games = result.games
        self.rate.setdefault(games, Figure()).add(result.rate)
        self.p50.setdefault(games, Figure()).add(result.ms(0.50))
        self.p95.setdefault(games, Figure()).add(result.ms(0.95))
        self.p99.setdefault(games, Figure()).add(result.ms(0.99))
        self.hops.setdefault(games, Figure()).add(result.hops_per_action)
        self.group.setdefault(games, Figure()).add(result.group_size)

    def add_before(self, result: ServiceResult) -> None:
        games = result.games
        self.before.setdefault(games, Figure()).add(result.rate)
        self.before_p50.setdefault(games, Figure()).add(result.ms(0.50))
        self.before_p99.setdefault(games, Figure()).add(result.ms(0.99))

    def durable(self, games: int) -> Figure:
        """The durable service's actions a second at `games` over InMemory's, run by run."""
        pairs = zip(self.rate[games].values, self.in_memory[games].values, strict=False)
        return Figure([durable / memory for durable, memory in pairs])

    def compared(self) -> list[int]:
        """The levels measured in memory too: 10 games (or the nearest below) and the target."""
        return sorted({min(10, max(self.levels)), self.target_games} & set(self.levels))

    def share(self, games: int, before: bool = False) -> Figure:
        """Actions a second at `games` over the raw committed-write rate, run by run."""
        rates = (self.before if before else self.rate).get(games, Figure()).values
        return Figure([r / w for r, w in zip(rates, self.raw.values, strict=False)])

    def lines(self) -> list[str]:
        out = [
            f"The service alone: GameService + SqliteRepository (median of {self.runs} run(s))",
        ]
        header = (
            f"{'games':>5} {'actions/s':>20} {'p50 ms':>20} {'p95 ms':>20} {'p99 ms':>20} "
            f"{'trips/action':>13} {'saves/commit':>18}"
        )
        out += [header, "-" * len(header)]
        for games in self.levels:
            out.append(
                f"{games:>5} {self.rate[games].show(0):>20} {self.p50[games].show(2):>20} "
                f"{self.p95[games].show(2):>20} {self.p99[games].show(2):>20} "
                f"{self.hops[games].show(1):>13} {self.group[games].show(1):>18}"
            )
        out.append("(trips/action: calls handed to aiosqlite's worker thread and back per action;")
        out.append(" saves/commit: the mean number of saves the writer committed together)")
        if self.before:
            out.append("The same levels in the same runs, one commit per save (before):")
            header = f"{'games':>5} {'actions/s':>20} {'p50 ms':>20} {'p99 ms':>20} {'gain':>18}"
            out += [header, "-" * len(header)]
            for games in self.levels:
                gain = Figure(
                    [
                        a / b
                        for a, b in zip(
                            self.rate[games].values, self.before[games].values, strict=False
                        )
                    ]
                )
                out.append(
                    f"{games:>5} {self.before[games].show(0):>20} "
                    f"{self.before_p50[games].show(2):>20} {self.before_p99[games].show(2):>20} "
                    f"{gain.show(2):>18}"
                )
        out.append(
            f"raw committed single-row writes, aiosqlite, WAL, synchronous={SYNCHRONOUS}: "
            f"{self.raw.show(0)} /s"
        )
        out.append(
            f"the same writes through sqlite3 in the calling thread: {self.raw_sqlite3.show(0)} /s"
        )
        for games in sorted({min(10, max(self.rate)), self.target_games} & set(self.rate)):
            line = f"service at {games} games / raw aiosqlite writes: {self.share(games).show(2)}"
            if games in self.before:
                line += f" (one commit per save: {self.share(games, before=True).show(2)})"
            out.append(line)
        for games in self.compared():
            if games in self.in_memory:
                out.append(
                    f"the same service with its saves in memory (no disk) at {games} games: "
                    f"{self.in_memory[games].show(0)} actions/s"
                )
        for games in self.compared():
            if games in self.in_memory:
                out.append(f"durable/in-memory at {games} games: {self.durable(games).show(2)}")
        out.append(f"(took {self.seconds:.0f} s)")
        return out


async def service_benchmark(
    runs: int,
    levels: Sequence[int],
    directory: Path,
    seconds: float,
    warmup: float,
) -> ServiceReport:
    began = time.monotonic()
    warm_strategy()
    collector.settle()  # the garbage collector as the bot sets it at ready
    report = ServiceReport(levels, runs)
    for run in range(runs):
        where = directory / f"service-{run}"
        where.mkdir(parents=True, exist_ok=True)
        raw = await raw_writes(where / "raw.db", seconds)
        report.raw_sqlite3.add(raw_writes_sqlite3(where / "raw-sqlite3.db", seconds))
        repository = await SqliteRepository.open(where / "service.db")
        before = await OneAtATime.open(where / "one-at-a-time.db")
        try:
            for games in levels:  # each level on both, one after the other
                report.add(await service_level(repository, games, seconds, warmup, f"g{games}-"))
                result = await service_level(before, games, seconds, warmup, f"b{games}-")
                report.add_before(result)
        finally:
            await before.close()
            await repository.close()
        memory = await InMemory.open(where / "in-memory.db")  # its file stays empty
        try:
            for games in report.compared():
                result = await service_level(memory, games, seconds, warmup, f"m{games}-")
                report.in_memory.setdefault(games, Figure()).add(result.rate)
        finally:
            await memory.close()
        # The ceiling is the better of two measures, before and after the levels: on a shared
        # machine one 2 s measure of a single write in flight swings up to twofold.
        report.raw.add(max(raw, await raw_writes(where / "raw-after.db", seconds)))
    report.seconds = time.monotonic() - began
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="short levels, one run")
    args = parser.parse_args(argv)
    runs, seconds, warmup = (1, 0.5, 0.1) if args.quick else (args.runs, 2.0, 0.3)
    with tempfile.TemporaryDirectory(prefix="general-bench-") as directory:
        report = asyncio.run(service_benchmark(runs, LEVELS, Path(directory), seconds, warmup))
    print("\n".join(report.lines()))


if __name__ == "__main__":
    main()
