"""What tests on every platform do to the database behind the bot: read its games, age a turn."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

LOT_ALICE_LOW = [1, 1, 1, 1, 2, 6, 6, 6, 6, 5]  # seating throws: Alice 6, Bob 29, so Alice starts


def game_rows(database: Path) -> list[tuple[str, str, str]]:
    """Every stored game as (channel, phase, snapshot), oldest first."""
    with sqlite3.connect(database) as db:
        sql = "SELECT channel, phase, snapshot FROM games ORDER BY created_at"
        return db.execute(sql).fetchall()


def age_the_turn(database: Path, seconds: float) -> None:
    """As if the bot had been down while the current turn's clock ran."""
    with sqlite3.connect(database) as db:
        ((game_id, snapshot),) = db.execute(
            "SELECT id, snapshot FROM games WHERE phase = 'playing'"
        ).fetchall()
        data = json.loads(snapshot)
        data["turn_started"] -= seconds
        db.execute("UPDATE games SET snapshot = ? WHERE id = ?", (json.dumps(data), game_id))
