"""The review on the recording platform: the final message weighs each person's play by win
chances and names the turning point; `/general review` adds the chart of everyone's chances."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from PIL import Image

from adapters.chat import cards, review
from adapters.discord import draw as discord_draw
from adapters.discord.render import MESSAGE_LIMIT as DISCORD_LIMIT
from adapters.i18n import translator
from adapters.i18n.review import review_lines
from adapters.pictures.chart import PALETTE, WIDTH
from adapters.telegram import draw as telegram_draw
from adapters.telegram.render import MESSAGE_LIMIT as TELEGRAM_LIMIT
from core.boxes import Box
from core.review import Decision, PlayerReview, Story, story
from core.rules import Variants
from core.strategy import Choice
from core.view import GameView
from tests.chat.kit import ALICE, BOB, CHANNEL, T, World, opened, view_of
from tests.kit import LOT_ALICE_LOW

DICE = {ALICE.id: (1, 2, 3, 4, 6), BOB.id: (5, 5, 5, 6, 6)}  # never a big general
RU = translator("ru")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def play_two(world: World, locale: str = "en") -> cards.Final:
    """Alice and Bob each write their boxes in sheet order with one throw each."""
    await world.command(ALICE, "start", locale=locale)
    await world.command(BOB, "join", locale=locale)
    world.roller.push(LOT_ALICE_LOW)
    await world.press(await world.board(), ALICE, "b")
    for turn in range(2 * len(Box)):
        board = await world.board()
        mover = view_of(board.card).current
        assert mover is not None
        person = ALICE if mover.id == ALICE.id else BOB
        world.roller.push(DICE[person.id])
        await world.press(board, person, "r")
        await world.press(board, person, f"s{turn // 2}")
    (final,) = world.platform.of(cards.Final)
    assert isinstance(final.card, cards.Final)
    return final.card


async def test_the_final_message_weighs_each_person_and_tells_the_turning_point(
    world: World,
) -> None:
    final = await play_two(world)
    review = final.review
    assert review[0] == T("review-title")
    for name in ("Alice", "Bob"):
        (line,) = [line for line in review if line.startswith(f"{name}:")]
        assert "accuracy" in line
    assert review[-1].startswith("Turning point — round ")
    assert len(review) <= 1 + 3 * 2 + 1  # three lines a person at most, and the turning point


async def test_the_review_command_sends_the_chart_with_the_words(world: World) -> None:
    final = await play_two(world)
    asked = await world.command(BOB, "review")
    (card,) = asked.publicly
    assert isinstance(card, cards.Review) and card.lines == final.review
    assert card.picture is not None
    image = Image.open(io.BytesIO(card.picture))
    assert image.format == "PNG" and image.width == WIDTH
    drawn = {colour for _, colour in image.convert("RGB").getcolors(1 << 16) or ()}
    assert {PALETTE[0], PALETTE[1]} <= drawn and PALETTE[2] not in drawn


async def test_the_chart_is_drawn_when_first_asked_for_and_then_kept(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The final message needs only the words: the chart waits for `/general review`."""
    drawn: list[str] = []
    real = review.chart

    def counted(*args: Any) -> bytes:
        drawn.append("chart")
        return real(*args)

    monkeypatch.setattr(review, "chart", counted)
    await play_two(world)
    assert drawn == []
    first = (await world.command(BOB, "review")).publicly
    again = (await world.command(ALICE, "review")).publicly
    assert drawn == ["chart"] and first == again


async def test_the_review_speaks_the_table_s_language(world: World) -> None:
    await play_two(world, locale="ru")
    asked = await world.command(BOB, "review", locale="ru")
    (card,) = asked.publicly
    assert isinstance(card, cards.Review) and card.picture is not None
    assert card.lines[0] == RU("review-title")
    assert card.lines[-1].startswith("Переломный момент — раунд ")
    assert any("точность" in line for line in card.lines)


def test_the_fronts_send_the_chart_first_then_every_line_within_their_limits() -> None:
    """A long review (a big table's) after the chart: Telegram's photo then pages of at most
    4,096 characters, Discord's attachment with the first of its pages of at most 2,000."""
    lines = tuple(f"Player <{n}>: " + "a long line of review " * 8 for n in range(60))
    card = cards.Review(lines, b"PNG")
    photo, *pages = telegram_draw.draw(T, card)
    assert photo.picture == b"PNG" and photo.text == "" and len(pages) > 1
    assert all(len(page.text) <= TELEGRAM_LIMIT and page.picture is None for page in pages)
    assert "&lt;59&gt;" in pages[-1].text  # names escaped in the HTML
    first, *rest = discord_draw.draw(T, card)
    assert first.picture == b"PNG" and rest
    assert all(len(page.content or "") <= DISCORD_LIMIT for page in [first, *rest])
    assert lines[0] in (first.content or "") and lines[-1] in (rest[-1].content or "")
    # Without a picture the card is drawn as the lines it is.
    assert telegram_draw.draw(T, cards.Review(lines)) == telegram_draw.draw(T, cards.Lines(lines))


