"""Taking back a mis-tapped box at the console: `undo` (`отменить`, or `вернуть` as the chat's
button says) at the next player's prompt."""

from __future__ import annotations

from pathlib import Path

from adapters.console.app import CHANNEL, run_console
from adapters.console.render import help_text
from adapters.i18n import translator
from core.boxes import Box
from core.dice import ScriptedRoller
from tests.console.test_console import Script, open_service

T = translator("en")
RU = translator("ru")
LOT = [1, 1, 1, 1, 2, 6, 6, 6, 6, 5]  # Ann 6, Ben 29: Ann starts


async def test_undo_gives_the_turn_back_until_the_next_player_throws(tmp_path: Path) -> None:
    roller = ScriptedRoller([*LOT, 1, 2, 3, 4, 6, 2, 2, 2, 3, 4])
    repository, service = await open_service(tmp_path, roller)
    lines = ["Ann, Ben", "undo", "r", "h 1 2", "s general", "undo", "s ones", "r", "undo", "q"]
    script = Script(lines)
    await run_console(service, T, script.ask, script.say)
    said = script.said
    nothing = T("error-nothing-to-take-back")
    assert said[said.index("Ann> ") + 1] == nothing  # nothing written yet
    taken = said.index("↩ Ann took back General (0).")
    assert said[taken - 1] == "Ben> "  # typed at Ben's prompt, taken back as Ann
    board = said[taken + 2]
    assert board.startswith("Ann's turn · round 1/10 · throw 1/3") and "[⚀ 1] [⚁ 2]" in board
    assert said[taken + 3] == "Ann> "
    assert said[-3:] == [nothing, "Ben> ", T("console-saved")]  # Ben threw: the Ones stand
    game = await service.game(CHANNEL)
    assert game is not None
    assert game.seats[0].score_of(Box.GENERAL) is None and game.seats[0].score_of(Box.ONES) == 1
    assert any(
        line.startswith("  undo ") and line.endswith(T("console-help-undo"))
        for line in help_text(T).splitlines()
    )
    await repository.close()


async def test_undo_in_russian(tmp_path: Path) -> None:
    repository, service = await open_service(tmp_path, ScriptedRoller([*LOT, 1, 2, 3, 4, 6]))
    script = Script(["Аня, Борис", "б", "з генерал", "отменить", "з 1", "вернуть", "помощь", "в"])
    await run_console(service, RU, script.ask, script.say)
    assert "↩ Аня отменяет запись в графе «Генерал» (0)." in script.said
    assert "↩ Аня отменяет запись в графе «Единицы» (1)." in script.said
    assert any(
        line.startswith("  отменить ") and line.endswith(RU("console-help-undo"))
        for line in help_text(RU).splitlines()
    )
    game = await service.game(CHANNEL)
    assert game is not None and game.seats[0].scores == (None,) * 10
    await repository.close()
