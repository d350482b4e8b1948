"""The tournament's end picture (adapters/pictures/event_table.py): the title and rules, a podium
of the first three, then every entrant's row; names of any length and script kept in their room,
shared places shown as shared, the words from the catalogue, in both languages."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw

from adapters.i18n import message_ids, translator
from adapters.pictures.draw import BAND, INK, MUTED, PAPER, pen
from adapters.pictures.event_table import (
    BASE,
    MARGIN,
    NAME_ABOVE,
    NAME_COLUMN,
    NAME_LINE,
    NAME_SIZE,
    NUMBER_COLUMNS,
    PLACE_COLUMN,
    PODIUM_TOP,
    RIGHT,
    ROW,
    SCORE_ABOVE,
    SCORE_SIZE,
    SLOTS,
    STEP_GAP,
    STEP_HEIGHT,
    STEP_WIDTH,
    SUBTITLE_SIZE,
    SUBTITLE_TOP,
    TABLE_TOP,
    TITLE_SIZE,
    WIDTH,
    EventEnd,
    EventRow,
    cells,
    event_png,
    row_top,
    size,
    subtitle,
)
from adapters.pictures.layout import Space, wrap
from adapters.pictures.podium import STEP_COLOURS

LOCALES = ("en", "ru")
GOLD, SILVER, BRONZE = (STEP_COLOURS[place] for place in (1, 2, 3))
LONG = (
    "W" * 300,  # one word, far too long
    ("Александра Константиновна " * 12)[:300],
    ("שלום עולם مرحبا بالعالم " * 13)[:300],  # right to left
    "🎲🔥👑" * 100,  # the font has none of these
    ("李小龍王菲" * 60)[:300],  # nor these
    ("Zoë 🎲 李 שלום Z̷̢̛̮a̴̧͓l̶̢̛g̸̨͎o " * 10)[:300],  # all of it, and piled marks
)


def event(
    count: int,
    names: tuple[str, ...] = ("Аня", "Bob", "Charlotte"),
    places: tuple[int, ...] = (),
    rounds: int = 6,
    format: str = "swiss",
    duplicate: bool = True,
) -> EventEnd:
    """`count` rows, best first, named in turn from `names`; places as given, else 1, 2, 3…"""
    rows = tuple(
        EventRow(
            place=places[n] if n < len(places) else n + 1,
            name=names[n % len(names)],
            score=max(0.0, 6 - n / 2),
            points=1200 - 9 * n,
            played=6 - n % 2,
        )
        for n in range(count)
    )
    return EventEnd(rounds, format, duplicate, rows)


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "RGB"
    image.load()
    return image


def counts(image: Image.Image) -> dict[tuple[int, int, int], int]:
    found = image.getcolors(maxcolors=1 << 20)
    assert found is not None
    return {(c[0], c[1], c[2]): n for n, c in found if isinstance(c, tuple)}


def drawn(image: Image.Image) -> tuple[int, int, int, int] | None:
    """The box around everything that is not paper (None: nothing is)."""
    return ImageChops.difference(image, Image.new("RGB", image.size, PAPER)).getbbox()


def step_left(slot: int) -> int:
    return (WIDTH - 3 * STEP_WIDTH - 2 * STEP_GAP) // 2 + slot * (STEP_WIDTH + STEP_GAP)


def place_cell(image: Image.Image, index: int) -> Image.Image:
    top = row_top(index)
    return image.crop((PLACE_COLUMN[0], top + 3, PLACE_COLUMN[1], top + ROW - 3))


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("count", [2, 16, 64])
def test_every_row_is_drawn_within_the_size_limits(locale: str, count: int) -> None:
    finished = event(count, LONG)
    png = event_png(translator(locale), finished)
    image = opened(png)
    assert image.size == size(finished) and image.width == WIDTH
    assert image.height <= 4000 and len(png) < 1_000_000
    assert size(event(count + 1))[1] - size(finished)[1] == ROW  # compact: a row's height each
    found = counts(image)
    for place, (fill, _) in STEP_COLOURS.items():
        assert (found.get(fill, 0) > 5000) == (place <= count), place  # a step per podium place
    for index in range(count):
        top = row_top(index)
        assert image.getpixel((RIGHT - 2, top + 4)) == (BAND if index % 2 else PAPER), index
        for left, right in (PLACE_COLUMN, NAME_COLUMN, *NUMBER_COLUMNS):
            assert drawn(image.crop((left, top + 2, right, top + ROW - 2))), (index, left)
    assert drawn(image.crop((0, row_top(count), WIDTH, image.height))), "the notes"


def test_the_first_stands_in_the_middle_on_the_tallest_step_second_left_third_right() -> None:
    image = opened(event_png(translator("en"), event(5)))
    for slot, index in enumerate(SLOTS):
        middle, place = step_left(slot) + STEP_WIDTH // 2, index + 1
        fill = STEP_COLOURS[place][0]
        assert image.getpixel((middle - 80, BASE - STEP_HEIGHT[place] + 4)) == fill, place
        assert image.getpixel((middle - 80, BASE - STEP_HEIGHT[place] - 4)) == PAPER, place
    assert SLOTS == (1, 0, 2) and STEP_HEIGHT[1] > STEP_HEIGHT[2] > STEP_HEIGHT[3]


def test_a_tie_for_first_shares_the_place_on_the_podium_and_in_the_table() -> None:
    t = translator("en")
    tied = event(5, places=(1, 1, 3, 4, 5))
    assert [cells(t, row)[0] for row in tied.rows] == ["1", "1", "3", "4", "5"]
    image = opened(event_png(t, tied))
    second = step_left(0) + 20  # the left step: the second row's, as tall and gold as the first's
    assert image.getpixel((second, BASE - STEP_HEIGHT[1] + 4)) == GOLD[0]
    assert SILVER[0] not in counts(image)
    assert GOLD[1] in counts(place_cell(image, 1))
    assert SILVER[1] not in counts(place_cell(image, 1))
    untied = opened(event_png(t, event(5)))
    assert image.getpixel((second, BASE - STEP_HEIGHT[1] + 4)) != untied.getpixel(
        (second, BASE - STEP_HEIGHT[1] + 4)
    )
    assert SILVER[1] in counts(place_cell(untied, 1))
    three = opened(event_png(t, event(5, places=(1, 1, 1, 4, 5))))
    assert place_cell(three, 2).tobytes() == place_cell(three, 0).tobytes()  # both "1", in gold
    assert place_cell(untied, 2).tobytes() != place_cell(untied, 0).tobytes()


@pytest.mark.parametrize("name", LONG)
def test_long_names_stay_in_their_room(name: str) -> None:
    for locale in LOCALES:
        t = translator(locale)
        image = opened(event_png(t, event(4, (name,))))
        plain = opened(event_png(t, event(4, ("A",))))
        box = drawn(image)
        assert box is not None
        left, top, right, bottom = box
        assert left >= MARGIN - 2 and right <= WIDTH - MARGIN + 2, (locale, left, right)
        assert top >= MARGIN - 2 and bottom <= image.height - MARGIN // 2
        # Nothing of a name reaches the places or the numbers: they are drawn as for "A".
        for columns in (PLACE_COLUMN, (NUMBER_COLUMNS[0][0], RIGHT)):
            area = (columns[0], TABLE_TOP, columns[1], image.height)
            assert image.crop(area).tobytes() == plain.crop(area).tobytes(), (locale, columns)
        names = image.crop((NAME_COLUMN[0], row_top(0), NAME_COLUMN[1], row_top(4)))
        assert (
            names.tobytes()
            != plain.crop((NAME_COLUMN[0], row_top(0), NAME_COLUMN[1], row_top(4))).tobytes()
        )
        # Outside the steps (a step's box takes its right edge too), nothing stands.
        steps = ((step_left(s), step_left(s) + STEP_WIDTH + 1) for s in range(3))
        edges = [0, *(x for step in steps for x in step)]
        for left, right in zip(edges[::2], [*edges[1::2], WIDTH], strict=True):
            assert drawn(image.crop((left, PODIUM_TOP, right, BASE - 4))) is None, (locale, left)
        for slot, index in enumerate(SLOTS):  # yet drawn, above its own step
            step_top = BASE - STEP_HEIGHT[index + 1]
            above = (step_left(slot), PODIUM_TOP, step_left(slot) + STEP_WIDTH, step_top - 1)
            assert drawn(image.crop(above)), (locale, slot)


def test_a_long_name_on_the_podium_reads_in_two_lines_its_start_on_top() -> None:
    name = "Alexandra Konstantinovna Rimskaya-Korsakova"
    image = opened(event_png(translator("en"), event(2, (name, "A"))))
    bold = pen(NAME_SIZE, bold=True, condensed=True)
    lines = wrap(name, "", Space(bold, STEP_WIDTH - 8))
    assert len(lines) == 2 and lines[0].startswith("Alexandra")
    left, top = step_left(1), BASE - STEP_HEIGHT[1]
    told = Image.new("RGB", image.size, PAPER)
    for n, line in enumerate(lines):
        y = top - NAME_ABOVE - (len(lines) - 1 - n) * NAME_LINE
        xy = (left + STEP_WIDTH // 2, y)
        ImageDraw.Draw(told).text(xy, line, font=bold.face, fill=INK, anchor="mm")
    names = (left, PODIUM_TOP, left + STEP_WIDTH, top - NAME_ABOVE + NAME_LINE // 2)
    assert image.crop(names).tobytes() == told.crop(names).tobytes()


@pytest.mark.parametrize("locale", LOCALES)
def test_each_step_carries_its_score_in_the_catalogue_s_words(locale: str) -> None:
    t = translator(locale)
    places = event(3)  # scores 6, 5.5 and 5
    image = opened(event_png(t, places))
    small = pen(SCORE_SIZE)
    for slot, index in enumerate(SLOTS):
        row = places.rows[index]
        left, top = step_left(slot), BASE - STEP_HEIGHT[index + 1]
        told = Image.new("RGB", image.size, PAPER)
        words = t("event-picture-score", points=row.score)
        xy = (left + STEP_WIDTH // 2, top - SCORE_ABOVE)
        ImageDraw.Draw(told).text(xy, words, font=small.face, fill=MUTED, anchor="mm")
        band = (left, top - SCORE_ABOVE - 13, left + STEP_WIDTH, top - 1)
        assert image.crop(band).tobytes() == told.crop(band).tobytes(), (slot, words)
    assert t("event-picture-score", points=5.5) == {"en": "5.5 points", "ru": "5,5 очка"}[locale]


def test_a_long_name_fills_its_column_and_is_cut() -> None:
    image = opened(event_png(translator("en"), event(2, ("W" * 300,))))
    name_box = drawn(image.crop((NAME_COLUMN[0], row_top(0), NAME_COLUMN[1], row_top(1))))
    assert name_box is not None
    width = NAME_COLUMN[1] - NAME_COLUMN[0]
    assert width * 3 // 4 < name_box[2] - name_box[0] <= width  # drawn, not left out


@pytest.mark.parametrize("locale", LOCALES)
def test_the_title_and_rules_drawn_are_the_catalogue_s_words(locale: str) -> None:
    t = translator(locale)
    finished = event(3, format="robin", duplicate=False, rounds=3)
    band = (0, 0, WIDTH, SUBTITLE_TOP + 40)  # above the podium's names
    told = Image.new("RGB", band[2:], PAPER)
    draw = ImageDraw.Draw(told)
    draw.text((MARGIN, MARGIN), t("event-picture-title"), font=pen(TITLE_SIZE, True).face, fill=INK)
    words = subtitle(t, finished)
    draw.text((MARGIN, SUBTITLE_TOP), words, font=pen(SUBTITLE_SIZE).face, fill=MUTED)
    drawn_band = opened(event_png(t, finished)).crop(band).tobytes()
    assert drawn_band == told.tobytes()
    other = translator("ru" if locale == "en" else "en")
    assert opened(event_png(other, finished)).crop(band).tobytes() != drawn_band


def test_the_rules_line_names_the_format_the_rounds_and_the_dice() -> None:
    en, ru = translator("en"), translator("ru")
    assert subtitle(en, event(2, rounds=4)) == "Swiss · 4 rounds · duplicate dice"
    robin = event(2, format="robin", duplicate=False, rounds=3)
    parts = (
        ru("event-picture-robin"),
        ru("event-picture-rounds", rounds=3),
        ru("event-picture-own"),
    )
    assert subtitle(ru, robin) == " · ".join(parts) == subtitle(ru, robin)
    assert subtitle(ru, robin) != subtitle(en, robin)
    assert "3 раунда" in subtitle(ru, robin)


def test_the_words_come_from_both_catalogues() -> None:
    ids = {i for i in message_ids("en") if i.startswith("event-picture-")}
    assert ids == {i for i in message_ids("ru") if i.startswith("event-picture-")}
    assert {"event-picture-title", "event-picture-score", "event-picture-rounds"} <= ids
    en, ru = translator("en"), translator("ru")
    for message_id in ids:
        texts = [t.checked(message_id, points=3.5, rounds=4) for t in (en, ru)]
        for text, errors in texts:
            assert text and not errors and not {"{", "}", "$"} & set(text), (message_id, text)
        assert texts[0][0] != texts[1][0], message_id


@pytest.mark.parametrize(
    ("locale", "score", "words"),
    [
        ("en", 1, "1 point"),
        ("en", 3.5, "3.5 points"),
        ("en", 2 / 3, "0.67 points"),
        ("ru", 1, "1 очко"),
        ("ru", 3, "3 очка"),
        ("ru", 5, "5 очков"),
        ("ru", 21, "21 очко"),
        ("ru", 3.5, "3,5 очка"),
        ("ru", 1 + 1 / 3, "1,33 очка"),
        ("ru", 0.1 + 0.2 + 2.7, "3 очка"),  # 3.0000000000000004
    ],
)
def test_a_score_takes_the_plural_its_number_wants(locale: str, score: float, words: str) -> None:
    t = translator(locale)
    assert t("event-picture-score", points=score) == words
    row = EventRow(2, "Ann", score, 40, 3)
    assert cells(t, row) == ("2", words.split(" ")[0], "40", "3")


@pytest.mark.parametrize(
    ("locale", "rounds", "words"),
    [("en", 1, "1 round"), ("en", 4, "4 rounds"), ("ru", 1, "1 раунд"), ("ru", 5, "5 раундов")],
)
def test_the_rounds_take_their_plural(locale: str, rounds: int, words: str) -> None:
    assert translator(locale)("event-picture-rounds", rounds=rounds) == words


def test_the_picture_depends_on_what_it_shows() -> None:
    t = translator("en")
    first = event_png(t, event(8))
    assert event_png(t, event(8)) == first  # the same event draws the same
    assert event_png(t, event(8, ("Zed", "Bob", "Charlotte"))) != first
    assert event_png(t, event(8, format="robin")) != first
    assert event_png(t, event(8, duplicate=False)) != first
    assert event_png(t, event(8, rounds=5)) != first
    assert event_png(translator("ru"), event(8)) != first
    rows = event(8).rows
    later = EventEnd(6, "swiss", True, (*rows[:5], EventRow(6, rows[5].name, 3.5, 1, 0), *rows[6:]))
    assert event_png(t, later) != first
