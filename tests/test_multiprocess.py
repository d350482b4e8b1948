"""Several bot processes over one PostgreSQL database: Telegram webhooks behind a load balancer,
and Discord shards. One process is SIGKILLed in the middle; every game still ends correctly with
each action applied exactly once. Needs a PostgreSQL server (GENERAL_TEST_POSTGRES_URL)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest
from aiohttp import web

from core.events import Event, event_from_dict
from core.verification import verify
from tests.conftest import needs_postgres
from tests.fakes.discord import FakeDiscord
from tests.fakes.telegram import FakeTelegram
from tests.parallel import free_port

pytestmark = needs_postgres
ROOT = Path(__file__).resolve().parents[1]
GAMES = 50
DISCORD_TOKEN = "multi-process-discord-token"
STARTUP = 90  # seconds: two processes start in about 5 s on an idle 2-core machine


class Process:
    """One `python -m bot`, its output kept for the checks."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env, self.log = env, log
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=ROOT, env={**os.environ, **self.env},
                stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(self.proc.wait(), 20)

    def errors(self) -> list[str]:
        return [line for line in self.log.read_text().splitlines() if " ERROR " in line]

    def tail(self) -> str:
        code = None if self.proc is None else self.proc.returncode
        lines = self.log.read_text(errors="replace").splitlines()[-30:]
        return f"{self.log.name} (exit code {code}):\n" + "\n".join(lines)


async def until_up(processes: list[Process], ready: Callable[[], bool]) -> None:
    """Wait until every process is up: a process that exits fails the test at once with its
    log, and a slow start (a loaded machine) is waited for, up to STARTUP seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STARTUP
    while not ready():
        died = [p for p in processes if p.proc is not None and p.proc.returncode is not None]
        if died or loop.time() > deadline:
            why = "exited on start" if died else f"not up after {STARTUP} s"
            raise AssertionError(f"{why}; " + "\n\n".join(p.tail() for p in processes))
        await asyncio.sleep(0.1)


def common_env(database: str, tmp_path: Path) -> dict[str, str]:
    return {
        "GENERAL_DATABASE_URL": database,
        "GENERAL_DATABASE": str(tmp_path / "unused.db"),
        "GENERAL_COMPUTER_PAUSE": "0",
        "GENERAL_FLOOD_BURST": "100000",
        "GENERAL_FLOOD_RATE": "100000",
        "TELEGRAM_CHAT_RATE": "0",
        "NO_PROXY": "127.0.0.1,localhost",
        "TELEGRAM_TOKEN": "",
        "DISCORD_TOKEN": "",
    }


async def finished_games(database: str) -> list[dict[str, Any]]:
    """Every game, each with how many boxes its log scored and how its dice check (DICE.md)."""
    connection = await asyncpg.connect(database)
    try:
        rows = await connection.fetch("SELECT snapshot FROM games")
        scored = await connection.fetch(
            "SELECT game_id, count(*) AS n FROM events WHERE kind = 'box_scored' GROUP BY game_id"
        )
        logs: dict[str, list[Event]] = {}
        for row in await connection.fetch("SELECT game_id, data FROM events ORDER BY seq"):
            data = row["data"]
            event = event_from_dict(json.loads(data) if isinstance(data, str) else dict(data))
            logs.setdefault(row["game_id"], []).append(event)
    finally:
        await connection.close()
    counts = {r["game_id"]: r["n"] for r in scored}
    games = []
    for row in rows:
        snapshot = row["snapshot"]
        game = json.loads(snapshot) if isinstance(snapshot, str) else dict(snapshot)
        game["scored_events"] = counts.get(game["id"], 0)
        game["dice"] = verify(logs[game["id"]])
        games.append(game)
    return games


def check_every_game_ended_once_each(games: list[dict[str, Any]]) -> None:
    assert len(games) == GAMES
    for game in games:
        assert game["phase"] == "finished", game["channel"]
        # Through the kill and the second process: the committed dice, none drawn twice.
        assert game["dice"].ok and game["dice"].throws >= max(1, game["scored_events"])
        filled = [v for s in game["seats"] for v in s["scores"] if v is not None]
        if game["end_reason"] == "completed":
            assert len(filled) == 10 and game["scored_events"] == 10  # each box once, each once
        else:
            assert game["end_reason"] == "big_general"
            assert game["scored_events"] == len(filled)


# ---------------------------------------------------------------------------- Telegram


class Balancer:
    """A load balancer in front of the webhook processes: round robin, on to the next when a
    backend does not answer (as a real one does when a process died)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.turn = 0
        self.port = free_port()
        self.served: dict[int, int] = dict.fromkeys(ports, 0)
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/hook", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession()

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        body, headers = await request.read(), dict(request.headers)
        assert self._session is not None
        for _ in self.ports:
            port = self.ports[self.turn % len(self.ports)]
            self.turn += 1
            try:
                url = f"http://127.0.0.1:{port}/hook"
                async with self._session.post(url, data=body, headers=headers) as response:
                    self.served[port] += 1
                    return web.Response(status=response.status, body=await response.read())
            except aiohttp.ClientError:
                continue
        return web.Response(status=502)


