"""Round trip, end to end: a press injected into the fake platform → the bot's edit received by it.

`uv run python -m bench.roundtrip [--quick] [--runs 3]` starts the fake Telegram or the fake
Discord in this process and the real bot (`python -m bot`) as a subprocess pointed at it, opens
solo tables (`/general start`, then Start) and plays them by pressing the buttons of their live
boards: rolls most, holds between throws, a box when the throws run out or by chance; a new game
where one ends. What is timed is what a person waits for: from the moment the press enters the
fake to the moment the bot's edit of the pressed board arrives at the fake (on Telegram the
callback answer follows it, on Discord the edit is the interaction's response).

The levels: 1 table pressed again 20 ms after each answer (the bot otherwise idle), then 50 and
200 tables played at the same time at a human pace (each person presses 0.5–1.5 s after their
previous answer, about one press a second per table). The same run is made against the trivial
bot (bench/trivial_bot.py: the same libraries, a fixed edit, no game) on the same fake: the
ratio of the two medians is the price of the game itself.

Every figure is the median of the runs, with the spread (lowest–highest) beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import os
import random
import re
import resource
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters.chat import payload
from adapters.i18n import available_locales, translator
from tests.fakes.base import wait_until
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMember
from tests.fakes.discord import FakeMessage as DiscordMessage
from tests.fakes.telegram import FakeChat, FakeTelegram, FakeUser
from tests.fakes.telegram import FakeMessage as TelegramMessage

ROOT = Path(__file__).resolve().parents[1]
DISCORD_TOKEN = "bench-discord-token"
PLATFORMS = ("telegram", "discord")
BOTS = ("game", "trivial")
MODULES = {"game": "bot", "trivial": "bench.trivial_bot"}
TURN_CODES = re.compile(r"r|h[0-4]|s\d")
ANSWER_WAIT = 15.0
DEFERRED_WAIT = 5.0  # after a deferral, how long the edit of the pressed board is awaited
OTHER_CPU = 0.10  # more than this share of a core used by other processes is reported
READY_WAIT = 60.0
FAST_THINK = 0.02  # the single table presses again this long after each answer
# A person looks at the dice, chooses what to hold, presses: 1–3 s (mean 2 s) from one answer
# to their next press.
HUMAN_THINK = 2.0
CAPACITY = 0.0  # the capacity level: every table presses again as soon as it is answered


# ---------------------------------------------------------------------------- figures


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0…1) of already sorted values; nan when there are none."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


@dataclass
class Figure:
    """One quantity measured once per run: the median of the runs and their spread."""

    values: list[float] = field(default_factory=list)

    def add(self, value: float) -> None:
        self.values.append(value)

    @property
    def median(self) -> float:
        finite = [v for v in self.values if not math.isnan(v)]
        return statistics.median(finite) if finite else math.nan

    @property
    def low(self) -> float:
        return min(self.values) if self.values else math.nan

    @property
    def high(self) -> float:
        return max(self.values) if self.values else math.nan

    def show(self, digits: int = 1, unit: str = "") -> str:
        """`12.3 (11.9–13.0)`; one run: just the value."""
        if not self.values:
            return "-"
        if len(self.values) == 1:
            return f"{self.median:.{digits}f}{unit}"
        return f"{self.median:.{digits}f}{unit} ({self.low:.{digits}f}–{self.high:.{digits}f})"


# ---------------------------------------------------------------------------- the bot process


def pycache_prefix() -> Path:
    """Where the benchmark's bot processes keep their compiled bytecode (this environment sets
    PYTHONDONTWRITEBYTECODE, which a deployed bot would not run with)."""
    return Path(tempfile.gettempdir()) / "general-bench-pycache"


def bot_env(
    *,
    telegram: FakeTelegram | None = None,
    discord: FakeDiscord | None = None,
    database: Path | None = None,
    bytecode: Path | None = None,
    **extra: str,
) -> dict[str, str]:
    """The environment of a bot process pointed at the fakes.

    `bytecode`: the bytecode cache to use (None: the shared warm one); a fresh empty folder and
    PYTHONDONTWRITEBYTECODE reproduce a start with nothing compiled."""
    # Only the settings named here: none of the caller's (a webhook, shards, PostgreSQL…).
    ours = ("TELEGRAM_", "DISCORD_", "GENERAL_")
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith(ours)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(bytecode or pycache_prefix())
    env.update(
        TELEGRAM_TOKEN=telegram.token if telegram else "",
        TELEGRAM_BASE_URL=telegram.base_url if telegram else "",
        DISCORD_TOKEN=discord.token if discord else "",
        DISCORD_API_BASE_URL=discord.api_base if discord else "",
        DISCORD_GATEWAY_URL=discord.gateway_url if discord else "",
        GENERAL_DATABASE=str(database) if database else ":memory:",
        # Empty (unset) even where a .env file in the project sets them:
        GENERAL_DATABASE_URL="",
        TELEGRAM_WEBHOOK_URL="",
        TELEGRAM_WEBHOOK_SECRET="",
        DISCORD_SHARD_COUNT="",
        DISCORD_SHARD_IDS="",
        DISCORD_GUILD_ID="",
        GENERAL_COMPUTER_PAUSE="0",
        GENERAL_FLOOD_BURST="1000000",
        GENERAL_FLOOD_RATE="1000000",
        TELEGRAM_CHAT_RATE="0",  # the fake sets no limits: the game's price alone is measured
        NO_PROXY="127.0.0.1,localhost",
        no_proxy="127.0.0.1,localhost",
    )
    env.update(extra)
    return env


class BotProcess:
    """`python -m bot` (or the trivial bot) as a child process; its log kept in a file, the
    moment it said "ready" noted."""

    READY = re.compile(r" (bot|trivial): ready$")

    def __init__(self, module: str, env: dict[str, str], log: Path) -> None:
        self.module = module
        self.env = env
        self.log = log
        self.proc: asyncio.subprocess.Process | None = None
        self.launched = 0.0
        self.ready_at: float | None = None
        self.lines: list[str] = []
        self._ready = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self.peak_rss_kb = 0

    async def start(self) -> None:
        self.launched = time.perf_counter()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", self.module, cwd=ROOT, env=self.env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        with self.log.open("a", encoding="utf-8") as out:
            while line := await self.proc.stdout.readline():
                now = time.perf_counter()
                text = line.decode(errors="replace").rstrip("\n")
                out.write(text + "\n")
                self.lines.append(text)
                if self.ready_at is None and self.READY.search(text):
                    self.ready_at = now
                    self._ready.set()

    async def wait_ready(self, timeout: float = READY_WAIT) -> float:
        """Seconds from launch to the process's "ready"."""
        assert self.proc is not None
        waiter = asyncio.create_task(self._ready.wait())
        ended = asyncio.create_task(self.proc.wait())
        await asyncio.wait({waiter, ended}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        ended.cancel()
        if not self._ready.is_set():
            tail = "\n".join(self.lines[-20:])
            raise RuntimeError(f"{self.module} did not become ready:\n{tail}")
        assert self.ready_at is not None
        return self.ready_at - self.launched

    def _proc_file(self, name: str) -> str | None:
        if self.proc is None or self.proc.returncode is not None:
            return None
        try:
            return Path(f"/proc/{self.proc.pid}/{name}").read_text()
        except OSError:
            return None

    def cpu_seconds(self) -> float:
        """User + system CPU time the process has used so far."""
        stat = self._proc_file("stat")
        if stat is None:
            return math.nan
        fields = stat.rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def memory_kb(self) -> tuple[int, int]:
        """(current RSS, peak RSS) in KiB, from /proc (VmRSS, VmHWM)."""
        status = self._proc_file("status") or ""
        values = dict(
            (line.split(":")[0], int(line.split()[1]))
            for line in status.splitlines()
            if line.startswith(("VmRSS", "VmHWM"))
        )
        return values.get("VmRSS", 0), values.get("VmHWM", 0)

    async def stop(self) -> int:
        if self.proc is None:
            return 0
        if self.proc.returncode is None:
            self.peak_rss_kb = max(self.peak_rss_kb, self.memory_kb()[1])
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 20)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)
        return self.proc.returncode or 0

    def errors(self) -> list[str]:
        return [line for line in self.lines if " ERROR " in line or "Traceback" in line]


