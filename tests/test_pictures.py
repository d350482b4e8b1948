"""Score-sheet pictures: size, the marked column, held dice, many players, Cyrillic glyphs."""

from __future__ import annotations

import io

from PIL import Image

from adapters.i18n import translator
from adapters.pictures import (
    CELL_WIDTH,
    COLUMNS_PER_BLOCK,
    DIE_SIZE,
    HELD,
    LABEL_WIDTH,
    MARGIN,
    MARK,
    ROW_HEIGHT,
    font,
    sheet_png,
)
from core.actions import Hold, Join, Open, Roll, Score, Start
from core.dice import SeededRoller
from core.game import Game, apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import Variants
from core.view import make_view


def table(players: int, turns: int, hold: bool = False) -> Game:
    roller = SeededRoller(4)
    people = [PlayerRef(str(n), f"Игрок {n}") for n in range(1, players + 1)]
    game, _ = open_lobby("g", ChannelKey("tg", "1"), people[0], Open(Variants(table_cap=50)))
    for person in people[1:]:
        game, _ = apply(game, person, Join(), roller)
    game, _ = apply(game, people[0], Start(), roller)
    for _ in range(turns):
        player = game.seats[game.current].player
        game, _ = apply(game, player, Roll(), roller)
        game, _ = apply(game, player, Score(game.seats[game.current].open_boxes()[-1]), roller)
    if hold:
        player = game.seats[game.current].player
        game, _ = apply(game, player, Roll(), roller)
        game, _ = apply(game, player, Hold(frozenset({1})), roller)
    return game


def picture(game: Game) -> Image.Image:
    image = Image.open(io.BytesIO(sheet_png(translator("ru"), make_view(game))))
    assert image.format == "PNG"
    return image.convert("RGB")


def test_size_follows_players_and_dice() -> None:
    three = picture(table(3, 4, hold=True))
    assert three.width == 2 * MARGIN + LABEL_WIDTH + 3 * CELL_WIDTH
    thirteen = picture(table(13, 0))
    blocks = -(-13 // COLUMNS_PER_BLOCK)
    assert thirteen.width == 2 * MARGIN + LABEL_WIDTH + COLUMNS_PER_BLOCK * CELL_WIDTH
    assert thirteen.height > blocks * 12 * ROW_HEIGHT
    assert thirteen.width <= 1000  # stays narrow enough for a phone


def test_current_player_column_and_held_die_are_marked() -> None:
    game = table(3, 4, hold=True)
    image = picture(game)
    view = make_view(game)
    column = next(i for i, p in enumerate(view.players) if p.is_current)
    top = MARGIN + 56 + DIE_SIZE + MARGIN
    x = MARGIN + LABEL_WIDTH + column * CELL_WIDTH + 10
    assert image.getpixel((x, top + 3 * ROW_HEIGHT + 4)) == MARK
    other = (column + 1) % 3
    assert image.getpixel((MARGIN + LABEL_WIDTH + other * CELL_WIDTH + 10, top + 4)) != MARK
    # Die 2 is held: its outline is drawn in the held colour; die 1's is not.
    held_left = MARGIN + (DIE_SIZE + 18)
    assert image.getpixel((held_left + 1, MARGIN + 56 + DIE_SIZE // 2)) == HELD
    assert image.getpixel((MARGIN + 1, MARGIN + 56 + DIE_SIZE // 2)) != HELD


def test_numbers_are_drawn_in_their_cells() -> None:
    image = picture(table(2, 4))
    top = MARGIN + 56
    # The totals row of the first player's cell holds dark ink.
    cell = image.crop(
        (
            MARGIN + LABEL_WIDTH,
            top + 11 * ROW_HEIGHT,
            MARGIN + LABEL_WIDTH + CELL_WIDTH,
            top + 12 * ROW_HEIGHT,
        )
    )
    darkest = min(sum(cell.getpixel((x, y))) for x in range(cell.width) for y in range(cell.height))
    assert darkest < 200


def test_the_font_covers_cyrillic_and_latin() -> None:
    face = font(22)
    for text in ("Шестёрки", "Sixes", "0123456789"):
        box = face.getbbox(text)
        assert box[2] - box[0] > 10 * len(text) // 2
    # Distinct letters give distinct glyphs (a missing glyph would draw the same box for all).
    assert bytes(face.getmask("Ж")) != bytes(face.getmask("Щ"))
