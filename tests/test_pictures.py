"""Score-sheet pictures: headers always told apart, the round and places shown, the marked
column and held dice, size limits at the largest table, fonts."""

from __future__ import annotations

import io
from dataclasses import replace
from itertools import combinations

import pytest
from PIL import Image

from adapters.i18n import translator
from adapters.pictures import sheet_layout, sheet_png
from adapters.pictures.draw import HELD, MARK, MAX_WIDTH, PAD, font, name_pen
from adapters.pictures.layout import Space, legible, ranks, wrap
from core.actions import Hold, Join, Leave, Open, Roll, Score, Start
from core.dice import SeededRoller
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import Variants
from core.table import Game, Phase
from core.view import GameView, PlayerView, make_view

LONG = [f"Player with a very long name {n}" for n in range(1, 51)]
# 64 characters each, alike but for the last one.
TAILS = [("Александра Константиновна Петрова-Водкина из Санкт-Петербурга " + c)[:64] for c in "абв"]
# Every kind of name a chat may bring: emoji, Cyrillic, right-to-left, marks, very long.
MIXED = [
    "🎲🔥🇷🇺 " * 16,
    "Ёжик в тумане",
    "محمد عبد الله",
    "יוסף כהן",
    "Z̷̢̛a̴l̵g̶o̷",
    "x" * 64,
    "Dr. Strangelove or: How I Learned to Stop Worrying and Love the Bomb",
]


def table(names: list[str], turns: int, hold: bool = False) -> Game:
    roller = SeededRoller(4)
    people = [PlayerRef(str(n), name) for n, name in enumerate(names, start=1)]
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


def players(count: int) -> list[str]:
    return [f"Игрок {n}" for n in range(1, count + 1)]


def picture(view: GameView, locale: str = "ru") -> Image.Image:
    data = sheet_png(translator(locale), view)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


class Monospace:
    """A pen ten pixels a character, so that what fits can be worked out by hand."""

    def width(self, text: str) -> float:
        return 10.0 * len(text)

    def look(self, text: str) -> bytes:
        return text.encode()

    def draws(self, char: str) -> bool:
        return ord(char) < 0x1F000


@pytest.mark.parametrize("locale", ["en", "ru"])
@pytest.mark.parametrize("names", [LONG, TAILS], ids=["long", "alike-but-the-end"])
def test_headers_are_distinct_and_fit(locale: str, names: list[str]) -> None:
    view = make_view(table(names, 0))
    sheet, where = sheet_layout(translator(locale), view)
    heads = [column.header for column in sheet.columns]
    assert len(set(heads)) == len(names)
    pen, room = name_pen(), where.cell_width - 16
    assert all(1 <= len(head) <= 2 and all(pen.width(x) <= room for x in head) for head in heads)
    # The distinguishing end is kept: no seat numbers were needed.
    assert [head[-1].split()[-1] for head in heads] == [p.name.split()[-1] for p in view.players]


def test_headers_drawn_are_distinct() -> None:
    """The pixels too: no two header cells of the picture look the same."""
    view = make_view(table(LONG, 0))
    _, where = sheet_layout(translator("en"), view)
    image = picture(view, "en")
    cells = [image.crop(where.cell(i, 0)).tobytes() for i in range(len(LONG))]
    assert all(a != b for a, b in combinations(cells, 2))


def test_names_alike_to_the_eye_are_numbered() -> None:
    middle = ["Player with a very " + c + " long name" for c in "XY"]
    names = ["Alex", "Alex", "🐉🎲", "🦄🎲", *middle, "Bob"]
    view = make_view(table(names, 0))
    sheet, _ = sheet_layout(translator("en"), view)
    heads = [column.header for column in sheet.columns]
    assert len(set(heads)) == len(names)
    for seat, (player, head) in enumerate(zip(view.players, heads, strict=True), start=1):
        if player.name == "Alex":
            assert head == (f"Alex #{seat}",)
        elif player.name in middle:  # cut where they differ: told apart by number
            assert head[-1].endswith(f" #{seat}")
        elif player.name == "Bob":
            assert head == ("Bob",)  # a name nobody shares stays as it is
        else:  # emoji the font lacks are left out, not drawn as boxes; the number stands
            assert head == (f"#{seat}",)


def test_wrap_cuts_the_middle_of_what_two_lines_cannot_hold() -> None:
    space = Space(Monospace(), 100)  # ten characters a line
    assert wrap("Alexandra", "", space) == ("Alexandra",)
    assert wrap("Alexandra Wilhelmina", "", space) == ("Alexandra", "Wilhelmina")
    assert wrap("Player with a very long name 17", "", space) == ("Player", "…name 17")
    assert wrap("abcdefghijklmno pqrstuvwxyz", "", space) == ("abcdefghij", "…rstuvwxyz")


