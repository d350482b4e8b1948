"""A whole game of General in a real browser on the fake Telegram: Alice and Bob play from the
Mini App page, Carol from the group's buttons, a spectator watches a third page; at every
turn's end the pages, the chat and the database agree, and a turn played on the page edits the
group's chat once."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
from playwright.async_api import Browser

from adapters.i18n import translator
from core.boxes import Box
from tests.fakes.telegram import FakeChat, FakeTelegram, FakeUser
from tests.telegram.kit import RunningBot, live_board, press, to_move
from tests.web.browser import DARK, LIGHT, REVIEW_MS, Screenshots, Table, agree, mini_app_url
from tests.web.kit import game_id, launch_data

EN = translator("en")
ALICE, BOB, CAROL = 1001, 1002, 1003
# The lot: Alice 6, Bob 29, Carol 26, so Alice starts and the seats stay in joining order.
LOT = [1, 1, 1, 1, 2, 6, 6, 6, 6, 5, 5, 5, 5, 5, 6]


@dataclass(frozen=True)
class Turn:
    """One scripted turn: the first throw, the dice then held and what the rest show, the box
    written and its points (worked out by hand from RULES.md)."""

    first: tuple[int, ...]
    box: str
    points: int
    hold: tuple[int, ...] = ()
    second: tuple[int, ...] = ()


T = Turn
# Each player's ten turns, round by round. No first throw is five of a kind (a big general
# would end the game).
PLAN: tuple[tuple[Turn, ...], ...] = (
    (  # Alice, from the page: every box in order, three of them after keeping dice
        T((1, 1, 2, 3, 4), "ones", 3, (0, 1), (1, 5, 6)),
        T((2, 2, 2, 3, 4), "twos", 6),
        T((3, 3, 1, 2, 5), "threes", 12, (0, 1), (3, 3, 6)),
        T((4, 4, 4, 1, 2), "fours", 12),
        T((5, 5, 5, 6, 6), "fives", 15),
        T((6, 6, 6, 1, 2), "sixes", 18),
        T((2, 3, 4, 5, 6), "straight", 25),
        T((2, 2, 5, 5, 5), "full_house", 35),
        T((3, 3, 3, 3, 1), "four", 45),
        T((4, 4, 4, 4, 1), "general", 60, (0, 1, 2, 3), (4,)),
    ),
    (  # Bob, from the page: the combinations first, a general scratched
        T((1, 3, 4, 5, 6), "straight", 25),
        T((6, 6, 6, 6, 2), "four", 45),
        T((4, 4, 4, 6, 6), "full_house", 35),
        T((2, 2, 2, 2, 5), "general", 0),
        T((1, 2, 3, 4, 4), "ones", 1),
        T((2, 2, 3, 3, 6), "twos", 6, (0, 1), (2, 5, 5)),
        T((3, 1, 1, 5, 6), "threes", 3),
        T((4, 4, 1, 1, 6), "fours", 8),
        T((5, 5, 5, 5, 1), "fives", 20),
        T((6, 6, 6, 1, 2), "sixes", 18),
    ),
    (  # Carol, from the chat's buttons: one throw and a box
        T((6, 6, 6, 2, 3), "sixes", 18),
        T((5, 5, 2, 3, 1), "fives", 10),
        T((4, 4, 4, 4, 2), "fours", 16),
        T((3, 3, 3, 2, 2), "threes", 9),
        T((2, 2, 1, 3, 6), "twos", 4),
        T((1, 1, 1, 2, 6), "ones", 3),
        T((1, 1, 3, 4, 5), "straight", 25),
        T((6, 6, 1, 1, 1), "full_house", 35),
        T((2, 2, 2, 2, 6), "four", 45),
        T((3, 4, 5, 6, 6), "general", 0),
    ),
)
NAMES = ("Alice", "Bob", "Carol")


def result(name: str, turn: Turn) -> str:
    """The line the chat's board shows for a finished turn."""
    box = EN(f"box-{turn.box}")
    if turn.points:
        return EN("turn-scored", name=name, points=turn.points, box=box)
    return EN("turn-scratched", name=name, box=box)


def edits(fake: FakeTelegram, group: FakeChat) -> int:
    """Every edit of the bot's messages in the group so far."""
    return sum(m.edits for m in fake.bot_messages(group))


async def on_the_page(
    web: RunningBot, page: Table, seat: int, turn: Turn, picture: Screenshots | None = None
) -> None:
    """A turn played by tapping: Roll, the dice kept, Roll again, the box. With `picture`, the
    kept dice are photographed (seen whole on the phone's screen first)."""
    web.roller.push(list(turn.first))
    await page.roll()
    assert await page.dice() == list(turn.first)
    if turn.hold:
        for die in turn.hold:
            await page.hold(die)
        web.roller.push(list(turn.second))
        await page.roll()
        if picture is not None:
            assert await page.outside() == []
            await picture.take(page, "telegram-en-held")
    assert await page.option(turn.box, seat) == turn.points
    await page.score(turn.box, seat)