async def play_telegram(fake: FakeTelegram, n: int) -> None:
    """A solo game played to its end by pressing; a press lost with a dead process is pressed
    again on the board as it is then."""
    person = fake.user(90_000 + n, f"Solo{n}")
    chat = fake.private_chat(person)

    def boards() -> list[Any]:
        return [m for m in fake.bot_messages(chat) if m.reply_markup]

    def over() -> bool:
        return any("Score sheet" in m.plain_text for m in fake.bot_messages(chat))

    for attempt in range(200):
        if over():  # the final message (sent again by /general start if a death lost it)
            return
        if not boards():
            # A board lost with a dead process (or the first start) calls for /general start,
            # which shows the table's board again; a turn's next board just takes a moment.
            with contextlib.suppress(AssertionError):
                await fake.wait_for(lambda: boards() or over(), timeout=0.01 if not attempt else 3)
            if over():
                return
            if not boards():
                await fake.send_message(person, chat, "/general start")
            continue
        board = boards()[-1]
        labels = [b.text for b in board.buttons]
        label = next(
            (x for x in labels if "Start" in x or "Roll the dice" in x),
            next((x for x in labels if "·" in x), None),
        )
        if label is None:
            if over():  # the final message: its one button is Rematch
                return
            await asyncio.sleep(0.05)
            continue
        query = await fake.press(person, board, label)
        try:
            await fake.wait_answer(query, timeout=8)
        except AssertionError:
            continue  # the process that took it died: press again
    last = [(m.plain_text[-200:], [b.text for b in m.buttons]) for m in fake.bot_messages(chat)]
    raise AssertionError(f"game {n} did not end; its last messages: {last[-3:]}")


@pytest.mark.slow
async def test_two_webhook_processes_one_killed(postgres_url: str, tmp_path: Path) -> None:
    fake = FakeTelegram()
    await fake.start()
    ports = [free_port(), free_port()]
    balancer = Balancer(ports)
    await balancer.start()
    processes = []
    for index, port in enumerate(ports):
        env = common_env(postgres_url, tmp_path) | {
            "TELEGRAM_TOKEN": fake.token,
            "TELEGRAM_BASE_URL": fake.base_url,
            "TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{balancer.port}/hook",
            "TELEGRAM_WEBHOOK_SECRET": "shared-secret",
            "TELEGRAM_WEBHOOK_PORT": str(port),
        }
        processes.append(Process(env, tmp_path / f"bot{index}.log"))
    try:
        for process in processes:
            await process.start()
        await until_up(processes, lambda: len(fake.calls("setWebhook")) >= 2)
        await asyncio.sleep(0.5)  # both listening
        games = [asyncio.create_task(play_telegram(fake, n)) for n in range(GAMES)]
        await fake.wait_for(lambda: len(fake.calls("answerCallbackQuery")) > 300, timeout=60)
        await processes[0].kill()  # in the middle of many games
        await asyncio.wait_for(asyncio.gather(*games), 240)
        check_every_game_ended_once_each(await finished_games(postgres_url))
        assert all(balancer.served[port] > 0 for port in ports)  # both processes worked
        assert processes[1].errors() == []
    finally:
        for process in processes:
            await process.stop()
        await balancer.stop()
        await fake.stop()


