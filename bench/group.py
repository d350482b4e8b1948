"""A lively Telegram group under its real limit: one game of 2, 4 and 8 people, played to the end.

`uv run python -m bench.group [--people 2,4,8] [--seed 1]` runs, at once, one table of each size,
each against a fake Telegram of its own with the strict limits (a group's sends and edits
sharing 20 a minute, a chat's burst of 3 and then one a second, 30 a second in all) and the
real bot (`python -m bot`, its pace at its defaults) as a subprocess; the people press at a
human pace, 0.3–2 s after their last answer (bench.limits says how they play). Printed per size:
presses, those answered within 1 s, those refused as out of date, the 429s the fake answered,
the time from a press to the first drawing of a board showing it (p50, p95, and in the group's
slots of three seconds), and the edits and new messages per turn. A game of eight takes about
eight minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.limits import BOXES, THINK, Run, findings, measure

SLOT = 3.0  # seconds: a group's minute spent evenly over its 20 writes

ROW = (
    "{people:>6} {presses:>7} {inTime:>6} {stale:>9} {limited:>5} {p50:>7} {p95:>7} "
    "{slots:>9} {edits:>10} {sends:>10} {finished:>8}"
)


def row(run: Run) -> str:
    turns = max(1, sum(len(boxes) for t in run.tables for boxes in t.boxes.values()))
    stale = 100 * run.stale / len(run.presses) if run.presses else math.nan
    p95 = run.board_ms(0.95) / 1000
    return ROW.format(
        people=run.people,
        presses=len(run.presses),
        inTime=f"{100 * run.answered_in_time:.0f}%",
        stale=f"{stale:.1f}%",
        limited=sum(run.rate_limited.values()),
        p50=f"{run.board_ms(0.5) / 1000:.1f} s",
        p95=f"{p95:.1f} s",
        slots=f"{p95 / SLOT:.1f}",
        edits=f"{run.edits / turns:.2f}",
        sends=f"{run.sends / turns:.2f}",
        finished=f"{run.finished}/{run.count}",
    )


def lines(runs: Sequence[Run], took: float) -> list[str]:
    header = ROW.format(
        people="people", presses="presses", inTime="≤1 s", stale="stale", limited="429",
        p50="lag p50", p95="lag p95", slots="p95 slots", edits="edits/turn",
        sends="sends/turn", finished="finished",
    )  # fmt: skip
    out = [
        f"One game to the end ({BOXES} rounds) in a Telegram group under its shared limit, "
        "people pressing 0.3–2 s apart:",
        header,
        "-" * len(header),
        *(row(run) for run in runs),
        "(lag: a press → the first drawing of a board showing it; a slot: 3 s of the group's "
        "minute)",
    ]
    found = [f for run in runs for f in findings(run)]
    out += ["", "Findings:"] + [f"  {f}" for f in found or ["none"]]
    out.append(f"(took {took:.0f} s)")
    return out


async def games(
    directory: Path,
    sizes: Sequence[int],
    *,
    think: tuple[float, float] = THINK,
    seed: int = 1,
) -> list[Run]:
    return list(
        await asyncio.gather(
            *(
                measure("telegram", 1, True, directory, think=think, seed=seed, people=n)
                for n in sizes
            )
        )
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", default="2,4,8", help="table sizes, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.people.split(",")]
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="general-group-") as directory:
        runs = asyncio.run(games(Path(directory), sizes, seed=args.seed))
    print("\n".join(lines(runs, time.monotonic() - began)))


if __name__ == "__main__":
    main()
