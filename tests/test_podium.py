"""The season's end picture (adapters/pictures/podium.py): the title, a podium of up to three
with the first on the tallest step, the awards beneath; names of any length and script drawn
within their room, the words from the catalogue, in both languages."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from adapters.i18n import message_ids, translator
from adapters.pictures.draw import PAPER, pen
from adapters.pictures.layout import Space
from adapters.pictures.podium import (
    BASE,
    LINE,
    MARGIN,
    NAME_ABOVE,
    NAME_LINE,
    SENTINEL,
    SLOTS,
    STEP_COLOURS,
    STEP_GAP,
    STEP_HEIGHT,
    STEP_WIDTH,
    WIDTH,
    SeasonEnd,
    fitted_name,
    lines,
    podium_png,
    size,
)

LOCALES = ("en", "ru")
RATINGS = (1534, 1420, 1388)
PODIUM = tuple(zip(("Аня", "Bob", "Charlotte"), RATINGS, strict=True))
FIGURES = {"en": ("+4.2 points", "−1.3 points"), "ru": ("+4,2 очка", "−1,3 очка")}
LONG = "Александра Константиновна " * 8  # 208 characters
HOSTILE = (
    "W" * 200,  # one word, far too long
    LONG,
    "שלום עולם مرحبا بالعالم",  # right to left
    "🎲🔥👑",  # the font has none of these
    "<b>Bob & Alice</b> &amp; <i>",  # markup is text
    "\u202eevil\u200b name\n\tnext line",  # bidi override, zero width, breaks
    "Z̷̢̛̮a̴̧͓l̶̢̛g̸̨͎o̵̡͚" * 10,  # piled marks
    "",
)


def end(
    places: int = 3,
    locale: str = "en",
    names: tuple[str, ...] | None = None,
    label: str = "2026-11",
) -> SeasonEnd:
    dice, decisions = FIGURES[locale]
    podium = (
        PODIUM[:places] if names is None else tuple(zip(names, RATINGS[: len(names)], strict=True))
    )
    return SeasonEnd(
        label=label,
        podium=podium[:places],
        improved=("Bob", 87),
        luckiest=("Charlotte", dice),
        wisest=("Аня", decisions),
    )


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "RGB"
    image.load()
    return image


def counts(image: Image.Image) -> dict[tuple[int, int, int], int]:
    found = image.getcolors(maxcolors=1 << 18)
    assert found is not None
    return {(c[0], c[1], c[2]): n for n, c in found if isinstance(c, tuple)}


def drawn(image: Image.Image) -> tuple[int, int, int, int]:
    """The box around everything that is not paper."""
    box = ImageChops.difference(image, Image.new("RGB", image.size, PAPER)).getbbox()
    assert box is not None
    return box


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("places", [0, 1, 2, 3])
def test_the_picture_is_a_small_png_with_a_step_per_place(locale: str, places: int) -> None:
    t = translator(locale)
    season = end(places, locale)
    png = podium_png(t, season)
    image = opened(png)
    assert image.size == size(t, season)
    assert image.width == WIDTH <= 900 and image.height <= 600
    assert len(png) < 100_000
    found = counts(image)
    for place, (fill, _) in STEP_COLOURS.items():
        assert (found.get(fill, 0) > 5000) == (place <= places), place  # a step is big


def test_the_first_stands_in_the_middle_on_the_tallest_step_second_left_third_right() -> None:
    image = opened(podium_png(translator("en"), end(3)))
    first = (WIDTH - 3 * STEP_WIDTH - 2 * STEP_GAP) // 2
    for slot, place in enumerate(SLOTS):
        middle = first + slot * (STEP_WIDTH + STEP_GAP) + STEP_WIDTH // 2
        fill = STEP_COLOURS[place][0]
        assert image.getpixel((middle - 60, BASE - STEP_HEIGHT[place] + 4)) == fill, place
        assert image.getpixel((middle - 60, BASE - STEP_HEIGHT[place] - 4)) == PAPER, place
    assert SLOTS == (2, 1, 3) and STEP_HEIGHT[1] > STEP_HEIGHT[2] > STEP_HEIGHT[3]


def test_an_empty_podium_says_there_were_no_rated_games_and_is_shorter() -> None:
    t = translator("ru")
    empty = SeasonEnd("2026-Q4", (), None, None, None)
    assert [line.text for line in lines(t, empty)] == [t("podium-empty")]
    image = opened(podium_png(t, empty))
    assert image.height < 300 and image.size == size(t, empty)
    assert not set(counts(image)) & {fill for fill, _ in STEP_COLOURS.values()}


def test_the_awards_each_take_a_line_with_the_name_and_the_figure() -> None:
    t = translator("en")
    full = end(3)
    told = lines(t, full)
    assert [line.name for line in told] == ["Bob", "Charlotte", "Аня"]
    assert all(SENTINEL in line.text for line in told)
    assert "87" in told[0].text and "+4.2 points" in told[1].text and "−1.3" in told[2].text
    bare = SeasonEnd(full.label, full.podium, None, full.luckiest, None)
    assert [line.name for line in lines(t, bare)] == ["Charlotte"]
    assert size(t, full)[1] - size(t, bare)[1] == 2 * LINE
    assert opened(podium_png(t, bare)).height == size(t, bare)[1]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_draw_within_the_picture(name: str) -> None:
    season = SeasonEnd(
        "2026-11",
        ((name, 1500), (name + name, 1400), ("x" + name, 1300)),
        (name, 5),
        (name, "+1.0 point"),
        (name * 3, "−0.4 points"),
    )
    for locale in LOCALES:
        image = opened(podium_png(translator(locale), season))
        left, top, right, bottom = drawn(image)
        assert left >= MARGIN - 2 and right <= WIDTH - MARGIN + 2, (locale, left, right)
        assert top >= MARGIN - 2 and bottom <= image.height - MARGIN // 2


def test_a_long_name_on_the_podium_stays_above_its_own_step() -> None:
    image = opened(podium_png(translator("en"), end(1, names=("W" * 200,))))
    left = (WIDTH - 3 * STEP_WIDTH - 2 * STEP_GAP) // 2 + STEP_WIDTH + STEP_GAP
    step_top = BASE - STEP_HEIGHT[1]
    band = (0, step_top - NAME_ABOVE - NAME_LINE - 16, WIDTH, step_top - NAME_ABOVE + 16)
    name_box = drawn(image.crop(band))
    assert left <= name_box[0] and name_box[2] <= left + STEP_WIDTH
    assert name_box[2] - name_box[0] > STEP_WIDTH // 2  # drawn, not left out


@pytest.mark.parametrize("name", HOSTILE)
def test_names_are_fitted_to_their_room_and_keep_what_can_be_drawn(name: str) -> None:
    space = Space(pen(22, bold=True), 200)
    shown = fitted_name(name, space)
    assert shown and space.pen.width(shown) <= 200
    assert not {"\u202e", "\u200b", "\n", "\t"} & set(shown)
    assert all(space.pen.draws(char) or char == " " for char in shown if char.isprintable())


def test_what_a_name_keeps_and_where_it_is_cut() -> None:
    space = Space(pen(22, bold=True), 300)
    assert fitted_name(LONG, space).startswith("Александра") and fitted_name(LONG, space)[-1] == "…"
    assert fitted_name("🎲🔥👑", space) == "?"
    assert fitted_name("<b>Bob & Alice</b>", space) == "<b>Bob & Alice</b>"
    assert fitted_name("שלום עולם", space) == "שלום עולם"
    assert fitted_name("Ann 🎲", space) == "Ann"


def test_the_words_come_from_both_catalogues() -> None:
    ids = {i for i in message_ids("en") if i.startswith("podium-")}
    assert ids == {i for i in message_ids("ru") if i.startswith("podium-")}
    assert {"podium-title", "podium-improved", "podium-luckiest", "podium-wisest"} <= ids
    args = {"period": "2026-11", "name": "Ann", "points": 3, "value": "1534"}
    args |= {"dice": "+1.0 point", "decisions": "−1.0 point"}
    en, ru = translator("en"), translator("ru")
    for message_id in ids:
        texts = [t.checked(message_id, **args) for t in (en, ru)]
        for text, errors in texts:
            assert text and not errors and not {"{", "}", "$"} & set(text), (message_id, text)
        assert texts[0][0] != texts[1][0], message_id
    assert "2026-11" in en("podium-title", period="2026-11") != ru("podium-title", period="2026-11")


@pytest.mark.parametrize(
    ("locale", "points", "words"),
    [
        ("en", 1, "+1 rating point)"),
        ("en", 2, "+2 rating points)"),
        ("ru", 1, "+1 очко)"),
        ("ru", 3, "+3 очка)"),
        ("ru", 5, "+5 очков)"),
        ("ru", 21, "+21 очко)"),
    ],
)
def test_the_rise_takes_the_plural_its_number_wants(locale: str, points: int, words: str) -> None:
    assert translator(locale)("podium-improved", name="Ann", points=points).endswith(words)


def test_the_picture_depends_on_what_it_shows() -> None:
    t = translator("en")
    first = podium_png(t, end(3))
    assert podium_png(t, end(3)) == first  # the same season draws the same
    assert podium_png(t, end(3, names=("Zed", "Bob", "Charlotte"))) != first
    assert podium_png(t, end(3, label="2026-Q4")) != first
    assert podium_png(translator("ru"), end(3)) != first
    ratings = SeasonEnd("2026-11", (("Аня", 1999), *PODIUM[1:]), None, None, None)
    plain = SeasonEnd("2026-11", PODIUM, None, None, None)
    assert podium_png(t, ratings) != podium_png(t, plain)
