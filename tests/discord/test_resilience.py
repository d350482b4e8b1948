"""Faults: a 429 on an edit, a dropped gateway, and a `python -m bot` process SIGKILLed mid-game
whose successor carries on from the old message's buttons."""

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

from tests.discord.kit import (
    TOKEN,
    RunningBot,
    bot_messages,
    button,
    has_button,
    live_board,
    press,
    slash,
)
from tests.fakes.discord import (
    UPDATE_MESSAGE,
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeMember,
    FakeMessage,
)

ROOT = Path(__file__).resolve().parents[2]
LOT_ALICE_LOW = [1, 1, 1, 1, 2, 6, 6, 6, 6, 5]
# A bot process's start, at most: under four test workers on two cores one took over 15 s.
STARTED = 30.0
MENTION = re.compile(r"<@(\d+)>'s turn · round (\d+)/10 · throw (\d)/3")


async def test_a_rate_limited_edit_and_send_are_retried(dc: RunningBot) -> None:
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    bob = fake.member(dc.guild, "Bob")
    lobby = (await slash(fake, alice, dc.channel, "start")).original
    assert lobby is not None
    # /general join answers, then redraws the lobby with a channel edit: that edit gets a 429.
    fake.fail_next("PATCH", "/channels/*/messages/*", status=429, retry_after=0.05)
    joined = await slash(fake, bob, dc.channel, "join")
    assert joined.texts() == ["Bob sat down at the table."]
    await fake.wait_for(lambda: "Seated (2): Alice, Bob" in lobby.content)
    patches = [r.status for r in fake.requests if r.method == "PATCH"]
    assert patches[-2:] == [429, 200]
    # The first turn's new message gets a 429 too.
    fake.fail_next("POST", "/channels/*/messages", status=429, retry_after=0.05)
    dc.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, lobby, "b")
    board = await fake.wait_for(lambda: [m for m in bot_messages(fake, dc.channel) if m.buttons])
    assert f"<@{alice.id}>'s turn" in board[-1].content
    posts = [r.status for r in fake.requests if r.method == "POST" and "/channels/" in r.path]
    assert posts[-2:] == [429, 200]


async def test_play_continues_after_a_gateway_reconnect(dc: RunningBot) -> None:
    fake = dc.fake
    solo = fake.member(dc.guild, "Solo")
    lobby = (await slash(fake, solo, dc.channel, "start")).original
    assert lobby is not None
    await press(fake, solo, lobby, "b")
    board = live_board(fake, dc.channel)
    await fake.drop_gateway()
    # Pressed while the bot is away: the press waits in the session and is replayed on RESUME.
    dc.roller.push([3, 3, 3, 1, 2])
    pressed = await press(fake, solo, board, "r")
    assert pressed.response is not None and pressed.response.type == UPDATE_MESSAGE
    assert "throw 1/3" in board.content
    assert (fake.identifies, fake.resumes) == (1, 1)
    await fake.drop_gateway(code=4000)  # a close frame this time
    await press(fake, solo, board, "s2")
    assert "Solo wrote 9 in Threes." in board.content
    assert "round 2/10" in live_board(fake, dc.channel).content
    assert fake.resumes == 2


# ---------------------------------------------------------------------------- a real process


