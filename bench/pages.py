"""The live table's pages without a browser, and their players, for bench/web.py: each table's
three pages over WebSockets, its player pressing on the first, every press timed until the last
of the three has the state it made."""

from __future__ import annotations

import asyncio
import gc
import random
import resource
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson

from adapters.chat import payload
from adapters.chat.layout_boards import START
from bench.roundtrip import BotProcess, Level, LevelResult, TelegramTable, machine_cpu
from tests.web.kit import launch_data

PAGES = 3  # the player's page and two spectators' a table
ANSWER_WAIT = 15.0
Key = tuple[str, int]  # a state's game and version


class Page:
    """One open page: the newest state it was sent, each arrival reported to its table."""

    def __init__(self, table: LiveTable, index: int) -> None:
        self.table, self.index = table, index
        self.state: dict[str, Any] = {}
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task[None] | None = None

    async def open(self, http: aiohttp.ClientSession, base: str, body: dict[str, str]) -> None:
        async with http.post(base + "api/session", json=body) as answer:
            given = await answer.json()
            if answer.status != 200:
                raise RuntimeError(f"no session for {body}: {given}")
        self.socket = await http.ws_connect(base + "api/live?session=" + given["session"])
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.socket is not None
        async for message in self.socket:
            if message.type is not aiohttp.WSMsgType.TEXT:
                continue
            sent = orjson.loads(message.data)
            if sent["type"] == "state":
                self.state = sent["state"]
                self.table.arrived(self.index, (self.state["game"], self.state["version"]))
            elif sent["type"] in ("refused", "error"):
                self.table.refused(self.index)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            await self.reader


@dataclass
class Pending:
    """The press in flight at a table: on which state it was made, which pages have a newer."""

    key: Key
    done: asyncio.Future[bool]
    seen: set[int] = field(default_factory=set)


@dataclass
class Sample:
    at: float  # when the press was sent (perf_counter)
    seconds: float  # to the last page's new state
    kind: str  # one of KINDS


class Harness:
    """What the live tables' presses measured; they are kept only while `recording`."""

    def __init__(self) -> None:
        self.samples: list[Sample] = []
        self.recording = False
        self.lost = self.refused = 0


class LiveTable:
    """A solo table opened in its group's chat, played from its player's page, watched on two
    more."""

    def __init__(self, chat: TelegramTable, harness: Harness) -> None:
        self.chat, self.harness = chat, harness
        self.pages = [Page(self, i) for i in range(PAGES)]
        self.pending: Pending | None = None
        self.random = random.Random(chat.number)
        self.last = ""

    async def open_pages(self, http: aiohttp.ClientSession, base: str) -> None:
        fake, game = self.chat.fake_tg, self.chat.game
        launch = launch_data(
            fake.token, self.chat.user.id, self.chat.user.first_name, start_param=game
        )
        await self.pages[0].open(http, base, {"telegram": launch})
        for page in self.pages[1:]:
            await page.open(http, base, {"table": game})

    def shown(self) -> Key | None:
        """The state every page has, once they agree."""
        keys = {(p.state.get("game"), p.state.get("version")) for p in self.pages}
        if len(keys) != 1:
            return None
        game, version = keys.pop()
        return (game, version) if game is not None else None

    def arrived(self, index: int, key: Key) -> None:
        pending = self.pending
        if pending is None or key == pending.key or index in pending.seen:
            return
        pending.seen.add(index)
        if len(pending.seen) == PAGES and not pending.done.done():
            pending.done.set_result(True)

    def refused(self, index: int) -> None:
        if self.pending is not None and index == 0 and not self.pending.done.done():
            self.pending.done.set_result(False)

    def choose(self) -> str | None:
        """The next press on the player's page (bench.roundtrip's player's choices)."""
        state = self.pages[0].state
        codes = [a["press"] for a in state["actions"]]
        if state["phase"] == "finished":
            return payload.REMATCH if payload.REMATCH in codes else None
        if state["phase"] == "lobby":
            return START if START in codes else None
        roll = state["roll"]["press"] if state["roll"] else None
        holds = [d["press"] for d in state["dice"] if d["press"]]
        boxes = [row["press"] for row in state["sheet"] if row["press"]]
        if roll and (state["throw"] == 0 or not boxes):
            return str(roll)
        if self.last == "r" and holds and self.random.random() < 0.5:
            return str(self.random.choice(holds))
        if roll and self.random.random() < 0.7:
            return str(roll)
        return str(self.random.choice(boxes)) if boxes else None

    async def press(self) -> None:
        key, code = self.shown(), self.choose()
        kind = _kind(code or "", self.pages[0].state)
        if key is None or code is None or self.pages[0].socket is None:
            raise RuntimeError(f"table {self.chat.number}: nothing to press on {key}")
        done = asyncio.get_running_loop().create_future()
        self.pending = Pending(key, done)
        at = time.perf_counter()
        await self.pages[0].socket.send_bytes(orjson.dumps({"press": code, "version": key[1]}))
        try:
            carried = await asyncio.wait_for(done, ANSWER_WAIT)
        except TimeoutError:
            carried = None
        seconds = time.perf_counter() - at
        self.pending, self.last = None, code
        harness = self.harness
        if harness.recording and carried:
            harness.samples.append(Sample(at, seconds, kind))
        elif harness.recording:
            harness.lost += carried is None
            harness.refused += carried is False
        if not carried:  # let the pages catch up with whatever the table now is
            await asyncio.sleep(0.5)

    async def play(self, stop: asyncio.Event, think: float) -> None:
        """Press, and again `think` seconds (0.5–1.5×) after every page has its answer."""
        await asyncio.sleep(self.chat.first_pause(think) if think else 0.0)
        while not stop.is_set():
            await self.press()
            if think:
                await asyncio.sleep(think * self.random.uniform(0.5, 1.5))


