"""Many chats and people: the bot process's RSS stays bounded however many it has met.

`uv run python -m bench.chats [--chats 100000] [--every 10000]`:

The real bot (`python -m bot`, Telegram) runs against the fake Bot API. One person opens a solo
game in a chat of its own; then, step by step, a new person in a new chat asks `/general help`
and presses Roll on that one game's board (refused: not their game), so each step brings one
more chat and one more person to every per-chat and per-person map (the chat layer's, the flood
limiter's, python-telegram-bot's). RSS (VmRSS) is read from /proc at ready and after every
`--every` chats; the figure is the growth from the first `--every` to the end.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.roundtrip import BotProcess, bot_env, quiet
from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram

CHATS = 100_000
EVERY = 10_000
WINDOW = 32  # updates in flight at once
ANSWER_WAIT = 30.0


class CountingTelegram(FakeTelegram):
    """The fake Bot API, counting the bot's messages and callback answers as they come."""

    def __init__(self) -> None:
        super().__init__()
        self.answers = 0
        self._answered = asyncio.Event()

    def _store(self, msg: FakeMessage) -> None:
        super()._store(msg)
        if msg.is_bot:
            self._count()

    async def _api_answerCallbackQuery(self, p: dict[str, Any]) -> Any:
        result = await super()._api_answerCallbackQuery(p)
        self._count()
        return result

    def _count(self) -> None:
        self.answers += 1
        self._answered.set()

    async def answered(self, count: int) -> None:
        """Wait until the bot has answered `count` times in all."""
        deadline = time.monotonic() + ANSWER_WAIT
        while self.answers < count:
            self._answered.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{count - self.answers} answers missing")
            await asyncio.wait_for(self._answered.wait(), left)


@dataclass
class ChatsReport:
    chats: int
    ready_mb: float = 0.0
    after: dict[int, float] = field(default_factory=dict)  # chats met → RSS (MB)
    peak_mb: float = 0.0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def growth_mb(self) -> float:
        """RSS at the end less RSS after the first step."""
        counts = sorted(self.after)
        return self.after[counts[-1]] - self.after[counts[0]] if counts else 0.0

    def lines(self) -> list[str]:
        steps = ", ".join(f"{n:,}: {mb:.0f}" for n, mb in sorted(self.after.items()))
        return [
            f"Chats: {self.chats:,} chats and people, each a /general help and a press on one "
            "board (RSS of the bot process, MB)",
            f"  at ready {self.ready_mb:.0f}; after {steps}; peak {self.peak_mb:.0f}",
            f"  growth from the first step to the end: {self.growth_mb:+.1f} MB",
            *(f"  problem: {p}" for p in self.problems),
            f"(took {self.seconds:.0f} s)",
        ]


async def open_board(fake: CountingTelegram) -> FakeMessage:
    """A solo game in a chat of its own: the board everybody presses."""
    host = fake.user(4_000_000, "Host")
    chat = fake.chat(-4_000_000, title="the board")
    await fake.send_message(host, chat, "/general start")
    lobby = await fake.wait_for(lambda: _live(fake, chat), ANSWER_WAIT)
    await fake.press(host, lobby, "Start")
    board: FakeMessage = await fake.wait_for(lambda: _live(fake, chat, "Roll"), ANSWER_WAIT)
    return board


def _live(fake: FakeTelegram, chat: FakeChat, label: str | None = None) -> FakeMessage | None:
    for message in reversed(fake.bot_messages(chat)):
        live = message.reply_markup and not message.deleted
        if live and (label is None or any(label in b.text for b in message.buttons)):
            return message
    return None


async def chats(count: int, directory: Path, every: int = EVERY) -> ChatsReport:
    began = time.monotonic()
    report = ChatsReport(count)
    fake = CountingTelegram()
    await fake.start()
    bot = BotProcess(
        "bot", bot_env(telegram=fake, database=directory / "general.db"), directory / "chats.log"
    )
    try:
        await bot.start()
        await bot.wait_ready()
        report.ready_mb = bot.memory_kb()[0] / 1024
        board = await open_board(fake)
        roll = board.find_button("Roll").callback_data
        assert roll is not None
        expected = fake.answers
        for number in range(count):
            if expected - fake.answers >= WINDOW:
                await fake.answered(expected - WINDOW // 2)
            person = fake.user(6_000_000 + number, f"P{number}")
            await fake.send_message(person, fake.chat(-6_000_000 - number), "/general help")
            await fake.press(person, board, data=roll)
            expected += 2
            if (number + 1) % every == 0 or number + 1 == count:
                await fake.answered(expected)
                report.after[number + 1] = bot.memory_kb()[0] / 1024
        await quiet(fake)
        report.peak_mb = bot.memory_kb()[1] / 1024
    finally:
        await bot.stop()
        await fake.stop()
    report.problems = bot.errors()[:5]
    report.seconds = time.monotonic() - began
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chats", type=int, default=CHATS)
    parser.add_argument("--every", type=int, default=EVERY, help="chats between RSS readings")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="general-bench-") as directory:
        report = asyncio.run(chats(args.chats, Path(directory), args.every))
    print("\n".join(report.lines()))


if __name__ == "__main__":
    main()
