"""`/general …` as asked: the help made from the catalogue, and the commands that answer
without a game or remove a player."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import cards, catalogue
from adapters.chat.commands import Target, kick
from adapters.chat.records import Order
from adapters.i18n import translator
from adapters.telegram.words import asked as typed
from core.identity import PlayerRef
from tests.chat.kit import ALICE, BOB, VOICES, T, World, opened
from tests.kit import LOT_ALICE_LOW


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


def test_the_help_shows_the_words_the_readers_language_types() -> None:
    """Russian help shows Russian words for the options, and those words are understood."""
    ru = translator("ru")
    lines = [f"{command} — {about}" for command, about in catalogue.usages(ru, typed=True)]
    assert any(line.startswith("/general sheet [текстом] — ") for line in lines)
    leaderboard = (
        "/general leaderboard [везде] [30д|всё|прошлый] [победы|удача|решения] [2026-11] — "
    )
    assert any(line.startswith(leaderboard) for line in lines)
    assert typed(["sheet", "текстом"]).text and typed(["sheet", "text"]).text
    orders = {
        ("удача",): Order.LUCK, ("Decisions", "30d"): Order.SKILL, ("победы",): Order.WINS,
        ("luck",): Order.LUCK, ("решения",): Order.SKILL, ("везде",): Order.RATING,
    }  # fmt: skip
    for words, order in orders.items():
        query = typed(["leaderboard", *words]).query
        assert query is not None and query.order is order, words
    assert not typed(["sheet", "картинкой"]).text


def test_the_help_lists_every_command() -> None:
    """One line per command of the catalogue, as each platform names its arguments."""
    for spaced, usage in (
        (True, "/general kick name"),  # typed after a space (Telegram)
        (False, "/general kick player"),  # named options (Discord)
    ):
        lines = [f"{command} — {about}" for command, about in catalogue.usages(T, typed=spaced)]
        assert len(lines) == len(catalogue.COMMANDS)
        for line, command in zip(lines, catalogue.COMMANDS, strict=True):
            assert line.startswith(f"/general {command.name}")
            assert line.endswith(T(command.about)) and T(command.about) != command.about
        assert any(line.startswith(usage + " — ") for line in lines)
    assert {c.name for c in catalogue.COMMANDS} == set(catalogue.NAMES)


@pytest.mark.parametrize("words", [["help"], [], ["rules"]])
async def test_help_and_rules_are_answered_privately(world: World, words: list[str]) -> None:
    """No chat message for asking how to play."""
    asked = await world.command(BOB, *words)
    assert asked.privately == [cards.Help(words[0] if words else "help")]
    assert world.platform.messages == []


async def test_an_unknown_word_gets_the_help_with_a_line_about_it(world: World) -> None:
    """The word is repeated so the person sees what went wrong."""
    asked = await world.command(BOB, "frobnicate")
    assert asked.privately == [cards.Help(preface=(T("chat-unknown", arg="frobnicate"),))]


async def test_commands_without_a_game_say_so(world: World) -> None:
    """Nothing to show, review, hint, join or stop at an empty table."""
    assert (await world.command(BOB, "sheet")).said() == [T("chat-sheet-none")]
    assert (await world.command(BOB, "review")).publicly == [cards.Lines((T("review-none"),))]
    for name in ("hint", "join", "stop", "kick"):
        assert (await world.command(BOB, name)).said() == [T("error-no-game")], name
    assert world.roller.remaining == 0


@pytest.mark.parametrize(
    ("words", "title"),
    [
        (["leaderboard"], "board-title"),
        (["leaderboard", "global"], "board-title-global"),
        (["history"], "history-empty"),
        (["stats"], "stats-none"),
    ],
)
async def test_records_are_said_in_the_chat(world: World, words: list[str], title: str) -> None:
    """Leaderboards, history and statistics go to everyone, as records."""
    (card,) = (await world.command(ALICE, *words)).publicly
    assert isinstance(card, cards.Records) and card.lines[0] == T(title, name="Alice")


async def test_stats_of_an_unknown_name_say_nobody_played(world: World) -> None:
    """A name typed after `stats` is looked up among this chat's players."""
    (card,) = (await world.command(ALICE, "stats", "@Nobody")).publicly
    assert card == cards.Records((T("stats-unknown", name="Nobody"),))


async def test_the_host_kicks_a_player_by_the_name_they_play_under(world: World) -> None:
    """`@` and case do not matter; the lobby is redrawn without them."""
    await world.command(ALICE, "start")
    await world.command(BOB, "join")
    kicked = await world.command(ALICE, "kick", "@bob")
    assert kicked.publicly[0] == cards.Lines((T("event-removed-kicked", name="Bob"),))
    assert [s.player.name for s in (await world.game()).seats if s.active] == ["Alice"]
    board = await world.board()
    assert isinstance(board.card, cards.Redrawn) and len(board.card.view.players) == 1


async def test_two_players_of_one_name_are_told_apart_not_guessed(world: World) -> None:
    """Kicking by a name two players go by removes nobody and says how to pick one; the one
    picked (Telegram: a reply or a mention; Discord: the player option) is removed."""
    other_bob = PlayerRef("33", "bob")
    await world.command(ALICE, "start")
    await world.command(BOB, "join")
    await world.command(other_bob, "join")
    asked = await world.command(ALICE, "kick", "Bob")
    assert asked.said() == [T("kick-ambiguous", name="Bob", platform="testchat")]
    assert not asked.publicly
    assert len([s for s in (await world.game()).seats if s.active]) == 3
    picked = world.asking(ALICE)
    await kick(world.tables, picked, Target(player_id=other_bob.id, name="@bob"), VOICES)
    assert picked.publicly[0] == cards.Lines((T("event-removed-kicked", name="bob"),))
    assert [s.player.id for s in (await world.game()).seats if s.active] == [ALICE.id, BOB.id]


async def test_kicks_that_cannot_be_done_are_explained(world: World) -> None:
    """A name not at the table, the host themselves, someone who is not the host."""
    await world.command(ALICE, "start")
    await world.command(BOB, "join")
    assert (await world.command(ALICE, "kick", "Carol")).said() == [T("error-cannot-kick")]
    assert (await world.command(ALICE, "kick", "Alice")).said() == [T("kick-self")]
    assert (await world.command(BOB, "kick", "Alice")).said() == [T("error-not-host", host="Alice")]
    picked = world.asking(ALICE)  # Discord's user picker names someone by id
    await kick(world.tables, picked, Target(player_id="99", name="Zed"), VOICES)
    assert picked.said() == [T("kick-not-seated", name="Zed")]
    assert len((await world.game()).seats) == 2


async def test_a_hints_refusals_are_for_the_asker_alone(world: World) -> None:
    """Not someone's turn, or no game: said aside (a platform whose command answers are chat
    replies sends them privately where it can)."""
    assert (await world.command(BOB, "hint")).privately == [cards.Aside((T("error-no-game"),))]
    await world.command(ALICE, "start")
    await world.command(BOB, "join")
    world.roller.push(LOT_ALICE_LOW)
    await world.press(await world.board(), ALICE, "b")
    asked = await world.command(BOB, "hint")
    assert asked.privately == [cards.Aside((T("error-not-your-turn", player="Alice"),))]
    assert not asked.publicly
