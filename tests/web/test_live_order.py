"""Which outcomes a page skips: those saved before it read the table may still be queued when
it does (it watches first, so as to miss nothing), and none may take it back to an older state."""

from __future__ import annotations

from typing import Any

from adapters.web.live import Live, Viewer
from core.actions import Open
from core.game import open_lobby
from core.identity import ChannelKey, PlayerRef
from core.table import Game, Phase, evolve

HERE = ChannelKey("tg", "-1")
ANN = PlayerRef("1", "Ann")


def game(game_id: str, version: int, phase: Phase) -> Game:
    opened, _ = open_lobby(game_id, HERE, ANN, Open())
    return evolve(opened, version=version, phase=phase)


def page() -> Live:
    nothing: Any = None  # _behind and _moved read only what the page was sent
    return Live(nothing, nothing, HERE, Viewer(ANN, None, 0.0))


def test_older_versions_of_the_game_shown_are_skipped() -> None:
    live = page()
    assert not live._behind(game("aaaaaaaa", 3, Phase.PLAYING))
    live._moved(game("aaaaaaaa", 3, Phase.PLAYING))
    assert live._behind(game("aaaaaaaa", 2, Phase.PLAYING))
    assert live._behind(game("aaaaaaaa", 3, Phase.PLAYING))
    assert not live._behind(game("aaaaaaaa", 4, Phase.FINISHED))


def test_a_game_finished_before_the_one_in_play_is_skipped() -> None:
    live = page()
    live._moved(game("bbbbbbbb", 1, Phase.LOBBY))  # the rematch, read at the start
    assert live._behind(game("aaaaaaaa", 40, Phase.FINISHED))  # its old game's end, queued


def test_a_new_game_after_the_end_is_followed_and_the_old_one_left() -> None:
    live = page()
    live._moved(game("aaaaaaaa", 40, Phase.FINISHED))
    assert not live._behind(game("bbbbbbbb", 1, Phase.LOBBY))
    live._moved(game("bbbbbbbb", 1, Phase.LOBBY))
    assert live._behind(game("aaaaaaaa", 41, Phase.FINISHED))
    live._moved(game("bbbbbbbb", 2, Phase.FINISHED))
    assert live._behind(game("aaaaaaaa", 42, Phase.FINISHED))  # left for good
    assert not live._behind(game("cccccccc", 1, Phase.LOBBY))