# ---------------------------------------------------------------------------- the fakes, timed


@dataclass
class Pending:
    """The one press in flight at a table, and when its edit and its answer arrived."""

    message: Any  # the pressed message's id
    at: float
    done: asyncio.Future[None]
    edited: float | None = None
    answered: float | None = None
    refused: bool = False
    deferred: bool = False


def succeeded(answer: str | None) -> bool:
    """Whether a Telegram callback answer tells of a press carried out: none, or the toast of
    what a throw showed, which dice are kept or what a box earned (the first words of those
    messages, in any language)."""
    if answer is None:
        return True
    toasts = {
        translator(code)(key, dice="", box="", points=0, held="", free="").split()[0]
        for code in available_locales()
        for key in ("toast-rolled", "toast-scored", "toast-held", "toast-held-none")
    }
    return answer.split()[0] in toasts if answer.split() else True


class _Watch:
    """Per-chat wake-ups (a waiter is woken by its own table's traffic only) and the pending
    presses, for both fakes."""

    def _init_watch(self) -> None:
        self.pending: dict[Any, Pending] = {}
        self._chat_events: dict[Any, asyncio.Event] = {}

    def touch(self, chat: Any) -> None:
        event = self._chat_events.pop(chat, None)
        if event is not None:
            event.set()

    async def wait_chat(self, chat: Any, predicate: Callable[[], Any], timeout: float) -> Any:
        value = await wait_until(
            predicate, timeout, lambda: self._chat_events.setdefault(chat, asyncio.Event())
        )
        if value is None:
            raise TimeoutError(f"nothing came in chat {chat}")
        return value

    def edited(self, chat: Any, message: Any, now: float) -> None:
        pending = self.pending.get(chat)
        if pending is not None and pending.edited is None and pending.message == message:
            pending.edited = now

    def answered(self, chat: Any, now: float, refused: bool, deferred: bool = False) -> None:
        pending = self.pending.get(chat)
        if pending is not None and pending.answered is None:
            pending.answered = now
            pending.refused = refused
            pending.deferred = deferred
            if not pending.done.done():
                pending.done.set_result(None)


