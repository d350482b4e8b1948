"""`python -m bot forget`, in-process: it forgets through the same path as /general forget,
asks first (or takes --yes), and refuses a computer or a bad id in one line, changing nothing."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from adapters.discord.calls import PLATFORM as DISCORD
from adapters.sqlite import SqliteRepository
from adapters.telegram.calls import PLATFORM as TELEGRAM
from bot import forget
from core.actions import Join, Open
from core.dice import ScriptedRoller
from core.identity import ChannelKey
from core.service import GameService
from tests.storage.test_ratings import PEOPLE, play

HERE = ChannelKey(TELEGRAM, "-100")
ANN, BOB = PEOPLE[:2]


def arguments(*argv: str) -> argparse.Namespace:
    top = argparse.ArgumentParser()
    forget.add_parser(top.add_subparsers(dest="tool"))
    return top.parse_args(["forget", *argv])


async def test_it_forgets_and_says_what_it_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert forget.PLATFORMS == {"telegram": TELEGRAM, "discord": DISCORD}
    repository = await SqliteRepository.open(tmp_path / "g.db")
    try:
        roller = ScriptedRoller()
        service = GameService(repository, roller)
        await play(service, roller, HERE, [[6, 6, 6, 5, 5], [2, 2, 3, 4, 6]])
        lobby = ChannelKey(TELEGRAM, "-300")
        await service.act(lobby, ANN, Open())
        await service.act(lobby, BOB, Join())
        assert await forget.run(arguments("--platform", "telegram", "--user", BOB.id, "--yes"),
                                repository) == 0  # fmt: skip
        out = capsys.readouterr().out.strip()
        assert out == (
            f"forgot telegram user {BOB.id}: 1 results and 2 ratings anonymised, 2 stored games"
            " rewritten, 1 games in progress left"
        )
        assert await repository.player_stats(TELEGRAM, BOB.id, None) is None
        game = await repository.active_game(lobby)
        assert game is not None and [s.player for s in game.seats] == [ANN]
        again = arguments("--platform", "telegram", "--user", BOB.id)
        assert await forget.run(again, repository, ask=lambda _: "y", interactive=True) == 0
        assert "nothing to forget" in capsys.readouterr().out
    finally:
        await repository.close()


@pytest.mark.parametrize(
    ("user", "answer", "interactive", "code"),
    [("cpu-master", "y", True, 2), ("Bob", "y", True, 2), ("2", "n", True, 1), ("2", "", False, 1)],
)
async def test_refusals_change_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], user: str, answer: str,
    interactive: bool, code: int,
) -> None:  # fmt: skip
    repository = await SqliteRepository.open(tmp_path / "g.db")
    try:
        roller = ScriptedRoller()
        await play(
            GameService(repository, roller), roller, HERE, [[6, 6, 6, 5, 5], [2, 2, 3, 4, 6]]
        )
        run = forget.run(
            arguments("--platform", "telegram", "--user", user),
            repository,
            ask=lambda _: answer,
            interactive=interactive,
        )
        assert await run == code
        err = capsys.readouterr().err
        assert err.startswith("python -m bot forget: ") and err.count("\n") == 1
        assert await repository.player_stats(TELEGRAM, BOB.id, None) is not None
    finally:
        await repository.close()