@dataclass
class Row:
    """One level's presses (seconds each) and what the processes did meanwhile."""

    times: list[float]
    seconds: float
    bot_cpu: float  # shares of one core
    harness_cpu: float
    other_cpu: float
    lost: int = 0
    refused: int = 0
    kinds: dict[str, list[float]] = field(default_factory=dict)

    @classmethod
    def of(cls, result: LevelResult) -> Row:
        """bench.roundtrip's figures of a chat level."""
        times = [s.board for s in result.samples]
        return cls(
            times, result.seconds, result.bot_cpu, result.harness_cpu, result.other_cpu,
            result.lost, result.refused,
        )  # fmt: skip


async def live_level(
    tables: list[LiveTable], harness: Harness, bot: BotProcess, level: Level, warmup: float
) -> Row:
    """Every table pressing `level.think` seconds after its pages are updated (0: at once);
    `level.seconds` of it timed."""
    gc.collect()
    gc.freeze()
    gc.disable()  # this process's collections would be charged to the bot (bench.roundtrip)
    stop = asyncio.Event()
    players = [asyncio.create_task(t.play(stop, level.think)) for t in tables]
    try:
        await asyncio.sleep(max(warmup, 1.5 * level.think))
        harness.samples, harness.lost, harness.refused = [], 0, 0
        bot_cpu, own_cpu, all_cpu = bot.cpu_seconds(), _own_cpu(), machine_cpu()
        began = time.perf_counter()
        harness.recording = True
        await asyncio.sleep(level.seconds)
        harness.recording = False
        elapsed = time.perf_counter() - began
        bot_cpu, own_cpu = bot.cpu_seconds() - bot_cpu, _own_cpu() - own_cpu
        other = machine_cpu() - all_cpu - bot_cpu - own_cpu
    finally:
        harness.recording = False
        stop.set()
        await asyncio.wait_for(asyncio.gather(*players), ANSWER_WAIT * 2)
        gc.unfreeze()
        gc.enable()
    samples = [s for s in harness.samples if s.at <= began + elapsed]
    kinds = {kind: [s.seconds for s in samples if s.kind == kind] for kind in KINDS}
    return Row(
        [s.seconds for s in samples],
        elapsed,
        bot_cpu / elapsed,
        own_cpu / elapsed,
        max(0.0, other / elapsed),
        harness.lost,
        harness.refused,
        kinds,
    )


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def until_shown(tables: list[LiveTable], timeout: float = ANSWER_WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not all(t.shown() for t in tables):
        if time.monotonic() > deadline:
            raise RuntimeError("pages without their first state")
        await asyncio.sleep(0.05)


KINDS = ("first throw", "throw", "hold", "box", "new game")


def _kind(code: str, state: dict[str, Any]) -> str:
    """What a press is, for the figures by kind: a turn's first throw comes after the chat was
    shown the turn before's result."""
    if code == "r":
        return "first throw" if state.get("throw") == 0 else "throw"
    return {"h": "hold", "s": "box"}.get(code[:1], "new game")
