"""Under the platforms' rate limits: 4-player tables at a human pace, with the fakes' strict
limits on and off side by side, and a Telegram group held back by a 30-second storm.

`uv run python -m bench.limits [--tables 20,100] [--seconds 30] [--platform telegram]
[--storm 30] [--no-game] [--no-storm]` starts the fake Telegram or the fake Discord in this
process and the real bot (`python -m bot`) as a subprocess pointed at it, with the bot's own
pace as deployed (TELEGRAM_CHAT_RATE and the rest at their defaults: bench.roundtrip switches it
off, this benchmark does not). At each table four people play one game: the host opens it
(`/general start`), the three others join, the host starts, and each in turn rolls, holds dice
and scores a box by the buttons of the board as it shows at that moment, 0.3–2 s (seeded) after
their last answer. Someone who threw waits until the board shows the dice (they choose from
them); a hold is followed by the next press without waiting for the board (the bot takes a
press on a board not yet redrawn when only the presser's own holds happened since).

What is measured, per platform, number of tables and limits (strict, or the fakes' limits off):
every press's answer (Telegram's callback answer, Discord's interaction response) and the time
from the press to the first drawing of a board showing it (the version its payloads carry, on
any bot message of the chat: the pressed board's edit, or the next turn's new board); edits per
press; the 429s the fake answered (`fake.rate_limited`) per game; the presses refused as stale,
beside those the driver itself knew to be stale (pressed on a board behind something other than
the presser's own holds, or a second tap on a die). At the end the stored game of every table is
checked against what its people did (its version, and every seat's filled boxes).

The levels: one game per platform played to the end, limits on and off (the four at once, each
against its own fake and bot); then 20 and 100 tables at once per platform, limits on and off,
each run `--seconds` long (tables open one every 0.1 s). The storm: a Telegram group in mid-game
(after eight boxes) answered 429 for 30 s (`fake.storm(chat, 30)`) while its people go on
pressing; reported: every press answered, the stored game consistent, and how long after the
storm's end the board showed the present.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import random
import re
import sqlite3
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters.chat import payload
from adapters.i18n import translator
from bench.roundtrip import (
    PLATFORMS,
    BenchDiscord,
    BenchTelegram,
    BotProcess,
    _lag_probe,
    bot_env,
    percentile,
    quiet,
)
from bot.settings import Settings
from tests.fakes.discord import FakeChannel, FakeMember
from tests.fakes.discord import FakeMessage as DiscordMessage
from tests.fakes.discord.limits import Limits as DiscordLimits
from tests.fakes.telegram import FakeChat, FakeUser
from tests.fakes.telegram import FakeMessage as TelegramMessage
from tests.fakes.telegram.limits import Limits as TelegramLimits

THINK = (0.3, 2.0)  # seconds from a person's last answer (or the sight they wait for) to a press
ANSWER_GOAL = 1.0  # a press should be answered within this
ANSWER_WAIT = 15.0  # a press not answered after this is lost
BOARD_WAIT = 20.0  # how long a person waits to see what they wait for (beyond any storm)
PEOPLE = 4
BOXES = 10  # boxes on each sheet: a game is PEOPLE × BOXES scores
OPEN_EVERY = 0.1  # seconds between two tables' openings
STORM_AFTER = 8  # boxes scored at the table before the storm (at the next throw shown)
# An accepted press's toast on Telegram says what the throw, the dice kept or the box was.
TOASTS = ("🎲", "✍", "🔒", "🔓")
# error-stale and what it says changed since (error-stale-*), in English (the bot's default
# language): each message's words before its first variable.
STALE_WORDS = tuple(
    translator("en")(key, dice="\0", player="\0", round="\0").split("\0")[0].strip()
    for key in (
        "error-stale", "error-stale-thrown", "error-stale-held", "error-stale-released",
        "error-stale-repeated", "error-stale-started", "error-stale-turn-passed",
        "error-stale-new-turn",
    )
)  # fmt: skip
TURN = re.compile(r"(?:'|&#x27;)s turn")


def version_of(datas: Sequence[str]) -> int | None:
    """The game version a message's game buttons carry (None: none)."""
    versions = [p.version for d in datas if (p := payload.decode(d)) is not None]
    return max(versions) if versions else None


def codes_in(datas: Sequence[str]) -> list[str]:
    return [d.rsplit("|", 1)[1] for d in datas if d.startswith(f"{payload.PREFIX}|")]


# ---------------------------------------------------------------------------- the fakes, recorded


