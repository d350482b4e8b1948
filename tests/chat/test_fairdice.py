"""The committed dice where players see them: the seal in the lobby and the first round's
boards (the whole of it a tap away), the seed in the final message, `/general verify`, the
chat's choice of the old dice, and no seed ever reaching a computer, a hint or the chances."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from adapters.chat import cards
from adapters.chat.verify import verified
from adapters.discord.draw import draw as discord_draw
from adapters.i18n import translator
from adapters.telegram.draw import draw as telegram_draw
from core.chat_settings import ChatSettings, DiceKind
from core.fairdice import short
from tests.chat.kit import ALICE, BOB, KEY, Message, T, World, opened, view_of
from tests.kit import LOT_ALICE_LOW

RU = translator("ru")
THROWS = [1, 2, 3, 4, 6] * 200  # never five of a kind: no big general ends the game
# Where a seed would let a player's side see a throw before it is thrown.
STRATEGY = ("core.strategy", "core.winplay", "core.chances", "core.distribution", "core.computer")


SEED = hashlib.sha256(b"solo 0").hexdigest()  # no first throw of its seat 0 is a big general


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """Scripted dice: for what does not check them."""
    async with opened(tmp_path) as fresh:
        yield fresh


@pytest.fixture
async def sealed(tmp_path: Path) -> AsyncIterator[World]:
    """The production roller's dice, committed to SEED."""
    async with opened(tmp_path, seeds=lambda: SEED) as fresh:
        yield fresh


async def solo_game(world: World) -> cards.Final:
    """Alice alone: ten turns of one throw, each written in the next box."""
    await world.command(ALICE, "start")
    await world.press(await world.board(), ALICE, "b")
    for box in range(10):
        board = await world.board()
        world.roller.push([2, 3, 3, 5, 6])
        await world.press(board, ALICE, "r")
        await world.press(await world.board(), ALICE, f"s{box}")
    (final,) = world.platform.of(cards.Final)
    assert isinstance(final.card, cards.Final)
    return final.card


async def test_the_seal_shows_first_and_the_seed_last(sealed: World) -> None:
    world = sealed
    await world.command(ALICE, "start")
    lobby = view_of((await world.board()).card)
    seal = lobby.commitment
    assert len(seal) == 64 and lobby.seed == ""
    # The lobby: its short form to compare by eye, the whole a tap away (a spoiler).
    (drawn,) = telegram_draw(T, cards.Board(lobby))
    assert f"🔐 Dice sealed: {short(seal)} · in full: <tg-spoiler>{seal}</tg-spoiler>" in drawn.text
    (drawn,) = discord_draw(RU, cards.Board(lobby))
    assert f"🔐 Кости запечатаны: {short(seal)} · полностью: ||{seal}||" in drawn.content
    await world.press(await world.board(), ALICE, "b")
    first = view_of((await world.board()).card)
    assert seal in telegram_draw(T, cards.Board(first))[0].text
    final = await solo_game_from_the_first_board(world)
    # The end reveals the seed whose SHA-256 is the seal shown before the first die.
    seed = final.view.seed
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == seal
    text = "\n".join(page.text for page in telegram_draw(T, final))
    assert f"🔓 The dice's seed: {seed}".replace("'", "&#x27;") in text
    assert short(seal) in text and "/general verify" in text
    assert seed in "\n".join(page.content or "" for page in discord_draw(RU, final))


async def solo_game_from_the_first_board(world: World) -> cards.Final:
    for box in range(10):
        board = await world.board()
        seal = view_of(board.card).commitment
        if box == 1 and seal:  # round 2: the seal has been in sight for a round
            assert seal not in telegram_draw(T, board.card)[0].text
        world.roller.push([2, 3, 3, 5, 6])
        await world.press(board, ALICE, "r")
        await world.press(await world.board(), ALICE, f"s{box}")
    (final,) = world.platform.of(cards.Final)
    assert isinstance(final.card, cards.Final)
    return final.card


async def test_verify_before_during_and_after_a_game(sealed: World, tmp_path: Path) -> None:
    world = sealed
    asked = await world.command(BOB, "verify")
    assert asked.publicly == [cards.Lines((T("verify-none"),))]
    await world.command(ALICE, "start")
    seal = (await world.game()).commitment
    asked = await world.command(BOB, "verify")
    assert asked.publicly == [cards.Lines((T("verify-playing", commitment=seal),))]
    await world.press(await world.board(), ALICE, "b")
    final = await solo_game_from_the_first_board(world)
    asked = await world.command(BOB, "verify")
    (said,) = asked.publicly
    assert isinstance(said, cards.Lines)
    assert said.lines[0] == T("verify-match", throws=10)
    assert said.lines[1:3] == (
        T("verify-sealed", commitment=seal),
        T("verify-seed", seed=final.view.seed),
    )
    assert f"python -m bot export {final.view.game_id}" in said.lines[3]
    russian = await verified(RU, world.service, world.channel)
    checked = "✅ Каждый бросок последней игры совпадает с зерном, запечатанным до первого броска"
    assert russian.lines[0] == f"{checked} (проверено: 10)."
    # One die of the stored log changed: the check names the throw, in both languages.
    with sqlite3.connect(tmp_path / "g.db") as db:
        sql = "SELECT seq, data FROM events WHERE data LIKE '%dice_rolled%' ORDER BY seq"
        seq, data = db.execute(sql).fetchall()[4]  # round 5's throw
        event = json.loads(data)
        shown = event["dice"]
        event["dice"] = [shown[0] % 6 + 1, *shown[1:]]
        db.execute("UPDATE events SET data = ? WHERE seq = ?", (json.dumps(event), seq))
    asked = await world.command(BOB, "verify")
    changed = "-".join(map(str, event["dice"]))
    where = T("verify-where-turn", round=5, name="Alice", throw=1)
    given = "-".join(map(str, shown))
    assert asked.publicly == [
        cards.Lines((T("verify-mismatch", n=5, where=where, shown=changed, given=given),))
    ]
    russian = await verified(RU, world.service, world.channel)
    assert russian.lines == (
        f"❌ Бросок 5 последней игры (раунд 5, Alice, бросок 1) показывает {changed}, "
        f"а зерно даёт {given}.",
    )