# ---------------------------------------------------------------------------- Discord


async def play_discord(fake: FakeDiscord, guild: Any, n: int) -> None:
    member = fake.member(guild, f"Solo{n}")
    channel = fake.text_channel(guild, name=f"table-{n}")
    bot = fake.bot_user

    def boards() -> list[Any]:
        return [m for m in fake.channel_messages(channel) if m.author is bot and m.buttons]

    def over() -> bool:
        return any("Score sheet" in m.content for m in fake.channel_messages(channel))

    for attempt in range(300):
        if over():  # the final message (sent again by /general start if a death lost it)
            return
        if not boards():
            # Between a turn's last press and the next board (or the final sheet) a moment
            # passes; only a board lost for good (or a first start) calls for /general start.
            with contextlib.suppress(AssertionError):
                await fake.wait_for(lambda: boards() or over(), timeout=0.01 if not attempt else 3)
            if over():
                return
            if boards():
                continue
            interaction = await fake.slash(member, channel, "general", "start")
            with contextlib.suppress(AssertionError):
                await interaction.wait_response(timeout=8)
            await asyncio.sleep(0.05)
            continue
        board = boards()[-1]
        codes = [(b.custom_id or "").rsplit("|", 1)[-1] for b in board.buttons]
        # Start a lobby; else write the first open box after one throw; else throw.
        boxes = [c for c in codes if c.startswith("s")]
        code = "b" if "b" in codes else boxes[0] if boxes else "r" if "r" in codes else None
        if code is None:
            if over():  # the final message: its one button is Rematch
                return
            await asyncio.sleep(0.05)
            continue
        custom_id = next(
            b.custom_id for b in board.buttons if (b.custom_id or "").endswith(f"|{code}")
        )
        interaction = await fake.press(member, board, custom_id=custom_id)
        try:
            await interaction.wait_response(timeout=8)
        except AssertionError:
            continue  # its shard's process was down: press again once it is back
        await asyncio.sleep(0.02)
    raise AssertionError(f"game {n} did not end")


@pytest.mark.slow
async def test_two_discord_shards_one_killed(postgres_url: str, tmp_path: Path) -> None:
    fake = FakeDiscord(token=DISCORD_TOKEN)
    await fake.start()
    guilds = []
    for n in range(10):  # a guild's shard comes from its id's time: space them apart
        guilds.append(fake.guild(name=f"Club {n}"))
        await asyncio.sleep(0.003)
    assert {(int(g.id) >> 22) % 2 for g in guilds} == {0, 1}
    processes = []
    for shard in (0, 1):
        env = common_env(postgres_url, tmp_path) | {
            "DISCORD_TOKEN": DISCORD_TOKEN,
            "DISCORD_API_BASE_URL": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DISCORD_SHARD_COUNT": "2",
            "DISCORD_SHARD_IDS": str(shard),
        }
        processes.append(Process(env, tmp_path / f"shard{shard}.log"))
    try:
        for process in processes:
            await process.start()
        await until_up(processes, lambda: fake.identifies >= 2)
        await asyncio.sleep(0.5)
        games = [
            asyncio.create_task(play_discord(fake, guilds[n % len(guilds)], n))
            for n in range(GAMES)
        ]
        await fake.wait_for(lambda: len(fake.interactions) > 300, timeout=60)
        await processes[0].kill()  # shard 0 dies in the middle; its guilds wait for it
        await asyncio.sleep(1)
        await processes[0].start()
        await asyncio.wait_for(asyncio.gather(*games), 240)
        check_every_game_ended_once_each(await finished_games(postgres_url))
        assert processes[1].errors() == []
    finally:
        for process in processes:
            await process.stop()
        await fake.stop()