@dataclass(frozen=True)
class Drawing:
    """A bot message posted or edited: when, which, and the version its buttons carry."""

    at: float
    message: int
    version: int | None
    new: bool


@dataclass
class Answer:
    at: float
    text: str | None
    refused: bool
    deferred: bool = False


class _Record:
    """Every drawing of a bot message per chat and every press's answer, for both fakes."""

    def _init_record(self) -> None:
        self.drawings: dict[Any, list[Drawing]] = {}
        self.answers: dict[str, Answer] = {}
        self.edits = 0  # edits carried out (refused ones not counted)
        self.sends = 0  # new bot messages carried out

    def drew(self, chat: Any, message: int, datas: Sequence[str], *, new: bool) -> None:
        drawing = Drawing(time.perf_counter(), message, version_of(datas), new)
        self.drawings.setdefault(chat, []).append(drawing)
        if new:
            self.sends += 1
        else:
            self.edits += 1


class LimitsTelegram(_Record, BenchTelegram):
    def __init__(self, limits: TelegramLimits | None) -> None:
        BenchTelegram.__init__(self)
        self.limits = limits
        self._init_record()

    def _store(self, msg: TelegramMessage) -> None:
        super()._store(msg)
        if msg.from_user is self.bot_user:
            self.drew(msg.chat.id, msg.message_id, _tg_datas(msg), new=True)

    def _apply_edit(self, msg: TelegramMessage, **kwargs: Any) -> Any:
        result = super()._apply_edit(msg, **kwargs)
        self.drew(msg.chat.id, msg.message_id, _tg_datas(msg), new=False)
        return result

    async def _api_answerCallbackQuery(self, p: dict[str, Any]) -> Any:
        now = time.perf_counter()
        result = await super()._api_answerCallbackQuery(p)
        key = str(p.get("callback_query_id", ""))
        record = self.callback_queries.get(key)
        if record is not None and record.answered and key not in self.answers:
            text = record.text
            refused = text is not None and not text.startswith(TOASTS)
            self.answers[key] = Answer(now, text, refused)
            self.touch(record.message.chat.id)
        return result


class LimitsDiscord(_Record, BenchDiscord):
    def __init__(self, limits: DiscordLimits | None) -> None:
        BenchDiscord.__init__(self)
        self.limits = limits
        self._init_record()

    def _new_message(self, channel: FakeChannel, *args: Any, **kwargs: Any) -> DiscordMessage:
        msg = super()._new_message(channel, *args, **kwargs)
        if msg.author is self.bot_user and not msg.ephemeral:
            self.drew(channel.id, int(msg.id), _dc_datas(msg), new=True)
        return msg

    def _edit_message(self, msg: DiscordMessage, *args: Any, **kwargs: Any) -> None:
        super()._edit_message(msg, *args, **kwargs)
        if msg.author is self.bot_user and not msg.ephemeral:
            self.drew(msg.channel.id, int(msg.id), _dc_datas(msg), new=False)

    def _r_callback(self, ctx: Any) -> tuple[int, Any]:
        now = time.perf_counter()
        result = super()._r_callback(ctx)
        inter = self._interactions.get(ctx.params["iid"])
        if inter is not None and inter.response is not None and inter.id not in self.answers:
            kind, data = inter.response.type, inter.response.data or {}
            ephemeral = bool(int(data.get("flags") or 0) & 64)
            text = data.get("content") if kind == 4 else None
            self.answers[inter.id] = Answer(now, text, kind == 4 and ephemeral, kind in (5, 6))
        return result


def _tg_datas(msg: TelegramMessage) -> list[str]:
    return [b.callback_data for b in msg.buttons if b.callback_data]


def _dc_datas(msg: DiscordMessage) -> list[str]:
    return [b.custom_id for b in msg.buttons if b.custom_id]


Fake = LimitsTelegram | LimitsDiscord


# ---------------------------------------------------------------------------- a table of four


@dataclass
class Press:
    table: int
    person: int
    code: str
    at: float
    shown: int | None  # the version of the board pressed on
    present: int  # the game's version as the driver knows it, when pressed
    truly_stale: bool  # the board pressed on was behind something the presser had not seen
    key: str = ""  # the query / interaction id
    answer: Answer | None = None
    target: int | None = None  # the version it made, if it was taken
    ends: bool = False  # the game's last box
    board: float | None = None  # seconds to the first drawing showing it

    @property
    def accepted(self) -> bool:
        return self.answer is not None and not self.answer.refused

    @property
    def stale(self) -> bool:
        answer = self.answer
        text = answer.text or "" if answer is not None else ""
        return answer is not None and answer.refused and text.startswith(STALE_WORDS)


