"""Discord's limits on what the bot draws, at the largest table: 2000 characters of content,
5 rows of 5 buttons, custom_ids of at most 100 characters; names escaped."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from adapters.chat import cards
from adapters.chat.layout import Button
from adapters.chat.plan import Redraw
from adapters.discord import render
from adapters.discord.draw import draw
from adapters.i18n import translator
from core.actions import Join, Open, Roll, Score, Start
from core.boxes import Box
from core.chat_settings import ChatSettings
from core.dice import ScriptedRoller, SeededRoller
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import Variants
from core.table import Game
from core.view import make_view

T = translator("en")
CHANNEL = ChannelKey("dc", "1")
# 32 characters (Discord's longest display name), full of markdown and a code fence.
NAMES = [f"```{i:02}** _~~@everyone~~_ |x| <@1>"[:32] for i in range(50)]


def big_table() -> tuple[Game, list[PlayerRef]]:
    players = [PlayerRef(str(10**17 + i), name) for i, name in enumerate(NAMES)]
    game, _ = open_lobby("abcdefgh", CHANNEL, players[0], Open(Variants(table_cap=50)))
    for player in players[1:]:
        game, _ = apply(game, player, Join(), ScriptedRoller())
    return game, players


def drawn(card: cards.Card) -> render.Rendered:
    (page,) = draw(T, card)
    return page


def components(rendered: render.Rendered) -> list[list[dict[str, Any]]]:
    assert rendered.view is not None
    rows = rendered.view.to_components()
    return [row["components"] for row in rows]


def check_message(text: str | None) -> None:
    assert text is not None and 0 < len(text) <= render.MESSAGE_LIMIT
    assert "@everyone" not in text  # escaped: @\u200beveryone


async def test_the_largest_lobby_and_its_start() -> None:
    game, players = big_table()
    lobby = drawn(cards.Board(make_view(game)))
    check_message(lobby.content)
    assert r"\*\*" in lobby.content and r"\`\`\`" in lobby.content  # escaped, not bold
    assert [len(row) for row in components(lobby)] == [4, 4]  # seating; computers
    started, events = apply(game, players[0], Start(), SeededRoller(3))
    view = make_view(started, None, events)
    closed = drawn(cards.Redrawn(Redraw.LOBBY, view))
    check_message(closed.content)
    assert closed.view is None


async def test_the_turn_board_fits_five_rows_of_five() -> None:
    game, players = big_table()
    game, _ = apply(game, players[0], Start(), SeededRoller(3))
    current = game.seats[game.current].player
    first = drawn(cards.Board(make_view(game), notify=True))
    check_message(first.content)
    assert first.ping == current.id and f"<@{current.id}>" in (first.content or "")
    assert [len(row) for row in components(first)] == [2]
    game, _ = apply(game, current, Roll(), ScriptedRoller([1, 3, 4, 5, 6]))
    board = drawn(cards.Redrawn(Redraw.TURN, make_view(game)))
    check_message(board.content)
    rows = components(board)
    assert [len(row) for row in rows] == [5, 3, 5, 5]  # dice; roll, sheet, hint; ten boxes
    custom_ids = [button["custom_id"] for row in rows for button in row]
    assert len(set(custom_ids)) == 18 and all(len(c) <= 100 for c in custom_ids)
    assert all(len(button["label"]) <= 80 for row in rows for button in row)
    assert "Straight · 25" in [button["label"] for button in rows[2] + rows[3]]


async def test_the_final_sheet_of_the_largest_table_is_cut_into_pages() -> None:
    game, players = big_table()
    game, _ = apply(game, players[0], Start(), SeededRoller(3))
    events: tuple[Any, ...] = ()
    while game.end_reason is None:
        current = game.seats[game.current].player
        game, _ = apply(game, current, Roll(), ScriptedRoller([1, 2, 3, 4, 6]))
        box = next(b for b in Box if game.seats[game.current].scores[b.index] is None)
        game, events = apply(game, current, Score(box), ScriptedRoller())
    view = make_view(game, None, events)
    pages = [page.content or "" for page in draw(T, cards.Final(view))]
    assert len(pages) > 1
    for page in pages:
        check_message(page)
        assert page.count("```") % 2 == 0  # every code block closed on its own page
    text = "\n".join(pages)
    assert "Shared win:" in text and text.count("Total") == 13  # 50 players, 4 a table
    assert "ˋˋˋ00" in text and "```0" not in text  # a name cannot close the code block
    finished = drawn(cards.Redrawn(Redraw.FINISHED_TURN, view))
    check_message(finished.content)
    assert finished.view is None


def as_view(buttons: render.Buttons) -> discord.ui.View:
    """The same buttons as discord.py's own View, row by row (it refuses more than Discord's
    limits)."""
    out = discord.ui.View(timeout=None)
    for number, row in enumerate(buttons.rows):
        for b in row:
            style = discord.ButtonStyle(b["style"])
            item = discord.ui.Button[Any](custom_id=b["custom_id"], label=b["label"], style=style)
            item.row = number
            out.add_item(item)
    return out


async def test_the_buttons_are_what_a_discord_py_view_of_them_sends() -> None:
    game, players = big_table()
    lobby = drawn(cards.Board(make_view(game)))
    game, _ = apply(game, players[0], Start(), SeededRoller(3))
    current = game.seats[game.current].player
    first = drawn(cards.Board(make_view(game), notify=True))
    game, _ = apply(game, current, Roll(), ScriptedRoller([1, 3, 4, 5, 6]))
    boards = [
        lobby,
        first,
        drawn(cards.Redrawn(Redraw.TURN, make_view(game))),
        drawn(cards.Settings(ChatSettings())),
        drawn(cards.Forget("1")),
    ]
    for rendered in boards:
        assert rendered.view is not None
        assert rendered.view.to_components() == as_view(rendered.view).to_components()
        assert not rendered.view.is_dispatchable() and rendered.view.is_finished()
    with pytest.raises(ValueError):
        render.Buttons([[render.button(f"b{i}", "x")] for i in range(6)])
    with pytest.raises(ValueError):
        render.button("x" * 101, "x")


def test_a_button_that_opens_a_link_is_a_link_button() -> None:
    link = render.buttons([(Button("Add me", url="https://example.org/add"),)])
    assert link is not None
    assert link.to_components()[0]["components"] == [
        {"type": 2, "style": 5, "label": "Add me", "url": "https://example.org/add"}
    ]
