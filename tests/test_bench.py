"""The benchmarks run (bench/): each on a tiny size. Timings are never asserted here — they are
figures for BENCHMARKS.md, made by `uv run python -m bench`."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from bench import (
    actions,
    chats,
    convoy,
    draw,
    eventplay,
    limits,
    memory,
    pairing,
    roundtrip,
    service,
    startup,
    web,
)
from bench.roundtrip import CAPACITY, Level


def test_actions_benchmark_runs() -> None:
    found = actions.figures(runs=1, number=5)
    assert set(found) >= {"apply: a roll", "apply: a box", "make_view", "save_row"}
    assert all(micro > 0 for micro in found.values())
    assert "µs" in "\n".join(actions.lines(found))


def test_convoy_benchmark_runs_and_both_ways_write_the_same(tmp_path: Path) -> None:
    groups = convoy.saves(games=3, actions=4)
    stored = []
    for many in (False, True):
        micros, share = convoy.timed(tmp_path, f"{many}.db", many, True, groups)
        assert micros > 0 and share > 0
        with sqlite3.connect(tmp_path / f"{many}.db") as raw:
            stored.append(raw.execute("SELECT id, version, snapshot FROM games").fetchall())
    assert len(stored[0]) == 3 and stored[0] == stored[1]


async def test_service_benchmark_runs(tmp_path: Path) -> None:
    report = await service.service_benchmark(1, (1, 3), tmp_path, seconds=0.2, warmup=0.05)
    assert report.rate[3].median > 0 and report.raw.median > 0 and report.raw_sqlite3.median > 0
    assert report.hops[1].median > 0
    assert 0 < report.durable(3).median < 10
    lines = "\n".join(report.lines())
    assert "actions/s" in lines and "durable/in-memory at 3 games: " in lines


@pytest.mark.parametrize("platform", roundtrip.PLATFORMS)
@pytest.mark.slow
async def test_roundtrip_benchmark_runs(tmp_path: Path, platform: str) -> None:
    levels = [Level(1, 0.01, 0.4), Level(2, CAPACITY, 0.3)]
    report = await roundtrip.roundtrip(1, levels, tmp_path, platforms=(platform,), warmup=0.1)
    assert report.problems == []
    for bot in roundtrip.BOTS:
        cell = report.cells[(platform, bot, levels[0])]
        assert cell.samples.median > 0 and not math.isnan(cell.p99.median)
        # At least the edit (Telegram: and the answer) a press; a press at the edge of the timed
        # window may have its call counted outside it.
        assert cell.calls.median > 0.9
        assert report.cells[(platform, bot, levels[1])].rate.median > 0
    assert report.ratio(platform, levels[0]).median > 0
    assert "Price of the game" in "\n".join(report.lines())


@pytest.mark.slow
async def test_memory_benchmark_runs(tmp_path: Path) -> None:
    report = await memory.memory(1, tmp_path, finished=20, in_progress=4)
    assert report.problems == []
    finished, in_progress = report.left
    # a big general on the bot's random dice ends a game (at most one per press, two presses
    # a table), and its table opens a new one
    assert in_progress == 4 and 20 <= finished <= 20 + 2 * 4, report.stored
    assert report.peak.median > 0
    assert "peak RSS" in "\n".join(report.lines())


@pytest.mark.slow
async def test_startup_benchmark_runs(tmp_path: Path) -> None:
    report = await startup.startup(1, tmp_path, cold=False, configs=("telegram",), warm=False)
    assert report.ready[("telegram", True)].median > 0
    assert report.first_hint.median > 0 and report.roll.median > 0
    assert "ready" in "\n".join(report.lines())


async def test_chats_benchmark_runs(tmp_path: Path) -> None:
    report = await chats.chats(200, tmp_path, every=100)
    assert report.problems == []
    assert sorted(report.after) == [100, 200] and report.ready_mb > 0
    assert "growth" in "\n".join(report.lines())


@pytest.mark.slow
async def test_limits_benchmark_runs(tmp_path: Path) -> None:
    """One table of four under the fake's strict limits, a few seconds of quick presses."""
    run = await limits.measure(
        "telegram", 1, True, tmp_path, seconds=4.0, think=(0.05, 0.3), seed=2
    )
    assert run.presses and all(p.answer is not None for p in run.presses)
    assert not math.isnan(run.board_ms(0.99)) and not math.isnan(run.answered_in_time)
    assert run.edits_per_press > 0
    assert run.rate_limited == {}  # the bot kept inside the limits: no 429
    assert run.inconsistent == [] and run.problems == []
    report = limits.Report(tables=[run])
    text = "\n".join(report.lines())
    assert "429/game" in text and "edits/press" in text and "stale" in text


def test_draw_benchmark_runs() -> None:
    figures = draw.measure(1, 20)
    assert set(figures) == {(p, b) for p in draw.PLATFORMS for b in ("lobby", "turn")}
    assert all(value > 0 for values in figures.values() for value in values)


def test_pairing_benchmark_runs() -> None:
    """Two rounds of every field: each timed, and its repeat meetings counted."""
    found = pairing.figures(rounds=2, seed=3)
    assert [(f.players, f.size) for f in found] == list(pairing.FIELDS)
    assert all(len(f.times) == 2 and all(t > 0 for t in f.times) for f in found)
    assert "players, tables of" in found[0].line()


def test_eventplay_benchmark_runs() -> None:
    """Two duplicate games at three seats: each way A's place points, the paired figures."""
    report = eventplay.measure(seats=3, games=2, seed=1, workers=1)
    assert len(report.games) == 2
    results = [result for game in report.games for result in (game.event, game.grandmaster)]
    assert all(0 <= result.points <= 1 and 0 <= result.won <= 1 for result in results)
    assert all(game.differed or game.event == game.grandmaster for game in report.games)
    assert "paired difference" in "\n".join(report.lines())


@pytest.mark.slow
async def test_web_benchmark_runs(tmp_path: Path) -> None:
    """Two live tables with their pages, flat out and paced, beside the chat without pages."""
    paces = (CAPACITY, 0.05)
    report = await web.web_bench(1, 2, 0.4, tmp_path, paces=paces, warmup=0.1, rest=0.2)
    assert report.problems == []  # every press answered on every page, none refused
    for pace in paces:
        for name in (f"live {pace}", f"chat {pace}"):
            assert report.figures[f"{name} presses"].median > 0
            p50, p99 = report.figures[f"{name} 0.5"].median, report.figures[f"{name} 0.99"].median
            assert 0 < p50 <= p99 < 15_000
    assert report.figures["beside presses"].median > 0
    assert report.figures["rss after"].median > report.figures["rss before"].median / 2 > 0
    assert "KB a page" in "\n".join(report.lines())