class BotProcess:
    """`python -m bot` with the Discord front end pointed at the fake; its log is kept."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.log = ""
        self._ready = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, fake: FakeDiscord, database: Path) -> BotProcess:
        env = {
            **os.environ,
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE_URL": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DISCORD_GUILD_ID": "",
            "TELEGRAM_TOKEN": "",  # an empty token is no token, even over .env
            "GENERAL_DATABASE": str(database),
            "GENERAL_DICE_SEED": "4",
            "GENERAL_LANGUAGE": "en",
            "GENERAL_LOG_LEVEL": "INFO",
            "GENERAL_FLOOD_BURST": "10000",  # the test presses far faster than people
            "GENERAL_FLOOD_RATE": "10000",
            "NO_PROXY": "127.0.0.1,localhost",
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot",
            cwd=ROOT, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        return cls(proc)

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for line in self.proc.stdout:
            self.log += line.decode(errors="replace")
            if " bot: ready" in self.log:
                self._ready.set()

    async def ready(self) -> None:
        """Wait for the bot's ready line; a bot that never says it is killed (and its pipe
        read to the end) before the test fails, so nothing of it outlives the test."""
        waiter = asyncio.create_task(self._ready.wait())
        await asyncio.wait(
            {waiter, self._reader}, timeout=STARTED, return_when=asyncio.FIRST_COMPLETED
        )
        waiter.cancel()
        if not self._ready.is_set() and self.proc.returncode is None:
            await self.kill()
        assert self._ready.is_set(), f"the bot did not become ready:\n{self.log[-3000:]}"

    async def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        await self._reader

    async def terminate(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.proc.wait(), 10)
        await self._reader
        return code

    def errors(self) -> list[str]:
        return [line for line in self.log.splitlines() if " ERROR " in line]


async def remote_press(
    fake: FakeDiscord,
    member: FakeMember,
    message: FakeMessage,
    code: str | None = None,
    *,
    custom_id: str | None = None,
) -> FakeInteraction:
    """A press answered by another process: answered, then the fake quiet for a while."""
    interaction = await fake.press(
        member, message, custom_id=custom_id or button(message, code or "").custom_id
    )
    await interaction.wait_response()
    await fake.settle()
    return interaction


async def remote_slash(
    fake: FakeDiscord, member: FakeMember, channel: FakeChannel, sub: str
) -> FakeInteraction:
    interaction = await fake.slash(member, channel, "general", sub)
    await interaction.wait_response()
    await fake.settle()
    return interaction


def board_or_end(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage | None:
    """The live board, or the final message once the game is over (None: neither yet)."""
    messages = bot_messages(fake, channel)
    if messages and "The game is over." in messages[-1].content:
        return messages[-1]  # its one button is Rematch
    boards = [m for m in messages if m.buttons]
    return boards[-1] if boards else None


def current_member(board_content: str, members: list[FakeMember]) -> FakeMember:
    match = MENTION.search(board_content)
    assert match, board_content
    return next(m for m in members if m.id == match.group(1))


async def play_on(fake: FakeDiscord, channel: FakeChannel, members: list[FakeMember]) -> None:
    """Roll once and score the first open box, turn after turn, until the game is over."""
    for _ in range(100):
        board = await fake.wait_for(lambda: board_or_end(fake, channel))
        if "The game is over." in board.content:
            return
        member = current_member(board.content, members)
        if has_button(board, "h0") or not has_button(board, "r"):  # dice showing: score
            first_box = next(b for b in board.buttons if " · " in (b.label or ""))
            await remote_press(fake, member, board, custom_id=first_box.custom_id)
        else:
            await remote_press(fake, member, board, "r")
    raise AssertionError("the game did not end")


def stored_game(database: Path) -> dict[str, object]:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT snapshot FROM games ORDER BY created_at DESC LIMIT 1").fetchone()
    return json.loads(row[0])  # type: ignore[no-any-return]


@pytest.mark.slow
async def test_sigkill_mid_game_then_the_old_buttons_carry_on(tmp_path: Path) -> None:
    database = tmp_path / "general.db"
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.guild("Dice club")
        channel = fake.text_channel(guild, "general")
        alice, bob = fake.member(guild, "Alice"), fake.member(guild, "Bob")
        first = await BotProcess.start(fake, database)
        try:
            await first.ready()
            lobby = (await remote_slash(fake, alice, channel, "start")).original
            assert lobby is not None
            await remote_press(fake, bob, lobby, "j")
            await remote_press(fake, alice, lobby, "b")
            board = await fake.wait_for(lambda: board_or_end(fake, channel))
            player = current_member(board.content, [alice, bob])
            await remote_press(fake, player, board, "r")
            assert "throw 1/3" in board.content
            shown = stored_game(database)
            await fake.settle()
        finally:
            await first.kill()
        assert first.errors() == [], first.log
        assert stored_game(database) == shown  # the throw was saved before it was shown

        second = await BotProcess.start(fake, database)
        try:
            await second.ready()
            # The board sent by the killed process: its buttons reach the new process.
            first_box = next(b for b in board.buttons if " · " in (b.label or ""))
            scored = await remote_press(fake, player, board, custom_id=first_box.custom_id)
            assert scored.response is not None and scored.response.type == UPDATE_MESSAGE
            assert board.buttons == []
            assert "wrote" in board.content or "scratched" in board.content
            following = await fake.wait_for(lambda: board_or_end(fake, channel))
            assert following is not board
            other = bob if player is alice else alice
            assert f"<@{other.id}>'s turn · round 1/10" in following.content
            assert button(following, "r").label == "🎲 Roll the dice"
            await play_on(fake, channel, [alice, bob])
            assert await second.terminate() == 0
        finally:
            if second.proc.returncode is None:
                await second.kill()
        assert second.errors() == [], second.log
        final = bot_messages(fake, channel)[-1]
        assert "The game is over." in final.content and "**Score sheet**" in final.content
        assert stored_game(database)["phase"] == "finished"
        await fake.settle()
        fake.assert_clean()
