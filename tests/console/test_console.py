"""Whole console sessions in-process, on real storage, answered from a script."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

from adapters.console.app import CHANNEL, ConsoleGame, run_console
from adapters.console.commands import MAX_LINE
from adapters.console.render import help_text
from adapters.i18n import Translator, translator
from adapters.sqlite import SqliteRepository
from core.boxes import Box
from core.dice import Roller, ScriptedRoller, SecureRoller, SeededRoller
from core.fairdice import short
from core.service import GameService
from core.table import Phase
from core.verification import verify
from tests.kit import Rigged

T = translator("en")
RU = translator("ru")


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


async def open_service(tmp_path: Path, roller: Roller) -> tuple[SqliteRepository, GameService]:
    """The storage (for the test to read and close) and the service on it."""
    repository = await SqliteRepository.open(tmp_path / "g.db")
    return repository, GameService(repository, roller)


async def test_solo_game_to_the_end_with_bad_input_answered(tmp_path: Path) -> None:
    repository, service = await open_service(tmp_path, ScriptedRoller([2, 2, 4, 6, 3] * 10))
    lines = ["Solo", "s 1", "bogus", "h 9", "s nothing", "r"]
    lines += [f"s {n}" if step else "r" for n in range(1, 11) for step in (0, 1)][1:]
    script = Script([*lines, "n"])
    await run_console(service, T, script.ask, script.say)
    text = script.text
    assert T("error-throw-first") in text  # "s 1" before rolling changed nothing
    assert 'Unknown command "bogus"' in text
    assert "Dice are numbered 1 to 5" in text
    assert 'There is no box "nothing"' in text
    assert T("game-solo", name="Solo") in text
    # 2-2-4-6-3 every turn: Twos 4 + Threes 3 + Fours 4 + Sixes 6, every other box 0.
    assert T("game-winner", names="Solo", total=17) in text
    assert text.endswith(T("console-bye"))
    assert await service.game(CHANNEL) is None
    await repository.close()


async def test_quit_then_resume_or_decline(tmp_path: Path) -> None:
    # The lot: Ann 6, Ben 29, so Ann starts; her first throw 1-2-3-4-6 is no straight.
    roller = ScriptedRoller([1, 1, 1, 1, 2, 6, 6, 6, 6, 5, 1, 2, 3, 4, 6])
    repository, service = await open_service(tmp_path, roller)
    first = Script(["Ann, Ben", "r", "q"])
    await run_console(service, T, first.ask, first.say)
    assert first.text.endswith(T("console-saved"))
    game = await service.game(CHANNEL)
    assert game is not None and game.phase is Phase.PLAYING and game.turn.throws == 1

    # An answer that is neither yes nor no is asked again, not taken as "no" (which cancels).
    resumed = Script(["perhaps", "y", "s straight", "q"])
    await run_console(service, T, resumed.ask, resumed.say)
    assert (
        "There is an unfinished game (Ann, Ben, round 1). Carry on with it? [Y/n]" in resumed.text
    )
    assert T("console-yes-no") in resumed.text
    game = await service.game(CHANNEL)
    assert game is not None and game.seats[0].score_of(Box.STRAIGHT) == 0

    declined = Script(["n", "Cid", "q"])
    await run_console(service, T, declined.ask, declined.say)
    assert T("game-cancelled") in declined.text
    game = await service.game(CHANNEL)
    assert game is not None and [s.player.name for s in game.seats] == ["Cid"]
    await repository.close()


async def test_help_at_the_names_prompt_is_help_not_a_player(tmp_path: Path) -> None:
    repository, service = await open_service(tmp_path, SeededRoller(2))
    script = Script(["help", "r", "Ann, help", "rules", "Ann", "q"])
    await run_console(service, T, script.ask, script.say)
    text = script.text
    assert help_text(T) in text and T("console-names-help") in text
    assert T("console-names-first") in text  # "r" before there is a game
    assert T("console-command-name", name="help") in text
    assert T("help-rules") in text
    assert text.count(T("console-ask-players")) == 5
    game = await service.game(CHANNEL)
    assert game is not None and [s.player.name for s in game.seats] == ["Ann"]
    await repository.close()


async def test_russian_words_at_the_names_prompt(tmp_path: Path) -> None:
    repository, service = await open_service(tmp_path, SeededRoller(2))
    script = Script(["помощь", "Аня, выход", "выход"])
    await run_console(service, RU, script.ask, script.say)
    assert help_text(RU) in script.text
    assert RU("console-command-name", name="выход") in script.text
    assert script.text.endswith(RU("console-bye"))
    assert await service.game(CHANNEL) is None
    await repository.close()


async def test_names_refused_with_a_reason(tmp_path: Path) -> None:
    repository, service = await open_service(tmp_path, SeededRoller(2))
    eleven = ", ".join(f"P{n}" for n in range(11))
    lines = ["", "+master", "Ann, ann", "Ann, +wizard", "A" * 40, eleven, "Ann, +master, +master"]
    script = Script([*lines, "q"])
    await run_console(service, T, script.ask, script.say, pause=0)
    text = script.text
    assert text.count(T("console-no-players")) == 2
    assert T("console-duplicate-name") in text
    assert T("console-bad-computer", word="+wizard") in text
    assert T("console-long-name", name="A" * 19 + "…", limit=32) in text
    assert T("error-table-full", cap=10) in text  # refused, then asked again
    game = await service.game(CHANNEL)
    assert game is not None
    assert sorted(s.player.name for s in game.seats) == ["Ann", "🤖 Master", "🤖 Master 2"]
    await repository.close()


async def test_an_overlong_line_is_refused_and_nothing_shows_a_fluent_error(
    tmp_path: Path,
) -> None:
    repository, service = await open_service(tmp_path, SeededRoller(2))
    huge = "x" * 5000
    lines = [huge, "Ann", huge, f"s {huge}", "r", f"s {'y' * (MAX_LINE - 2)}", "y" * MAX_LINE, "q"]
    script = Script(lines)
    await run_console(service, T, script.ask, script.say)
    text = script.text
    assert text.count(T("console-too-long", length=5000, limit=MAX_LINE)) == 2
    assert text.count(T("console-too-long", length=5002, limit=MAX_LINE)) == 1
    assert "5,000 characters" in text
    assert f'There is no box "{"y" * 19}…"' in text
    assert f'Unknown command "{"y" * 19}…"' in text
    assert "{???}" not in text and "???" not in text
    game = await service.game(CHANNEL)
    assert game is not None and game.seats[0].player.name == "Ann"
    await repository.close()


async def test_score_alone_lists_the_boxes_and_ambiguous_letters_are_answered(
    tmp_path: Path,
) -> None:
    repository, service = await open_service(tmp_path, ScriptedRoller([4, 4, 4, 6, 6]))
    script = Script(["Ann", "s", "r", "s", "s f", "s fu", "q"])
    await run_console(service, T, script.ask, script.say)
    text = script.text
    assert T("console-open-boxes") in text  # before the throw: numbers and names
    assert text.count(T("console-options")) == 2  # on the board, then for "s"
    boxes = (Box.FOURS, Box.FIVES, Box.FULL_HOUSE, Box.FOUR)
    listed = ", ".join(f"{T(f'box-{box.value}')} ({box.index + 1})" for box in boxes)
    assert T("console-ambiguous-box", box="f", boxes=listed) in text
    assert 'There is no box ""' not in text
    game = await service.game(CHANNEL)
    assert game is not None and game.seats[0].score_of(Box.FULL_HOUSE) == 35
    await repository.close()


async def test_a_russian_session_in_russian_words(tmp_path: Path) -> None:
    repository, service = await open_service(tmp_path, ScriptedRoller([4, 4, 4, 6, 6, 4, 4]))
    script = Script(["Аня", "б", "о 1 2 3", "б", "з четвёрки", "т", "п", "в"])
    await run_console(service, RU, script.ask, script.say)
    assert "[Y/n]" not in script.text and script.text.endswith(RU("console-saved"))
    game = await service.game(CHANNEL)
    assert game is not None and game.seats[0].score_of(Box.FOURS) == 20  # 4-4-4-4-4
    await repository.close()

    again = Script(["нет", "в"])  # declined: the game is cancelled
    repository, service = await open_service(tmp_path, SeededRoller(1))
    await run_console(service, RU, again.ask, again.say)
    assert "Продолжить её? [Д/н]" in again.text
    assert RU("game-cancelled") in again.text
    await repository.close()


async def test_a_stop_during_a_computers_pause_ends_at_once(tmp_path: Path) -> None:
    repository, service = await open_service(tmp_path, SeededRoller(4))
    stopped = asyncio.Event()
    script = Script(["Ann, +novice", "r", "s 1", "r", "s 2"])
    asyncio.get_running_loop().call_later(0.3, stopped.set)
    started = time.monotonic()
    await ConsoleGame(service, T, script.ask, script.say, pause=30, stopped=stopped).run()
    assert time.monotonic() - started < 5
    assert script.text.endswith(T("console-saved"))
    game = await service.game(CHANNEL)
    assert game is not None and game.phase is Phase.PLAYING
    await repository.close()


async def test_against_computers_with_hint_and_review(tmp_path: Path) -> None:
    repository, service = await open_service(tmp_path, SeededRoller(5))
    lines = ["Ann, +master, +novice", "hint"]
    lines += [line for n in range(1, 11) for line in ("r", "hint", f"s {n}")]
    script = Script([*lines, "n"])
    await run_console(service, T, script.ask, script.say, pause=0)
    text = script.text
    assert "🤖 Master" in text and "🤖 Novice" in text
    assert T("error-throw-first") in text  # a hint before throwing
    assert text.count(T("hint-title-chances")) >= 1  # against computers: each choice's chance
    review = text.split(T("review-title"))[1]
    assert "Ann:" in review
    assert "🤖 Master:" not in review  # computers are not reviewed
    results = await repository.results(await _last_game_id(tmp_path))
    assert sorted(r["name"] for r in results) == ["Ann", "🤖 Master", "🤖 Novice"]
    await repository.close()


async def _last_game_id(tmp_path: Path) -> str:
    with sqlite3.connect(tmp_path / "g.db") as db:
        return str(db.execute("SELECT id FROM games ORDER BY created_at DESC").fetchone()[0])


async def test_a_rating_follows_a_person_by_name_from_game_to_game(tmp_path: Path) -> None:
    """Ann plays Master, then Bob and Master as the second person seated: the second game's
    rating goes on from the first's, and a game alone rates no one."""
    repository, service = await open_service(tmp_path, SeededRoller(5))
    turns = [line for n in range(1, 11) for line in ("r", f"s {n}")]
    both = [line for n in range(1, 11) for line in ("r", f"s {n}") * 2]
    script = Script(["Ann, +master", *turns, "y", "Bob, Ann, +master", *both, "y", "Ann", *turns])
    await run_console(service, T, script.ask, script.say, pause=0)
    lines = [line for line in script.said if line.startswith("📈 Ratings here: ")]
    assert len(lines) == 2, lines  # the game alone has none
    assert "Bob " in lines[1]
    rating = await repository.player_rating("console", "console:ann", CHANNEL)
    assert rating is not None and rating.games == 2
    assert f"Ann {rating.shown}?" in lines[1]
    assert f"Ann {rating.trend[1]}?" in lines[0]  # where the second game started from
    await repository.close()