class Gone(Exception):
    """A table stops: a press was lost, or what its people waited for never came."""


class FourTable:
    """One chat, four people, one game through the buttons of the board as it shows."""

    def __init__(self, run: Run, number: int, think: tuple[float, float]) -> None:
        self.run = run
        self.fake = run.fake
        self.number = number
        self.think = think
        self.random = random.Random(f"{run.seed}/{number}")
        self.board: Any = None
        self.present = 0
        self.log: list[tuple[int, int, str]] = []  # accepted presses: (version before, who, code)
        self.scores = 0
        self.people = run.people
        self.boxes: dict[int, set[int]] = {i: set() for i in range(self.people)}  # person → boxes
        self.turn_of = 0
        self.throws = 0
        self.held: set[int] = set()
        self.refusals = 0
        self.storm_end: float | None = None
        self.storm_present: int | None = None
        self.finished = False

    # platform parts
    def chat_key(self) -> Any:
        raise NotImplementedError

    def datas(self, message: Any) -> list[str]:
        raise NotImplementedError

    def text_of(self, message: Any) -> str:
        raise NotImplementedError

    def mention(self, person: int) -> str:
        raise NotImplementedError

    def name(self, person: int) -> str:
        return f"T{self.number}P{person}"

    def bot_messages(self) -> list[Any]:
        raise NotImplementedError

    def message_id(self, message: Any) -> int:
        raise NotImplementedError

    async def send_start(self) -> None:
        raise NotImplementedError

    async def send_press(self, person: int, message: Any, data: str) -> str:
        raise NotImplementedError

    # what the people see
    def shown(self) -> int | None:
        return version_of(self.datas(self.board))

    def codes(self) -> list[str]:
        return codes_in(self.datas(self.board))

    async def see(self, predicate: Any, what: str) -> Any:
        """Wait for what the people wait to see (through a storm if there is one)."""
        timeout = BOARD_WAIT + (self.run.storm or 0)
        try:
            return await self.fake.wait_chat(self.chat_key(), predicate, timeout)
        except TimeoutError:
            mine = [p for p in self.run.presses if p.table == self.number]
            last = mine[-1] if mine else None
            told = (
                ""
                if last is None
                else (
                    f" (last press {last.code!r}, answered {last.answer}, present {self.present}, "
                    f"the board shows {self.shown()})"
                )
            )
            self.run.problems.append(f"table {self.number}: {what} never showed{told}")
            raise Gone from None

    def newest(self, after: int, code: str) -> Any:
        """The newest bot message after `after` with the button `code` and showing the
        present."""
        for message in reversed(self.bot_messages()):
            if self.message_id(message) <= after:
                return None
            datas = self.datas(message)
            if code in codes_in(datas) and (version_of(datas) or 0) >= self.present:
                return message
        return None

    def whose_turn(self) -> int:
        text = self.text_of(self.board)
        end = TURN.search(text)
        limit = end.start() if end else len(text)
        found = [(text.rfind(self.mention(i), 0, limit), i) for i in range(self.people)]
        at, person = max(found)
        if at < 0:
            self.run.problems.append(f"table {self.number}: whose turn? {text[:120]!r}")
            raise Gone
        return person

    async def pause(self) -> None:
        await asyncio.sleep(self.random.uniform(*self.think))

    # the game
    async def play(self, stop: asyncio.Event, delay: float) -> None:
        await asyncio.sleep(delay)
        with contextlib.suppress(Gone):
            await self._play(stop)

    async def _play(self, stop: asyncio.Event) -> None:
        await self.send_start()
        self.board = await self.see(lambda: self.newest(0, "j"), "the lobby")
        self.present = self.shown() or 0
        for person in range(1, self.people):
            await self.pause()
            await self.press(person, "j")
        await self.pause()
        await self.press(0, "b")
        lobby = self.message_id(self.board)
        self.board = await self.see(lambda: self.newest(lobby, "r"), "the first board")
        self.turn_of = self.whose_turn()
        while not stop.is_set() and self.scores < self.people * BOXES:
            await self.pause()
            code = self.choose()
            press = await self.press(self.turn_of, code)
            if not press.accepted:  # refused: look at the board again once it shows the present
                await self.see(lambda: (self.shown() or 0) >= self.present, "the redrawn board")
                continue
            if code == "r":
                self.throws += 1
                await self.see(
                    lambda: self.shown() is None or self.shown() >= self.present, "the throw"
                )
                if self.shown() is None:  # a big general at the first throw: the game is won
                    press.ends = self.finished = True
                    return
                await self.storm_now()
            elif code.startswith("h"):
                self.held ^= {int(code[1:])}
            elif code.startswith("s"):
                self.scores += 1
                self.boxes[self.turn_of].add(int(code[1:]))
                self.throws, self.held = 0, set()
                if self.scores < self.people * BOXES:
                    await self.next_turn()
        self.finished = self.scores == self.people * BOXES

    async def next_turn(self) -> None:
        pressed = self.message_id(self.board)
        self.board = await self.see(lambda: self.newest(pressed, "r"), "the next turn's board")
        self.turn_of = self.whose_turn()

    def choose(self) -> str:
        codes = self.codes()
        boxes = [c for c in codes if c.startswith("s")]
        if self.throws == 0 or (not boxes and "r" in codes):
            return "r"
        free = [c for c in codes if c.startswith("h") and int(c[1:]) not in self.held]
        if free and len(self.held) < 3 and self.random.random() < 0.45:
            return self.random.choice(free)
        if "r" in codes and self.throws < 3 and self.random.random() < 0.6:
            return "r"
        return self.random.choice(boxes) if boxes else "r"

    def knows_stale(self, person: int, code: str, shown: int | None) -> bool:
        """Whether the board pressed on is behind something the presser did not see."""
        if shown is None or shown >= self.present:
            return False
        since = [(who, c) for before, who, c in self.log if before >= shown]
        if self.scores == 0 and self.throws == 0 and not any(c == "r" for _, c in since):
            return any(who == person and c == code for who, c in since)  # the lobby
        if any(who != person or not c.startswith("h") for who, c in since):
            return True
        return code.startswith("h") and any(c == code for _, c in since)

    async def press(self, person: int, code: str) -> Press:
        board = self.board
        data = next((d for d in self.datas(board) if d.endswith(f"|{code}")), None)
        if data is None:
            self.run.problems.append(f"table {self.number}: no button {code!r} on its board")
            raise Gone
        shown = version_of(self.datas(board))
        press = Press(
            self.number, person, code, time.perf_counter(), shown, self.present,
            self.knows_stale(person, code, shown),
        )  # fmt: skip
        self.run.presses.append(press)
        press.key = await self.send_press(person, board, data)
        fake = self.fake
        wait = ANSWER_WAIT + (self.run.storm or 0)  # through a storm, a person waits it out
        try:
            press.answer = await fake.wait_chat(
                self.chat_key(), lambda: fake.answers.get(press.key), wait
            )
        except TimeoutError:
            self.run.problems.append(f"table {self.number}: press {code!r} never answered")
            raise Gone from None
        if press.accepted:
            self.log.append((self.present, person, code))
            self.present += 1
            press.target = self.present
            press.ends = code.startswith("s") and self.scores + 1 == self.people * BOXES
        else:
            self.refusals += 1
            if self.refusals > 20:
                self.run.problems.append(f"table {self.number}: over 20 refusals")
                raise Gone
        return press

    async def storm_now(self) -> None:
        """The storm run: in mid-game, as soon as a throw shows, the chat is held back."""
        run = self.run
        if run.storm is None or self.storm_end is not None or self.scores < STORM_AFTER:
            return
        assert isinstance(self, TelegramTable)
        self.fake_tg.storm(self.chat, run.storm)
        self.storm_end = time.perf_counter() + run.storm
        asyncio.get_running_loop().call_later(run.storm, self._storm_over)

    def _storm_over(self) -> None:
        self.storm_present = self.present


