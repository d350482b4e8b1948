"""The console front end in-process: parsing, rendering, and whole games on real storage."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

import pytest

from adapters.console.app import CHANNEL, run_console
from adapters.console.commands import BadBox, BadDice, Meta, Unknown, parse
from adapters.console.render import render_board
from adapters.i18n import translator
from adapters.sqlite import SqliteRepository
from core.actions import Hold, Open, Roll, Score, Start
from core.boxes import Box
from core.dice import ScriptedRoller, SeededRoller
from core.game import Phase, apply, open_lobby
from core.identity import PlayerRef
from core.service import GameService
from core.view import make_view

T = translator("en")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("r", Roll()),
        ("  ROLL ", Roll()),
        ("h 1 3 5", Hold(frozenset({0, 2, 4}))),
        ("hold 2,4", Hold(frozenset({1, 3}))),
        ("h", Hold(frozenset())),
        ("s 2", Score(Box.TWOS)),
        ("s full", Score(Box.FULL_HOUSE)),
        ("score full house", Score(Box.FULL_HOUSE)),
        ("s 10", Score(Box.GENERAL)),
        ("s стрит", Score(Box.STRAIGHT)),
        ("", Meta.EMPTY),
        ("help", Meta.HELP),
        ("q", Meta.QUIT),
        ("sheet", Meta.SHEET),
        ("h 6", BadDice()),
        ("h x", BadDice()),
        ("s 11", BadBox("11")),
        ("dance", Unknown("dance")),
    ],
)
def test_parse(line: str, expected: object) -> None:
    assert parse(line) == expected


class Script:
    """Answers the console's questions from a list and records everything it says."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.said: list[str] = []

    async def ask(self, prompt: str) -> str | None:
        self.said.append(prompt)
        return self.lines.pop(0) if self.lines else None

    def say(self, text: str) -> None:
        self.said.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.said)


async def open_service(tmp_path: Path, roller: ScriptedRoller) -> GameService:
    return GameService(await SqliteRepository.open(tmp_path / "g.db"), roller)


async def test_solo_game_to_the_end_with_bad_input_answered(tmp_path: Path) -> None:
    roller = ScriptedRoller([2, 2, 4, 6, 3] * 10)
    service = await open_service(tmp_path, roller)
    lines = ["Solo", "s 1", "bogus", "h 9", "s nothing", "r"]
    lines += [f"s {n}" if step else "r" for n in range(1, 11) for step in (0, 1)][1:]
    script = Script([*lines, "n"])
    await run_console(service, T, script.ask, script.say)
    text = script.text
    assert "Throw the dice first." in text  # "s 1" before rolling changed nothing
    assert 'Unknown command "bogus"' in text
    assert "Dice are numbered 1 to 5" in text
    assert 'There is no box "nothing"' in text
    assert "A solo game begins. Good luck, Solo!" in text
    assert "The game is over." in text and "Winner: Solo with" in text
    # 2-2-4-6-3 every turn: Twos 4 + Threes 3 + Fours 4 + Sixes 6, every other box 0.
    assert "Winner: Solo with 17 points." in text
    assert await service.game(CHANNEL) is None
    await service.repository.close()


async def test_quit_then_resume_or_decline(tmp_path: Path) -> None:
    # The lot: Ann 6, Ben 29, so Ann starts; her first throw 1-2-3-4-6 is no straight.
    roller = ScriptedRoller([1, 1, 1, 1, 2, 6, 6, 6, 6, 5, 1, 2, 3, 4, 6])
    service = await open_service(tmp_path, roller)
    first = Script(["Ann, Ben", "r", "q"])
    await run_console(service, T, first.ask, first.say)
    assert "The game is saved." in first.text
    game = await service.game(CHANNEL)
    assert game is not None and game.phase is Phase.PLAYING and game.turn.throws == 1

    resumed = Script(["y", "s straight", "q"])
    await run_console(service, T, resumed.ask, resumed.say)
    assert "An unfinished game was found (Ann, Ben, round 1)" in resumed.text
    game = await service.game(CHANNEL)
    assert game is not None and game.seats[0].score_of(Box.STRAIGHT) == 0

    declined = Script(["n", "Cid", "q"])
    await run_console(service, T, declined.ask, declined.say)
    game = await service.game(CHANNEL)
    assert game is not None and [s.player.name for s in game.seats] == ["Cid"]
    await service.repository.close()


def test_board_lists_open_boxes_with_points_and_marks_held_dice() -> None:
    roller = ScriptedRoller([5, 5, 5, 5, 1, 6])
    ann = PlayerRef("1", "Ann")
    game, _ = open_lobby("g", CHANNEL, ann, Open())
    game, _ = apply(game, ann, Start(), roller)
    game, _ = apply(game, ann, Roll(), roller)
    game, _ = apply(game, ann, Hold(frozenset({0, 1})), roller)
    board = render_board(T, make_view(game, ann.id))
    assert "Ann's turn · round 1/10 · throw 1/3" in board
    assert "[⚄ 5] [⚄ 5]  ⚄ 5   ⚄ 5   ⚀ 1" in board
    assert "Four          45" in board and "Fives         20" in board


async def test_against_computers_with_hint_and_review(tmp_path: Path) -> None:
    service = GameService(await SqliteRepository.open(tmp_path / "g.db"), SeededRoller(5))
    lines = ["Ann, +master, +novice", "hint"]
    lines += [line for n in range(1, 11) for line in ("r", "hint", f"s {n}")]
    script = Script([*lines, "n"])
    await run_console(service, T, script.ask, script.say, pause=0)
    text = script.text
    assert "🤖 Master" in text and "🤖 Novice" in text
    assert "Throw the dice first." in text  # a hint before throwing
    assert text.count("Best play now (expected final points):") >= 1
    assert "How everyone played" in text
    assert "Ann:" in text.split("How everyone played")[1]
    assert "🤖 Master:" not in text.split("How everyone played")[1]  # computers are not reviewed
    results = await service.repository.results(await _last_game_id(tmp_path))
    assert [r["name"] for r in sorted(results, key=lambda r: r["name"])] == [
        "Ann",
        "🤖 Master",
        "🤖 Novice",
    ]
    await service.repository.close()


async def _last_game_id(tmp_path: Path) -> str:
    with sqlite3.connect(tmp_path / "g.db") as db:
        return str(db.execute("SELECT id FROM games ORDER BY created_at DESC").fetchone()[0])