def test_the_lines_tell_flawless_clean_and_costly_play_apart() -> None:
    """By win chance: nothing lost is flawless; only points lost (playing for the win) names no
    error; a blunder is counted and told as the costliest, with the better choice for winning."""
    dice = (2, 2, 4, 6, 5)
    twos, sixes = Choice(150.0, box=Box.TWOS, points=4), Choice(142.0, box=Box.SIXES, points=6)
    keep = Choice(149.0, keep=(2, 2))

    def person(*decisions: Decision) -> list[str]:
        view = SimpleNamespace(players=[SimpleNamespace(id="p", name="Ann", is_computer=False)])
        reviews = {"p": PlayerReview("p", list(decisions))}
        told = cast(Story, SimpleNamespace(turning=None))
        return review_lines(T, cast(GameView, view), reviews, Variants(), told)[1:]

    best = Decision(1, 3, dice, twos, twos, twos, 0.6, 0.6)
    assert person(best) == [T("review-flawless", name="Ann")]
    for_the_win = Decision(1, 1, dice, keep, twos, keep, 0.6, 0.6)  # 1 point for the win
    (clean,) = person(best, for_the_win)
    assert clean.startswith("Ann: ") and "no inaccuracies, mistakes or blunders" in clean
    blunder = Decision(2, 3, dice, sixes, twos, twos, 0.6, 0.5)
    line, costliest = person(best, for_the_win, blunder)
    assert line.endswith("given away; 1 blunder.")
    assert costliest.startswith("Costliest: round 2, throw 3, dice 2-2-4-6-5 — “write Sixes (6)”")
    assert "10.0 percentage points" in costliest and "8.0 expected points" in costliest
    assert "“write Twos (4)” was better" in costliest


async def test_a_solo_game_is_reviewed_in_expected_points_from_what_its_end_weighed(
    world: World,
) -> None:
    """No win chances for one player (it always wins): the costliest decision in points, no
    chart; the final message reads the log and the review the service made at the end."""
    await world.command(ALICE, "start")
    await world.press(await world.board(), ALICE, "b")
    for box in Box:
        board = await world.board()
        world.roller.push((1, 2, 3, 5, 5))
        await world.press(board, ALICE, "r")
        await world.press(board, ALICE, f"s{box.index}")
    (final,) = world.platform.of(cards.Final)
    assert isinstance(final.card, cards.Final)
    view = final.card.view
    ended = world.service.ended(view.game_id, view.version)
    assert ended is not None
    assert ended.events == tuple(await world.repository.events(view.game_id))
    lines = review_lines(T, view, ended.reviews, view.variants)
    assert final.card.review == tuple(lines)
    assert any("better by" in line for line in lines)  # the costliest decision, in points
    asked = await world.command(ALICE, "review")
    (shown,) = asked.publicly
    assert isinstance(shown, cards.Review) and shown.lines == tuple(lines)
    assert shown.picture is None  # a flat line at 100% says nothing


def signed(text: str) -> int:
    return int(text.replace("−", "-").rstrip("%"))


async def test_each_persons_dice_and_decisions_are_told_as_the_engine_weighs_them(
    world: World,
) -> None:
    """Bob's dice are the better every turn, both write their boxes in sheet order: the line
    tells each one's dice, decisions and the others' play, and with the start they make the
    result (a win: 100%)."""
    final = await play_two(world)
    game = await world.service.last_finished(CHANNEL)
    assert game is not None
    told = story(await world.service.events(game.id), game.variants)
    assert told is not None
    for person in (ALICE, BOB):
        (line,) = [line for line in final.review if line.startswith(f"🎲 {person.name}:")]
        found = re.fullmatch(
            rf"🎲 {person.name}: dice (\S+) · decisions (\S+) · the others' play (\S+)", line
        )
        assert found, line
        luck = told.reviews[person.id].luck
        assert luck is not None
        shown = [signed(figure) for figure in found.groups()]
        assert shown == [round(100 * part) for part in (luck.dice, luck.decisions, luck.rest)]
        start = round(100 * told.series(person.id)[0])
        assert abs(start + sum(shown) - round(100 * luck.result)) <= 2  # each rounded once
    alice, bob = (told.reviews[p.id].luck for p in (ALICE, BOB))
    assert alice is not None and bob is not None and bob.dice > 0 > alice.dice
