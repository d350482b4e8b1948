"""An out-of-date press is told what changed since its board (core.errors.Stale), in the
presser's own language, through the chat layer's refusal."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.i18n import Translator, translator
from core.errors import Stale
from tests.chat.kit import ALICE, BOB, World, opened

THROW = (1, 2, 3, 4, 6)
PARAMS = {"dice": "1-2-3-4-6", "player": "Bob", "round": 2}  # every detail's, at most
RU, EN = translator("ru"), translator("en")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


@pytest.mark.parametrize("locale", ["en", "ru"])
@pytest.mark.parametrize("detail", list(Stale))
def test_every_detail_is_said_in_both_languages(locale: str, detail: Stale) -> None:
    text, errors = Translator(locale).checked(f"error-stale-{detail.value}", **PARAMS)
    assert errors == [] and "{" not in text


@pytest.mark.parametrize(("locale", "t"), [("ru", RU), ("en", EN)])
async def test_double_taps_are_told_what_changed_in_the_pressers_language(
    world: World, locale: str, t: Translator
) -> None:
    await world.command(ALICE, "start")
    await world.press(await world.board(), BOB, "j")
    world.roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])  # the lot: Alice first
    await world.press(await world.board(), ALICE, "b")
    board = await world.board()
    taps = [world.pressing(board, ALICE, locale=locale) for _ in range(2)]
    world.roller.push(THROW)
    for tap in taps:
        await world.send(tap, "r")
    assert taps[1].said() == [t("error-stale-thrown", dice="1-2-3-4-6")]
    taps = [world.pressing(board, ALICE, locale=locale) for _ in range(2)]
    for tap in taps:
        await world.send(tap, "h0")
    assert taps[0].said() == [] and taps[1].said() == [t("error-stale-held")]
    late = world.pressing(board, ALICE, locale=locale)
    await world.press(board, ALICE, "s0")
    await world.send(late, "s0")  # the box again, on the board before it was written
    assert late.said() == [t("error-stale-turn-passed", player="Bob")]
    assert (await world.game()).seats[0].scores[0] == 1