@pytest.mark.parametrize("t", [T, RU], ids=["en", "ru"])
async def test_a_computers_turn_is_watched_not_thrown_for(tmp_path: Path, t: Translator) -> None:
    """The computer moves first (it throws lower in the lot): its board says it plays by itself
    and asks nobody to throw; Ann's board asks her."""
    roller = Rigged()
    roller.pushed += [(6, 6, 6, 6, 5), (1, 1, 1, 1, 2)]  # the lot: Ann 29, the computer 6
    repository, service = await open_service(tmp_path, roller)
    script = Script(["Ann, +master", "q"])
    await run_console(service, t, script.ask, script.say, pause=0)

    def board(name: str) -> str:
        header = t("turn-header", name=name, round=1, rounds=10, throw=0, throws=3)
        (found,) = [said for said in script.said if said.startswith(header)]
        return found

    computers, anns = board(t("computer-master")), board("Ann")
    assert t("console-computer-turn") in computers and t("turn-first") not in computers
    assert t("turn-first") in anns and t("console-computer-turn") not in anns
    assert script.text.count(t("turn-first")) == 1
    await repository.close()


async def test_a_box_in_quotes_is_written_and_a_wrong_one_is_not_quoted_twice(
    tmp_path: Path,
) -> None:
    repository, service = await open_service(tmp_path, ScriptedRoller([1, 2, 3, 4, 5]))
    script = Script(["Аня", "б", "з «Карета»", "записать в «Стрит»", "в"])
    await run_console(service, RU, script.ask, script.say)
    assert RU("console-bad-box", box="Карета") in script.text
    assert "««" not in script.text and "»»" not in script.text
    game = await service.game(CHANNEL)
    assert game is not None and game.seats[0].score_of(Box.STRAIGHT) == 25
    await repository.close()


async def test_the_seal_shows_in_the_first_round_and_the_seed_at_the_end(tmp_path: Path) -> None:
    """The production dice: the first round's boards show the seal, the end reveals the seed
    whose SHA-256 it is, and names the command that checks every throw by it."""
    repository, service = await open_service(tmp_path, SecureRoller())
    lines = [f"s {n}" if step else "r" for n in range(1, 11) for step in (0, 1)]
    script = Script(["Solo", *lines, "n"])
    await run_console(service, RU, script.ask, script.say)
    text = script.text
    game = await service.last_finished(CHANNEL)
    assert game is not None
    seal = game.commitment
    assert f"🔐 Кости запечатаны: {short(seal)} · полностью: {seal}" in text  # in round 1
    assert hashlib.sha256(bytes.fromhex(game.seed)).hexdigest() == seal
    assert f"🔓 Зерно костей: {game.seed}" in text
    assert f"python -m bot verify {game.id} проверит" in text
    assert verify(await service.events(game.id)).ok
    await repository.close()
