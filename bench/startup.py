"""Start-up: from launching `python -m bot` to ready, on each fake and on both at once.

`uv run python -m bench.startup [--quick] [--runs 3]` launches the real bot against fresh fakes
(an empty database each time) and times, from the launch of the process:

- `seen`: the platform sees the bot — the first getUpdates long poll at the fake Telegram, the
  gateway IDENTIFY at the fake Discord (with both, the later of the two);
- `ready`: the bot logs "ready": every front end started (on Discord that includes discord.py's
  wait for the guilds, GUILD_READY_TIMEOUT = 0.1 s after READY) and the timers re-armed;
- with bytecode compiled (as a deployed install runs: the first launch writes it, the timed ones
  read it); on a first launch (the standard library's bytecode as the Python installation ships
  it, the project and its site-packages compiled from source: what a fresh `uv sync` runs, uv
  compiling nothing by default); and with nothing compiled at all (an empty bytecode cache, the
  standard library too: every module compiled at every start, as this environment's
  PYTHONDONTWRITEBYTECODE made every launch before);
- the imports alone (`import bot.app` and both front ends, compiled), which bound the rest.

Neither numpy nor the strategy is part of start-up: the bot imports them and solves the default
rules in a thread after ready (bot/app.py, warm_up), or the first board, hint or computer that
needs them does. What that costs a player is timed too: on a freshly started bot, a solo game's
first hint (numpy's import and the solve included, unless the warm-up has done them), the second
hint, and a plain roll, each from the press to the answer at the fake.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.roundtrip import (
    ROOT,
    BenchDiscord,
    BenchTelegram,
    BotProcess,
    Driver,
    Figure,
    bot_env,
)

CONFIGS = ("telegram", "discord", "both")
IMPORTS = "import bot.app, adapters.telegram.frontend, adapters.discord.frontend"


def installed_stdlib(prefix: Path) -> Path:
    """A bytecode cache (PYTHONPYCACHEPREFIX) holding only the standard library's bytecode as the
    Python installation ships it (its __pycache__ files, linked): a launch with it and
    PYTHONDONTWRITEBYTECODE compiles the project and its site-packages at every start, as a
    first launch does, and reads the standard library's bytecode, as a first launch does."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    ending = f".{sys.implementation.cache_tag}.pyc"  # not the -O ones
    for folder, names, files in os.walk(stdlib):
        if "site-packages" in names:
            names.remove("site-packages")
        here = Path(folder)
        if here.name != "__pycache__":
            continue
        # The cache's layout: the source's folder under the prefix, the file beside it.
        target = prefix / here.parent.relative_to(here.parent.anchor)
        for name in files:
            if name.endswith(ending):
                target.mkdir(parents=True, exist_ok=True)
                (target / name).symlink_to(here / name)
    return prefix


class StartTelegram(BenchTelegram):
    """Notes when the first long poll arrives."""

    first_poll: float | None = None

    async def _api_getUpdates(self, p: dict[str, Any]) -> Any:
        if self.first_poll is None:
            self.first_poll = time.perf_counter()
        return await super()._api_getUpdates(p)


class StartDiscord(BenchDiscord):
    """Notes when the first IDENTIFY arrives."""

    identified: float | None = None

    async def _identify(self, conn: Any, d: dict[str, Any]) -> None:
        if self.identified is None:
            self.identified = time.perf_counter()
        await super()._identify(conn, d)


@dataclass
class Launch:
    seen: float
    ready: float
    rss_mb: float


async def launch(
    config: str, directory: Path, bytecode: Path | None, extra: dict[str, str]
) -> Launch:
    """One start of the bot on fresh fakes; the times from the launch, and its RSS at ready."""
    telegram = StartTelegram() if config in ("telegram", "both") else None
    discord = StartDiscord() if config in ("discord", "both") else None
    if discord is not None:
        discord.guild("Start")  # one guild to wait for, as a real bot has
    for fake in (telegram, discord):
        if fake is not None:
            await fake.start()
    env = bot_env(
        telegram=telegram,
        discord=discord,
        database=directory / "start.db",
        bytecode=bytecode,
        **extra,
    )
    process = BotProcess("bot", env, directory / "start.log")
    try:
        await process.start()
        ready = await process.wait_ready()
        seen = [
            stamp - process.launched
            for stamp in (
                telegram.first_poll if telegram else None,
                discord.identified if discord else None,
            )
            if stamp is not None
        ]
        rss = process.memory_kb()[0] / 1024
    finally:
        await process.stop()
        for fake in (telegram, discord):
            if fake is not None:
                await fake.stop()
        with contextlib.suppress(OSError):
            (directory / "start.db").unlink()
    return Launch(max(seen, default=ready), ready, rss)


async def imports_seconds() -> float:
    """Seconds for a fresh interpreter to import the bot and both front ends (compiled)."""
    env = bot_env()
    began = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", IMPORTS, cwd=ROOT, env=env)
    await proc.wait()
    return time.perf_counter() - began


@dataclass
class FirstHint:
    first_hint: float
    second_hint: float
    roll: float