def test_wrap_never_splits_a_word_across_the_lines_unmarked() -> None:
    """A first word too long for a line is cut with an ellipsis, not carried on the next."""
    space = Space(Monospace(), 100)
    assert wrap("Grandmaster", "", space) == ("Grandmast…",)
    assert wrap("Grandmaster 2", "", space) == ("Grandmast…", "2")
    assert wrap("abcdefghijklmnopqrstuvwxyz", "", space) == ("abcdefghi…",)
    assert wrap("abcdefghijklmnopqrstuvwxyz", "#12", space) == ("abcdefghi…", "#12")
    names = [*MIXED, *LONG[:3], *TAILS, "Grandmaster", "Гроссмейстер 2", "Al Grandmasterful"]
    for room in range(30, 200, 10):
        for name in (legible(name, Monospace()) for name in names):
            head = wrap(name, "", Space(Monospace(), room))
            assert 1 <= len(head) <= 2 and all(len(line) * 10 <= room for line in head)
            if len(head) == 2:
                first, second = head
                whole_words = name.startswith(first) and name[len(first) :][:1] == " "
                assert whole_words or first.endswith("…") or second.startswith("…"), head


def test_legible_leaves_out_what_the_font_cannot_draw() -> None:
    pen = name_pen()
    assert legible("Bob 🎲\u200d🔥 the\tBuilder  ", pen) == "Bob the Builder"
    assert legible("🇷🇺", pen) == ""
    assert legible("Ёжик", pen) == "Ёжик" and legible("محمد", pen) == "محمد"
    assert legible("e\u0301", pen) == "e\u0301"  # a combining accent stays on its letter
    assert legible("Z" + "\u0337" * 30, pen) == "Z\u0337\u0337"  # no tower of marks
    assert legible("\u202eevil\u202c Zero\u200bWidth\u2067", pen) == "evil ZeroWidth"  # no bidi


def test_round_and_whose_turn_head_the_picture() -> None:
    view = make_view(table(["Alice", "Борис"], 6))
    en, _ = sheet_layout(translator("en"), view)
    ru, _ = sheet_layout(translator("ru"), view)
    assert view.current is not None
    assert en.status == f"Round 4/10 · Turn: {view.current.name}"
    assert ru.status == f"Раунд 4/10 · Ходит: {view.current.name}"
    assert en.title == "Score sheet" and ru.title == "Таблица очков"


def test_finished_and_unstarted_games_say_so() -> None:
    game = table(["Alice", "Борис"], 20)
    assert game.phase is Phase.FINISHED
    sheet, _ = sheet_layout(translator("en"), make_view(game))
    assert sheet.status == "Round 10/10 · Final standings"
    assert not any(column.current for column in sheet.columns)
    lobby, _ = open_lobby("g", ChannelKey("tg", "1"), PlayerRef("1", "Solo"), Open(Variants()))
    sheet, _ = sheet_layout(translator("ru"), make_view(lobby))
    assert sheet.status == "Игра ещё не началась"


def test_places_share_equal_totals_and_skip_those_who_left() -> None:
    view = make_view(table(players(5), 0))
    totals = [10, 30, 30, 5, 50]
    people = tuple(
        replace(p, total=total, active=n != 4)
        for n, (p, total) in enumerate(zip(view.players, totals, strict=True))
    )
    assert ranks(people) == [3, 1, 1, 4, None]
    for locale, out in (("en", "out"), ("ru", "вне игры")):
        sheet, _ = sheet_layout(translator(locale), replace(view, players=people))
        assert sheet.labels[-2:] == (("Total", "Place") if locale == "en" else ("Итого", "Место"))
        assert [c.place for c in sheet.columns] == ["3.", "1.", "1.", "4.", out]
        assert [c.leader for c in sheet.columns] == [False, True, True, False, False]
    everyone: tuple[PlayerView, ...] = tuple(replace(p, total=7) for p in view.players)
    assert ranks(everyone) == [1] * 5


@pytest.mark.parametrize("locale", ["en", "ru"])
@pytest.mark.parametrize("count", [1, 2, 8, 12, 50])
def test_pictures_stay_within_the_platforms_limits(locale: str, count: int) -> None:
    names = [MIXED[n % len(MIXED)] + f" {n}" for n in range(count)]
    game = table(names, count * 3, hold=True)
    leaver = game.seats[-1].player
    if count > 1:
        game, _ = apply(game, leaver, Leave(), SeededRoller(1))
    view = make_view(game)
    data = sheet_png(translator(locale), view)
    image = Image.open(io.BytesIO(data))
    image.verify()
    width, height = image.size
    assert width <= MAX_WIDTH  # narrow enough for a phone
    assert width + height <= 10_000 and max(width, height) <= 20 * min(width, height)  # Telegram
    assert len(data) <= 10 * 2**20  # a Telegram photo (a Discord file may take 25 MiB)
    sheet, _ = sheet_layout(translator(locale), view)
    assert len({column.header for column in sheet.columns}) == count


