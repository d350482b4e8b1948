"""`/general notify` without a platform: a person subscribes (and is written to at once, or told
how to let the bot write), takes it back, and hears privately, in the language they asked in,
of each table that opens in the chat, unless they sit at it already."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import cards
from adapters.i18n import translator
from core.identity import PlayerRef
from tests.chat.kit import ALICE, BOB, KEY, T, World, opened

CAROL = PlayerRef("33", "Carol")
RU = translator("ru")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


def written(world: World, person: PlayerRef) -> list[tuple[tuple[str, ...], str, str]]:
    """What the bot wrote to `person` privately: the lines, the link's label and url."""
    found = []
    for who, card, _ in world.platform.written:
        if who == person.id:
            assert isinstance(card, cards.Lines)
            link = card if isinstance(card, cards.Linked) else None
            found.append((card.lines, link.label if link else "", link.url if link else ""))
    return found


async def test_a_subscriber_is_told_of_each_new_table_in_their_language(world: World) -> None:
    world.platform.titles[world.channel.chat] = "The Club"
    asked = await world.command(BOB, "notify", locale="ru")
    assert asked.said() == [RU("notify-on")]
    confirmed = RU("notify-confirmed", where="The Club")
    assert written(world, BOB) == [((confirmed,), "", "")]
    again = await world.command(BOB, "notify", locale="ru")
    assert again.said() == [RU("notify-on-already")]
    await world.command(CAROL, "notify")  # in English, and she will host
    world.platform.written.clear()

    await world.command(CAROL, "start")
    lobby = await world.board()
    link = f"https://testchat.invalid/{world.channel.chat}/{lobby.id}"
    told = RU("notify-opened", host="Carol", where="The Club")
    assert written(world, BOB) == [((told,), RU("btn-join-table"), link)]
    assert written(world, CAROL) == []  # the host knows
    assert "Carol" in told and "The Club" in told and "{" not in told


async def test_someone_already_seated_hears_nothing_and_off_stops_it(world: World) -> None:
    await world.command(BOB, "notify")
    await world.command(CAROL, "notify")
    await world.command(CAROL, "notify", "off")
    world.platform.written.clear()
    await world.command(ALICE, "start")
    assert [lines for lines, _, _ in written(world, BOB)] == [
        (T("notify-opened-there", host="Alice"),)  # no name known for the chat
    ]
    assert written(world, CAROL) == []
    asked = await world.command(CAROL, "notify", "выкл", locale="ru")
    assert asked.said() == [RU("notify-off-already")]


async def test_where_the_bot_may_not_write_the_answer_says_how_to_let_it(world: World) -> None:
    world.platform.closed.add(BOB.id)
    asked = await world.command(BOB, "notify")
    (answer,) = asked.privately
    assert isinstance(answer, cards.Linked)
    assert answer.lines == (T("notify-on"), T("notify-blocked", platform="testchat"))
    assert answer.url == "https://testchat.invalid/bot?start=notify"
    assert answer.label == T("btn-open-private")
    subscribers = await world.service.subscriptions.subscribers(KEY, world.channel.chat)
    assert [s.player_id for s in subscribers] == [BOB.id]  # kept: he may open it later
    world.platform.closed.clear()
    await world.command(ALICE, "start")
    assert len(written(world, BOB)) == 1