async def in_the_chat(web: RunningBot, group: FakeChat, carol: FakeUser, turn: Turn) -> None:
    """A turn played with the group board's buttons: Roll, then the box."""
    fake = web.fake
    web.roller.push(list(turn.first))
    await press(fake, carol, live_board(fake, group), EN("btn-roll-first"))
    label = EN("btn-box", box=EN(f"box-{turn.box}"), points=turn.points)
    await press(fake, carol, live_board(fake, group), label)


@pytest.mark.slow
async def test_a_whole_game_from_the_mini_app_the_chat_and_a_spectator(
    browser: Browser, web: RunningBot, tmp_path: Path
) -> None:
    fake, shots = web.fake, Screenshots(tmp_path)
    people = [fake.user(ALICE + seat, name) for seat, name in enumerate(NAMES)]
    alice, carol = people[0], people[2]
    group = fake.chat(-100500, type="supergroup", title="Dice night")
    await fake.send_message(alice, group, "/general start")
    await fake.settle()
    table = game_id(live_board(fake, group))
    base = str(web.settings.general_web_url)

    def launched(user: int, name: str) -> str:
        return launch_data(fake.token, user, name, start_param=table)

    pages = await asyncio.gather(
        Table.open(browser, "en-GB", mini_app_url(base, launched(ALICE, "Alice"), LIGHT)),
        Table.open(browser, "en-US", mini_app_url(base, launched(BOB, "Bob"), DARK)),
        Table.open(browser, "en-GB", f"{base}?t={table}"),
    )
    alices, bobs, watcher = pages

    # The lobby: Bob joins from his page, Carol from the chat, Alice starts from hers.
    await bobs.action("j")
    await press(fake, carol, live_board(fake, group), "Join")
    for page in pages:
        await page.page.wait_for_selector("[data-testid=lobby-player-2]")
    assert await watcher.pressable() == []
    assert "Dice sealed" in await watcher.page.locator("[data-testid=seal]").inner_text()
    await shots.take(alices, "telegram-en-lobby")
    web.roller.push(LOT)
    await alices.action("b")
    await fake.settle()

    for number in range(30):
        seat, round_ = number % 3, number // 3
        turn = PLAN[seat][round_]
        await fake.wait_for(partial(to_move, fake, group, people[seat]))
        board = live_board(fake, group)
        edited, sent = edits(fake, group), len(fake.bot_messages(group))
        if seat == 2:
            await in_the_chat(web, group, carol, turn)
        else:  # Alice's threes in round 3 photographed: two kept, the third thrown
            picture = shots if number == 6 else None
            await on_the_page(web, (alices, bobs)[seat], seat, turn, picture)
        await fake.settle()
        stored = await agree(web.database, table, *pages)
        assert stored.cells[Box(turn.box).index][seat] == turn.points
        assert stored.totals[seat] == sum(t.points for t in PLAN[seat][: round_ + 1])
        assert result(NAMES[seat], turn) in str(fake.message(group, board.message_id).plain_text)
        assert await watcher.pressable() == []
        if seat < 2:  # the turn's result, once; then the next player's board
            assert edits(fake, group) - edited == 1, number
            assert len(fake.bot_messages(group)) - sent == 1, number
        if number == 27:
            await shots.take(bobs, "telegram-en-sheet", whole=True)

    # The end: its lines, the review, the chart, and the rematch for the players only.
    for page in pages:
        chart = "[data-testid=chart] [data-testid=series-2]"
        await page.page.wait_for_selector(chart, timeout=REVIEW_MS)
    stored = await agree(web.database, table, *pages)
    assert stored.totals == tuple(sum(t.points for t in turns) for turns in PLAN) == (231, 161, 165)
    end = await watcher.text("end")
    assert "Alice" in end and "231" in end
    await fake.settle()
    assert "231" in "\n".join(str(m.plain_text) for m in fake.bot_messages(group)[-2:])
    assert await watcher.page.locator("#review-lines li").count() > 0
    series = watcher.page.locator("[data-testid=chart] polyline")
    assert await series.count() == 3
    assert await watcher.pressable() == []
    assert "action-m" in await alices.pressable()
    checkable = watcher.page.locator("[data-testid=seal-file]")  # the seed and the dice file
    assert await checkable.get_attribute("href") == f"api/dice?game={table}"
    seed = await watcher.page.locator("#seal-seed").text_content() or ""
    assert re.search(r"seed: [0-9a-f]{64}", seed), seed
    await shots.take(alices, "telegram-en-end", upto="[data-testid=legend]")
    await alices.action("m")
    for page in pages:  # every page follows to the rematch's lobby, the chat too
        await page.page.wait_for_selector("[data-testid=lobby-player-2]")
    await fake.settle()
    assert game_id(live_board(fake, group)) != table