class BenchTelegram(_Watch, FakeTelegram):
    """The fake Bot API, noting when each table's edit and callback answer arrive."""

    def __init__(self) -> None:
        FakeTelegram.__init__(self)
        self._init_watch()

    def _store(self, msg: TelegramMessage) -> None:
        super()._store(msg)
        self.touch(msg.chat.id)

    def _apply_edit(self, msg: TelegramMessage, **kwargs: Any) -> Any:
        result = super()._apply_edit(msg, **kwargs)
        self.touch(msg.chat.id)
        return result

    async def _api_editMessageText(self, p: dict[str, Any]) -> Any:
        with contextlib.suppress(TypeError, ValueError):
            self.edited(int(p.get("chat_id")), p.get("message_id"), time.perf_counter())  # type: ignore[arg-type]
        return await super()._api_editMessageText(p)

    async def _api_answerCallbackQuery(self, p: dict[str, Any]) -> Any:
        now = time.perf_counter()
        result = await super()._api_answerCallbackQuery(p)
        record = self.callback_queries.get(p.get("callback_query_id", ""))
        if record is not None:
            self.answered(record.message.chat.id, now, refused=not succeeded(record.text))
        return result


class BenchDiscord(_Watch, FakeDiscord):
    """The fake Discord, noting when each table's response and edits arrive."""

    def __init__(self) -> None:
        FakeDiscord.__init__(self, token=DISCORD_TOKEN)
        self._init_watch()

    def _new_message(self, channel: FakeChannel, *args: Any, **kwargs: Any) -> DiscordMessage:
        msg = super()._new_message(channel, *args, **kwargs)
        self.touch(channel.id)
        return msg

    def _edit_message(self, msg: DiscordMessage, *args: Any, **kwargs: Any) -> None:
        now = time.perf_counter()
        super()._edit_message(msg, *args, **kwargs)
        self.edited(msg.channel.id, int(msg.id), now)
        self.touch(msg.channel.id)

    def _r_callback(self, ctx: Any) -> tuple[int, Any]:
        now = time.perf_counter()
        result = super()._r_callback(ctx)
        inter = self._interactions.get(ctx.params["iid"])
        if inter is not None and inter.response is not None:
            kind = inter.response.type
            self.answered(inter.channel.id, now, refused=kind == 4, deferred=kind in (5, 6))
            self.touch(inter.channel.id)
        return result


# ---------------------------------------------------------------------------- tables


@dataclass
class Sample:
    at: float  # when the press was made (perf_counter)
    board: float  # seconds to the edit of the pressed board (the answer, where none came)
    answer: float  # seconds to the callback answer / interaction response
    code: str
    refused: bool


def turn_codes(codes: list[str]) -> list[str]:
    return [c for c in codes if TURN_CODES.fullmatch(c)]


