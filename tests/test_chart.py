"""The review's chart (adapters/pictures/chart.py): every player's win chance drawn in a colour of
their own, the moments marked, the legend's names cut to fit, in both languages."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from adapters.i18n import translator
from adapters.pictures.chart import (
    LEGEND_COLUMNS,
    LEGEND_SIZE,
    PALETTE,
    WIDTH,
    chart_png,
    legend_names,
)
from adapters.pictures.draw import pen
from core.actions import AddComputer, Open, Start
from core.computer import level_of, next_action
from core.dice import SeededRoller
from core.events import Event
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.review import MomentKind, Story, story
from core.rules import Variants
from core.table import Game, Phase
from core.view import make_view

CHANNEL = ChannelKey("test", "chart")
HOST = PlayerRef("u-host", "Александра Константиновна Петрова-Водкина 🎲🔥 из Санкт-Петербурга")


def played(computers: int, seed: int) -> tuple[Game, Story]:
    """The host (playing as a Club would) against computers of every level, to the end."""
    roller = SeededRoller(seed)
    game, events = open_lobby("g-chart", CHANNEL, HOST, Open(Variants()))
    log: list[Event] = list(events)
    levels = (Level.MASTER, Level.CLUB, Level.NOVICE)
    for n in range(computers):
        level = levels[n % len(levels)]
        game, events = apply(game, HOST, AddComputer(level, f"🤖 {level.value} {n}"), roller)
        log += events
    game, events = apply(game, HOST, Start(), roller)
    log += events
    while game.phase is Phase.PLAYING:
        player = game.seats[game.current].player
        action = next_action(game, level_of(player) or Level.CLUB)
        game, events = apply(game, player, action, roller)
        log += events
    told = story(log, game.variants)
    assert told is not None
    return game, told


def colours(png: bytes) -> set[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "RGB"
    found = image.getcolors(maxcolors=1 << 16)
    assert found is not None
    return {(c[0], c[1], c[2]) for count, c in found if count >= 40 and isinstance(c, tuple)}


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_a_finished_game_s_chart_has_a_line_per_player(locale: str) -> None:
    game, told = played(computers=3, seed=3)
    png = chart_png(translator(locale), make_view(game), told)
    image = Image.open(io.BytesIO(png))
    assert image.width == WIDTH and 600 < image.height < 1000
    assert set(PALETTE[:4]) <= colours(png)  # each of the four seats' lines
    assert PALETTE[4] not in colours(png)  # and no fifth
    assert {m.kind for m in told.moments} >= {MomentKind.LEAD, MomentKind.GENERAL}


def test_the_languages_draw_different_words() -> None:
    game, told = played(computers=1, seed=5)
    view = make_view(game)
    english, russian = (chart_png(translator(loc), view, told) for loc in ("en", "ru"))
    assert english != russian
    assert chart_png(translator("en"), view, told) == english  # the same game draws the same


def test_a_full_table_of_ten_gets_ten_colours_and_a_taller_legend() -> None:
    game, told = played(computers=9, seed=7)
    png = chart_png(translator("en"), make_view(game), told)
    assert set(PALETTE) <= colours(png)
    small_game, small = played(computers=1, seed=7)
    smaller = chart_png(translator("en"), make_view(small_game), small)
    legend_rows = 10 // LEGEND_COLUMNS - 1
    height = Image.open(io.BytesIO(png)).height
    assert height >= Image.open(io.BytesIO(smaller)).height + legend_rows * 30


def test_legend_names_are_cut_to_their_column_and_keep_their_script() -> None:
    game, told = played(computers=1, seed=5)
    names = dict(zip(told.seats, legend_names(make_view(game), told), strict=True))
    host, computer = names.pop(HOST.id), names.popitem()[1]
    room = WIDTH / LEGEND_COLUMNS
    assert pen(LEGEND_SIZE).width(host) < room
    assert host.startswith("Александра Констант") and host.endswith("…")
    assert "🎲" not in host and "🤖" not in computer  # the font has no emoji: left out
    assert computer == "master 0"
