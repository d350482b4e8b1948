"""Memory: the bot process's peak RSS with 10,000 finished games stored and 500 in progress.

`uv run python -m bench.memory [--quick] [--runs 3]`:

1. 10,000 finished two-player games (their whole event logs and results) are written through
   adapters.sqlite.SqliteRepository, spread over 500 chats of both platforms and 2,000 people,
   played out in memory by core.game with seeded dice (once; each run starts from a copy).
2. The real bot (`python -m bot`, Telegram and Discord in one process) is started on that file
   against both fakes, and 500 games are opened and played through the fakes' buttons (250 on
   each platform: `/general start`, Start, a roll). Then it is stopped (SIGTERM).
3. It is started again: its start-up loads every game in progress (each front end re-arms the
   timers of all of them, service.resume_deadlines, and looks for computers to wake); then
   every one of the 500 tables takes a press, and each platform is asked for its global
   leaderboard (a query over all 10,000 games' results).

The figure is the peak RSS (VmHWM) of each process, read from /proc just before it is stopped;
also its RSS once ready and at the end.

4. The same again with all eight rule sets in use: before the bot starts, the Telegram tables'
   chats are given the eight rule sets in turn (big general × five of a kind as a full house ×
   straight joker, saved as their chat settings), so that every board's win chances and hints
   solve and keep the strategy tables of its chat's rule set (core.strategy and
   core.distribution keep them in bounded caches). Its figure: the higher of the two processes'
   peaks, beside the same with the default rules everywhere.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from adapters.sqlite import SqliteRepository
from bench.roundtrip import (
    BenchDiscord,
    BenchTelegram,
    BotProcess,
    Driver,
    Figure,
    Table,
    bot_env,
    quiet,
)
from core.actions import Join, Open, Roll, Score, Start
from core.chat_settings import ChatSettings
from core.dice import SeededRoller
from core.events import Event
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import BigGeneralMode
from core.service import new_game_id
from core.table import Game, Phase

FINISHED = 10_000
IN_PROGRESS = 500
CHATS = 500
PEOPLE = 2_000
AT_ONCE = 16
TARGET_MB = 150


def play_out(number: int, roller: SeededRoller, rng: random.Random) -> tuple[Game, list[Event]]:
    """A whole two-player game in memory: its final state and every event it made."""
    platform = "tg" if number % 2 == 0 else "dc"
    chat = str(-2_000_000_000 - number % CHATS) if platform == "tg" else str(9_000 + number % CHATS)
    first, second = rng.sample(range(PEOPLE), 2)
    host = PlayerRef(str(3_000_000 + first), f"Person {first}")
    guest = PlayerRef(str(3_000_000 + second), f"Person {second}")
    now = time.time() - (FINISHED - number) * 60
    game, events = open_lobby(new_game_id(), ChannelKey(platform, chat), host, Open(), now)
    log = list(events)
    for person, action in ((guest, Join()), (host, Start())):
        game, events = apply(game, person, action, roller, now)
        log += events
    while game.phase is Phase.PLAYING:
        person = game.seats[game.current].player
        game, events = apply(game, person, Roll(), roller, now)
        log += events
        if game.phase is not Phase.PLAYING:
            break  # a big general ended it
        if game.turn.throws < 3 and rng.random() < 0.5:
            game, events = apply(game, person, Roll(), roller, now)
            log += events
            if game.phase is not Phase.PLAYING:
                break
        box = rng.choice(game.seats[game.current].open_boxes())
        game, events = apply(game, person, Score(box), roller, now)
        log += events
    return game, log


RULE_SETS = [
    ChatSettings(big_general=big, five_of_a_kind_full_house=full, straight_joker=joker)
    for big in BigGeneralMode
    for full in (False, True)
    for joker in (True, False)
]


async def give_rule_sets(path: Path, tables: int) -> None:
    """The chats of the first `tables` Telegram tables (bench.roundtrip numbers them from 0)
    get the eight rule sets in turn."""
    repository = await SqliteRepository.open(path)
    try:
        for number in range(tables):
            chat = str(-1_000_000_000 - number)  # bench.roundtrip.TelegramTable's chat
            await repository.save_chat_settings("tg", chat, RULE_SETS[number % len(RULE_SETS)])
    finally:
        await repository.close()


async def store_finished(path: Path, count: int) -> float:
    """Write `count` finished games through the repository; seconds it took."""
    began = time.monotonic()
    roller, rng = SeededRoller(2024), random.Random(2024)
    repository = await SqliteRepository.open(path)
    try:
        for number in range(count):
            game, events = play_out(number, roller, rng)
            await repository.save(game, events, None)
    finally:
        await repository.close()
    return time.monotonic() - began


@dataclass
class MemoryRun:
    built_peak_mb: float  # the process that opened the games live
    loaded_ready_mb: float  # the restarted process, once ready (every game loaded)
    loaded_peak_mb: float  # … its peak after a press on every table and the leaderboards
    loaded_end_mb: float
    active: int
    finished: int
    problems: list[str]


async def each(tables: Sequence[Table], work: str) -> None:
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(table: Table) -> None:
        async with gate:
            if work == "roll":
                await table.press("r", record=False)
            else:
                await table.press(table.choose(), record=False)

    await asyncio.gather(*(one(t) for t in tables))


async def leaderboards(telegram: Driver, discord: Driver) -> None:
    table = telegram.tables[0]
    assert isinstance(table.driver.fake, BenchTelegram)
    fake_tg = table.driver.fake
    chat = table.chat_key()
    before = len(fake_tg.bot_messages(table.chat))  # type: ignore[attr-defined]
    await fake_tg.send_message(table.user, table.chat, "/general leaderboard global")  # type: ignore[attr-defined]
    await fake_tg.wait_chat(
        chat,
        lambda: len(fake_tg.bot_messages(table.chat)) > before,  # type: ignore[attr-defined]
        30,
    )
    table = discord.tables[0]
    fake_dc = table.driver.fake
    assert isinstance(fake_dc, BenchDiscord)
    interaction = await fake_dc.slash(
        table.member,  # type: ignore[attr-defined]
        table.channel,  # type: ignore[attr-defined]
        "general",
        "leaderboard",
        options={"scope": "global"},
    )
    await interaction.wait_response(timeout=30)


async def memory_run(database: Path, directory: Path, games: int) -> MemoryRun:
    telegram, discord = BenchTelegram(), BenchDiscord()
    await telegram.start()
    await discord.start()
    tg, dc = Driver("telegram", telegram), Driver("discord", discord)
    env = bot_env(telegram=telegram, discord=discord, database=database)
    problems: list[str] = []
    try:
        built = BotProcess("bot", env, directory / "memory.log")
        try:
            await built.start()
            await built.wait_ready()
            half = games // 2
            opened = await asyncio.gather(tg.open_tables(half), dc.open_tables(games - half))
            tables = [*opened[0], *opened[1]]
            await each(tables, "roll")
            await quiet(telegram, discord)
        finally:
            await built.stop()
        problems += built.errors()
        loaded = BotProcess("bot", env, directory / "memory.log")
        try:
            await loaded.start()
            await loaded.wait_ready()
            ready_kb = loaded.memory_kb()[0]
            await each(tables, "press")
            await leaderboards(tg, dc)
            end_kb = loaded.memory_kb()[0]
            await quiet(telegram, discord)
        finally:
            await loaded.stop()
        problems += loaded.errors()
    finally:
        await telegram.stop()
        await discord.stop()
    if tg.lost or dc.lost:
        problems.append(f"{tg.lost + dc.lost} presses never answered")
    with sqlite3.connect(database) as db:
        active = db.execute("SELECT COUNT(*) FROM games WHERE phase != 'finished'").fetchone()[0]
        finished = db.execute("SELECT COUNT(*) FROM games WHERE phase = 'finished'").fetchone()[0]
    return MemoryRun(
        built.peak_rss_kb / 1024,
        ready_kb / 1024,
        loaded.peak_rss_kb / 1024,
        end_kb / 1024,
        active,
        finished,
        problems[:5],
    )


@dataclass
class MemoryReport:
    runs: int
    finished: int
    in_progress: int
    built_peak: Figure = field(default_factory=Figure)
    loaded_ready: Figure = field(default_factory=Figure)
    loaded_peak: Figure = field(default_factory=Figure)
    loaded_end: Figure = field(default_factory=Figure)
    eight_peak: Figure = field(default_factory=Figure)  # the same, all eight rule sets in use
    stored: str = ""
    left: tuple[int, int] = (0, 0)  # (finished, in progress) in the database at the end
    store_seconds: float = 0.0
    database_mb: float = 0.0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def peak(self) -> Figure:
        """The higher of the two processes' peaks, run by run."""
        return Figure(
            [
                max(a, b)
                for a, b in zip(self.built_peak.values, self.loaded_peak.values, strict=False)
            ]
        )

    def lines(self) -> list[str]:
        return [
            f"Memory: {self.finished:,} finished games stored, {self.in_progress} in progress "
            f"(MB; median of {self.runs} run(s))",
            f"  database {self.database_mb:.0f} MB, written through the repository in "
            f"{self.store_seconds:.0f} s; at the end: {self.stored}",
            f"  the process that opened the {self.in_progress} games: peak RSS "
            f"{self.built_peak.show(0)}",
            f"  restarted on them: RSS at ready {self.loaded_ready.show(0)}, after a press on "
            f"every table and the leaderboards {self.loaded_end.show(0)}, peak "
            f"{self.loaded_peak.show(0)}",
            f"  peak RSS of the bot process: {self.peak.show(0)} (target < {TARGET_MB} MB)",
            f"  peak RSS with all eight rule sets in use: {self.eight_peak.show(0)} "
            f"(target < {TARGET_MB} MB)",
            *(f"  problem: {p}" for p in self.problems),
            f"(took {self.seconds:.0f} s)",
        ]