class Table:
    """One chat with one person playing solo games through the buttons of the live board."""

    platform = ""

    def __init__(self, driver: Driver, number: int) -> None:
        self.driver = driver
        self.number = number
        self.random = random.Random(number)
        self.board: Any = None
        self.game = ""
        self.scores = 0
        self.throws = 0
        self.last = ""

    # platform parts
    def chat_key(self) -> Any:
        raise NotImplementedError

    def codes_of(self, message: Any) -> list[str]:
        raise NotImplementedError

    def payloads_of(self, message: Any) -> list[str]:
        raise NotImplementedError

    def bot_messages(self) -> list[Any]:
        raise NotImplementedError

    def message_id(self, message: Any) -> int:
        raise NotImplementedError

    async def send_start(self) -> None:
        raise NotImplementedError

    async def send_press(self, message: Any, data: str) -> None:
        raise NotImplementedError

    # shared
    def newest_board(self, after: int, codes: Callable[[list[str]], bool]) -> Any:
        for message in reversed(self.bot_messages()):
            if self.message_id(message) <= after:
                return None
            if codes(self.codes_of(message)):
                return message
        return None

    async def open(self) -> None:
        """A new solo game: `/general start`, then Start on the lobby; leaves the live board."""
        fake = self.driver.fake
        newest = max((self.message_id(m) for m in self.bot_messages()), default=0)
        await self.send_start()
        board = await fake.wait_chat(
            self.chat_key(),
            lambda: self.newest_board(newest, lambda c: "b" in c or bool(turn_codes(c))),
            ANSWER_WAIT,
        )
        self.board, self.scores, self.throws, self.last = board, 0, 0, ""
        self.game = self.game_of(board)
        if "b" in self.codes_of(board) and not turn_codes(self.codes_of(board)):
            await self.press("b", record=False)

    def game_of(self, message: Any) -> str:
        for data in self.payloads_of(message):
            press = payload.decode(data)
            if press is not None:
                return press.game_id
        return ""

    def choose(self) -> str:
        codes = turn_codes(self.codes_of(self.board))
        holds = [c for c in codes if c.startswith("h")]
        boxes = [c for c in codes if c.startswith("s")]
        if "r" in codes and (self.throws == 0 or not boxes):
            return "r"
        if self.last == "r" and holds and self.random.random() < 0.5:
            return self.random.choice(holds)
        if "r" in codes and self.random.random() < 0.7:
            return "r"
        return self.random.choice(boxes) if boxes else "r"

    async def press(self, code: str, *, record: bool = True) -> Sample | None:
        """Press `code` on the live board and wait until the bot is done with it; the next live
        board (or a new game) is then in place."""
        fake, board = self.driver.fake, self.board
        data = next((d for d in self.payloads_of(board) if d.endswith(f"|{code}")), None)
        if data is None:
            raise LookupError(f"no button {code!r} on the board of table {self.number}")
        chat = self.chat_key()
        loop = asyncio.get_running_loop()
        at = time.perf_counter()
        pending = Pending(self.message_id(board), at, loop.create_future())
        fake.pending[chat] = pending
        await self.send_press(board, data)
        try:
            await asyncio.wait_for(pending.done, ANSWER_WAIT)
        except TimeoutError:
            self.driver.lost += 1
            fake.pending.pop(chat, None)
            await self.resync()
            return None
        # Acknowledged only (Discord), or answered at once (Telegram, whose board's edit
        # follows at the chat's pace): a person waits to see the board before pressing again.
        if pending.deferred or (not pending.refused and code != "t"):
            with contextlib.suppress(TimeoutError):
                await fake.wait_chat(chat, lambda: pending.edited is not None, DEFERRED_WAIT)
        fake.pending.pop(chat, None)
        sample = None
        if record and self.driver.recording:
            answered = pending.answered or at
            shown = pending.edited if pending.edited is not None else answered
            sample = Sample(at, shown - at, answered - at, code, pending.refused)
            self.driver.samples.append(sample)
        if record and pending.deferred:
            self.driver.deferred += 1
        if record and pending.refused:
            self.driver.refused += 1
        await self.after(code)
        return sample

    async def after(self, code: str) -> None:
        self.last = code
        if code == "r":
            self.throws += 1
        elif code.startswith("s"):
            self.scores += 1
            self.throws = 0
        if code == "t" or turn_codes(self.codes_of(self.board)):
            return  # the same board goes on (a roll, a hold; the trivial bot's every press)
        if code == "r" or self.scores >= 10:
            await self.open()  # a big general, or the sheet is full: the game is over
            return
        pressed = self.message_id(self.board)
        try:
            self.board = await self.driver.fake.wait_chat(
                self.chat_key(), lambda: self.newest_board(pressed, turn_codes), ANSWER_WAIT
            )
        except TimeoutError:  # the next board never came: the table goes on from what there is
            self.driver.lost += 1
            await self.resync()
        self.throws, self.last = 0, ""

    async def resync(self) -> None:
        """After a lost press: the newest live board, or a new game."""
        board = self.newest_board(0, turn_codes)
        if board is None:
            await self.open()
        else:
            self.board, self.last = board, ""

    async def play(self, stop: asyncio.Event, think: float) -> None:
        await asyncio.sleep(self.first_pause(think))
        while not stop.is_set():
            await self.press(self.choose())
            if think:
                await asyncio.sleep(think * self.random.uniform(0.5, 1.5))

    def first_pause(self, think: float) -> float:
        """When this person first presses: drawn so that the presses of all the tables arrive
        at their steady rate from the start (the time to the next press of a person already
        playing: x with a density proportional to P(pause > x), pauses being uniform on
        0.5–1.5 × think), instead of a crowd of first presses meeting the second ones."""
        low, high = 0.5 * think, 1.5 * think
        while True:
            x = self.random.uniform(0, high)
            if x <= low or self.random.random() <= (high - x) / (high - low):
                return x