class TelegramTable(FourTable):
    def __init__(self, run: Run, number: int, think: tuple[float, float]) -> None:
        super().__init__(run, number, think)
        fake = run.fake
        assert isinstance(fake, LimitsTelegram)
        self.fake_tg = fake
        self.users: list[FakeUser] = [
            fake.user(6_000_000 + 100 * number + i, self.name(i)) for i in range(self.people)
        ]
        self.chat: FakeChat = fake.chat(-1_000_000_000 - number, title=f"limits {number}")

    def chat_key(self) -> Any:
        return self.chat.id

    def datas(self, message: TelegramMessage) -> list[str]:
        return _tg_datas(message)

    def text_of(self, message: TelegramMessage) -> str:
        return message.text or ""

    def mention(self, person: int) -> str:
        return f'tg://user?id={self.users[person].id}"'

    def bot_messages(self) -> list[TelegramMessage]:
        return [m for m in self.fake_tg.bot_messages(self.chat) if not m.deleted]

    def message_id(self, message: TelegramMessage) -> int:
        return message.message_id

    async def send_start(self) -> None:
        await self.fake_tg.send_message(self.users[0], self.chat, "/general start")

    async def send_press(self, person: int, message: TelegramMessage, data: str) -> str:
        return await self.fake_tg.press(self.users[person], message, data=data)


