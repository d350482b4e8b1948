"""The live table under load (issue 32): press on a page → every open page of the table updated.

`uv run python -m bench.web [--quick] [--runs N] [--tables N] [--profile FILE]` starts the fake
Telegram in this process and the real bot (`python -m bot`, SQLite in a temporary folder) with
its web listener on a free port. It opens N solo tables in N groups of the fake (`/general
start`, Start) and three pages on each over WebSockets (bench/pages.py): the player's (a session
from launch data signed with the bot's token, as Telegram signs it) and two spectators'. Each
player's page then presses, at two paces: flat out (as soon as the table's three pages have the
state its last press made: capacity) and a person's (1–3 s later, bench.roundtrip's). It rolls,
holds between throws, writes a box when no throw is left (or by chance), presses the rematch and
Start at a game's end. What is timed is from sending the press to the moment the last of the
three pages receives the state with the new version.

Beside it, in the same run: the chat's round trip at the same paces on a bot without the web
listener (bench.roundtrip's driver, the same number of tables, timed from the press entering the
fake to the bot's edit of the pressed board), the bot's memory per open page (its RSS with every
page open less before, after a quiet second), and chat-only tables at a person's pace beside the
open pages on the web bot. `--profile FILE` runs the web bot under cProfile (its figures are then
not the bot's) and prints where its event loop's time went.
"""

from __future__ import annotations

import argparse
import asyncio
import pstats
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bench.pages import KINDS, PAGES, Harness, LiveTable, Row, live_level, until_shown
from bench.roundtrip import (
    CAPACITY,
    HUMAN_THINK,
    OTHER_CPU,
    ROOT,
    BenchTelegram,
    BotProcess,
    Driver,
    Figure,
    Level,
    LevelResult,
    TelegramTable,
    bot_env,
    measure_bot,
    percentile,
    quiet,
)
from tests.parallel import free_port

FIRST = 100_000  # the live tables' numbers (chats, people) after the chat-only tables'
GOAL_MS = 50.0


class ProfiledBot(BotProcess):
    """`python -m bot` under cProfile, its statistics written to `out` when it stops."""

    def __init__(self, env: dict[str, str], log: Path, out: Path) -> None:
        super().__init__("bot", env, log)
        self.out = out

    async def start(self) -> None:
        self.launched = time.perf_counter()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cProfile", "-o", str(self.out), "-m", "bot", cwd=ROOT,
            env=self.env, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        self._reader = asyncio.create_task(self._read())


@dataclass
class WebRun:
    """One run's figures from the bot with the web listener: its levels' rows by name."""

    rows: dict[str, Row]
    rss_before_kb: int
    rss_after_kb: int
    pages: int
    problems: list[str]


async def web_run(
    count: int,
    paces: Sequence[float],
    seconds: float,
    directory: Path,
    warmup: float,
    profile: Path | None = None,
    rest: float = 1.0,
) -> WebRun:
    """The bot with its web listener: `count` live tables with their pages at each pace, then
    `count` chat-only tables at the last pace beside the open pages. `rest`: the quiet seconds
    before each reading of the bot's memory."""
    fake = BenchTelegram()
    await fake.start()
    port = free_port()
    env = bot_env(
        telegram=fake,
        database=directory / "web.db",
        GENERAL_WEB_URL=f"http://127.0.0.1:{port}/",
        GENERAL_WEB_PORT=str(port),
        GENERAL_WEB_LISTEN="127.0.0.1",
    )
    log = directory / "web.log"
    bot = ProfiledBot(env, log, profile) if profile else BotProcess("bot", env, log)
    chats, opener, harness = Driver("telegram", fake), Driver("telegram", fake), Harness()
    tables = [LiveTable(TelegramTable(opener, FIRST + i), harness) for i in range(count)]
    rows: dict[str, Row] = {}
    connector = aiohttp.TCPConnector(limit=0)  # a socket a page, all open at once
    try:
        async with aiohttp.ClientSession(connector=connector) as http:
            await bot.start()
            await bot.wait_ready()
            await chats.warm_strategy()
            await chats.open_tables(count)
            await _gated([t.chat.open() for t in tables])
            await quiet(fake)
            await asyncio.sleep(rest)
            before = bot.memory_kb()[0]
            await _gated([t.open_pages(http, env["GENERAL_WEB_URL"]) for t in tables], 50)
            await until_shown(tables)
            await quiet(fake)
            await asyncio.sleep(rest)
            after = bot.memory_kb()[0]
            for pace in paces:
                level = Level(count, pace, seconds)
                rows[f"live {pace}"] = await live_level(tables, harness, bot, level, warmup)
            level = Level(count, paces[-1], seconds)
            rows["beside"] = Row.of(await chats.level(level, bot, warmup))
            await quiet(fake)
            await asyncio.gather(*(p.close() for t in tables for p in t.pages))
    finally:
        await bot.stop()
        await fake.stop()
    problems = [
        f"{name}: {row.lost} presses lost, {row.refused} refused"
        for name, row in rows.items()
        if row.lost or row.refused
    ]
    problems += [f"web bot log: {line}" for line in bot.errors()[:5]]
    return WebRun(rows, before, after, PAGES * count, problems)


async def _gated(jobs: Sequence[Any], at_once: int = 40) -> None:
    gate = asyncio.Semaphore(at_once)

    async def one(job: Any) -> None:
        async with gate:
            await job

    await asyncio.gather(*(one(job) for job in jobs))


