"""What tests on every platform do to the database behind the bot: read its games, age a turn."""

from __future__ import annotations

import html
import json
import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from core.dice import Dice, SeededRoller

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


class Rigged(SeededRoller):
    """Seeded dice, but the throws pushed come first (to end a long game at once)."""

    def __init__(self) -> None:
        super().__init__(2024)
        self.pushed: list[Dice] = []

    def roll(self, count: int) -> Dice:
        return self.pushed.pop(0) if self.pushed else super().roll(count)


# A command a text names, with its subcommand and arguments as typed: not words of a language.
COMMAND_WORDS = re.compile(
    r"/\w+(?:@\w+)?(?: (?:start|join|leave|sheet|hint|review|help|rules|stop|kick|settings"
    r"|leaderboard|stats|history|text|global|30d|chances|forget|verify|table))*"
)
# The dice's seal and seed (DICE.md), whole or in groups of four, and the hash's name: no words.
HEX = re.compile(r"\b[0-9a-f]{16,}\b|\b[0-9a-f]{4}(?: [0-9a-f]{4}){3}\b|SHA-256")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def foreign_words(texts: Iterable[str], language: str, names: Iterable[str] = ()) -> list[str]:
    """What in `texts` is not in `language`: Latin words in Russian, Cyrillic in English (the
    commands a text names, mentions and the players' names aside)."""
    found = []
    for text in texts:
        plain = html.unescape(re.sub(r"<[^>]+>", "", text))
        for name in names:
            plain = plain.replace(name, "")
        plain = HEX.sub("", COMMAND_WORDS.sub("", plain))
        plain = re.sub(r"https?://\S+|<[@#!&]*\d+>|@\w+", "", plain)
        if language == "ru":
            found += [f"{word!r} in {text!r}" for word in LATIN_WORD.findall(plain)]
        elif CYRILLIC.search(plain.replace("Генерал", "")):
            found.append(repr(text))
    return found
