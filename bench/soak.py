"""Crash soak: the real bot process against both fake platforms, SIGKILLed again and again.

`uv run python -m bench.soak [--games 50] [--actions 1000] [--kills 20] [--seed 1]` starts the
fake Telegram and Discord servers in this process and `python -m bot` as a subprocess pointed at
them, then plays many games at once by pressing the buttons people see. Now and then it kills the
bot with SIGKILL — between presses and in the middle of them — and starts it again. At the end:

- every press whose success a user saw (an answer without a refusal) is in the database (the
  event that press made, at the version it made it);
- every table can still be played (each takes one more action successfully);
- SQLite's integrity check is ok and the bot's log holds no ERROR.

A shorter run is part of the test suite (tests/test_soak.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters.chat import payload
from bench.roundtrip import succeeded
from core.events import event_from_dict
from core.verification import verify
from tests.fakes.discord import FakeDiscord
from tests.fakes.telegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[1]
DISCORD_TOKEN = "soak-discord-token"
ANSWER_WAIT = 8.0


@dataclass
class Seen:
    """A press a user saw succeed: the event it made must be stored."""

    game_id: str
    version: int


@dataclass
class Table:
    platform: str
    chat: Any  # FakeChat or FakeChannel
    people: list[Any]  # FakeUser or FakeMember, host first
    key: str  # the channel key in the database

    def board(self, soak: Soak) -> Any | None:
        if self.platform == "tg":
            boards = [m for m in soak.telegram.bot_messages(self.chat) if m.reply_markup]
            boards = [m for m in boards if not m.deleted]
        else:
            bot = soak.discord.bot_user
            boards = [
                m for m in soak.discord.channel_messages(self.chat) if m.author is bot and m.buttons
            ]
        return boards[-1] if boards else None


@dataclass
class Report:
    actions: int = 0
    seen: int = 0
    unseen: int = 0
    refused: int = 0
    kills: int = 0
    restarts_s: list[float] = field(default_factory=list)
    finished_games: int = 0
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        restart = sorted(self.restarts_s)
        median = restart[len(restart) // 2] if restart else 0.0
        return [
            f"actions pressed      {self.actions}",
            f"  seen to succeed    {self.seen}",
            f"  refused (stale…)   {self.refused}",
            f"  unanswered (kills) {self.unseen}",
            f"SIGKILLs             {self.kills}",
            f"restart to ready     median {median:.2f} s, max {max(restart, default=0):.2f} s",
            f"games finished       {self.finished_games}",
            f"problems             {len(self.problems)}",
            *(f"  - {p}" for p in self.problems),
        ]


class Soak:
    def __init__(self, directory: Path, seed: int) -> None:
        self.directory = directory
        self.database = directory / "soak.db"
        self.log = directory / "bot.log"
        self.random = random.Random(seed)
        self.telegram = FakeTelegram()
        self.discord = FakeDiscord(token=DISCORD_TOKEN)
        self.proc: asyncio.subprocess.Process | None = None
        self.report = Report()
        self.seen: list[Seen] = []

    # ------------------------------------------------------------------ the bot process

    async def start_bot(self) -> None:
        began = time.monotonic()
        polls = len(self.telegram.calls("getUpdates"))
        identified = self.discord.identifies
        env = {
            **os.environ,
            "TELEGRAM_TOKEN": self.telegram.token,
            "TELEGRAM_BASE_URL": self.telegram.base_url,
            "DISCORD_TOKEN": DISCORD_TOKEN,
            "DISCORD_API_BASE_URL": self.discord.api_base,
            "DISCORD_GATEWAY_URL": self.discord.gateway_url,
            "GENERAL_DATABASE": str(self.database),
            "GENERAL_COMPUTER_PAUSE": "0",
            "GENERAL_FLOOD_BURST": "100000",
            "GENERAL_FLOOD_RATE": "100000",
            "TELEGRAM_CHAT_RATE": "0",
            "NO_PROXY": "127.0.0.1,localhost",
        }
        with self.log.open("ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=ROOT, env=env,
                stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
        await self.telegram.wait_for(
            lambda: len(self.telegram.calls("getUpdates")) > polls, timeout=30
        )
        await self.discord.wait_for(lambda: self.discord.identifies > identified, 30)
        await self.discord.wait_ready(timeout=30)
        self.report.restarts_s.append(time.monotonic() - began)

    async def kill_bot(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.report.kills += 1

    async def stop_bot(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(self.proc.wait(), 20)

    # ------------------------------------------------------------------ people's hands

    async def open_tables(self, games: int) -> list[Table]:
        guild = self.discord.guild(name="Soak")
        tables = []
        for n in range(games):
            if n % 2 == 0:
                people = [self.telegram.user(10_000 + 10 * n + i, f"T{n}p{i}") for i in range(2)]
                chat = self.telegram.chat(-200_000 - n, title=f"soak {n}")
                tables.append(Table("tg", chat, people, f"tg:{chat.id}:"))
            else:
                channel = self.discord.text_channel(guild, name=f"soak-{n}")
                people = [self.discord.member(guild, f"D{n}p{i}") for i in range(2)]
                tables.append(Table("dc", channel, people, f"dc:{channel.id}:"))
        return tables

    async def command(self, table: Table, sub: str) -> None:
        host = table.people[0]
        if table.platform == "tg":
            await self.telegram.send_message(host, table.chat, f"/general {sub}")
            await self.telegram.settle(timeout=ANSWER_WAIT)
        else:
            interaction = await self.discord.slash(host, table.chat, "general", sub)
            try:
                await interaction.wait_response(timeout=ANSWER_WAIT)
            except AssertionError:
                return  # the bot was down: nobody saw an answer
            await self.discord.settle(timeout=ANSWER_WAIT)

    async def press(self, table: Table, person: Any, board: Any, code: str) -> str | None:
        """Press; None when no answer came, "" for success, else the refusal's text."""
        self.report.actions += 1
        data = next(d for b in board.buttons if (d := self._data(table, b)).endswith(f"|{code}"))
        if table.platform == "tg":
            query = await self.telegram.press(person, board, data=data)
            try:
                text, _ = await self.telegram.wait_answer(query, timeout=ANSWER_WAIT)
            except AssertionError:
                return None
            return "" if succeeded(text) else str(text)
        interaction = await self.discord.press(person, board, custom_id=data)
        try:
            await interaction.wait_response(timeout=ANSWER_WAIT)
        except AssertionError:
            return None
        await self.discord.settle(timeout=ANSWER_WAIT)
        return "\n".join(interaction.ephemeral_texts())

    @staticmethod
    def _data(table: Table, button: Any) -> str:
        return str((button.callback_data if table.platform == "tg" else button.custom_id) or "")

    # ------------------------------------------------------------------ the state of a table

    def stored(self, table: Table) -> dict[str, Any] | None:
        with sqlite3.connect(self.database, timeout=10) as db:
            row = db.execute(
                "SELECT snapshot FROM games WHERE channel = ? AND phase != 'finished'",
                (table.key,),
            ).fetchone()
        return None if row is None else json.loads(row[0])

    async def step(self, table: Table) -> None:
        """One action of whoever should act at this table, pressed on the board people see."""
        game = self.stored(table)
        board = table.board(self)
        if game is None:
            self.report.finished_games += 1
            await self.command(table, "start")
            return
        if board is None:
            await self.command(table, "start")  # the board was lost to a kill: post it again
            return
        pressed = next(
            (p for b in board.buttons if (p := payload.decode(self._data(table, b)))), None
        )
        if pressed is None:  # not a game board (a settings screen, say)
            await self.command(table, "start")
            return
        ids = {str(p.id) for p in table.people}
        if game["phase"] == "lobby":
            seated = {s["id"] for s in game["seats"]}
            person, code = (table.people[1], "j") if not ids <= seated else (table.people[0], "b")
        else:
            current = game["seats"][game["current"]]
            person = next(p for p in table.people if str(p.id) == current["id"])
            throws = game["turn"]["throws"]
            open_boxes = [i for i, v in enumerate(current["scores"]) if v is None]
            if throws == 0 or (throws < 3 and self.random.random() < 0.5):
                code = "r"
            else:
                code = f"s{self.random.choice(open_boxes)}"
        if not any(self._data(table, b).endswith(f"|{code}") for b in board.buttons):
            # A kill left the board behind the stored game: "/general start" posts it afresh.
            await self.command(table, "start")
            return
        kill = self.random.random() < self.kill_chance
        if kill:
            task = asyncio.create_task(self.press(table, person, board, code))
            await asyncio.sleep(self.random.uniform(0, 0.03))
            await self.kill_bot()
            answer = await self.answered_before_the_kill(task)
            await self.start_bot()
        else:
            answer = await self.press(table, person, board, code)
        if answer is None:
            self.report.unseen += 1
        elif answer == "":
            self.report.seen += 1
            self.seen.append(Seen(pressed.game_id, pressed.version + 1))
        else:
            self.report.refused += 1

    async def answered_before_the_kill(self, press: asyncio.Task[str | None]) -> str | None:
        """The press's answer if the killed bot gave it: once the fakes have heard all it sent,
        an unanswered press never will be (waiting out ANSWER_WAIT would tell nothing more)."""
        await asyncio.gather(self.telegram.handled(), self.discord.handled())
        if not press.done():
            press.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            return await press
        return None

    # ------------------------------------------------------------------ the whole run

    kill_chance = 0.0

    async def run(self, games: int, actions: int, kills: int) -> Report:
        await self.telegram.start()
        await self.discord.start()
        try:
            await self.start_bot()
            tables = await self.open_tables(games)
            for table in tables:
                await self.command(table, "start")
            self.kill_chance = kills / max(actions, 1) * 1.15
            while self.report.actions < actions:
                await self.step(self.random.choice(tables))
            while self.report.kills < kills:
                await self.kill_bot()
                await self.start_bot()
            await self.check(tables)
        finally:
            await self.stop_bot()
            await self.discord.stop()
            await self.telegram.stop()
        return self.report

    async def check(self, tables: list[Table]) -> None:
        with sqlite3.connect(self.database) as db:
            if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                self.report.problems.append("integrity check failed")
            stored = set(db.execute("SELECT game_id, version FROM events").fetchall())
            self.report.problems += dice_problems(db)
        missing = [s for s in self.seen if (s.game_id, s.version) not in stored]
        self.report.problems += [f"seen but not stored: {s}" for s in missing]
        for table in tables:  # every table still plays
            before = self.report.seen
            for _ in range(6):
                await self.step(table)
                if self.report.seen > before:
                    break
            else:
                self.report.problems.append(f"table {table.key} no longer plays")
        errors = [line for line in self.log.read_text().splitlines() if " ERROR " in line]
        self.report.problems += [f"bot log: {line}" for line in errors[:5]]


def dice_problems(db: sqlite3.Connection) -> list[str]:
    """Every game's throws are its committed dice, killed or not: none drawn again differently
    after a restart, none skipped (DICE.md). A game in play is checked with its stored seed."""
    problems = []
    for game_id, snapshot in db.execute("SELECT id, snapshot FROM games").fetchall():
        sql = "SELECT data FROM events WHERE game_id = ? ORDER BY seq"
        log = [event_from_dict(json.loads(row[0])) for row in db.execute(sql, (game_id,))]
        verdict = verify(log, json.loads(snapshot)["seed"])
        if not verdict.ok:
            problems.append(
                f"game {game_id}'s dice: {verdict.finding.value} at {verdict.first_bad}"
            )
    return problems


async def soak(games: int, actions: int, kills: int, seed: int, directory: Path) -> Report:
    return await Soak(directory, seed).run(games, actions, kills)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as directory:
        report = asyncio.run(soak(args.games, args.actions, args.kills, args.seed, Path(directory)))
    print(f"crash soak: {args.games} games, both platforms, seed {args.seed}")
    print("\n".join(report.lines()))
    print(f"took {time.monotonic() - began:.0f} s")
    sys.exit(1 if report.problems else 0)


if __name__ == "__main__":
    main()