def test_size_follows_players_and_dice() -> None:
    three = make_view(table(players(3), 4, hold=True))
    _, where = sheet_layout(translator("ru"), three)
    assert picture(three).size == (where.width, where.height)
    thirteen = make_view(table(players(13), 0))
    _, wide = sheet_layout(translator("ru"), thirteen)
    assert (wide.per_block, wide.blocks) == (5, 3)  # 5, 5 and 3 rather than 6, 6 and 1
    assert picture(thirteen).size == (wide.width, wide.height)
    assert wide.top < where.top  # no dice before the first throw


def test_current_player_column_and_held_die_are_marked() -> None:
    view = make_view(table(players(3), 4, hold=True))
    _, where = sheet_layout(translator("ru"), view)
    image = picture(view)
    column = next(i for i, p in enumerate(view.players) if p.is_current)
    left, top, _, _ = where.cell(column, 0)
    assert image.getpixel((left + 4, top + 4)) == MARK
    assert image.getpixel((left + 4, where.cell(column, len(view.sheet) + 2)[3] - 4)) == MARK
    other = where.cell((column + 1) % 3, 3)
    assert image.getpixel((other[0] + 4, other[1] + 4)) != MARK
    # Die 2 is held: its outline is drawn in the held colour; die 1's is not.
    held, free = where.die(1), where.die(0)
    assert image.getpixel((held[0] + 1, (held[1] + held[3]) // 2)) == HELD
    assert image.getpixel((free[0] + 1, (free[1] + free[3]) // 2)) != HELD


def test_numbers_and_places_are_drawn_in_their_cells() -> None:
    view = make_view(table(players(2), 4))
    _, where = sheet_layout(translator("ru"), view)
    image = picture(view)
    for row in (len(view.sheet) + 1, len(view.sheet) + 2):  # the total, the place
        cell = image.crop(where.cell(0, row)).convert("L")
        assert cell.getextrema()[0] < 100


def test_the_font_covers_cyrillic_and_latin() -> None:
    face = font(22)
    for text in ("Шестёрки", "Sixes", "0123456789"):
        box = face.getbbox(text)
        assert box[2] - box[0] > 10 * len(text) // 2
    # Distinct letters give distinct glyphs (a missing glyph would draw the same box for all).
    assert bytes(face.getmask("Ж")) != bytes(face.getmask("Щ"))


@pytest.mark.parametrize(
    ("locale", "computer"), [("en", "🤖 Grandmaster"), ("ru", "🤖 Гроссмейстер")]
)
def test_a_name_too_long_for_its_column_is_drawn_within_it_cut_with_an_ellipsis(
    locale: str, computer: str
) -> None:
    view = make_view(table([computer, "Ann", "Bob", "Cat", "Dan", "Eve"], 0))
    sheet, where = sheet_layout(translator(locale), view)
    seat = next(i for i, p in enumerate(view.players) if p.name == computer)
    word = computer.split()[-1]
    (line,) = sheet.columns[seat].header  # one line, not "Grandmaste" over "r"
    assert line.endswith("…") and word.startswith(line[:-1]) and len(line) > len(word) // 2
    image = picture(view, locale)
    for column in range(len(view.players)):  # every header's ink within its cell's padding
        cell = image.crop(where.cell(column, 0))
        ink = Image.eval(cell.convert("L"), lambda v: 255 if v < 128 else 0).getbbox()
        assert ink is not None and ink[0] >= PAD - 1 and ink[2] <= cell.width - PAD + 1


def test_emoji_in_names_draw_no_empty_boxes_and_no_empty_header() -> None:
    """The font has no emoji: a header is drawn exactly as the name without them, and a name
    of emoji alone by its seat number."""
    with_emoji = ["🤖 Grandmaster", "Bob 🎲", "🐉🎲", "Эмма 🔥 Ли"]
    seat = [p.name for p in make_view(table(with_emoji, 0)).players].index("🐉🎲")
    without = ["Grandmaster", "Bob", f"#{seat + 1}", "Эмма Ли"]  # seated in the same order
    drawn = []
    for names in (with_emoji, without):
        view = make_view(table(names, 0))
        _, where = sheet_layout(translator("ru"), view)
        image = picture(view)
        cells = [image.crop(where.cell(i, 0)) for i in range(len(names))]
        assert all(cell.convert("L").getextrema()[0] < 100 for cell in cells)  # ink in each
        drawn.append([cell.tobytes() for cell in cells])
    assert drawn[0] == drawn[1]