class TelegramTable(Table):
    platform = "telegram"

    def __init__(self, driver: Driver, number: int) -> None:
        super().__init__(driver, number)
        fake = driver.fake
        assert isinstance(fake, FakeTelegram)
        self.fake_tg = fake
        self.user: FakeUser = fake.user(5_000_000 + number, f"P{number}")
        self.chat: FakeChat = fake.chat(-1_000_000_000 - number, title=f"bench {number}")

    def chat_key(self) -> Any:
        return self.chat.id

    def payloads_of(self, message: TelegramMessage) -> list[str]:
        return [b.callback_data for b in message.buttons if b.callback_data]

    def codes_of(self, message: TelegramMessage) -> list[str]:
        return [d.rsplit("|", 1)[1] for d in self.payloads_of(message) if d.startswith("g1|")]

    def bot_messages(self) -> list[TelegramMessage]:
        return [m for m in self.fake_tg.bot_messages(self.chat) if not m.deleted]

    def message_id(self, message: TelegramMessage) -> int:
        return message.message_id

    async def send_start(self) -> None:
        await self.fake_tg.send_message(self.user, self.chat, "/general start")

    async def send_press(self, message: TelegramMessage, data: str) -> None:
        await self.fake_tg.press(self.user, message, data=data)


class DiscordTable(Table):
    platform = "discord"

    def __init__(self, driver: Driver, number: int) -> None:
        super().__init__(driver, number)
        fake = driver.fake
        assert isinstance(fake, FakeDiscord)
        self.fake_dc = fake
        guild = driver.guild
        self.member: FakeMember = fake.member(guild, f"P{number}")
        self.channel: FakeChannel = fake.text_channel(guild, f"bench-{number}")

    def chat_key(self) -> Any:
        return self.channel.id

    def payloads_of(self, message: DiscordMessage) -> list[str]:
        return [b.custom_id for b in message.buttons if b.custom_id]

    def codes_of(self, message: DiscordMessage) -> list[str]:
        return [d.rsplit("|", 1)[1] for d in self.payloads_of(message) if d.startswith("g1|")]

    def bot_messages(self) -> list[DiscordMessage]:
        bot = self.fake_dc.bot_user
        return [m for m in self.fake_dc.channel_messages(self.channel) if m.author is bot]

    def message_id(self, message: DiscordMessage) -> int:
        return int(message.id)

    async def send_start(self) -> None:
        await self.fake_dc.slash(self.member, self.channel, "general", "start")

    async def send_press(self, message: DiscordMessage, data: str) -> None:
        await self.fake_dc.press(self.member, message, custom_id=data)


# ---------------------------------------------------------------------------- one bot, all levels


@dataclass(frozen=True)
class Level:
    games: int
    think: float  # mean seconds from an answer to the table's next press (0: none)
    seconds: float  # how long presses are timed

    @property
    def capacity(self) -> bool:
        return self.think == CAPACITY

    @property
    def name(self) -> str:
        return f"{self.games} flat out" if self.capacity else f"{self.games}"


@dataclass
class LevelResult:
    level: Level
    samples: list[Sample]
    seconds: float
    bot_cpu: float  # share of one core the bot used
    harness_cpu: float  # share of one core this process (the fake and the players) used
    harness_lag: list[float] = field(default_factory=list)  # this loop's delays (s)
    lost: int = 0  # presses never answered (within ANSWER_WAIT)
    refused: int = 0  # presses the bot refused (none are expected)
    deferred: int = 0  # presses the bot deferred (acknowledged after 1.5 s, edited later)
    other_cpu: float = 0.0  # share of one core the rest of the machine used meanwhile
    calls: int = 0  # requests the bot made to the platform meanwhile (updates not counted)

    @property
    def calls_per_press(self) -> float:
        return self.calls / len(self.samples) if self.samples else 0.0

    def board_ms(self, q: float) -> float:
        return 1000 * percentile(sorted(s.board for s in self.samples), q)

    def answer_ms(self, q: float) -> float:
        return 1000 * percentile(sorted(s.answer for s in self.samples), q)

    def lag_ms(self, q: float) -> float:
        return 1000 * percentile(sorted(self.harness_lag), q)

    @property
    def rate(self) -> float:
        return len(self.samples) / self.seconds if self.seconds else 0.0


