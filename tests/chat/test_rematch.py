"""The final message's Rematch, without a platform: the new lobby built from the finished game
(core.rematch), the service's refusals, and the chat layer's press on the recording platform."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from adapters.chat import cards, payload, presses
from adapters.i18n import translator
from core.actions import AddComputer, Cancel, Join, Kick, Leave, Open, Roll, Start
from core.dice import ScriptedRoller
from core.errors import ErrorCode, GameError
from core.events import EndReason, LobbyOpened, PlayerJoined
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.rematch import rematch_lobby
from core.rules import Variants
from core.table import Game, Phase
from tests.chat.kit import ALICE, BOB, CHANNEL, OTHER, Message, RecordingExchange, T, World, opened

CAROL = PlayerRef("33", "Carol")
RU = translator("ru")
BIG = (3, 3, 3, 3, 3)
# Bob throws lowest, so the table plays Bob, the computer, Alice.
LOT_BOB_LOW = (6, 6, 6, 6, 5, 1, 1, 1, 1, 2, 5, 5, 5, 5, 4)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


# ------------------------------------------------------------------------------ the core alone


def finished(*, leaver: bool = False) -> Game:
    """Alice, Bob, Carol and two computers played; Bob threw a big general at once. `leaver`:
    Carol left during the game."""
    roller = ScriptedRoller()
    variants = Variants(hints=False, turn_timer=120)
    game, _ = open_lobby("oldgame2", CHANNEL, ALICE, Open(variants, language="ru"))
    for player in (BOB, CAROL):
        game, _ = apply(game, player, Join(), roller)
    for level in (Level.NOVICE, Level.MASTER):
        game, _ = apply(game, ALICE, AddComputer(level, level.value), roller)
    # Alice, Bob, Carol, Novice, Master throw the lot: Bob lowest.
    roller.push((6,) * 5 + (1,) * 5 + (5,) * 5 + (4,) * 5 + (3,) * 5)
    game, _ = apply(game, ALICE, Start(), roller)
    if leaver:
        game, _ = apply(game, CAROL, Leave(), roller)
    roller.push(BIG)
    game, _ = apply(game, BOB, Roll(), roller)
    assert game.end_reason is EndReason.BIG_GENERAL
    return game


def test_the_presser_hosts_and_the_others_keep_their_order() -> None:
    old = finished()
    assert [s.player.name for s in old.seats] == ["Bob", "Carol", "novice", "master", "Alice"]
    new, events = rematch_lobby(old, "newgame2", CAROL, now=5.0)
    assert new.phase is Phase.LOBBY and new.id == "newgame2" and new.version == 1
    assert (new.channel, new.variants, new.language) == (old.channel, old.variants, "ru")
    assert new.host_id == CAROL.id
    assert [s.player.name for s in new.seats] == ["Carol", "Bob", "novice", "master", "Alice"]
    assert [s.player.id for s in new.seats][2:4] == ["cpu-novice-1", "cpu-master-2"]
    assert all(s.total == 0 and s.active for s in new.seats)
    assert events == (
        LobbyOpened(CAROL.id, rematch_of="oldgame2"),
        *(PlayerJoined(s.player.id, s.player.name) for s in new.seats),
    )


def test_who_left_the_old_table_is_not_seated_again_but_may_call_the_rematch() -> None:
    old = finished(leaver=True)
    new, _ = rematch_lobby(old, "newgame2", ALICE)
    assert [s.player.name for s in new.seats] == ["Alice", "Bob", "novice", "master"]
    again, _ = rematch_lobby(old, "newgame3", CAROL)
    assert [s.player.name for s in again.seats] == ["Carol", "Bob", "novice", "master", "Alice"]


def test_computers_are_numbered_anew_so_the_lobby_can_add_more() -> None:
    """A computer taken off the old lobby left the next one numbered 2: the rematch numbers it
    1, so that a computer the host adds next never takes an id already seated."""
    old = finished()
    seats = tuple(s for s in old.seats if s.player.id != "cpu-novice-1")
    new, _ = rematch_lobby(replace(old, seats=seats), "newgame2", ALICE)
    assert [s.player.id for s in new.seats if s.player.is_computer] == ["cpu-master-1"]
    more, _ = apply(new, ALICE, AddComputer(Level.MASTER, "m"), ScriptedRoller())
    assert len({s.player.id for s in more.seats}) == len(more.seats)


def test_only_a_recorded_game_and_only_its_people_get_a_rematch() -> None:
    old = finished()
    with pytest.raises(GameError) as outsider:
        rematch_lobby(old, "newgame2", PlayerRef("44", "Dan"))
    assert outsider.value.code is ErrorCode.NOT_AT_TABLE
    roller = ScriptedRoller()
    lobby, _ = open_lobby("oldgame3", CHANNEL, ALICE, Open())
    cancelled, _ = apply(lobby, ALICE, Cancel(), roller)
    for game in (lobby, cancelled):
        with pytest.raises(GameError) as refused:
            rematch_lobby(game, "newgame2", ALICE)
        assert refused.value.code is ErrorCode.REMATCH_UNAVAILABLE


# ------------------------------------------------------------------------------ the chat layer


async def played(world: World) -> Message:
    """Alice opens a Russian table, Bob joins, a Novice sits down; Bob throws a big general at
    once. The final message."""
    await world.command(ALICE, "start", locale="ru")
    await world.command(BOB, "join")
    lobby = await world.board()
    await world.press(lobby, ALICE, "an")
    world.roller.push(LOT_BOB_LOW)
    await world.press(lobby, ALICE, "b")
    world.roller.push(BIG)
    await world.press(await world.board(), BOB, "r")
    (final,) = world.platform.of(cards.Final)
    return final


async def rematch(
    world: World, message: Message, person: PlayerRef, data: str | None = None, **switches: object
) -> RecordingExchange:
    """Press the final message's Rematch (or send `data` as if pressed on `message`)."""
    exchange = world.pressing(message, person, **switches)
    if data is None:
        (data,) = message.buttons
    await presses.press(world.tables, exchange, data)
    await world.tables.redraws.idle()
    return exchange


