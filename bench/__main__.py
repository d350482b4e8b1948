"""Every benchmark of the bot, one after another, and the targets they are held to.

    uv run python -m bench [--quick] [--runs 3] [--only roundtrip,service,memory,startup]

- start-up (bench.startup): launch → ready on each fake and both, the first hint's cost;
- the service alone (bench.service): actions a second at 1…500 games beside the raw write rate;
- memory (bench.memory): peak RSS with 10,000 finished games stored and 500 in progress;
- round trip (bench.roundtrip): press → edit at 1, 50 and 200 games on Telegram and Discord,
  beside the trivial bot (bench.trivial_bot).

Each figure is the median of `--runs` runs with the spread (lowest–highest). `--quick` is a smoke
run: one run, small sizes (its figures are not the targets' sizes). A full run takes about ten
minutes on the 2-core machine of BENCHMARKS.md. The strategy engine has its own benchmark:
`uv run python -m bench.strategy`; so has memory over many chats: `uv run python -m bench.chats`;
and play under the platforms' rate limits: `uv run python -m bench.limits` (about ten minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import resource
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from bench import memory as memory_bench
from bench import roundtrip as roundtrip_bench
from bench import service as service_bench
from bench import startup as startup_bench
from bench.roundtrip import machine_cpu

PARTS = ("startup", "service", "memory", "roundtrip")
LIBRARIES = (
    "python-telegram-bot",
    "discord.py",
    "aiosqlite",
    "aiohttp",
    "numpy",
)
RTT_P99_MS = 50.0
PRICE = 2.0
SERVICE_SHARE = 0.5
RSS_MB = 150.0
READY_S = 2.0


def machine(directory: str | None = None) -> list[str]:
    memory = "?"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 2**20:.1f} GiB"
    except OSError:
        pass
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = []
    for name in LIBRARIES:
        try:
            versions.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name} (not installed)")
    bytecode = "off" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "on"
    return [
        f"machine: {os.cpu_count()} CPUs ({cpu}), {memory} memory, {platform.system()} "
        f"{platform.release()}",
        f"Python {platform.python_version()} ({sys.executable}), SQLite {sqlite3.sqlite_version}; "
        f"bytecode writing in this environment: {bytecode}",
        "libraries: " + ", ".join(versions),
        f"databases in {directory or tempfile.gettempdir()}",
    ]


def verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def targets(
    roundtrip: roundtrip_bench.RoundTrip | None,
    service: service_bench.ServiceReport | None,
    memory: memory_bench.MemoryReport | None,
    startup: startup_bench.StartupReport | None,
) -> list[str]:
    out = ["Targets"]
    if roundtrip is not None:
        timed = roundtrip.timed()
        busiest = max(timed, key=lambda level: level.games)
        for name in roundtrip.platforms:
            cell = roundtrip.cells.get((name, "game", busiest))
            if cell is None:
                continue
            p99 = cell.p99.median
            out.append(
                f"  round trip p99 < {RTT_P99_MS:.0f} ms at {busiest.games} games, {name}: "
                f"{p99:.1f} ms — {verdict(p99 < RTT_P99_MS)}"
            )
        for name in roundtrip.platforms:
            for level in timed:
                if (name, "trivial", level) not in roundtrip.cells:
                    continue
                ratio = roundtrip.ratio(name, level).median
                out.append(
                    f"  p50 ≤ {PRICE:g}× the trivial bot's, {name} at {level.games} games: "
                    f"{ratio:.2f}× — {verdict(ratio <= PRICE)}"
                )
    if service is not None:
        games = service.target_games if service.target_games in service.rate else max(service.rate)
        share = service.share(games).median
        out.append(
            f"  service at {games} games ≥ {SERVICE_SHARE:g} × raw committed writes: "
            f"{share:.2f} — {verdict(share >= SERVICE_SHARE)}"
        )
    if memory is not None:
        peak = memory.peak.median
        out.append(
            f"  peak RSS < {RSS_MB:.0f} MB ({memory.finished:,} finished + {memory.in_progress} "
            f"in progress): {peak:.0f} MB — {verdict(peak < RSS_MB)}"
        )
    if startup is not None:
        first = {c: f.median for c, f in startup.first_launch.items()}
        for ready, how in (
            ({c: f.median for (c, k), f in startup.ready.items() if k}, "bytecode compiled"),
            (first, "first launch"),
        ):
            if not ready:
                continue
            worst = max(ready, key=lambda c: ready[c])
            out.append(
                f"  ready < {READY_S:g} s ({how}; slowest: {worst}): {ready[worst]:.2f} s — "
                f"{verdict(ready[worst] < READY_S)}"
            )
    return out


async def run_all(args: argparse.Namespace, directory: Path) -> None:
    quick, runs = args.quick, 1 if args.quick else args.runs
    parts = args.only.split(",") if args.only else list(PARTS)
    startup = service = memory = roundtrip = None
    if "startup" in parts:
        startup = await startup_bench.startup(runs, directory / "startup", cold=not quick)
        print("\n".join(startup.lines()), end="\n\n", flush=True)
    if "service" in parts:
        seconds, warmup = (0.5, 0.1) if quick else (2.0, 0.3)
        service = await service_bench.service_benchmark(
            runs, service_bench.LEVELS, directory, seconds, warmup
        )
        print("\n".join(service.lines()), end="\n\n", flush=True)
    if "memory" in parts:
        finished, in_progress = (1_000, 50) if quick else (10_000, 500)
        memory = await memory_bench.memory(runs, directory / "memory", finished, in_progress)
        print("\n".join(memory.lines()), end="\n\n", flush=True)
    if "roundtrip" in parts:
        roundtrip = await roundtrip_bench.roundtrip(
            runs, roundtrip_bench.levels_for(quick), directory / "roundtrip"
        )
        print("\n".join(roundtrip.lines()), end="\n\n", flush=True)
    print("\n".join(targets(roundtrip, service, memory, startup)))
    if quick:
        print("  (--quick: one run at small sizes; the targets are judged on a full run)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median, spread)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: one run, small sizes")
    parser.add_argument("--only", help=f"comma-separated parts of {','.join(PARTS)}")
    parser.add_argument("--directory", help="where the databases go (default: a temp folder)")
    args = parser.parse_args(argv)
    began, machine_began, ours_began = time.monotonic(), machine_cpu(), _ours()
    print("\n".join(machine(args.directory)), end="\n\n", flush=True)
    with tempfile.TemporaryDirectory(prefix="general-bench-", dir=args.directory) as directory:
        asyncio.run(run_all(args, Path(directory)))
    took = time.monotonic() - began
    others = (machine_cpu() - machine_began) - (_ours() - ours_began)
    print(
        f"\nall benchmarks took {took:.0f} s; other processes used {100 * others / took:.0f}% "
        "of a core meanwhile (more than a few % competed with the figures)"
    )


def _ours() -> float:
    """CPU seconds of this process and of its finished children (the bots)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