@dataclass
class Report:
    tables: int
    runs: int
    paces: Sequence[float]
    figures: dict[str, Figure] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, name: str, value: float) -> None:
        self.figures.setdefault(name, Figure()).add(value)

    def show(self, name: str, digits: int = 1) -> str:
        return self.figures[name].show(digits) if name in self.figures else "-"

    def record(self, web: WebRun, chat: Sequence[LevelResult]) -> None:
        rows = dict(web.rows)
        rows |= {
            f"chat {pace}": Row.of(result) for pace, result in zip(self.paces, chat, strict=True)
        }
        for name, row in rows.items():
            ordered = sorted(row.times)
            for q in (0.5, 0.99, 1.0):
                self.add(f"{name} {q}", 1000 * percentile(ordered, q))
            self.add(f"{name} presses", len(row.times))
            self.add(f"{name} rate", len(row.times) / row.seconds)
            self.add(f"{name} bot cpu", 100 * row.bot_cpu)
            self.add(
                f"{name} cpu a press", 1000 * row.bot_cpu * row.seconds / max(1, len(row.times))
            )
            self.add(f"{name} harness cpu", 100 * row.harness_cpu)
            self.add(f"{name} other cpu", 100 * row.other_cpu)
            for kind, times in row.kinds.items():
                self.add(f"{name} {kind}", 1000 * percentile(sorted(times), 0.99))
        self.add("rss before", web.rss_before_kb / 1024)
        self.add("rss after", web.rss_after_kb / 1024)
        self.add("kb a page", (web.rss_after_kb - web.rss_before_kb) / web.pages)
        self.problems += web.problems

    def lines(self) -> list[str]:
        s, n = self.show, self.tables
        out = [
            f"The live table: {n} tables, {PAGES} pages each (ms; median of {self.runs} run(s), "
            "lowest–highest in brackets)",
        ]
        header = (
            f"{'':<44} {'p50':>17} {'p99':>17} {'max':>19} {'presses':>7} {'presses/s':>11} "
            f"{'bot CPU %':>11} {'bot CPU ms/press':>17} {'fake CPU %':>11}"
        )
        out += [header, "-" * len(header)]
        for name, title in self._titles():
            out.append(
                f"{title:<44} {s(f'{name} 0.5'):>17} {s(f'{name} 0.99'):>17} "
                f"{s(f'{name} 1.0'):>19} {s(f'{name} presses', 0):>7} {s(f'{name} rate', 0):>11} "
                f"{s(f'{name} bot cpu', 0):>11} {s(f'{name} cpu a press', 2):>17} "
                f"{s(f'{name} harness cpu', 0):>11}"
            )
        out.append(
            "(live: press on the player's page → its 3 pages have the new state; chat: press in "
            "the fake → the bot's edit of the pressed board; fake CPU: this process, with the "
            f"pages and players; a person's pace: {HUMAN_THINK / 2:g}–{HUMAN_THINK * 1.5:g} s "
            "from an answer to the next press)"
        )
        for pace in self.paces:
            out.append(
                f"  live p99 by press, {_pace(pace)}: "
                + ", ".join(f"{kind} {s(f'live {pace} {kind}')}" for kind in KINDS)
            )
        human = f"live {self.paces[-1]} 0.99"
        if human in self.figures:
            met = "met" if self.figures[human].median < GOAL_MS else "MISSED"
            out.append(
                f"  goal: press → every page p99 < {GOAL_MS:.0f} ms at {_pace(self.paces[-1])}: "
                f"{met}"
            )
        out.append(
            f"Memory: the bot's RSS {s('rss before')} MB before the pages, {s('rss after')} MB "
            f"with {PAGES * n} open: {s('kb a page')} KB a page"
        )
        out += [f"  problem: {p}" for p in self.problems]
        for name, title in self._titles():
            high = self.figures[f"{name} other cpu"].high
            if high > 100 * OTHER_CPU:
                out.append(
                    f"  note: other processes used up to {high:.0f}% of a core during "
                    f"{title.strip()} (competing with the figures)"
                )
        out.append(f"(took {self.seconds:.0f} s)")
        return out

    def _titles(self) -> list[tuple[str, str]]:
        titles = []
        for pace in self.paces:
            titles += [
                (f"live {pace}", f"live, {_pace(pace)}"),
                (f"chat {pace}", f"chat, {_pace(pace)}, no web listener"),
            ]
        titles.append(("beside", f"chat, {_pace(self.paces[-1])}, beside the pages"))
        return titles


def _pace(think: float) -> str:
    return "flat out" if think == CAPACITY else "a person's pace"


async def web_bench(
    runs: int,
    count: int,
    seconds: float,
    directory: Path,
    *,
    paces: Sequence[float] = (CAPACITY, HUMAN_THINK),
    warmup: float = 2.0,
    profile: Path | None = None,
    rest: float = 1.0,
) -> Report:
    """`runs` times: the bot with its web listener and pages, then one without it."""
    began = time.monotonic()
    report = Report(count, runs, paces)
    for run in range(runs):
        where = directory / f"run{run}"
        where.mkdir(parents=True, exist_ok=True)
        web = await web_run(count, paces, seconds, where, warmup, profile, rest)
        levels = [Level(count, pace, seconds) for pace in paces]
        chat, problems = await measure_bot("telegram", "game", levels, where, warmup)
        report.record(web, chat)
        report.problems += problems
    report.seconds = time.monotonic() - began
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="5 tables, short levels, one run")
    parser.add_argument("--profile", type=Path, help="the web bot under cProfile, stats here")
    args = parser.parse_args(argv)
    runs, count, seconds = args.runs, args.tables, 8.0
    if args.quick:
        runs, count, seconds = 1, 5, 1.5
    with tempfile.TemporaryDirectory(prefix="general-bench-web-") as directory:
        report = asyncio.run(web_bench(runs, count, seconds, Path(directory), profile=args.profile))
    print("\n".join(report.lines()))
    if args.profile:
        pstats.Stats(str(args.profile)).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