async def test_a_player_s_press_opens_the_lobby_with_everyone_seated(world: World) -> None:
    final = await played(world)
    assert isinstance(final.card, cards.Final)
    old = final.card.view
    assert final.buttons == (payload.encode(old.game_id, old.version, payload.REMATCH),)
    sent = len(world.platform.messages)
    pressed = await rematch(world, final, ALICE, locale="en")
    assert pressed.said() == [] and pressed.notes == [T("rematch-opened")]
    game = await world.game()
    assert game.phase is Phase.LOBBY and game.id != old.game_id and game.host_id == ALICE.id
    computer = RU("computer-novice")
    assert [s.player.name for s in game.seats] == ["Alice", "Bob", computer]
    assert game.language == "ru"
    (lobby,) = world.platform.messages[sent:]  # a new message, as /general start's lobby
    assert isinstance(lobby.card, cards.Board) and lobby.card.notify
    assert lobby.languages == ["ru"]  # the old table's language, not the presser's
    assert lobby == await world.board() and lobby.buttons
    (opening, *_) = await world.repository.events(game.id)
    # Its dice are committed afresh: a new seed, its commitment told before any throw.
    assert opening == LobbyOpened(ALICE.id, rematch_of=old.game_id, commitment=game.commitment)
    assert game.commitment and game.commitment != old.commitment
    assert final.buttons and not final.stripped  # the final message keeps its button


async def test_a_second_press_points_to_the_rematch_already_open(world: World) -> None:
    final = await played(world)
    await rematch(world, final, ALICE)
    game = await world.game()
    sent = len(world.platform.messages)
    for person in (ALICE, BOB):
        again = await rematch(world, final, person, locale="en")
        assert again.said() == [T("error-rematch-open")]
    assert await world.game() == game and len(world.platform.messages) == sent


async def test_someone_who_did_not_play_is_refused_privately(world: World) -> None:
    final = await played(world)
    sent = len(world.platform.messages)
    carol = await rematch(world, final, CAROL, locale="en")
    assert carol.said() == [T("error-not-at-table")] and carol.private_languages == ["en"]
    assert carol.publicly == [] and len(world.platform.messages) == sent
    assert await world.service.game(world.channel) is None


