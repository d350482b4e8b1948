"""A SIGKILL while a group of saves is being committed: every save acknowledged before it is in
the file after a restart, nothing of the group in flight is, and nothing is half-written.

A real process plays many solo tables at once on SQLite, through the repository's writer, and
prints each save it sends and each it sees acknowledged; the writer's thread prints each group
as it starts and ends, and each save's statement is slowed (a trace callback that sleeps), so
that a group is long enough to be killed in. The test kills the process once enough saves were
acknowledged, in the middle of a group of many."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson
import pytest

from core.ports import read_snapshot

ROOT = Path(__file__).resolve().parents[1]
TABLES = 60
ACKNOWLEDGED = 150  # saves acknowledged before the kill, at least

CHILD = r"""
import asyncio, os, sys, time

from adapters.sqlite import SqliteRepository, writer
from core.actions import Open, Roll, Score, Start
from core.dice import SeededRoller
from core.game import apply, open_lobby
from core.table import Phase
from core.identity import ChannelKey, PlayerRef

def say(line):
    os.write(1, (line + "\n").encode())  # one write: whole lines, from either thread

real = writer._commit

def commit(db, statements, finish):  # in the database's thread
    say("begin " + " ".join(f"{row[0]}@{row[3]}" for _, row in statements))
    try:
        return real(db, statements, finish)
    finally:
        say("end")

writer._commit = commit

def slow(statement):  # in the database's thread, before each statement runs
    if statement.startswith("INSERT INTO game_saves"):
        time.sleep(0.002)

async def table(repository, number, roller):
    channel = ChannelKey("telegram", f"-{number}")
    person = PlayerRef(str(number), f"P{number}")
    game = None
    for round_ in range(10_000):
        if game is None or game.phase is Phase.FINISHED:
            new, events = open_lobby(f"g{number}-{round_}", channel, person, Open())
            previous = None
        elif game.phase is Phase.LOBBY:
            new, events = apply(game, person, Start(), roller)
            previous = game.version
        else:
            seat = game.seats[game.current]
            action = Roll() if game.turn.throws < 3 else Score(seat.open_boxes()[0])
            new, events = apply(game, person, action, roller)
            previous = game.version
        say(f"sent {new.id}@{new.version}")
        await repository.save(new, events, previous)
        say(f"ack {new.id}@{new.version}")
        game = new

async def main(path, tables):
    repository = await SqliteRepository.open(path)
    await repository._db.set_trace_callback(slow)
    say("ready")
    roller = SeededRoller(1)
    await asyncio.gather(*(table(repository, n, roller) for n in range(tables)))

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def version_of(save: str) -> tuple[str, int]:
    game_id, version = save.rsplit("@", 1)
    return game_id, int(version)


@pytest.mark.slow
def test_a_kill_in_the_middle_of_a_group_loses_no_acknowledged_save(tmp_path: Path) -> None:
    path = tmp_path / "general.db"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(TABLES)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=(tmp_path / "stderr").open("wb"),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    watchdog = threading.Timer(60, child.kill)
    watchdog.start()
    sent: dict[str, int] = {}
    acknowledged: dict[str, int] = {}
    acks = 0
    in_flight: list[str] = []  # the saves of the group the thread is committing
    killed_in: list[str] = []
    ended_after_kill = False

    def take(line: str) -> None:
        nonlocal acks, in_flight, ended_after_kill
        word, _, rest = line.partition(" ")
        if word == "sent":
            game_id, version = version_of(rest)
            sent[game_id] = version
        elif word == "ack":
            game_id, version = version_of(rest)
            acknowledged[game_id] = version
            acks += 1
        elif word == "begin":
            in_flight = rest.split()
        elif word == "end":
            in_flight = []
            ended_after_kill = bool(killed_in)

    try:
        while line := child.stdout.readline().decode().strip():
            take(line)
            # A group of many (2 ms a statement), after enough acknowledgements:
            if line.startswith("begin") and acks >= ACKNOWLEDGED and len(in_flight) >= 30:
                time.sleep(0.02)  # some of its statements have run
                child.send_signal(signal.SIGKILL)
                killed_in = in_flight
                break
        # What it printed before it died: acknowledgements the test had not read yet count.
        for line in child.stdout.read().decode().splitlines():
            take(line.strip())
    finally:
        watchdog.cancel()
        child.kill()
        child.wait()
        child.stdout.close()
    assert killed_in, "the process was never killed in a group"
    assert not ended_after_kill, "the group was over before the kill"
    assert child.returncode == -signal.SIGKILL, (tmp_path / "stderr").read_text()
    assert acks >= ACKNOWLEDGED

    # The restart's view: the file as SQLite recovers it (the WAL's committed frames only).
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        games = {
            game_id: (version, snapshot)
            for game_id, version, snapshot in raw.execute("SELECT id, version, snapshot FROM games")
        }
        logs: dict[str, list[tuple[int, int]]] = {}
        for game_id, seq, version in raw.execute(
            "SELECT game_id, seq, version FROM events ORDER BY game_id, seq"
        ):
            logs.setdefault(game_id, []).append((seq, version))
    for game_id, version in acknowledged.items():  # nothing acknowledged is lost
        assert game_id in games and games[game_id][0] >= version
    for game_id, save in map(version_of, killed_in):  # nothing of the group in flight is there
        assert games.get(game_id, (save - 1,))[0] < save, f"{game_id} has the killed save {save}"
    for game_id, (version, snapshot) in games.items():  # every game whole
        assert version <= sent[game_id]
        game = read_snapshot(orjson.loads(snapshot))
        assert game.version == version
        seqs = [seq for seq, _ in logs[game_id]]
        assert seqs == list(range(1, len(seqs) + 1))  # contiguous
        versions = [v for _, v in logs[game_id]]
        assert versions == sorted(versions) and versions[-1] == version
    assert json.dumps(sorted(games)) == json.dumps(sorted(logs))  # a log for every game, no more
