"""The live table opened from the chat layer: the boards' "Open the table" row where links are
set, its press (a personal link signed for this person at this table, or the Activity launched),
and /general table (anyone's link to watch); with no links, none of it."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from adapters.chat import cards, payload
from adapters.chat.layout import Message, Shape
from adapters.chat.layout_cards import of
from adapters.chat.weblinks import WebLinks
from adapters.i18n import translator
from adapters.web.auth import AuthError, Kind, Signer
from core.identity import PlayerRef
from tests.chat.kit import ALICE, BOB, CHANNEL, World, opened
from tests.kit import LOT_ALICE_LOW

BASE = "https://table.example.org/general/"
SIGNER = Signer.derived("123:telegram-test-token", "discord-test-token")
LINKS = WebLinks(BASE, SIGNER)
CAROL = PlayerRef("33", "<b>Carol</b> & co")  # not seated anywhere
SHAPE = Shape(
    "test", typed=True, boxes=2, computers=2, settings=1, start_by_join=False, welcome_menu=True
)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        fresh.tables.links = LINKS
        yield fresh


async def started(world: World) -> str:
    """Alice and Bob at a game in play; its id."""
    await world.command(ALICE, "start")
    await world.command(BOB, "join")
    world.roller.push(LOT_ALICE_LOW)
    await world.press(await world.board(), ALICE, "b")
    return (await world.game()).id


def token_of(url: str) -> str:
    parts = urlsplit(url)
    assert url.startswith(BASE) and parts.query.startswith("k=")
    (token,) = parse_qs(parts.query)["k"]
    return token


def table_codes(message: Message) -> list[str]:
    return [
        b.payload.rsplit("|", 1)[1]
        for row in message.rows
        for b in row
        if b.payload and b.payload.endswith(payload.TABLE_END)
    ]


async def test_the_press_gives_the_presser_a_link_of_their_own_for_ten_minutes(
    world: World,
) -> None:
    await started(world)
    before = time.time()
    # The platform could launch an Activity, but the application is set up as none.
    pressed = world.pressing(await world.board(), BOB, whispers=True, activity=True)
    await world.send(pressed, payload.TABLE)
    (card,) = pressed.privately
    assert isinstance(card, cards.TableLink) and card.minutes == 10
    grant = SIGNER.open(token_of(card.url), kind=Kind.LINK, now=time.time())
    assert (grant.table, grant.player_id, grant.name) == (str(CHANNEL), BOB.id, BOB.name)
    assert before + 600 <= grant.expires <= time.time() + 600
    with pytest.raises(AuthError):  # it expires
        SIGNER.open(token_of(card.url), kind=Kind.LINK, now=grant.expires)
    with pytest.raises(AuthError):  # and is not a session
        SIGNER.open(token_of(card.url), kind=Kind.SESSION, now=time.time())
    with pytest.raises(AuthError):  # nor another bot's
        Signer.derived("another-token").open(token_of(card.url), kind=Kind.LINK, now=before)
    assert world.platform.messages[-1].card != card  # nothing in the chat
    assert pressed.launched == 0


async def test_someone_not_seated_gets_a_link_too(world: World) -> None:
    """They may watch; what they may do there is the page's server's to decide."""
    await started(world)
    pressed = world.pressing(await world.board(), CAROL, whispers=True)
    await world.send(pressed, payload.TABLE)
    (card,) = pressed.privately
    assert isinstance(card, cards.TableLink)
    grant = SIGNER.open(token_of(card.url), kind=Kind.LINK, now=time.time())
    assert (grant.player_id, grant.name) == (CAROL.id, CAROL.name)


async def test_the_link_is_never_said_where_it_cannot_be_said_privately(world: World) -> None:
    """Without a private way to the person (Telegram, their chat with the bot not open), the
    link is not posted for all to see: they are told to open that chat."""
    await started(world)
    messages = len(world.platform.messages)
    pressed = world.pressing(await world.board(), BOB, locale="ru")
    await world.send(pressed, payload.TABLE)
    assert pressed.said() == [translator("ru")("table-write-to-me")]
    assert pressed.directly == [] and len(world.platform.messages) == messages
    opened_chat = world.pressing(await world.board(), BOB, dm=True)
    await world.send(opened_chat, payload.TABLE)
    (card,) = opened_chat.directly
    assert isinstance(card, cards.TableLink) and card.minutes == 10


async def test_an_activity_is_launched_instead_where_the_platform_can(world: World) -> None:
    await started(world)
    world.tables.links = WebLinks(BASE, SIGNER, activity=True)
    pressed = world.pressing(await world.board(), BOB, whispers=True, activity=True)
    await world.send(pressed, payload.TABLE)
    assert pressed.launched == 1 and pressed.privately == []
    cannot = world.pressing(await world.board(), BOB, whispers=True)  # no Activity there
    await world.send(cannot, payload.TABLE)
    assert isinstance(cannot.privately[0], cards.TableLink)


async def test_the_press_changes_nothing_at_the_table(world: World) -> None:
    await started(world)
    game = await world.game()
    await world.send(world.pressing(await world.board(), ALICE, whispers=True), payload.TABLE)
    assert await world.game() == game


async def test_an_old_button_after_the_links_are_gone_says_so(world: World) -> None:
    await started(world)
    world.tables.links = None
    pressed = world.pressing(await world.board(), BOB, whispers=True)
    await world.send(pressed, payload.TABLE)
    assert pressed.said() == [translator("en")("table-off")]


@pytest.mark.parametrize("locale", ["en", "ru"])
async def test_general_table_gives_anyones_link_to_watch(world: World, locale: str) -> None:
    game_id = await started(world)
    asked = await world.command(CAROL, "table", locale=locale)
    link = cards.TableLink(f"{BASE}?t={game_id}")
    assert asked.publicly == [link] and asked.privately == []
    t = translator(locale)
    drawn = of(t, link, SHAPE)
    assert isinstance(drawn, Message)
    assert [line.spans[0].text for line in drawn.lines] == [t("table-spectator"), link.url]
    (row,) = drawn.rows
    assert [(b.label, b.url) for b in row] == [(t("btn-table"), link.url)]


async def test_between_games_general_table_gives_the_last_ones_to_replay(world: World) -> None:
    await world.command(ALICE, "start")
    await world.press(await world.board(), ALICE, "b")
    game_id = (await world.game()).id
    world.roller.push([3, 3, 3, 3, 3])
    await world.press(await world.board(), ALICE, "r")  # a big general ends it at once
    assert await world.service.game(CHANNEL) is None
    asked = await world.command(BOB, "table")
    link = cards.TableLink(f"{BASE}?t={game_id}", replay=True)
    assert asked.publicly == [link]
    drawn = of(translator("ru"), link, SHAPE)
    assert isinstance(drawn, Message)
    assert drawn.lines[0].spans[0].text == translator("ru")("table-replay")


@pytest.mark.parametrize("locale", ["en", "ru"])
async def test_general_table_without_a_game_or_links_says_so(world: World, locale: str) -> None:
    t = translator(locale)
    asked = await world.command(BOB, "table", locale=locale)
    assert asked.said() == [t("table-none")] and asked.publicly == []
    world.tables.links = None
    await started(world)
    asked = await world.command(BOB, "table", locale=locale)
    assert asked.said() == [t("table-off")] and asked.publicly == []


async def test_the_boards_carry_the_button_only_where_the_platform_offers_it(
    world: World,
) -> None:
    await started(world)
    game = await world.game()
    board = (await world.board()).card
    assert isinstance(board, cards.Board | cards.Redrawn)
    t = translator("en")
    offered = of(t, board, Shape(**{**SHAPE.__dict__, "table": True}))
    plain = of(t, board, SHAPE)
    assert isinstance(offered, Message) and isinstance(plain, Message)
    assert offered.rows[:-1] == plain.rows and table_codes(plain) == []
    (last,) = offered.rows[-1:]
    assert [(b.label, b.payload) for b in last] == [
        (t("btn-table"), payload.encode(game.id, game.version, payload.TABLE))
    ]
    decoded = payload.decode(last[0].payload)
    assert decoded is not None and decoded.code == payload.TABLE
    assert payload.table_of(last[0].payload) == game.id
    assert payload.table_of(payload.encode(game.id, game.version, "r")) is None


def test_the_links() -> None:
    links = WebLinks(BASE, SIGNER, mini_app="https://t.me/general_bot/table")
    assert links.spectator("abcdefgh") == f"{BASE}?t=abcdefgh"
    assert links.launch("abcdefgh") == "https://t.me/general_bot/table?startapp=abcdefgh"
    assert LINKS.launch("abcdefgh") is None
    url = links.personal(CHANNEL, ALICE, 1000.0, "pt-BR")
    grant = SIGNER.open(token_of(url), kind=Kind.LINK, now=1000.0)
    assert grant.expires == 1600.0 and grant.locale == "pt-BR" and len(url) < 500
    for odd in (None, "x" * 40, "ру"):  # none told, or nothing a platform sends: the table's
        url = links.personal(CHANNEL, ALICE, 1000.0, odd)
        assert SIGNER.open(token_of(url), kind=Kind.LINK, now=1000.0).locale == ""