class DiscordTable(FourTable):
    def __init__(self, run: Run, number: int, think: tuple[float, float]) -> None:
        super().__init__(run, number, think)
        fake = run.fake
        assert isinstance(fake, LimitsDiscord) and run.guild is not None
        self.fake_dc = fake
        self.members: list[FakeMember] = [
            fake.member(run.guild, self.name(i)) for i in range(self.people)
        ]
        self.channel: FakeChannel = fake.text_channel(run.guild, f"limits-{number}")

    def chat_key(self) -> Any:
        return self.channel.id

    def datas(self, message: DiscordMessage) -> list[str]:
        return _dc_datas(message)

    def text_of(self, message: DiscordMessage) -> str:
        return message.content

    def mention(self, person: int) -> str:
        return f"<@{self.members[person].id}>"

    def bot_messages(self) -> list[DiscordMessage]:
        bot = self.fake_dc.bot_user
        return [m for m in self.fake_dc.channel_messages(self.channel) if m.author is bot]

    def message_id(self, message: DiscordMessage) -> int:
        return int(message.id)

    async def send_start(self) -> None:
        await self.fake_dc.slash(self.members[0], self.channel, "general", "start")

    async def send_press(self, person: int, message: DiscordMessage, data: str) -> str:
        interaction = await self.fake_dc.press(self.members[person], message, custom_id=data)
        return str(interaction.id)


# ---------------------------------------------------------------------------- one run


@dataclass
class Run:
    """One bot process, one fake, `count` tables at once."""

    platform: str
    count: int
    strict: bool
    seconds: float | None  # None: every game to its end
    fake: Fake
    seed: int = 1
    storm: float | None = None
    people: int = PEOPLE  # at each table
    guild: Any = None
    presses: list[Press] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    tables: list[FourTable] = field(default_factory=list)
    rate_limited: Counter[str] = field(default_factory=Counter)
    limited_calls: Counter[str] = field(default_factory=Counter)  # "reason method" → 429s
    elapsed: float = 0.0
    lags: list[float] = field(default_factory=list)
    inconsistent: list[str] = field(default_factory=list)
    edits: int = 0
    sends: int = 0

    # figures
    @property
    def answered_in_time(self) -> float:
        if not self.presses:
            return math.nan
        quick = [p for p in self.presses if p.answer and p.answer.at - p.at <= ANSWER_GOAL]
        return len(quick) / len(self.presses)

    def board_ms(self, q: float) -> float:
        shown = sorted(p.board for p in self.presses if p.board is not None)
        return 1000 * percentile(shown, q)

    def answer_ms(self, q: float) -> float:
        times = sorted(p.answer.at - p.at for p in self.presses if p.answer)
        return 1000 * percentile(times, q)

    @property
    def edits_per_press(self) -> float:
        return self.edits / len(self.presses) if self.presses else math.nan

    @property
    def limited_per_game(self) -> float:
        return sum(self.rate_limited.values()) / max(1, self.count)

    @property
    def stale(self) -> int:
        return sum(1 for p in self.presses if p.stale)

    @property
    def truly_stale(self) -> int:
        return sum(1 for p in self.presses if p.truly_stale)

    @property
    def wrongly_stale(self) -> list[Press]:
        return [p for p in self.presses if p.stale and not p.truly_stale]

    @property
    def other_refusals(self) -> list[Press]:
        return [p for p in self.presses if p.answer and p.answer.refused and not p.stale]

    @property
    def unseen(self) -> int:
        """Presses taken whose board never showed them."""
        return sum(1 for p in self.presses if p.accepted and p.board is None)

    @property
    def finished(self) -> int:
        return sum(1 for t in self.tables if t.finished)

    @property
    def name(self) -> str:
        return f"{self.platform} {self.count} {'strict' if self.strict else 'off'}"


def _boards(run: Run) -> None:
    """Each taken press's time to the first drawing that shows it (the game's last box: the
    first drawing after its answer)."""
    for press in run.presses:
        if press.answer is None and press.key in run.fake.answers:
            press.answer = run.fake.answers[press.key]  # after ANSWER_WAIT: a late answer
    for table in run.tables:
        drawings = run.fake.drawings.get(table.chat_key(), [])
        for press in (p for p in run.presses if p.table == table.number and p.accepted):
            assert press.target is not None and press.answer is not None
            for drawing in drawings:
                if drawing.at < press.at:
                    continue
                if press.ends:
                    press.board = drawing.at - press.at
                    break
                if drawing.version is not None and drawing.version >= press.target:
                    press.board = drawing.at - press.at
                    break


