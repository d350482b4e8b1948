"""SIGTERM in the middle of a flood of presses, on both fakes at once, to the real process: it
exits 0 within seconds; every press the platforms saw answered as carried out is stored, and
only those; no game is left half-written; nothing is logged as an error."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from adapters.i18n import translator
from tests.discord.kit import TOKEN, button, has_button
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeInteraction, FakeMember, FakeMessage
from tests.fakes.telegram import FakeChat, FakeTelegram, FakeUser
from tests.fakes.telegram import FakeMessage as FakeTgMessage
from tests.process import Bot, on_discord, on_telegram

TABLES = 3  # on each platform
SEED = "4"  # no table's first throw is a big general with these dice


async def start_bot(tg: FakeTelegram, dc: FakeDiscord, database: Path, log: Path) -> Bot:
    settings = {**on_telegram(tg), **on_discord(dc), "GENERAL_DATABASE": str(database)}
    return await Bot.start({**settings, "GENERAL_DICE_SEED": SEED}, log, timeout=30)


async def telegram_table(tg: FakeTelegram, n: int) -> tuple[FakeUser, FakeChat]:
    """A solo game thrown once: its dice have hold buttons."""
    person, chat = tg.user(2000 + n, f"Tess {n}"), tg.chat(-100600 - n, title=f"Flood {n}")
    await tg.send_message(person, chat, "/general start")
    for label in ("Start", "Roll", "|h0"):
        await tg.wait_for(lambda: bool(buttons(tg, chat, label)))  # noqa: B023
        if label != "|h0":
            query = await tg.press(person, buttons(tg, chat, label)[-1], label)
            await tg.wait_answer(query)
    return person, chat


def buttons(tg: FakeTelegram, chat: FakeChat, label: str) -> list[FakeTgMessage]:
    """The bot's messages with a button whose text (or, for "|h0", payload) has `label`."""
    return [
        m
        for m in tg.bot_messages(chat)
        if any(label in b.text or (b.callback_data or "").endswith(label) for b in m.buttons)
    ]


async def discord_table(dc: FakeDiscord, channel: FakeChannel, member: FakeMember) -> None:
    """A solo game thrown once: its dice have hold buttons."""
    started = await dc.slash(member, channel, "general", "start")
    await started.wait_response()
    for code in ("b", "r", "h0"):
        await dc.wait_for(
            lambda: any(has_button(m, code) for m in dc.channel_messages(channel))  # noqa: B023
        )
        if code != "h0":
            board = newest(dc, channel)
            pressed = await dc.press(member, board, custom_id=button(board, code).custom_id)
            await pressed.wait_response()


def hold_data(board: FakeTgMessage, die: int) -> str:
    (data,) = [
        b.callback_data for b in board.buttons if (b.callback_data or "").endswith(f"|h{die}")
    ]
    assert data is not None
    return data


def newest(dc: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    return [m for m in dc.channel_messages(channel) if m.buttons][-1]


def stored_holds(database: Path) -> dict[str, tuple[int, tuple[bool, ...], int, int]]:
    """Each game by channel: its hold_changed events, the dice held in the snapshot, the
    snapshot's version and its last event's version."""
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT g.channel, g.snapshot, g.version,"
            " (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id AND e.kind = 'hold_changed'),"
            " (SELECT MAX(version) FROM events e WHERE e.game_id = g.id) FROM games g"
        ).fetchall()
    return {
        channel: (holds, tuple(json.loads(snapshot)["turn"]["held"]), version, last)
        for channel, snapshot, version, holds, last in rows
    }


