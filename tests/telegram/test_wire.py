"""What the bot puts on the wire to the Bot API: keyboards drawn as plain JSON are what
python-telegram-bot's objects serialise to, and a call without files is one JSON body."""

from __future__ import annotations

import orjson
import pytest
from aiohttp import FormData
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from adapters.chat import cards
from adapters.chat.layout import Button
from adapters.chat.plan import Redraw
from adapters.i18n import translator
from adapters.telegram import render
from adapters.telegram.calls import markup_object
from adapters.telegram.draw import draw
from adapters.telegram.http import JSON, request_body
from core.actions import Join, Open, Roll, Start
from core.chat_settings import ChatSettings
from core.dice import ScriptedRoller, SeededRoller
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import Variants
from core.table import Game
from core.view import make_view

T = translator("en")
ALICE, BOB = PlayerRef("1", "Alice"), PlayerRef("2", "Bob")


def lobby() -> Game:
    game, _ = open_lobby("abcdefgh", ChannelKey("tg", "-5"), ALICE, Open(Variants()))
    game, _ = apply(game, BOB, Join(), ScriptedRoller())
    return game


def drawn(card: cards.Card) -> render.Rendered:
    (page,) = draw(T, card)
    return page


def as_ptb(markup: render.Keyboard) -> InlineKeyboardMarkup:
    """The same keyboard built of python-telegram-bot's objects, button by button."""
    rows = markup["inline_keyboard"]
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(**button) for button in row] for row in rows]
    )


def test_every_keyboard_is_what_python_telegram_bot_would_send() -> None:
    game = lobby()
    started, _ = apply(game, ALICE, Start(), SeededRoller(3))
    current = started.seats[started.current].player
    rolled, _ = apply(started, current, Roll(), ScriptedRoller([1, 3, 4, 5, 6]))
    boards = [
        drawn(cards.Board(make_view(game))),
        drawn(cards.Board(make_view(started), notify=True)),
        drawn(cards.Redrawn(Redraw.TURN, make_view(rolled))),
        drawn(cards.Settings(ChatSettings())),
        drawn(cards.Forget("1")),
        drawn(cards.Welcome(False, "https://t.me/bot?startgroup=general")),
        render.hint_offer(T, "abcdefgh", 7),
    ]
    for rendered in boards:
        assert rendered.markup is not None
        assert as_ptb(rendered.markup).to_dict() == rendered.markup
        assert markup_object(rendered.markup) == as_ptb(rendered.markup)
    rows = boards[2].markup["inline_keyboard"] if boards[2].markup else []
    assert [len(row) for row in rows] == [5, 3, 2, 2, 2, 2, 2]  # dice; roll, sheet, hint; boxes
    assert markup_object(None) is None
    with pytest.raises(ValueError):  # Telegram refuses callback data over 64 bytes
        render.keyboard([(Button("x", "é" * 33),)])


def test_a_call_without_files_is_one_json_body_and_one_with_files_a_form() -> None:
    markup = {"inline_keyboard": [[{"text": "Roll", "callback_data": "g1|abcdefgh|3|r"}]]}
    plain = RequestData(
        [
            RequestParameter.from_input("chat_id", -100),
            RequestParameter.from_input("text", "<b>Ann</b> & «co»"),
            RequestParameter.from_input("reply_markup", markup),
            RequestParameter.from_input("link_preview_options", {"is_disabled": True}),
        ]
    )
    body, headers = request_body(plain)
    assert headers == JSON and isinstance(body, bytes)
    assert orjson.loads(body) == {
        "chat_id": -100,
        "text": "<b>Ann</b> & «co»",
        "reply_markup": markup,
        "link_preview_options": {"is_disabled": True},
    }
    photo = RequestData(
        [
            RequestParameter.from_input("chat_id", -100),
            RequestParameter.from_input("photo", InputFile(b"PNG", filename="sheet.png")),
        ]
    )
    form, headers = request_body(photo)
    assert isinstance(form, FormData) and headers is None
    assert request_body(None) == (None, None)
