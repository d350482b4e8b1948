"""A short game of General in a real browser on the fake Discord, in Russian: each player opens
their personal link from the board's "Open the table", a spectator the link /general table
gives; the pages, the chat and the database agree at every turn, and the spectator's page (its
motion left on) throws the dice and lands them on the bot's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser

from adapters.chat import payload
from adapters.i18n import translator
from core.boxes import Box
from core.dice import ScriptedRoller
from tests.discord.conftest import _track_handled, fake
from tests.discord.kit import RunningBot, live_board, press, running_bot, slash
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMember, FakeMessage
from tests.kit import LOT_ALICE_LOW
from tests.parallel import free_port
from tests.web.browser import REVIEW_MS, Screenshots, Table, agree

__all__ = ["_track_handled", "fake"]  # the fake Discord here, not the package's fake Telegram

RU = translator("ru")
NAMES = ("Анна", "Борис")


@pytest.fixture
async def dc(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[RunningBot]:
    """The bot on the fake Discord with its live table on a free port of 127.0.0.1."""
    guild = fake.guild("Клуб")
    channel = fake.text_channel(guild, "general")
    database, port = tmp_path / "general.db", free_port()
    web: dict[str, Any] = {"general_web_url": f"http://127.0.0.1:{port}/", "general_web_port": port}
    async with running_bot(fake, database, monkeypatch, **web) as (front, roller):
        assert isinstance(roller, ScriptedRoller)
        yield RunningBot(fake, roller, database, front, guild, channel)


async def personal_link(fake: FakeDiscord, member: FakeMember, board: FakeMessage) -> str:
    """ "Open the table" pressed: the link the bot answers with, privately."""
    pressed = await press(fake, member, board, payload.TABLE)
    (answer,) = pressed.messages
    assert answer.ephemeral
    (link,) = answer.buttons
    return str(link.url)


async def spectator_link(fake: FakeDiscord, member: FakeMember, channel: FakeChannel) -> str:
    asked = await slash(fake, member, channel, "table")
    assert asked.original is not None
    (link,) = asked.original.buttons
    return str(link.url)


@pytest.mark.slow
async def test_a_game_from_discords_personal_links(
    browser: Browser, dc: RunningBot, tmp_path: Path
) -> None:
    fake, channel, shots = dc.fake, dc.channel, Screenshots(tmp_path)
    anna, boris = (fake.member(dc.guild, name, locale="ru") for name in NAMES)
    vera = fake.member(dc.guild, "Вера", locale="ru")
    lobby = (await slash(fake, anna, channel, "start")).original
    assert lobby is not None
    await press(fake, boris, lobby, "j")
    table = (live_board(fake, channel).buttons[0].custom_id or "").split("|")[1]
    links = [await personal_link(fake, m, live_board(fake, channel)) for m in (anna, boris)]
    watching = await spectator_link(fake, vera, channel)
    assert all(f"?t={table}" not in link for link in links) and watching.endswith(f"?t={table}")
    annas, boriss, watcher = pages = await asyncio.gather(
        Table.open(browser, "ru-RU", links[0]),
        Table.open(browser, "ru-RU", links[1]),
        Table.open(browser, "ru-RU", watching, motion=True),
    )
    for page in pages:
        await page.page.wait_for_selector("[data-testid=lobby-player-1]")
        assert await page.page.locator("#lobby-title").inner_text() == RU("web-lobby")
    assert await watcher.pressable() == []
    await shots.take(annas, "discord-ru-lobby")
    dc.roller.push(LOT_ALICE_LOW)  # Anna starts
    await watcher.watch_landings()
    await annas.action("b")

    async def turn(page: Table, seat: int, box: str, points: int) -> None:
        """The box written from the page; then the pages, the chat's board of the turn and the
        database agree."""
        board = live_board(fake, channel)
        await page.score(box, seat)
        await fake.settle()
        stored = await agree(dc.database, table, *pages)
        assert stored.cells[Box(box).index][seat] == points
        assert await watcher.pressable() == []
        said = RU("turn-scored", name=NAMES[seat], points=points, box=RU(f"box-{box}"))
        assert said in fake.message(board.id).text

    # Anna: two fives kept, three dice thrown again, Fives 15.
    dc.roller.push([5, 5, 1, 2, 3])
    await annas.roll()
    assert await watcher.landing(1) == [5, 5, 1, 2, 3]
    await annas.hold(0)
    await annas.hold(1)
    dc.roller.push([5, 6, 6])
    await annas.roll()
    assert await watcher.landing(2) == [5, 5, 5, 6, 6] == await watcher.dice()
    assert await annas.outside() == []
    await shots.take(annas, "discord-ru-held")
    assert await annas.option("fives", 0) == 15
    await turn(annas, 0, "fives", 15)
    # Boris: a straight on the first throw, 25.
    dc.roller.push([2, 3, 4, 5, 6])
    await boriss.roll()
    assert await watcher.landing(3) == [2, 3, 4, 5, 6]
    await turn(boriss, 1, "straight", 25)
    # Anna: Sixes 18.
    dc.roller.push([6, 6, 6, 1, 2])
    await annas.roll()
    await turn(annas, 0, "sixes", 18)
    await shots.take(watcher, "discord-ru-sheet", whole=True)
    # Boris: a big general ends the game at once; he wins.
    dc.roller.push([4, 4, 4, 4, 4])
    await boriss.roll()
    for page in pages:
        chart = "[data-testid=chart] [data-testid=series-1]"
        await page.page.wait_for_selector(chart, timeout=REVIEW_MS)
    await agree(dc.database, table, *pages)
    end = await watcher.text("end")
    assert "Борис" in end and RU("web-finished").lower() in end.lower()
    assert await watcher.page.locator("[data-testid=chart] polyline").count() == 2
    assert await watcher.pressable() == []
    assert "action-m" in await boriss.pressable()
    await fake.settle()
    assert "Борис" in "\n".join(m.text for m in fake.channel_messages(channel)[-2:])
    await shots.take(boriss, "discord-ru-end", upto="[data-testid=legend]")
