"""The board's win-chances line as every front end draws it: everyone at a table of up to six,
the three likeliest and the player to move at a bigger one."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.chat import cards
from adapters.chat.plan import Redraw
from adapters.console.render import render_board
from adapters.discord.draw import draw as discord_draw
from adapters.i18n import translator
from adapters.i18n.chances import chances_line
from adapters.telegram.draw import draw as telegram_draw
from core.actions import Join, Open, Roll, Score, Start
from core.dice import SeededRoller
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import Variants
from core.table import Game
from core.view import GameView, make_view

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def seated(count: int, turns: int) -> Game:
    """A table of `count` players, `turns` turns in (each scratching its last open box)."""
    roller = SeededRoller(7)
    people = [PlayerRef(f"p{n}", name) for n, name in enumerate(NAMES[:count])]
    game, _ = open_lobby("g", ChannelKey("tg", "1"), people[0], Open(Variants()))
    for person in people[1:]:
        game, _ = apply(game, person, Join(), roller)
    game, _ = apply(game, people[0], Start(), roller)
    for _ in range(turns):
        player = game.seats[game.current].player
        game, _ = apply(game, player, Roll(), roller)
        game, _ = apply(game, player, Score(game.seats[game.current].open_boxes()[-1]), roller)
    return game


def named(line: str) -> set[str]:
    return {name for name in NAMES if f"{name} " in line}


def boards(locale: str, view: GameView) -> list[str]:
    """The chances line of each front end's board."""
    t = translator(locale)
    texts = [
        telegram_draw(t, cards.Redrawn(Redraw.TURN, view))[0].text,
        discord_draw(t, cards.Redrawn(Redraw.TURN, view))[0].content or "",
        render_board(t, view),
    ]
    return [next(line for line in text.splitlines() if "🎯" in line) for text in texts]


@pytest.mark.parametrize("locale", ["en", "ru"])
@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_every_player_of_a_table_of_up_to_six_is_on_the_line(locale: str, count: int) -> None:
    for turns in (0, count + 1):  # the first turn, and one well into the game
        view = make_view(seated(count, turns))
        assert len(view.chances) == count
        for line in boards(locale, view):
            assert named(line) == set(NAMES[:count]), line
            assert line.count("%") == count and "…" not in line


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_a_big_table_names_the_three_likeliest_and_the_player_to_move(locale: str) -> None:
    game = seated(8, 3)
    view = make_view(game)
    mover = game.current
    # The player to move the least likely to win: their entry comes after the three likeliest.
    chances = [0.01 if seat == mover else 0.2 - 0.01 * seat for seat in range(8)]
    shares = tuple(share / sum(chances) for share in chances)
    view = replace(view, chances=shares)
    likeliest = sorted(range(8), key=lambda seat: -shares[seat])[:3]
    expected = {view.players[seat].name for seat in [*likeliest, mover]}
    for line in boards(locale, view):
        assert named(line) == expected and len(expected) == 4, line
        assert line.count("%") == 4 and line.endswith(" · …")
    assert named(chances_line(translator(locale), view, every=True) or "") == set(NAMES)