def _check_stored(run: Run, database: Path) -> None:
    """The stored game of every table against what its people did."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        rows = db.execute("SELECT snapshot FROM games ORDER BY created_at").fetchall()
    games = {}
    for (snapshot,) in rows:
        data = json.loads(snapshot)
        games[data["channel"]["chat"]] = data
    for table in run.tables:
        data = games.get(str(table.chat_key()))
        where = f"{run.name} table {table.number}"
        if data is None:
            run.inconsistent.append(f"{where}: no stored game")
            continue
        if data["version"] != table.present:
            run.inconsistent.append(
                f"{where}: stored version {data['version']}, the people made {table.present}"
            )
        for seat in data["seats"]:
            person = int(seat["name"].rsplit("P", 1)[1])
            filled = {i for i, s in enumerate(seat["scores"]) if s is not None}
            if filled != table.boxes[person]:
                run.inconsistent.append(
                    f"{where}: {seat['name']} stored boxes {sorted(filled)}, "
                    f"scored {sorted(table.boxes[person])}"
                )
        if table.finished and data["phase"] != "finished":
            run.inconsistent.append(f"{where}: stored phase {data['phase']} after the last box")


def default_pace() -> dict[str, str]:
    """The bot's Telegram pace at its defaults (whatever the environment or a .env file says)."""
    fields = Settings.model_fields
    return {
        name.upper(): str(fields[name].default)
        for name in ("telegram_chat_burst", "telegram_chat_rate", "telegram_group_messages")
    }


async def measure(
    platform: str,
    count: int,
    strict: bool,
    directory: Path,
    *,
    seconds: float | None = None,
    think: tuple[float, float] = THINK,
    storm: float | None = None,
    seed: int = 1,
    people: int = PEOPLE,
) -> Run:
    """`count` tables of `people` (four) on a fresh fake (strict limits or none) against one
    bot."""
    fake: Fake
    if platform == "telegram":
        fake = LimitsTelegram(TelegramLimits.STRICT if strict else None)
    else:
        fake = LimitsDiscord(DiscordLimits.STRICT if strict else None)
    await fake.start()
    run = Run(platform, count, strict, seconds, fake, seed, storm, people)
    tag = f"{platform}-{count}x{people}-{'strict' if strict else 'off'}{'-storm' if storm else ''}"
    database = directory / f"{tag}.db"
    env = bot_env(
        telegram=fake if isinstance(fake, LimitsTelegram) else None,
        discord=fake if isinstance(fake, LimitsDiscord) else None,
        database=database,
        **default_pace(),
    )
    bot = BotProcess("bot", env, directory / f"{tag}.log")
    try:
        await bot.start()
        await bot.wait_ready()
        if isinstance(fake, LimitsDiscord):
            run.guild = fake.guild(f"Limits {tag}")
        kind = TelegramTable if platform == "telegram" else DiscordTable
        run.tables = [kind(run, n, think) for n in range(count)]
        stop = asyncio.Event()
        began = time.perf_counter()
        players = [asyncio.create_task(t.play(stop, OPEN_EVERY * t.number)) for t in run.tables]
        probe = asyncio.create_task(_lag_probe(run.lags, 0.01))
        try:
            if seconds is not None:
                await asyncio.wait(players, timeout=seconds)
                stop.set()
            await asyncio.gather(*players)
        finally:
            stop.set()
            probe.cancel()
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
        run.elapsed = time.perf_counter() - began
        await quiet(fake)
        # what is left to draw (the boards behind the pace) is drawn before the figures
        await asyncio.sleep(3.0 if strict else 0.5)
        await quiet(fake)
    finally:
        await bot.stop()
        await fake.stop()
    run.rate_limited = Counter(r.reason for r in fake.rate_limited)
    run.limited_calls = Counter(f"{r.reason} {r.method}" for r in fake.rate_limited)
    run.edits, run.sends = fake.edits, fake.sends
    _boards(run)
    _check_stored(run, database)
    run.problems += [f"{run.name} log: {line}" for line in bot.errors()[:5]]
    if fake.unhandled:
        run.problems.append(f"{run.name}: the fake did not understand {fake.unhandled[:3]}")
    gc.collect()
    return run


# ---------------------------------------------------------------------------- the report


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:,.0f}"


