"""A Telegram group become a supergroup: everything of the chat moves to its new id, once."""

from __future__ import annotations

from dataclasses import replace

import orjson

from core.actions import Open, Roll
from core.chat_settings import ChatSettings
from core.dice import ScriptedRoller
from core.identity import ChannelKey
from core.service import GameService
from tests.storage.conftest import Backend, Repository
from tests.storage.tables import ALICE, BOB, Table, started_pair
from tests.storage.test_records import ANN, play

OLD, NEW = "-100", "-1009"
IN_TOPIC = ChannelKey("telegram", OLD, "7")
MOVED_TOPIC = ChannelKey("telegram", NEW, "7")
LOOKALIKE = ChannelKey("telegram", f"{OLD}0")  # its id starts with the old one's
ELSEWHERE = ChannelKey("discord", OLD)  # the same id on another platform
STRONG_WEAK = {ANN.id: [6, 6, 6, 5, 5], "2": [1, 2, 3, 4, 5]}  # every turn's throw: Ann wins


def board(chat: str, message: int) -> str:
    """A board reference as adapters.chat.boards.BoardRef.dumps writes it."""
    return orjson.dumps({"chat": int(chat), "message": message}).decode()


async def everything(backend: Backend) -> list[list[tuple[object, ...]]]:
    return [
        await backend.raw(f"SELECT * FROM {table} ORDER BY 1")
        for table in ("games", "results", "boards", "chat_settings")
    ]


async def test_a_chat_moves_with_its_games_boards_settings_and_results(
    backend: Backend, repository: Repository
) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await play(service, roller, ChannelKey("telegram", OLD), STRONG_WEAK)
    topic = await started_pair(repository, "g-topic", IN_TOPIC)
    await repository.set_board("g-topic", board(OLD, 41))
    lookalike = Table(repository, "g-lookalike", LOOKALIKE)
    await lookalike.open(BOB)
    await repository.set_board("g-lookalike", board(LOOKALIKE.chat, 42))
    elsewhere = Table(repository, "g-elsewhere", ELSEWHERE)
    await elsewhere.open(BOB)
    chosen = ChatSettings(language="ru", table_cap=3)
    await repository.save_chat_settings("telegram", OLD, chosen)
    await repository.chat_settings("telegram", OLD)  # in memory too

    await repository.move_chat("telegram", OLD, NEW)

    assert topic.game is not None
    moved = await repository.active_game(MOVED_TOPIC)
    assert moved is not None and moved.channel == MOVED_TOPIC
    assert moved == replace(topic.game, channel=MOVED_TOPIC)
    assert await repository.active_game(IN_TOPIC) is None
    assert orjson.loads(await repository.board("g-topic") or "") == {
        "chat": int(NEW),
        "message": 41,
    }
    assert await repository.chat_settings("telegram", NEW) == chosen
    assert await repository.chat_settings("telegram", OLD) == ChatSettings()
    (standing, _) = await repository.leaderboard("telegram", ChannelKey("telegram", NEW), None)
    assert standing.player_id == ANN.id
    assert await repository.history(ChannelKey("telegram", OLD)) == []
    assert len(await repository.history(ChannelKey("telegram", NEW))) == 1
    # Nothing else moved.
    assert await repository.active_game(LOOKALIKE) == lookalike.game
    assert await repository.board("g-lookalike") == board(LOOKALIKE.chat, 42)
    assert await repository.active_game(ELSEWHERE) == elsewhere.game
    # The game goes on where it now is, and a restart finds it there too.
    table = Table(repository, "g-topic", MOVED_TOPIC)
    table.game = moved
    await table.do(ALICE, Roll(), [1, 2, 3, 4, 5])
    assert await (await backend.open()).active_game(MOVED_TOPIC) == table.game

    before = await everything(backend)
    await repository.move_chat("telegram", OLD, NEW)  # again: nothing left to move
    assert await everything(backend) == before


async def test_a_game_does_not_move_onto_a_thread_that_has_one(repository: Repository) -> None:
    """The new chat's own game stays; the old one stays where it was, both whole."""
    old = await started_pair(repository, "g-old", IN_TOPIC)
    new = Table(repository, "g-new", MOVED_TOPIC)
    await new.open(BOB)
    await repository.save_chat_settings("telegram", NEW, ChatSettings(table_cap=2))
    await repository.save_chat_settings("telegram", OLD, ChatSettings(table_cap=3))
    await repository.move_chat("telegram", OLD, NEW)
    assert await repository.active_game(MOVED_TOPIC) == new.game
    assert await repository.active_game(IN_TOPIC) == old.game
    assert await repository.chat_settings("telegram", NEW) == ChatSettings(table_cap=2)


async def test_a_new_game_opens_in_the_moved_chat_after_a_finished_one(
    repository: Repository,
) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await play(service, roller, ChannelKey("telegram", OLD), STRONG_WEAK)
    await repository.move_chat("telegram", OLD, NEW)
    outcome = await service.act(ChannelKey("telegram", NEW), ALICE, Open())
    assert await repository.last_finished(ChannelKey("telegram", NEW)) is not None
    assert outcome.game.channel == ChannelKey("telegram", NEW)
