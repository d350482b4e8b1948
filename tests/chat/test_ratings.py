"""Ratings and the verdict in words, on the recording platform: the final message's new ratings
and changes, the leaderboard by rating (and by wins), a player's rating in their statistics,
and the turn that decided a game, in English and in Russian."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from adapters.chat import cards
from adapters.discord import draw as discord_draw
from adapters.discord.render import MESSAGE_LIMIT as DISCORD_LIMIT
from adapters.i18n import translator
from adapters.i18n.ratings import rating_line, sparkline
from adapters.telegram import draw as telegram_draw
from adapters.telegram.render import MESSAGE_LIMIT as TELEGRAM_LIMIT
from core.actions import Join, Open, Roll, Start
from core.dice import ScriptedRoller
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.ratings import Change, Skill
from core.rules import Variants
from core.seasons import SeasonLength, season_at
from core.view import make_view
from tests.chat.kit import ALICE, BOB, T, World, opened, view_of
from tests.kit import LOT_ALICE_LOW

RU = translator("ru")
SEASON = season_at(time.time(), SeasonLength.MONTHLY, "UTC").label  # type: ignore[union-attr]
SMALL = (1, 1, 2, 3, 3)  # Ones 2, Twos 2, Threes 6, nothing else
ALICES = (1, 2, 3, 4, 6)  # 16 over the game: Ones 1, Twos 2, Threes 3, Fours 4, Sixes 6


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def play(
    world: World,
    bobs_last: tuple[int, tuple[int, ...]] = (7, (6, 6, 6, 5, 5)),
    locale: str = "en",
    big_general_in_round: int | None = None,
) -> cards.Final:
    """Alice writes her boxes in order with ALICES; Bob throws SMALL into every box but the
    one he keeps for his last turn, `bobs_last` (box, dice). Alice moves first."""
    last_box, last_dice = bobs_last
    bobs_boxes = [box for box in range(10) if box != last_box] + [last_box]
    await world.command(ALICE, "start", locale=locale)
    await world.command(BOB, "join", locale=locale)
    world.roller.push(LOT_ALICE_LOW)
    await world.press(await world.board(), ALICE, "b")
    for turn in range(20):
        board = await world.board()
        mover = view_of(board.card).current
        assert mover is not None
        round_ = turn // 2 + 1
        if mover.id == ALICE.id:
            world.roller.push(ALICES)
            await world.press(board, ALICE, "r", locale=locale)
            await world.press(board, ALICE, f"s{turn // 2}", locale=locale)
            continue
        if round_ == big_general_in_round:
            world.roller.push([4] * 5)
            await world.press(board, BOB, "r", locale=locale)
            break
        world.roller.push(last_dice if round_ == 10 else SMALL)
        await world.press(board, BOB, "r", locale=locale)
        await world.press(board, BOB, f"s{bobs_boxes[turn // 2]}", locale=locale)
    (final,) = world.platform.of(cards.Final)
    assert isinstance(final.card, cards.Final)
    return final.card


def shown_after(ranks: Sequence[int]) -> list[int]:
    """openskill's own ratings of two newcomers after one game, as the bot shows them."""
    model = PlackettLuce()
    rated = model.rate([[model.rating()], [model.rating()]], ranks=list(ranks))
    return [Skill(team[0].mu, team[0].sigma).shown for team in rated]


async def test_the_final_message_gives_each_new_rating_and_its_change(world: World) -> None:
    final = await play(world)
    alice, bob = shown_after([2, 1])
    assert bob > 1000 > alice
    assert final.ratings == (
        f"📈 Ratings here: Bob {bob}? (+{bob - 1000}) · Alice {alice}? (−{1000 - alice})",
    )
    (page,) = telegram_draw.draw(T, final)  # as the chat reads it: after the sheet
    assert page.text.index("Ratings here") > page.text.index("Score sheet")


async def test_the_final_message_in_russian_and_the_turn_that_decided_it(world: World) -> None:
    final = await play(world, locale="ru")
    assert final.ratings[0].startswith("📈 Рейтинг здесь: Bob ")
    (page,) = telegram_draw.draw(RU, final)
    assert (
        "🎯 Всё решил последний ход: Bob записывает 35 в графу «Фулл» и выходит вперёд"
        " (прежний лидер — Alice)." in page.text
    ), page.text


async def test_the_last_turn_that_overtakes_or_draws_level_is_named(world: World) -> None:
    final = await play(world)
    (page,) = telegram_draw.draw(T, final)
    said = "🎯 Decided on the last turn: Bob scored 35 in Full house and overtook Alice."
    assert said in page.text


async def test_a_last_turn_that_draws_level_says_so(world: World) -> None:
    final = await play(world, bobs_last=(5, (6, 1, 2, 2, 3)))  # Sixes 6: 16 each
    assert {p.name for p in final.view.winners} == {"Alice", "Bob"}
    (page,) = telegram_draw.draw(T, final)
    said = "🎯 Decided on the last turn: Bob scored 6 in Sixes and drew level with Alice."
    assert said in page.text


async def test_a_game_the_leader_keeps_has_no_verdict(world: World) -> None:
    final = await play(world, bobs_last=(5, SMALL))  # Bob ends on 10: Alice led and wins
    (page,) = telegram_draw.draw(T, final)
    assert "Decided" not in page.text and "🏆 Winner: Alice" in page.text