async def first_hint(directory: Path) -> FirstHint:
    """A freshly started bot: a solo game, a roll, the first hint, another roll, the second."""
    fake = BenchTelegram()
    await fake.start()
    driver = Driver("telegram", fake)
    where = Path(tempfile.mkdtemp(prefix="hint-", dir=directory))  # a new database each time
    env = bot_env(telegram=fake, database=where / "hint.db")
    process = BotProcess("bot", env, where / "hint.log")
    try:
        await process.start()
        await process.wait_ready()
        (table,) = await driver.open_tables(1)
        driver.recording = True
        roll = await table.press("r")
        hint = await table.press("t")
        if "r" in table.codes_of(table.board):
            await table.press("r")
        second = await table.press("t")
    finally:
        await process.stop()
        await fake.stop()
    assert roll is not None and hint is not None and second is not None, "a press went unanswered"
    return FirstHint(hint.answer, second.answer, roll.board)


@dataclass
class StartupReport:
    runs: int
    seen: dict[tuple[str, bool], Figure] = field(default_factory=dict)
    ready: dict[tuple[str, bool], Figure] = field(default_factory=dict)
    rss: dict[str, Figure] = field(default_factory=dict)
    first_launch: dict[str, Figure] = field(default_factory=dict)  # ready, the stdlib compiled
    first_seen: dict[str, Figure] = field(default_factory=dict)  # seen, the same
    imports: Figure = field(default_factory=Figure)
    first_hint: Figure = field(default_factory=Figure)
    second_hint: Figure = field(default_factory=Figure)
    roll: Figure = field(default_factory=Figure)
    seconds: float = 0.0

    def worst_ready(self, compiled: bool = True) -> float:
        return max(f.median for (_, c), f in self.ready.items() if c == compiled)

    def lines(self) -> list[str]:
        out = [
            f"Start-up: launch → seen by the platform / ready (s; median of {self.runs} run(s))",
        ]
        header = (
            f"{'platforms':<10} {'seen, compiled':>18} {'ready, compiled':>18} "
            f"{'seen, first launch':>20} {'ready, first launch':>20} "
            f"{'ready, nothing compiled':>24} {'RSS at ready MB':>16}"
        )
        out += [header, "-" * len(header)]
        for config in CONFIGS:
            if (config, True) not in self.ready:
                continue
            cold = self.ready.get((config, False), Figure())
            first = self.first_launch.get(config, Figure())
            first_seen = self.first_seen.get(config, Figure())
            out.append(
                f"{config:<10} {self.seen[(config, True)].show(2):>18} "
                f"{self.ready[(config, True)].show(2):>18} {first_seen.show(2):>20} "
                f"{first.show(2):>20} "
                f"{cold.show(2):>24} {self.rss[config].show(0):>16}"
            )
        out.append(
            "(first launch: the standard library's bytecode as installed, the project and its "
            "site-packages compiled from source; nothing compiled: the standard library too)"
        )
        out.append(f"imports alone (bot + both front ends, compiled): {self.imports.show(2)} s")
        out.append(
            "strategy tables, solved on first use (not in start-up): first hint "
            f"{1000 * self.first_hint.median:.0f} ms, second hint "
            f"{1000 * self.second_hint.median:.0f} ms, a roll {1000 * self.roll.median:.0f} ms "
            "(press → answer; spreads "
            f"{self.first_hint.show(3)} / {self.second_hint.show(3)} / {self.roll.show(3)} s)"
        )
        out.append(f"(took {self.seconds:.0f} s)")
        return out


async def startup(
    runs: int,
    directory: Path,
    cold: bool = True,
    configs: Sequence[str] = CONFIGS,
    warm: bool = True,
) -> StartupReport:
    began = time.monotonic()
    report = StartupReport(runs)
    await asyncio.to_thread(directory.mkdir, parents=True, exist_ok=True)
    nothing = {"PYTHONDONTWRITEBYTECODE": "1"}  # the caches stay as they are: each launch a first
    stdlib = Path(tempfile.mkdtemp(prefix="stdlib-", dir=directory)) if cold else None
    if stdlib is not None:
        await asyncio.to_thread(installed_stdlib, stdlib)
    if warm:  # a first launch compiles every module into the shared bytecode cache
        await launch("both", directory, None, {})
    for _ in range(runs):
        report.imports.add(await imports_seconds())
        for config in configs:
            result = await launch(config, directory, None, {})
            report.seen.setdefault((config, True), Figure()).add(result.seen)
            report.ready.setdefault((config, True), Figure()).add(result.ready)
            report.rss.setdefault(config, Figure()).add(result.rss_mb)
            if stdlib is not None:
                result = await launch(config, directory, stdlib, nothing)
                report.first_launch.setdefault(config, Figure()).add(result.ready)
                report.first_seen.setdefault(config, Figure()).add(result.seen)
                with tempfile.TemporaryDirectory(dir=directory) as empty:
                    result = await launch(config, directory, Path(empty), nothing)
                report.seen.setdefault((config, False), Figure()).add(result.seen)
                report.ready.setdefault((config, False), Figure()).add(result.ready)
        hint = await first_hint(directory)
        report.first_hint.add(hint.first_hint)
        report.second_hint.add(hint.second_hint)
        report.roll.add(hint.roll)
    report.seconds = time.monotonic() - began
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one run, compiled starts only")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="general-bench-") as directory:
        report = asyncio.run(
            startup(1 if args.quick else args.runs, Path(directory), cold=not args.quick)
        )
    print("\n".join(report.lines()))


if __name__ == "__main__":
    main()
