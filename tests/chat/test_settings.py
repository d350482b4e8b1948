"""The settings screen and the language in force: only a screen that shows a setting may change
it, only administrators may, and each press cycles and saves it for the whole place."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import cards, payload, presses
from adapters.chat.surface import Place
from adapters.i18n import translator
from core.chat_settings import ChatSettings
from tests.chat.kit import ALICE, BOB, KEY, OTHER, Message, T, World, opened

HINTS = payload.setting_code("hints")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def screen(world: World) -> Message:
    """A settings screen as an administrator's `/general settings` showed it."""
    asked = await world.command(ALICE, "settings", admin=True)
    (card,) = asked.privately
    assert card == cards.Settings(ChatSettings())
    await world.platform.send(world.channel, card, T)
    return world.platform.messages[-1]


async def test_a_settings_payload_forged_onto_a_board_is_refused(world: World) -> None:
    """The board does not show that button: even an administrator's press is refused."""
    await world.command(ALICE, "start")
    board = await world.board()
    forged = world.pressing(board, ALICE, admin=True)
    await presses.press(world.tables, forged, HINTS)
    assert forged.said() == [T("error-bad-action")]
    assert forged.redrawn == [] and await world.settings() == ChatSettings()


@pytest.mark.parametrize("data", [None, "", "cfg|nonsense", "g1|zzzzzzzz|1|q", "x" * 200])
async def test_garbage_presses_are_refused(world: World, data: str | None) -> None:
    """A client can send anything; none of it is taken for a button."""
    message = await screen(world)
    exchange = world.pressing(message, ALICE, admin=True)
    await presses.press(world.tables, exchange, data)
    assert exchange.said() == [T("error-bad-action")] and await world.settings() == ChatSettings()


async def test_a_real_settings_press_by_a_member_is_refused(world: World) -> None:
    """The screen shows the button, but the presser is no administrator."""
    message = await screen(world)
    member = world.pressing(message, BOB)
    await presses.press(world.tables, member, HINTS)
    assert member.said() == [T("settings-admins-only", platform="testchat")]
    assert await world.settings() == ChatSettings() and message.edits == 0


async def test_an_administrator_cycles_a_setting_and_it_is_saved(world: World) -> None:
    """Hints on → off → on, each saved and shown on the screen itself."""
    message = await screen(world)
    admin = world.pressing(message, ALICE, admin=True)
    await presses.press(world.tables, admin, HINTS)
    assert (await world.settings()).hints is False
    assert admin.redrawn == [cards.Settings(ChatSettings(hints=False))]
    assert message.card == cards.Settings(ChatSettings(hints=False))
    again = world.pressing(message, ALICE, admin=True)
    await presses.press(world.tables, again, HINTS)
    assert await world.settings() == ChatSettings()


async def test_a_saved_setting_rules_the_next_game(world: World) -> None:
    """A table opened after hints were turned off refuses a hint."""
    message = await screen(world)
    await presses.press(world.tables, world.pressing(message, ALICE, admin=True), HINTS)
    await world.command(ALICE, "start")
    await world.press(await world.board(), ALICE, "b")
    assert (await world.game()).variants.hints is False
    world.roller.push((1, 2, 3, 4, 6))
    await world.press(await world.board(), ALICE, "r")
    hint = await world.command(ALICE, "hint")
    assert hint.said() == [T("error-hints-off")]


async def test_done_closes_the_screen(world: World) -> None:
    """ "Done" saves nothing more and says the settings are saved."""
    message = await screen(world)
    admin = world.pressing(message, ALICE, admin=True)
    await presses.press(world.tables, admin, payload.setting_code(payload.SETTINGS_DONE))
    assert admin.redrawn == [cards.Lines((T("settings-closed"),))]
    assert await world.settings() == ChatSettings()


async def test_the_settings_command_is_for_administrators(world: World) -> None:
    """A member asking for the screen is told who may open it."""
    member = await world.command(BOB, "settings")
    assert member.said() == [T("settings-admins-only", platform="testchat")]


async def test_channels_of_one_place_share_its_settings(world: World) -> None:
    """A Discord server's channels keep one set of settings."""
    world.platform.places.update({"-100": Place("server"), "-200": Place("server")})
    message = await screen(world)
    await presses.press(world.tables, world.pressing(message, ALICE, admin=True), HINTS)
    assert (await world.repository.chat_settings(KEY, "server")).hints is False
    other = await world.command(ALICE, "settings", channel=OTHER, admin=True)
    assert other.privately == [cards.Settings(ChatSettings(hints=False))]


async def test_an_answer_to_one_person_is_in_theirs_else_the_chats_else_the_places(
    world: World,
) -> None:
    """The same unknown word, answered privately in each language in force by turn."""
    ru, en = translator("ru"), translator("en")

    async def unknown(**switches: object) -> str:
        asked = await world.command(BOB, "frobnicate", **switches)
        (card,) = asked.privately
        assert isinstance(card, cards.Help) and card.topic == "help"
        return card.preface[0]

    assert await unknown() == en("chat-unknown", arg="frobnicate")
    assert await unknown(locale="ru-RU") == ru("chat-unknown", arg="frobnicate")
    world.platform.places["-100"] = Place("-100", "ru")
    assert await unknown() == ru("chat-unknown", arg="frobnicate")
    await world.repository.save_chat_settings(KEY, "-100", ChatSettings(language="en"))
    assert await unknown() == en("chat-unknown", arg="frobnicate")
    assert await unknown(locale="ru") == ru("chat-unknown", arg="frobnicate")
    _, voices = await world.tables.languages.of(world.channel)
    assert voices.table.locale == "en"  # while the chat sees English
    assert ru("chat-unknown", arg="x") != en("chat-unknown", arg="x")


async def test_a_new_language_shows_on_the_screen_at_once(world: World) -> None:
    """Cycling the language to Russian answers the same press in Russian."""
    message = await screen(world)
    language = payload.setting_code("language")
    await presses.press(world.tables, world.pressing(message, ALICE, admin=True), language)
    second = world.pressing(message, ALICE, admin=True)
    await presses.press(world.tables, second, language)
    assert (await world.settings()).language == "ru"
    assert second.redrawn_languages == ["ru"]