async def test_a_big_general_that_ends_the_game_early_is_said_plainly(world: World) -> None:
    final = await play(world, big_general_in_round=3)
    (page,) = telegram_draw.draw(T, final)
    said = "⚡ The game ended early, in round 3 of 10: Bob threw a big general and wins at once."
    assert said in page.text
    assert final.ratings[0].startswith("📈 Ratings here: Bob ")  # he ranks first


async def test_the_leaderboard_ranks_by_rating_unless_wins_are_asked_for(world: World) -> None:
    await play(world)
    alice, bob = shown_after([2, 1])
    asked = await world.command(ALICE, "leaderboard")
    (card,) = asked.publicly
    assert isinstance(card, cards.Records)
    assert card.lines == (
        "🏆 Top players here",
        f"This season ({SEASON}), by rating: rating · games · best",
        "Provisional (fewer than 5 games):",
        f"Bob — {bob}? · 1",
        f"Alice — {alice}? · 1",
    )
    (by_wins,) = (await world.command(ALICE, "leaderboard", "wins")).publicly
    assert isinstance(by_wins, cards.Records)
    assert by_wins.lines[1] == T("board-header", period=T("board-period-season", value=SEASON))
    (russian,) = (await world.command(ALICE, "leaderboard", "победы", locale="ru")).publicly
    assert isinstance(russian, cards.Records) and russian.lines[1].startswith(
        f"Этот сезон ({SEASON}): "
    )
    (rated,) = (await world.command(ALICE, "leaderboard", locale="ru")).publicly
    assert isinstance(rated, cards.Records)
    assert rated.lines[1] == f"Этот сезон ({SEASON}), по рейтингу: рейтинг · игры · лучший"
    (ever,) = (await world.command(ALICE, "leaderboard", "all")).publicly
    assert isinstance(ever, cards.Records)
    assert ever.lines[1] == "All time, by rating: rating · games · best"
    assert ever.lines[2:] == card.lines[2:]  # one game: this season's ratings are all time's


async def test_the_statistics_give_the_rating_its_uncertainty_best_and_trend(
    world: World,
) -> None:
    await play(world)
    alice, _ = shown_after([2, 1])
    (card,) = (await world.command(ALICE, "stats")).publicly
    assert isinstance(card, cards.Records)
    lines = card.lines
    assert f"Rating (every chat): {alice}?, best {alice}" in lines
    (skill,) = [line for line in lines if line.startswith("Skill ")]
    assert " ± " in skill and "cautious" in skill
    assert "Provisional: 1 of the first 5 games played." in lines
    assert f"The last game: {sparkline([1000, alice])} −{1000 - alice}" in lines
    (russian,) = (await world.command(ALICE, "stats", locale="ru")).publicly
    assert isinstance(russian, cards.Records)
    assert f"Рейтинг (во всех чатах): {alice}?, лучший {alice}" in russian.lines
    assert any(line.startswith("Сила ") and "," in line for line in russian.lines)  # 24,1


def test_fifty_players_long_names_each_rating_within_every_platforms_limits() -> None:
    people = [
        PlayerRef(str(100 + n), f"Player {n} " + "with a very long name" * 30) for n in range(50)
    ]
    roller = ScriptedRoller()
    fifty = Open(Variants(table_cap=50))
    game, _ = open_lobby("fiftyaaa", ChannelKey("tg", "-1"), people[0], fifty)
    for person in people[1:]:
        game, _ = apply(game, person, Join(), roller)
    roller.push([1, 1, 1, 1, 2] + [6, 6, 6, 6, 5] * 49)  # the host throws lowest: first
    game, _ = apply(game, people[0], Start(), roller)
    roller.push([4] * 5)
    game, events = apply(game, people[0], Roll(), roller)  # a big general ends it at once
    view = make_view(game, None, events)
    changes = [
        Change("tg:-1:", p.id, None, Skill(25 - n / 10, 8), 1, 1000) for n, p in enumerate(people)
    ]
    for t in (T, RU):
        lines = rating_line(t, view, changes)
        assert len(lines) == 51 and lines[0] == t("rating-line", players="").rstrip()
        final = cards.Final(view, (), None, tuple(lines))
        for pages, limit in (
            ([page.text or "" for page in telegram_draw.draw(t, final)], TELEGRAM_LIMIT),
            ([page.content or "" for page in discord_draw.draw(t, final)], DISCORD_LIMIT),
        ):
            assert all(len(page) <= limit for page in pages)
            shown = "\n".join(pages)
            assert all(line in shown for line in lines[1:])  # nobody's rating cut off


@pytest.mark.parametrize(
    ("locale", "won"),
    [
        ("en", "🏆 Winner: Bob, with a big general."),
        ("ru", "🏆 Победитель — Bob: большой генерал."),
    ],
)
async def test_a_big_generals_winner_is_said_to_have_won_by_it_not_by_points(
    world: World, locale: str, won: str
) -> None:
    """Bob throws it on his first turn: he has no points yet, and the final message says how
    he won, in the table's language, as either platform draws it."""
    final = await play(world, locale=locale, big_general_in_round=1)
    t = translator(locale)
    points = t("game-winner", names="Bob", total=0)
    telegram = "\n".join(page.text for page in telegram_draw.draw(t, final))
    discord = "\n".join(page.content or "" for page in discord_draw.draw(t, final))
    for text in (telegram, discord):
        assert won in text and points not in text