async def test_a_chat_may_keep_the_old_dice(world: World) -> None:
    plain = ChatSettings().changed("dice", "plain")
    assert plain.dice is DiceKind.PLAIN and ChatSettings().dice is DiceKind.SEALED
    await world.repository.save_chat_settings(KEY, world.channel.chat, plain)
    await world.command(ALICE, "start")
    lobby = view_of((await world.board()).card)
    assert lobby.commitment == "" and "🔐" not in telegram_draw(T, cards.Board(lobby))[0].text
    await world.press(await world.board(), ALICE, "b")
    final = await solo_game_from_the_first_board(world)
    assert final.view.seed == "" and "🔓" not in telegram_draw(T, final)[-1].text
    asked = await world.command(BOB, "verify")
    assert asked.publicly == [cards.Lines((T("verify-old-dice"),))]
    screen = telegram_draw(RU, cards.Settings(plain))[0]
    assert screen.markup is not None
    labels = [b["text"] for row in screen.markup["inline_keyboard"] for b in row]
    assert "Кости: старые (без печати)" in labels


@dataclass
class Trace:
    calls: list[str] = field(default_factory=list)  # every call into the modules traced
    found: list[str] = field(default_factory=list)  # those whose arguments held the secret


@contextmanager
def traced(modules: tuple[str, ...], secret: str) -> Iterator[Trace]:
    """Every call into `modules`, on any thread, its arguments searched for `secret` (through
    tuples, lists, dicts and dataclasses, as text or bytes)."""
    trace = Trace()

    def holds(value: Any, depth: int = 0) -> bool:
        if isinstance(value, str):
            return secret in value
        if isinstance(value, bytes):
            return secret in value.hex()
        if depth > 8:
            return False
        if isinstance(value, tuple | list | set | frozenset):
            return any(holds(item, depth + 1) for item in value)
        if isinstance(value, dict):
            return any(holds(item, depth + 1) for item in (*value.keys(), *value.values()))
        if is_dataclass(value) and not isinstance(value, type):
            return any(holds(getattr(value, f.name), depth + 1) for f in fields(value))
        return False

    def profile(frame: FrameType, event: str, _: object) -> None:
        module = frame.f_globals.get("__name__")
        if event == "call" and module in modules:
            name = f"{module}.{frame.f_code.co_name}"
            trace.calls.append(name)
            if frame.f_code.co_name != "__init__" and holds(list(frame.f_locals.values())):
                trace.found.append(name)

    sys.setprofile(profile)
    threading.setprofile(profile)
    try:
        yield trace
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]


async def test_no_computer_hint_or_chance_is_given_the_seed(world: World) -> None:
    """A whole game against the Grandmaster and a Master, Alice asking for a hint at every
    turn and the chances now and then: the strategy is called thousands of times, and no
    argument of any call holds the game's seed (which the store holds all along)."""
    await world.command(ALICE, "start")
    lobby = await world.board()
    await world.press(lobby, ALICE, "ag")
    await world.press(lobby, ALICE, "am")
    seed = (await world.repository.active_game(world.channel)).seed
    assert len(seed) == 64
    world.roller.push([*LOT_ALICE_LOW, 6, 6, 6, 6, 6, *THROWS])  # Alice starts, the lot
    with traced(STRATEGY, seed) as trace:
        await world.press(lobby, ALICE, "b")
        for _ in range(10):
            board = await alice_to_move(world)
            await world.press(board, ALICE, "r")
            await world.command(ALICE, "hint")
            await world.command(BOB, "chances")
            board = await world.board()
            boxes = [code.rsplit("|", 1)[1] for code in board.buttons if "|s" in code]
            await world.press(board, ALICE, boxes[0])
            await world.tables.clock.wake_computers(world.channel)
        for _ in range(3000):  # the final message, once the computers' last turns are told
            if world.platform.of(cards.Final):
                break
            await asyncio.sleep(0.01)
    assert world.platform.of(cards.Final), "the game ended"
    modules = {call.rsplit(".", 1)[0] for call in trace.calls}
    assert {"core.strategy", "core.winplay", "core.chances", "core.computer"} <= modules
    assert len(trace.calls) > 1000
    assert sorted(set(trace.found)) == []


async def alice_to_move(world: World) -> Message:
    """The board of Alice's turn, once the computers before her have played theirs."""
    for _ in range(3000):
        board = await world.board()
        current = view_of(board.card).current
        if current is not None and current.id == ALICE.id:
            return board
        await world.tables.clock.wake_computers(world.channel)
        await asyncio.sleep(0.01)
    raise AssertionError("Alice's turn never came")