@pytest.mark.slow
async def test_sigterm_mid_flood_keeps_every_answered_press_and_nothing_else(
    tmp_path: Path,
) -> None:
    database, log = tmp_path / "general.db", tmp_path / "bot.log"
    async with FakeTelegram() as tg, FakeDiscord(token=TOKEN) as dc:
        guild = dc.guild("Flood club")
        bot = await start_bot(tg, dc, database, log)
        proc = bot.process
        try:
            tables = [await telegram_table(tg, n) for n in range(TABLES)]
            members = [dc.member(guild, f"Dora {n}") for n in range(TABLES)]
            channels = [dc.text_channel(guild, f"flood-{n}") for n in range(TABLES)]
            for channel, member in zip(channels, members, strict=True):
                await discord_table(dc, channel, member)

            queries: dict[int, list[str]] = {n: [] for n in range(TABLES)}
            interactions: dict[int, list[FakeInteraction]] = {n: [] for n in range(TABLES)}
            signalled = asyncio.Event()
            after_signal = 0

            async def flood_telegram(n: int) -> None:
                nonlocal after_signal
                person, chat = tables[n]
                board = [m for m in tg.bot_messages(chat) if m.buttons][-1]
                while proc.returncode is None:  # the dice in turn, as the board shows them now
                    board = tg.message(chat, board.message_id)
                    die = len(queries[n]) % 5
                    queries[n].append(await tg.press(person, board, data=hold_data(board, die)))
                    after_signal += signalled.is_set()
                    await asyncio.sleep(0.005)

            async def flood_discord(n: int) -> None:
                nonlocal after_signal
                while proc.returncode is None:  # the dice in turn, as the board shows them now
                    board = newest(dc, channels[n])
                    die = len(interactions[n]) % 5
                    custom_id = button(board, f"h{die}").custom_id
                    interactions[n].append(await dc.press(members[n], board, custom_id=custom_id))
                    after_signal += signalled.is_set()
                    await asyncio.sleep(0.005)

            flooding = [
                *(asyncio.create_task(flood_telegram(n)) for n in range(TABLES)),
                *(asyncio.create_task(flood_discord(n)) for n in range(TABLES)),
            ]
            await asyncio.sleep(1.0)
            proc.send_signal(signal.SIGTERM)
            signalled.set()
            stopped_at = time.monotonic()
            code = await asyncio.wait_for(proc.wait(), 15)
            took = time.monotonic() - stopped_at
            await asyncio.gather(*flooding)
            await asyncio.sleep(0.2)  # anything still on its way in has arrived
        finally:
            bot.kill()  # a failure above leaves no bot behind

        assert code == 0 and took < 15, (code, took)
        assert after_signal > 0, "the flood went on while the bot stopped"
        stored = stored_holds(database)
        for n, (_, chat) in enumerate(tables):
            answers = [tg.callback_queries[q] for q in queries[n]]
            # carried out: no answer, or the toast of the dice kept; refused: a reason
            applied = [a for a in answers if a.answered and (not a.text or a.text[0] in "🔒🔓")]
            toggled = [sum(a.data.endswith(f"|h{d}") for a in applied) % 2 == 1 for d in range(5)]
            held, held_now, version, last = stored[f"tg:{chat.id}:"]
            assert held == len(applied) > 0, (held, len(applied), len(answers))
            assert held_now == tuple(toggled) and version == last  # whole, not half-written
        for n, channel in enumerate(channels):
            pressed = interactions[n]
            applied_dc = [i for i in pressed if i.responded and not i.ephemeral_texts()]
            ids = [str(i.data.get("custom_id")) for i in applied_dc]
            toggled = [sum(c.endswith(f"|h{d}") for c in ids) % 2 == 1 for d in range(5)]
            held, held_now, version, last = stored[f"dc:{channel.id}:"]
            others = [(i.response and i.response.type, i.expired) for i in pressed]
            assert held == len(applied_dc) > 0, (held, len(applied_dc), len(pressed), others[-6:])
            assert held_now == tuple(toggled) and version == last
            for i in pressed:  # one that came while stopping is told so, and nothing changed
                said = i.ephemeral_texts()
                assert said in ([], [RESTARTING]) or stale(said), said
    text = log.read_text()
    assert " ERROR " not in text and "Traceback" not in text, text[-3000:]


RESTARTING = "The bot is restarting; nothing was changed. Press again in a few seconds."
# A press on a board behind the game: out of date, or what changed since (a die held already).
STALE = tuple(
    translator("en")(key, dice="\0", player="\0", round="\0").split("\0")[0]
    for key in ("error-stale", "error-stale-thrown", "error-stale-held", "error-stale-released")
)


def stale(said: list[str]) -> bool:
    return len(said) == 1 and said[0].startswith(STALE)