ROW = (
    "{platform:<9} {tables:>6} {limits:>7} {presses:>7} {inTime:>8} {p50:>7} {p95:>7} {p99:>7} "
    "{edits:>10} {limited:>9} {stale:>11} {other:>6} {unseen:>6} {finished:>8} {lag:>8}"
)


def row_lines(runs: Sequence[Run]) -> list[str]:
    header = ROW.format(
        platform="platform", tables="tables", limits="limits", presses="presses",
        inTime="≤1 s", p50="p50 ms", p95="p95 ms", p99="p99 ms", edits="edits/press",
        limited="429/game", stale="stale (due)", other="other", unseen="unseen",
        finished="finished", lag="lag p99",
    )  # fmt: skip
    out = [header, "-" * len(header)]
    for run in runs:
        out.append(
            ROW.format(
                platform=run.platform,
                tables=run.count,
                limits="strict" if run.strict else "off",
                presses=len(run.presses),
                inTime=f"{100 * run.answered_in_time:.1f}%",
                p50=_ms(run.board_ms(0.5)),
                p95=_ms(run.board_ms(0.95)),
                p99=_ms(run.board_ms(0.99)),
                edits=f"{run.edits_per_press:.2f}",
                limited=f"{run.limited_per_game:.1f}",
                stale=f"{run.stale} ({run.truly_stale})",
                other=len(run.other_refusals),
                unseen=run.unseen,
                finished=f"{run.finished}/{run.count}",
                lag=_ms(1000 * percentile(sorted(run.lags), 0.99)),
            )
        )
    return out


def findings(run: Run) -> list[str]:
    out: list[str] = []
    if run.rate_limited:
        reasons = ", ".join(f"{n} {why}" for why, n in run.limited_calls.most_common())
        out.append(f"{run.name}: 429s: {reasons}")
    for press in run.wrongly_stale[:5]:
        out.append(
            f"{run.name}: {press.code!r} by person {press.person} at table {press.table} "
            f"refused as stale on version {press.shown} (present {press.present}), "
            "though only their own holds came since"
        )
    if len(run.wrongly_stale) > 5:
        out.append(f"{run.name}: … {len(run.wrongly_stale)} wrongly stale in all")
    other = Counter((p.answer.text if p.answer else "") for p in run.other_refusals)
    out += [f"{run.name}: refused {n}×: {text!r}" for text, n in other.most_common(5)]
    late = [p for p in run.presses if p.answer and p.answer.at - p.at > ANSWER_GOAL]
    if late:
        slowest = max(p.answer.at - p.at for p in late if p.answer)
        kinds = Counter(_kind(p.code) for p in late)
        out.append(
            f"{run.name}: {len(late)} presses answered after 1 s (slowest {slowest:.1f} s): "
            + ", ".join(f"{n} {kind}" for kind, n in kinds.most_common())
        )
    unanswered = [p for p in run.presses if p.answer is None]
    if unanswered:
        kinds = Counter(_kind(p.code) for p in unanswered)
        out.append(
            f"{run.name}: {len(unanswered)} presses never answered: "
            + ", ".join(f"{n} {kind}" for kind, n in kinds.most_common())
        )
    unseen = [p for p in run.presses if p.accepted and p.board is None]
    if unseen:
        kinds = Counter(_kind(p.code) for p in unseen)
        out.append(
            f"{run.name}: {len(unseen)} taken presses no board showed: "
            + ", ".join(f"{n} {kind}" for kind, n in kinds.most_common())
        )
    deferred = sum(1 for p in run.presses if p.answer and p.answer.deferred)
    if deferred:
        out.append(f"{run.name}: {deferred} presses deferred")
    out += [f"{run.name}: {p}" for p in run.problems]
    out += [f"{run.name}: stored game: {p}" for p in run.inconsistent[:5]]
    return out


def _kind(code: str) -> str:
    names = {"r": "roll", "j": "join", "b": "start", "h": "hold", "s": "box"}
    return names.get(code[:1], code)