class Driver:
    """Plays tables on one fake against one bot process."""

    def __init__(self, platform: str, fake: BenchTelegram | BenchDiscord) -> None:
        self.platform = platform
        self.fake = fake
        self.guild = fake.guild("Bench") if isinstance(fake, FakeDiscord) else None
        self.tables: list[Table] = []
        self.samples: list[Sample] = []
        self.recording = False
        self.lost = 0
        self.refused = 0
        self.deferred = 0

    def new_table(self) -> Table:
        kind = TelegramTable if self.platform == "telegram" else DiscordTable
        table = kind(self, len(self.tables))
        self.tables.append(table)
        return table

    async def open_tables(self, count: int, at_once: int = 40) -> list[Table]:
        fresh = [self.new_table() for _ in range(count - len(self.tables))]
        gate = asyncio.Semaphore(at_once)

        async def open_one(table: Table) -> None:
            async with gate:
                await table.open()

        await asyncio.gather(*(open_one(t) for t in fresh))
        return self.tables[:count]

    async def warm_strategy(self) -> None:
        """One hint, so that the strategy tables (solved on first use, see bench.startup) are
        not solved inside a measured press: the figures are the steady state."""
        (table,) = await self.open_tables(1)
        await table.press("r", record=False)
        if "t" in table.codes_of(table.board):
            await table.press("t", record=False)

    async def level(self, level: Level, bot: BotProcess, warmup: float) -> LevelResult:
        tables = await self.open_tables(level.games)
        # The fake keeps every message and request: a full collection of this process's heap
        # stalls it for 100 ms and more, which would be charged to the bot. This process does
        # not collect while a level runs (what a level leaves behind is collected after it).
        gc.collect()
        gc.freeze()
        gc.disable()
        stop = asyncio.Event()
        players = [asyncio.create_task(t.play(stop, level.think)) for t in tables]
        lags: list[float] = []
        probe = asyncio.create_task(_lag_probe(lags))
        try:
            # Long enough for the opening of the tables (and the collections it sets off in the
            # bot) to be over before anything is timed.
            await asyncio.sleep(max(warmup, 1.5 * level.think))
            lags.clear()
            self.samples = []
            self.lost = self.refused = self.deferred = 0
            bot_cpu, own_cpu, all_cpu = bot.cpu_seconds(), _own_cpu(), machine_cpu()
            calls = len(self.fake.requests)
            began = time.perf_counter()
            self.recording = True
            await asyncio.sleep(level.seconds)
            self.recording = False
            elapsed = time.perf_counter() - began
            bot_cpu, own_cpu = bot.cpu_seconds() - bot_cpu, _own_cpu() - own_cpu
            calls = _calls(self.fake.requests[calls:])
            other_cpu = machine_cpu() - all_cpu - bot_cpu - own_cpu
            lags = list(lags)
            counts = (self.lost, self.refused, self.deferred)
        finally:
            self.recording = False
            probe.cancel()
            stop.set()
            await asyncio.wait_for(asyncio.gather(*players), ANSWER_WAIT * 2)
            gc.unfreeze()  # collectable again once this fake is done with
            gc.enable()
        samples = [s for s in self.samples if s.at <= began + elapsed]
        result = LevelResult(
            level, samples, elapsed, bot_cpu / elapsed, own_cpu / elapsed, lags, *counts
        )
        result.other_cpu = max(0.0, other_cpu / elapsed)
        result.calls = calls
        return result


def _calls(requests: Sequence[Any]) -> int:
    """The bot's calls among a fake's recorded requests (Telegram's update polls left out)."""
    return sum(1 for r in requests if not (isinstance(r, tuple) and r[0] == "getUpdates"))


async def _lag_probe(lags: list[float], every: float = 0.002) -> None:
    """How late this process's event loop wakes a sleeper: the fake's own delay, which adds to
    every figure it measures."""
    while True:
        began = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - began - every)


async def quiet(*fakes: FakeTelegram | FakeDiscord) -> None:
    """Let the bot finish what it does after its last answer before it is stopped (a stop in
    the middle of handling is another benchmark's subject: bench.soak)."""
    for fake in fakes:
        with contextlib.suppress(AssertionError):
            await fake.settle(quiet=0.2, timeout=10)


