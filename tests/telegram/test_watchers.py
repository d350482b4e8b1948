"""A second viewer of a table: whatever moves a game played from Telegram (a person's press, a
command, the clock, a computer), every outcome reaches every watcher of its channel, in the
order it was saved, as a spectator sees it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from adapters.sqlite import SqliteRepository
from adapters.telegram.calls import PLATFORM
from bot.app import chat_front_ends
from core.dice import SeededRoller
from core.events import DiceRolled, TurnReminder, TurnTimedOut, event_to_dict
from core.identity import ChannelKey
from core.service import GameService
from tests.fakes.telegram import FakeTelegram
from tests.telegram.kit import bot_settings, live_board, press, to_move

ANN_ID = 1001


def stored_log(database: Path) -> list[tuple[int, str]]:
    """Every event of the channel's game as stored: its version and its kind."""
    with sqlite3.connect(database) as db:
        return db.execute("SELECT version, kind FROM events ORDER BY seq").fetchall()


def computer_rolled(database: Path) -> bool:
    with sqlite3.connect(database) as db:
        return bool(
            db.execute(
                "SELECT 1 FROM events WHERE kind = 'dice_rolled'"
                " AND json_extract(data, '$.player_id') LIKE 'cpu-%'"
            ).fetchall()
        )


async def test_a_second_watcher_sees_every_outcome_presses_clock_and_computers(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    now = [1_000_000.0]
    database = tmp_path / "general.db"
    repository = await SqliteRepository.open(database)
    service = GameService(repository, SeededRoller(7), clock=lambda: now[0])
    (front,) = chat_front_ends(bot_settings(fake, database), service)
    ann = fake.user(ANN_ID, "Ann")
    group = fake.chat(-100900, title="Watched")
    channel = ChannelKey(PLATFORM, str(group.id))
    table, everything = service.watch(channel), service.watch()
    elsewhere = service.watch(ChannelKey(PLATFORM, "-1"))
    await front.start()
    try:
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        await press(fake, ann, live_board(fake, group), "+ Novice")
        await press(fake, ann, live_board(fake, group), "Start")
        # Ann plays until her turn's clock runs out with a throw on the table; the computer
        # plays its own turns meanwhile.
        for _ in range(40):
            await fake.wait_for(lambda: to_move(fake, group, ann), timeout=20)
            await fake.settle()
            if computer_rolled(database):
                break
            await press(fake, ann, live_board(fake, group), "Roll")
            board = live_board(fake, group)
            await press(fake, ann, board, next(b.text for b in board.buttons if "·" in b.text))
        await press(fake, ann, live_board(fake, group), "Roll")
        now[0] += 601  # past the reminder and the end of her ten minutes
        await service.resume_deadlines(PLATFORM)
        await fake.wait_for(
            lambda: any("Time is up for Ann" in m.plain_text for m in fake.bot_messages(group)),
            timeout=20,
        )
        await fake.settle()
    finally:
        await front.stop()
        await service.close()
        await repository.close()
    watched = table.pending()
    versions = [outcome.game.version for outcome in watched]
    assert versions == sorted(set(versions)) and versions[0] == 1  # each once, in order
    log = [(outcome.game.version, e) for outcome in watched for e in outcome.events]
    assert [(v, event_to_dict(e)["kind"]) for v, e in log] == stored_log(database)
    events = [e for _, e in log]
    assert any(isinstance(e, TurnReminder) for e in events)
    assert any(isinstance(e, TurnTimedOut) for e in events)
    assert any(isinstance(e, DiceRolled) and e.player_id.startswith("cpu-") for e in events)
    assert all(outcome.view.viewer_id is None for outcome in watched)  # a spectator's view
    assert [o.game.version for o in everything.pending()] == versions
    assert elsewhere.pending() == [] and table.missed == 0