async def test_another_game_at_the_table_is_shown_again_not_doubled(world: World) -> None:
    final = await played(world)
    await world.command(BOB, "start")
    other = await world.game()
    first_board = await world.board()
    pressed = await rematch(world, final, ALICE, locale="en")
    assert pressed.said() == [T("error-game-exists")]
    assert await world.game() == other
    board = await world.board()
    assert board is not first_board and first_board.stripped  # the lobby at the bottom again


async def test_forged_and_stale_payloads_change_nothing(world: World) -> None:
    final = await played(world)
    assert isinstance(final.card, cards.Final)
    old = final.card.view
    sent = len(world.platform.messages)
    old_board = next(m for m in world.platform.messages if isinstance(m.card, cards.Redrawn))
    real = payload.encode(old.game_id, old.version, payload.REMATCH)
    forged = (
        (old_board, real),  # the right payload on a message without that button
        (final, payload.encode(old.game_id, old.version - 1, payload.REMATCH)),
        (final, payload.encode("zzzzzzzz", old.version, payload.REMATCH)),
        (final, real + "x"),
        (final, real.replace("|m", "|mm")),
    )
    for message, data in forged:
        exchange = await rematch(world, message, ALICE, data)
        assert exchange.said() == [T("error-bad-action")], data
    assert await world.service.game(world.channel) is None
    assert len(world.platform.messages) == sent


async def test_the_service_refuses_a_rematch_of_another_place_or_version(world: World) -> None:
    final = await played(world)
    assert isinstance(final.card, cards.Final)
    old = final.card.view
    for channel, game_id, version in (
        (OTHER, old.game_id, old.version),
        (ChannelKey(CHANNEL.platform, CHANNEL.chat, "7"), old.game_id, old.version),
        (CHANNEL, old.game_id, old.version + 1),
        (CHANNEL, "zzzzzzzz", None),
    ):
        with pytest.raises(GameError) as refused:
            await world.service.rematch(channel, ALICE, game_id, version=version)
        assert refused.value.code is ErrorCode.REMATCH_UNAVAILABLE
    assert (await world.service.rematch(CHANNEL, BOB, old.game_id)).game.host_id == BOB.id


async def test_a_cancelled_game_s_final_message_has_no_rematch(world: World) -> None:
    await world.command(ALICE, "start")
    await world.command(BOB, "join")
    world.roller.push((1,) * 5 + (6,) * 5)
    await world.press(await world.board(), ALICE, "b")
    stop = await world.command(ALICE, "stop")
    final = stop.publicly[-1]
    assert isinstance(final, cards.Final) and final.view.end_reason is EndReason.CANCELLED
    assert payload.rematch(final.view) is None
    assert world.platform.of(cards.Final)[-1].buttons == ()


def test_the_payload_is_short_and_parsed_strictly() -> None:
    data = payload.encode("abcdefgh", 123456789, payload.REMATCH)
    assert len(data.encode()) <= 64
    press = payload.decode(data)
    assert press is not None and (press.code, press.action, press.computer) == ("m", None, None)
    for bad in ("g1|abcdefgh|1|m0", "g1|abcdefgh|1|M", "g1|ABCDEFGH|1|m", "g1|abcdefgh||m"):
        assert payload.decode(bad) is None, bad


async def test_a_kicked_player_is_not_brought_back(world: World) -> None:
    """Through the service: Bob was removed by the host, so Alice's rematch seats her alone."""
    service = world.service
    await service.act(CHANNEL, ALICE, Open())
    await service.act(CHANNEL, BOB, Join())
    world.roller.push((1,) * 5 + (6,) * 5)
    await service.act(CHANNEL, ALICE, Start())
    await service.act(CHANNEL, ALICE, Kick(BOB.id))
    world.roller.push(BIG)
    ended = await service.act(CHANNEL, ALICE, Roll())
    assert ended.game.end_reason is EndReason.BIG_GENERAL
    new = await service.rematch(CHANNEL, ALICE, ended.game.id, version=ended.game.version)
    assert [s.player.id for s in new.game.seats] == [ALICE.id]