def machine_cpu() -> float:
    """CPU seconds all processes of the machine have used (user, nice, system, irq, softirq,
    steal) since boot, from /proc/stat: what the bot and this process did not use of it was
    used by someone else, who would be competing with the benchmark."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return math.nan
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def start_fake(platform: str) -> BenchTelegram | BenchDiscord:
    fake: BenchTelegram | BenchDiscord = (
        BenchTelegram() if platform == "telegram" else BenchDiscord()
    )
    await fake.start()
    return fake


async def measure_bot(
    platform: str,
    bot: str,
    levels: Sequence[Level],
    directory: Path,
    warmup: float = 1.0,
) -> tuple[list[LevelResult], list[str]]:
    """One bot process on a fresh fake through every level; the results and the problems seen
    (lost presses, errors in the bot's log)."""
    fake = await start_fake(platform)
    driver = Driver(platform, fake)
    database = directory / f"{platform}-{bot}.db"
    env = bot_env(
        telegram=fake if isinstance(fake, FakeTelegram) else None,
        discord=fake if isinstance(fake, FakeDiscord) else None,
        database=database,
    )
    process = BotProcess(MODULES[bot], env, directory / f"{platform}-{bot}.log")
    results: list[LevelResult] = []
    problems: list[str] = []
    try:
        await process.start()
        await process.wait_ready()
        if bot == "game":
            await driver.warm_strategy()
        for level in levels:
            results.append(await driver.level(level, process, warmup))
        await quiet(fake)
    finally:
        await process.stop()
        await fake.stop()
    for result in results:
        where = f"{platform}/{bot} at {result.level.name} games"
        if result.lost:
            problems.append(f"{where}: {result.lost} presses never answered")
        if result.deferred and not result.level.capacity:
            problems.append(f"{where}: {result.deferred} presses deferred (edited after 1.5 s)")
        if result.refused:
            problems.append(f"{where}: {result.refused} presses refused")
    problems += [f"{platform}/{bot} log: {line}" for line in process.errors()[:5]]
    if isinstance(fake, FakeTelegram) and fake.unhandled:
        problems.append(f"{platform}/{bot}: fake did not understand {fake.unhandled[:3]}")
    if isinstance(fake, FakeDiscord) and fake.unhandled:
        problems.append(f"{platform}/{bot}: fake did not understand {fake.unhandled[:3]}")
    return results, problems


# ---------------------------------------------------------------------------- the whole benchmark


def levels_for(quick: bool, capacity: bool = False) -> list[Level]:
    if capacity:  # only the level that measures capacity (for profiling)
        return [Level(200, CAPACITY, 6.0)]
    if quick:
        return [
            Level(1, FAST_THINK, 1.5),
            Level(10, HUMAN_THINK, 2.0),
            Level(20, HUMAN_THINK, 2.0),
            Level(20, CAPACITY, 1.0),
        ]
    return [
        Level(1, FAST_THINK, 3.0),
        Level(50, HUMAN_THINK, 6.0),
        Level(200, HUMAN_THINK, 8.0),
        Level(200, CAPACITY, 6.0),
    ]


@dataclass
class Cell:
    """The figures of one platform, bot and level over the runs."""

    p50: Figure = field(default_factory=Figure)
    p95: Figure = field(default_factory=Figure)
    p99: Figure = field(default_factory=Figure)
    answer_p50: Figure = field(default_factory=Figure)
    rate: Figure = field(default_factory=Figure)
    bot_cpu: Figure = field(default_factory=Figure)
    harness_cpu: Figure = field(default_factory=Figure)
    harness_lag: Figure = field(default_factory=Figure)
    samples: Figure = field(default_factory=Figure)
    deferred: Figure = field(default_factory=Figure)
    calls: Figure = field(default_factory=Figure)
    other_cpu: Figure = field(default_factory=Figure)

    def add(self, result: LevelResult) -> None:
        self.p50.add(result.board_ms(0.50))
        self.p95.add(result.board_ms(0.95))
        self.p99.add(result.board_ms(0.99))
        self.answer_p50.add(result.answer_ms(0.50))
        self.rate.add(result.rate)
        self.bot_cpu.add(100 * result.bot_cpu)
        self.harness_cpu.add(100 * result.harness_cpu)
        self.harness_lag.add(result.lag_ms(0.99))
        self.samples.add(len(result.samples))
        self.deferred.add(result.deferred)
        self.calls.add(result.calls_per_press)
        self.other_cpu.add(100 * result.other_cpu)


@dataclass
class RoundTrip:
    levels: list[Level]
    runs: int
    platforms: Sequence[str] = PLATFORMS
    bots: Sequence[str] = BOTS
    cells: dict[tuple[str, str, Level], Cell] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def cell(self, platform: str, bot: str, level: Level) -> Cell:
        return self.cells.setdefault((platform, bot, level), Cell())

    def ratio(self, platform: str, level: Level) -> Figure:
        """p50 of the game over p50 of the trivial bot, run by run."""
        game, trivial = self.cell(platform, "game", level), self.cell(platform, "trivial", level)
        return Figure([g / t for g, t in zip(game.p50.values, trivial.p50.values, strict=False)])

    def timed(self) -> list[Level]:
        return [level for level in self.levels if not level.capacity]

    def lines(self) -> list[str]:
        out = [
            "Round trip: press → the bot's edit of the pressed board, at the fake (ms; median of "
            f"{self.runs} run(s), lowest–highest in brackets)",
        ]
        header = (
            f"{'platform':<9} {'bot':<8} {'games':>5} {'p50':>17} {'p95':>17} {'p99':>19} "
            f"{'presses/s':>13} {'bot CPU %':>13} {'fake CPU %':>13} {'fake lag p99':>13} "
            f"{'calls/press':>11}"
        )
        out += [header, "-" * len(header)]
        for platform in self.platforms:
            for bot in self.bots:
                for level in self.timed():
                    cell = self.cells.get((platform, bot, level))
                    if cell is None:
                        continue
                    out.append(
                        f"{platform:<9} {bot:<8} {level.games:>5} {cell.p50.show():>17} "
                        f"{cell.p95.show():>17} {cell.p99.show():>19} {cell.rate.show(0):>13} "
                        f"{cell.bot_cpu.show(0):>13} {cell.harness_cpu.show(0):>13} "
                        f"{cell.harness_lag.show():>13} {cell.calls.show(1):>11}"
                    )
        out.append(
            f"(1 game: pressed {1000 * FAST_THINK:.0f} ms after each answer; more: each person "
            f"{HUMAN_THINK / 2:g}–{HUMAN_THINK * 1.5:g} s after their answer. Presses timed per "
            "run: "
            + ", ".join(
                f"{level.games} games ≈{self._samples(level):.0f}" for level in self.timed()
            )
            + ")"
        )
        out.append("")
        out.append("Price of the game: p50 of the bot / p50 of the trivial bot")
        for platform in self.platforms:
            ratios = [
                f"{level.games} games {self.ratio(platform, level).show(2)}"
                for level in self.timed()
                if (platform, "game", level) in self.cells
                and (platform, "trivial", level) in self.cells
            ]
            if ratios:
                out.append(f"  {platform:<9} " + ", ".join(ratios))
        flat = [level for level in self.levels if level.capacity]
        for level in flat:
            out.append("")
            out.append(
                f"Capacity: {level.games} tables pressing again as soon as answered (presses/s, "
                "bot CPU %, p50 ms)"
            )
            for platform in self.platforms:
                shown = [
                    f"{bot} {c.rate.show(0)}/s, CPU {c.bot_cpu.show(0)}, p50 {c.p50.show(0)}"
                    + (f", {c.deferred.median:.0f} deferred" if c.deferred.median else "")
                    for bot in self.bots
                    if (c := self.cells.get((platform, bot, level))) is not None
                ]
                if shown:
                    out.append(f"  {platform:<9} " + "; ".join(shown))
        out += [f"  problem: {p}" for p in self.problems]
        out += [
            f"  note: {platform}/{bot} at {level.name} games: other processes used up to "
            f"{cell.other_cpu.high:.0f}% of a core meanwhile (competing with the figures)"
            for (platform, bot, level), cell in self.cells.items()
            if cell.other_cpu.high > 100 * OTHER_CPU
        ]
        out.append(f"(took {self.seconds:.0f} s)")
        return out

    def _samples(self, level: Level) -> float:
        counts = [c.samples.median for (_, _, lv), c in self.cells.items() if lv == level]
        return statistics.median(counts) if counts else 0.0


async def roundtrip(
    runs: int,
    levels: Sequence[Level],
    directory: Path,
    platforms: Sequence[str] = PLATFORMS,
    bots: Sequence[str] = BOTS,
    warmup: float = 1.0,
) -> RoundTrip:
    began = time.monotonic()
    report = RoundTrip(list(levels), runs, platforms, bots)
    for run in range(runs):
        for platform in platforms:
            for bot in bots:
                where = directory / f"run{run}"
                where.mkdir(parents=True, exist_ok=True)
                results, problems = await measure_bot(platform, bot, levels, where, warmup)
                for result in results:
                    report.cell(platform, bot, result.level).add(result)
                report.problems += problems
    report.seconds = time.monotonic() - began
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="small levels, one run")
    parser.add_argument(
        "--capacity", action="store_true", help="only 200 tables pressing as soon as answered"
    )
    parser.add_argument("--platform", choices=PLATFORMS, action="append")
    parser.add_argument("--bot", choices=BOTS, action="append")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else args.runs
    with tempfile.TemporaryDirectory(prefix="general-bench-") as directory:
        report = asyncio.run(
            roundtrip(
                runs,
                levels_for(args.quick, args.capacity),
                Path(directory),
                args.platform or PLATFORMS,
                args.bot or BOTS,
            )
        )
    print("\n".join(report.lines()))


if __name__ == "__main__":
    main()
