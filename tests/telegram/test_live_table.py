"""The live table opened from Telegram: a group's lobby and boards link to the Mini App (a
`web_app` button is refused in a group), a private chat's open the page in Telegram itself, and
/general table gives anyone the link to watch; with no web settings, none of it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from adapters.i18n import translator
from bot.settings import Settings
from core.dice import ScriptedRoller
from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram
from tests.kit import LOT_ALICE_LOW
from tests.parallel import free_port
from tests.telegram.kit import RunningBot, bot_settings, live_board, open_table, press, running

BASE = "https://table.example.org/general/"
EN, RU = translator("en"), translator("ru")


def web_settings(fake: FakeTelegram, database: Path, **web: Any) -> Settings:
    """The test bot's settings with the live table's."""
    values = {**bot_settings(fake, database).model_dump(), **web}
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture
async def web(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[RunningBot]:
    """The bot with the live table at BASE and its Mini App named `table`."""
    settings = web_settings(
        fake,
        tmp_path / "general.db",
        general_web_url=BASE.rstrip("/"),  # the "/" is added
        general_web_port=free_port(),
        telegram_mini_app="table",
    )
    roller = ScriptedRoller()
    async with running(settings, roller):
        yield RunningBot(fake, roller, tmp_path / "general.db", settings)


async def game_id(tg: RunningBot, chat: FakeChat) -> str:
    """The id of the game at the chat's table (what its buttons carry)."""
    data = next(b.callback_data for b in live_board(tg.fake, chat).buttons if b.callback_data)
    return data.split("|")[1]


def last_row(message: FakeMessage) -> list[dict[str, Any]]:
    assert message.reply_markup is not None
    return [button.raw for button in message.reply_markup[-1]]


async def test_a_groups_lobby_and_boards_link_to_the_mini_app(web: RunningBot) -> None:
    fake = web.fake
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob", language_code="ru")
    group = fake.chat(-100500, title="Home")
    await open_table(web, group, ann, bob)
    table = await game_id(web, group)
    app = f"https://t.me/{fake.bot_user.username}/table?startapp={table}"
    lobby = live_board(fake, group)
    assert last_row(lobby) == [{"text": EN("btn-table"), "url": app}]  # a row of its own
    web.roller.push(LOT_ALICE_LOW)
    await press(fake, ann, lobby, "Start")
    board = live_board(fake, group)
    assert last_row(board) == [{"text": EN("btn-table"), "url": app}]
    web.roller.push([1, 2, 3, 4, 6])
    await press(fake, ann, board, EN("btn-roll-first"))
    thrown = live_board(fake, group)
    assert "s9" in str(thrown.raw_reply_markup)  # the board with the dice and the boxes
    assert last_row(thrown) == [{"text": EN("btn-table"), "url": app}]


async def test_a_private_chats_boards_open_the_page_in_telegram(web: RunningBot) -> None:
    fake = web.fake
    ann = fake.user(1001, "Ann")
    chat = fake.private_chat(ann)
    await fake.send_message(ann, chat, "/general start")
    await fake.settle()
    table = await game_id(web, chat)
    page = {"text": EN("btn-table"), "web_app": {"url": f"{BASE}?t={table}"}}
    assert last_row(live_board(fake, chat)) == [page]
    await press(fake, ann, live_board(fake, chat), "Start")
    assert last_row(live_board(fake, chat)) == [page]


async def test_without_a_mini_app_a_group_links_to_the_page(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    settings = web_settings(
        fake, tmp_path / "general.db", general_web_url=BASE, general_web_port=free_port()
    )
    async with running(settings, ScriptedRoller()):
        ann = fake.user(1001, "Ann")
        group = fake.chat(-100500, title="Home")
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        tg = RunningBot(fake, ScriptedRoller(), tmp_path / "general.db", settings)
        table = await game_id(tg, group)
        lobby = live_board(fake, group)
        assert last_row(lobby) == [{"text": EN("btn-table"), "url": f"{BASE}?t={table}"}]


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_general_table_gives_the_link_to_watch(web: RunningBot, language: str) -> None:
    fake, t = web.fake, translator(language)
    ann, ivan = fake.user(1001, "Ann"), fake.user(1003, "Ivan", language_code=language)
    group = fake.chat(-100500, title="Home")
    await fake.send_message(ivan, group, "/general table")
    await fake.settle()
    said = fake.bot_messages(group)[-1]
    assert said.plain_text == t("table-none") and not said.buttons  # the asker's language
    await open_table(web, group, ann)
    table = await game_id(web, group)
    await fake.send_message(ivan, group, "/general table")
    await fake.settle()
    said = fake.bot_messages(group)[-1]
    link = f"{BASE}?t={table}"
    assert said.plain_text == f"{EN('table-spectator')}\n{link}"  # the table's language
    (button,) = said.buttons
    assert (button.text, button.url) == (EN("btn-table"), link)


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_without_web_settings_there_is_no_table(tg: RunningBot, language: str) -> None:
    fake, t = tg.fake, translator(language)
    ann, ivan = fake.user(1001, "Ann"), fake.user(1003, "Ivan", language_code=language)
    group = fake.chat(-100500, title="Home")
    await open_table(tg, group, ann)
    board = live_board(fake, group)
    assert EN("btn-table") not in str(board.raw_reply_markup)
    assert not any((b.callback_data or "").endswith("|o") for b in board.buttons)
    await fake.send_message(ivan, group, "/general table")
    await fake.settle()
    said = fake.bot_messages(group)[-1]
    assert said.plain_text == t("table-off") and not said.buttons
