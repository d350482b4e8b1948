"""The live table opened from Discord: "Open the table" on a row of its own under the lobby and
every live board, its press answered privately with a personal link signed for this person at
this channel (or, for an application set up as an Activity, the Activity launched: response
type 12), /general table's link to watch; the boards within 5 rows of 5 at 1 and 50 seats."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from adapters.chat import cards, payload
from adapters.chat.plan import Redraw
from adapters.discord import render
from adapters.discord.draw import Discord, draw
from adapters.i18n import translator
from adapters.web.auth import AuthError, Kind, Signer
from core.actions import AddComputer, Join, Open, Roll, Score, Start
from core.boxes import Box
from core.dice import ScriptedRoller, SeededRoller
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.rules import Variants
from core.table import Game
from core.view import make_view
from tests.discord.kit import TOKEN, button, live_board, press, running_bot, slash
from tests.fakes.discord import CHANNEL_MESSAGE, FakeDiscord
from tests.fakes.discord.protocol import LAUNCH_ACTIVITY
from tests.parallel import free_port

BASE = "https://table.example.org/"


def web() -> dict[str, Any]:
    """The live table's settings, on a port of this worker's (the bot serves the page there)."""
    return {"general_web_url": BASE, "general_web_port": free_port()}


EN = translator("en")
OFFERED = Discord(table=True)


def opened(url: str, now: float) -> Any:
    """The grant a personal link carries, opened by the signer the bot derives from its token."""
    assert url.startswith(BASE)
    (token,) = parse_qs(urlsplit(url).query)["k"]
    return Signer.derived(TOKEN).open(token, kind=Kind.LINK, now=now)


async def test_the_press_answers_privately_with_a_link_for_this_person_here(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake.guild("Dice club")
    channel = fake.text_channel(guild, "general")
    ann, bob = fake.member(guild, "Ann"), fake.member(guild, "Bob", locale="ru")
    async with running_bot(fake, tmp_path / "g.db", monkeypatch, **web()):
        lobby = (await slash(fake, ann, channel, "start")).original
        assert lobby is not None
        assert [b.label for b in lobby.components[-1]] == [EN("btn-table")]  # its own row
        before = time.time()
        pressed = await press(fake, bob, lobby, payload.TABLE)  # not seated: a link all the same
        assert pressed.response is not None and pressed.response.type == CHANNEL_MESSAGE
        (answer,) = pressed.messages
        ru = translator("ru")
        assert answer.ephemeral and answer.text.startswith(f"**{ru('table-personal-title')}**")
        (link,) = answer.buttons
        assert link.label == ru("btn-table") and link.style == 5  # a link button
        grant = opened(link.url, time.time())
        assert (grant.table, grant.player_id) == (f"dc:{channel.id}:", str(bob.user.id))
        assert grant.name == "Bob" and before + 600 <= grant.expires <= time.time() + 600
        assert grant.locale == "ru"  # the page speaks Bob's language
        with pytest.raises(AuthError):
            opened(link.url, grant.expires)  # it expires
        assert live_board(fake, channel).id == lobby.id  # the lobby as it was
        await press(fake, ann, lobby, "b")
        board = live_board(fake, channel)
        assert [b.label for b in board.components[-1]] == [EN("btn-table")]
        assert len(board.components) <= 5 and all(len(row) <= 5 for row in board.components)
        mine = await press(fake, ann, board, payload.TABLE)
        (answer,) = mine.messages
        assert opened(answer.buttons[0].url, time.time()).player_id == str(ann.user.id)


async def test_an_activity_is_launched_instead(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake.guild("Dice club")
    channel = fake.text_channel(guild, "general")
    ann = fake.member(guild, "Ann")
    async with running_bot(fake, tmp_path / "g.db", monkeypatch, discord_activity=True, **web()):
        lobby = (await slash(fake, ann, channel, "start")).original
        assert lobby is not None
        launched = await press(fake, ann, lobby, payload.TABLE)
        assert launched.response is not None and launched.response.type == LAUNCH_ACTIVITY
        assert launched.messages == []  # no link said besides


async def test_a_refused_launch_gives_the_link_instead(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DISCORD_ACTIVITY set for an application Discord knows no Activity of: the press is
    answered with the person's link all the same."""
    fake.activity = False
    guild = fake.guild("Dice club")
    channel = fake.text_channel(guild, "general")
    ann = fake.member(guild, "Ann")
    async with running_bot(fake, tmp_path / "g.db", monkeypatch, discord_activity=True, **web()):
        lobby = (await slash(fake, ann, channel, "start")).original
        assert lobby is not None
        pressed = await press(fake, ann, lobby, payload.TABLE)
        assert pressed.response is not None and pressed.response.type == CHANNEL_MESSAGE
        (answer,) = pressed.messages
        assert answer.ephemeral
        assert opened(answer.buttons[0].url, time.time()).player_id == str(ann.user.id)
    refused = [r for r in fake.requests if r.status == 400]
    assert len(refused) == 1 and refused[0].path.endswith("/callback")


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_general_table_gives_the_link_to_watch(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    t = translator(language)
    guild = fake.guild("Dice club")
    channel = fake.text_channel(guild, "general")
    ann = fake.member(guild, "Ann")
    ivan = fake.member(guild, "Ivan", locale="ru" if language == "ru" else "en-US")
    async with running_bot(fake, tmp_path / "g.db", monkeypatch, **web()):
        none = await slash(fake, ivan, channel, "table")
        assert none.ephemeral_texts() == [t("table-none")]
        await slash(fake, ann, channel, "start")
        game_id = (button(live_board(fake, channel), "j").custom_id or "").split("|")[1]
        asked = await slash(fake, ivan, channel, "table")
        said = asked.original
        assert said is not None and not said.ephemeral  # said to the channel
        link = f"{BASE}?t={game_id}"
        assert said.text == f"{render.esc(EN('table-spectator'))}\n{render.esc(link)}"
        (opening,) = said.buttons
        assert (opening.label, opening.url) == (EN("btn-table"), link)


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_without_web_settings_no_table(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    guild = fake.guild("Dice club")
    channel = fake.text_channel(guild, "general")
    ann = fake.member(guild, "Ann", locale="ru" if language == "ru" else "en-US")
    async with running_bot(fake, tmp_path / "g.db", monkeypatch):
        lobby = (await slash(fake, ann, channel, "start")).original
        assert lobby is not None and len(lobby.components) == 2
        assert not any((b.custom_id or "").endswith(payload.TABLE_END) for b in lobby.buttons)
        asked = await slash(fake, ann, channel, "table")
        assert asked.ephemeral_texts() == [translator(language)("table-off")]
        old = await press(fake, ann, lobby, custom_id=lobby.buttons[0].custom_id[:-1] + "o")
        assert old.ephemeral_texts() == [translator(language)("table-off")]


# --------------------------------------------------------------------- Discord's limits


def seated(seats: int) -> tuple[Game, list[PlayerRef]]:
    """A lobby of one person and `seats - 1` others (people, then computers past ten)."""
    host = PlayerRef(str(10**17), "Host")
    game, _ = open_lobby("abcdefgh", ChannelKey("dc", "1"), host, Open(Variants(table_cap=50)))
    players = [host]
    for n in range(1, seats):
        if n < 10:
            person = PlayerRef(str(10**17 + n), f"Player {n}")
            game, _ = apply(game, person, Join(), ScriptedRoller())
            players.append(person)
        else:
            game, _ = apply(game, host, AddComputer(Level.NOVICE, f"CPU {n}"), ScriptedRoller())
    return game, players


def rows(card: cards.Card) -> list[list[dict[str, Any]]]:
    (page,) = draw(EN, card, OFFERED)
    assert page.view is not None
    return [row["components"] for row in page.view.to_components()]


def within(drawn: list[list[dict[str, Any]]]) -> None:
    assert len(drawn) <= 5 and all(len(row) <= 5 for row in drawn)
    ids = [b["custom_id"] for row in drawn for b in row]
    assert len(set(ids)) == len(ids) and all(len(i) <= 100 for i in ids)
    assert drawn[-1] == [render.button(drawn[-1][0]["custom_id"], EN("btn-table"))]
    assert drawn[-1][0]["custom_id"].endswith(payload.TABLE_END)


@pytest.mark.parametrize("seats", [1, 50])
def test_every_board_keeps_within_five_rows_of_five(seats: int) -> None:
    game, players = seated(seats)
    lobby = rows(cards.Board(make_view(game)))
    within(lobby)
    assert [len(row) for row in lobby] == [4, 4, 1]
    game, _ = apply(game, players[0], Start(), SeededRoller(3))
    while game.seats[game.current].player.is_computer:  # to a person's turn
        game, _ = apply(
            game, game.seats[game.current].player, Roll(), ScriptedRoller([1, 1, 2, 3, 4])
        )
        game, _ = apply(game, game.seats[game.current].player, Score(Box.ONES), ScriptedRoller())
    current = game.seats[game.current].player
    first = rows(cards.Board(make_view(game), notify=True))
    within(first)
    game, _ = apply(game, current, Roll(), ScriptedRoller([1, 3, 4, 5, 6]))
    thrown = rows(cards.Redrawn(Redraw.TURN, make_view(game)))
    within(thrown)
    assert [len(row) for row in thrown] == [5, 3, 5, 5, 1]  # the most a board holds
    game, _ = apply(game, current, Score(Box.STRAIGHT), ScriptedRoller())
    after = rows(cards.Board(make_view(game), notify=True))  # with its take-back, if a person's
    within(after)
