"""A real `python -m bot` process stopped mid-game (SIGKILL, Ctrl-C, end of input); a new process
resumes from the SQLite file."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

# A new process's first prompt: imports and start-up, on two cores the parallel suite shares
# (the suite's other process starts allow 20-30 s). It bounds a hang, it times nothing.
STARTED = 30.0

ROOT = Path(__file__).resolve().parents[2]
PROMPT = re.compile(r"(\w+)> $")
DIE = re.compile(r"[⚀⚁⚂⚃⚄⚅] (\d)")
HEADER = re.compile(r"(\w+)'s turn · round (\d+)/10 · throw (\d)/3")
NAMES = re.compile(r"names, separated by commas.*: $")
RESUME = re.compile(r"Carry on with it\? \[Y/n\] $")
SAVED = re.compile(r"The game is saved\. Start the bot again to carry on\.\n")


class ConsoleProcess:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.output = ""

    @classmethod
    async def start(cls, database: Path) -> ConsoleProcess:
        env = {**os.environ, "GENERAL_DATABASE": str(database), "GENERAL_DICE_SEED": "7"}
        env.update(
            TELEGRAM_TOKEN="", DISCORD_TOKEN=""
        )  # an empty token is no token, even over .env
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot",
            cwd=ROOT, env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        return cls(proc)

    async def read_until(self, pattern: re.Pattern[str], timeout: float = 10.0) -> re.Match[str]:
        start = len(self.output)
        async with asyncio.timeout(timeout):
            while True:
                match = pattern.search(self.output, start)
                if match:
                    return match
                assert self.proc.stdout is not None
                chunk = await self.proc.stdout.read(4096)
                if not chunk:
                    raise AssertionError(f"process ended; output:\n{self.output[-2000:]}")
                self.output += chunk.decode()

    async def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{line}\n".encode())
        await self.proc.stdin.drain()

    async def turn_prompt(self) -> tuple[str, int, int]:
        """Wait for the board and the prompt; (player, round, throw)."""
        start = len(self.output)
        await self.read_until(PROMPT)
        headers = list(HEADER.finditer(self.output, start))
        assert headers, self.output[start:]
        name, round_, throw = headers[-1].groups()
        return name, int(round_), int(throw)


def stored_game(database: Path) -> dict[str, object]:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT snapshot FROM games ORDER BY created_at DESC LIMIT 1").fetchone()
    return json.loads(row[0])


@pytest.mark.slow
async def test_sigkill_mid_game_then_resume(tmp_path: Path) -> None:
    database = tmp_path / "general.db"
    first = await ConsoleProcess.start(database)
    await first.read_until(NAMES, timeout=STARTED)
    await first.send("Alice, Bob")
    turns = 0
    while True:
        name, round_, throw = await first.turn_prompt()
        assert throw == 0
        await first.send("r")
        await first.turn_prompt()
        turns += 1
        if turns == 7:
            break
        await first.send(f"s {round_}")
    # Killed with dice showing on the 7th turn: that throw was answered, so it must be stored.
    shown = HEADER.findall(first.output)[-1]
    first.proc.send_signal(signal.SIGKILL)
    await first.proc.wait()
    saved = stored_game(database)
    assert saved["phase"] == "playing"
    assert saved["turn"]["throws"] == 1  # type: ignore[index]
    dice_before = saved["turn"]["dice"]  # type: ignore[index]

    second = await ConsoleProcess.start(database)
    await second.read_until(RESUME, timeout=STARTED)
    await second.send("y")
    name, round_, throw = await second.turn_prompt()
    assert (name, str(round_), str(throw)) == shown
    board = second.output[second.output.rindex("'s turn") :]
    assert [int(d) for d in DIE.findall(board)] == dice_before
    await second.send(f"s {round_}")
    while True:
        match = await second.read_until(re.compile(r"(\w+)> $|Start a new game\? \[Y/n\] $"))
        if match.group(0).startswith("Start a new game"):
            break
        header = list(HEADER.finditer(second.output))[-1]
        _, round_, throw = header.group(1), int(header.group(2)), int(header.group(3))
        await second.send("r" if throw == 0 else f"s {round_}")
    await second.send("n")
    assert await second.proc.wait() == 0
    final = stored_game(database)
    # The seeded dice hold no big general for this script, so the game runs its ten rounds.
    assert (final["phase"], final["end_reason"]) == ("finished", "completed")
    for seat in final["seats"]:  # type: ignore[attr-defined]
        assert None not in seat["scores"]
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        kinds = [k for (k,) in db.execute("SELECT kind FROM events ORDER BY seq")]
        results = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    # Every box of both players written exactly once across the two processes.
    assert kinds.count("box_scored") == 20
    assert results == 2


@pytest.mark.parametrize("stop", ["ctrl-c", "ctrl-d"])
@pytest.mark.slow
async def test_ctrl_c_or_end_of_input_saves_at_once_and_the_next_run_resumes(
    tmp_path: Path, stop: str
) -> None:
    database = tmp_path / "general.db"
    first = await ConsoleProcess.start(database)
    try:
        await first.read_until(NAMES, timeout=STARTED)
        await first.send("Alice, Bob")
        await first.turn_prompt()
        await first.send("r")
        await first.turn_prompt()  # waiting for a line, with the input left open
        shown = HEADER.findall(first.output)[-1]
        if stop == "ctrl-c":
            first.proc.send_signal(signal.SIGINT)  # what the terminal sends on Ctrl-C
        else:
            assert first.proc.stdin is not None
            first.proc.stdin.close()
        await first.read_until(SAVED, timeout=5)  # at once: no Enter needed
        assert await asyncio.wait_for(first.proc.wait(), 5) == 0
    finally:
        if first.proc.returncode is None:
            first.proc.kill()
            await first.proc.wait()
    assert "Traceback" not in first.output

    second = await ConsoleProcess.start(database)
    await second.read_until(RESUME, timeout=STARTED)
    await second.send("y")
    name, round_, throw = await second.turn_prompt()
    assert (name, str(round_), str(throw)) == shown
    second.proc.send_signal(signal.SIGINT)
    await second.read_until(SAVED, timeout=5)
    assert await asyncio.wait_for(second.proc.wait(), 5) == 0