async def memory(
    runs: int, directory: Path, finished: int = FINISHED, in_progress: int = IN_PROGRESS
) -> MemoryReport:
    began = time.monotonic()
    report = MemoryReport(runs, finished, in_progress)
    await asyncio.to_thread(directory.mkdir, parents=True, exist_ok=True)
    stored = directory / "stored.db"
    report.store_seconds = await store_finished(stored, finished)
    report.database_mb = stored.stat().st_size / 2**20
    for run in range(runs):
        where = directory / f"memory-{run}"
        where.mkdir(parents=True, exist_ok=True)
        database = where / "general.db"
        shutil.copy(stored, database)
        result = await memory_run(database, where, in_progress)
        report.built_peak.add(result.built_peak_mb)
        report.loaded_ready.add(result.loaded_ready_mb)
        report.loaded_peak.add(result.loaded_peak_mb)
        report.loaded_end.add(result.loaded_end_mb)
        report.stored = f"{result.finished:,} finished, {result.active} in progress"
        report.left = (result.finished, result.active)
        report.problems += result.problems
        where = directory / f"memory-eight-{run}"
        where.mkdir(parents=True, exist_ok=True)
        database = where / "general.db"
        shutil.copy(stored, database)
        await give_rule_sets(database, in_progress // 2)  # memory_run: Telegram gets half
        eight = await memory_run(database, where, in_progress)
        report.eight_peak.add(max(eight.built_peak_mb, eight.loaded_peak_mb))
        report.problems += eight.problems
    report.seconds = time.monotonic() - began
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="1,000 + 50 games, one run")
    args = parser.parse_args(argv)
    runs, finished, in_progress = (
        (1, 1_000, 50) if args.quick else (args.runs, FINISHED, IN_PROGRESS)
    )
    with tempfile.TemporaryDirectory(prefix="general-bench-") as directory:
        report = asyncio.run(memory(runs, Path(directory), finished, in_progress))
    print("\n".join(report.lines()))


if __name__ == "__main__":
    main()