@dataclass
class Report:
    games: list[Run] = field(default_factory=list)
    tables: list[Run] = field(default_factory=list)
    storm: Run | None = None
    seconds: float = 0.0

    def lines(self) -> list[str]:
        out: list[str] = []
        if self.games:
            out.append("One 4-player game played to the end, the fakes' strict limits and none:")
            out += row_lines(self.games)
            out.append("")
        if self.tables:
            span = self.tables[0].seconds
            out.append(f"Tables of 4 at once, {span:g} s of play (tables open 10 a second):")
            out += row_lines(self.tables)
            out.append("")
        out.append(
            "(≤1 s: presses answered within 1 s; p50–p99: press → a board showing it; "
            "stale (due): refused as stale (those the driver knew to be stale); other: other "
            "refusals; unseen: taken presses no board showed; lag p99: this process's loop)"
        )
        if self.storm is not None:
            out += ["", *self.storm_lines(self.storm)]
        found = [f for run in (*self.games, *self.tables) for f in findings(run)]
        out += ["", "Findings:"] + [f"  {f}" for f in found or ["none"]]
        out.append(f"(took {self.seconds:.0f} s)")
        return out

    @staticmethod
    def storm_lines(run: Run) -> list[str]:
        table = run.tables[0]
        during = [
            p for p in run.presses
            if table.storm_end is not None and table.storm_end - (run.storm or 0) <= p.at
            and p.at <= table.storm_end
        ]  # fmt: skip
        answered = [p for p in during if p.answer is not None]
        refused = sum(1 for p in answered if p.answer and p.answer.refused)
        # a press made in the storm whose answer came after it (ANSWER_WAIT) still counts
        slowest = max((p.answer.at - p.at for p in answered if p.answer), default=math.nan)
        caught_up = math.nan
        if table.storm_end is not None and table.storm_present is not None:
            for drawing in run.fake.drawings.get(table.chat_key(), []):
                version = drawing.version
                if drawing.at >= table.storm_end and version and version >= table.storm_present:
                    caught_up = drawing.at - table.storm_end
                    break
        every = all(p.answer is not None for p in run.presses) and not any(
            "never answered" in p for p in run.problems
        )
        storm_429 = run.rate_limited.get("storm", 0)
        others = sum(run.rate_limited.values()) - storm_429
        out = [
            f"Storm: a Telegram group held {run.storm:g} s in mid-game (after {STORM_AFTER} boxes),"
            " strict limits",
            f"  presses during the storm: {len(during)}, answered {len(answered)} "
            f"(slowest {slowest:.2f} s), refused {refused}",
            f"  every press of the game answered: {'yes' if every else 'NO'} "
            f"({len(run.presses)} presses, game "
            f"{'finished' if table.finished else 'NOT finished'})",
            "  stored game consistent with the presses: "
            + ("yes" if not run.inconsistent else "NO: " + "; ".join(run.inconsistent[:3])),
            f"  the board showed the present {caught_up:.2f} s after the storm's end",
            f"  429s: {storm_429} of the storm, {others} others",
        ]
        return out + [f"  finding: {f}" for f in findings(run)]


async def limits(
    directory: Path,
    *,
    platforms: Sequence[str] = PLATFORMS,
    sizes: Sequence[int] = (20, 100),
    seconds: float = 30.0,
    game: bool = True,
    storm: float | None = 30.0,
    think: tuple[float, float] = THINK,
    seed: int = 1,
) -> Report:
    began = time.monotonic()
    report = Report()
    first: list[Any] = []
    if game:
        first += [measure(p, 1, s, directory, think=think, seed=seed)
                  for p in platforms for s in (True, False)]  # fmt: skip
    if storm is not None:
        first.append(measure("telegram", 1, True, directory, storm=storm, think=think, seed=seed))
    done = await asyncio.gather(*first)
    if storm is not None:
        report.storm = done.pop()
    report.games = list(done)
    for platform in platforms:
        for size in sizes:
            for strict in (True, False):
                report.tables.append(
                    await measure(
                        platform,
                        size,
                        strict,
                        directory,
                        seconds=seconds,
                        think=think,
                        seed=seed,
                    )
                )
    report.seconds = time.monotonic() - began
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="20,100", help="sizes, comma-separated (0: none)")
    parser.add_argument("--seconds", type=float, default=30.0, help="play per size")
    parser.add_argument("--platform", choices=PLATFORMS, action="append")
    parser.add_argument("--storm", type=float, default=30.0, help="seconds of the storm")
    parser.add_argument("--no-storm", action="store_true")
    parser.add_argument("--no-game", action="store_true", help="no single game to the end")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.tables.split(",") if int(n) > 0]
    with tempfile.TemporaryDirectory(prefix="general-limits-") as directory:
        report = asyncio.run(
            limits(
                Path(directory),
                platforms=args.platform or PLATFORMS,
                sizes=sizes,
                seconds=args.seconds,
                game=not args.no_game,
                storm=None if args.no_storm else args.storm,
                seed=args.seed,
            )
        )
    print("\n".join(report.lines()))


if __name__ == "__main__":
    main()
