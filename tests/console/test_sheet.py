"""The score sheet in a terminal: full names where they fit, shortened only to fit, never alike."""

from __future__ import annotations

import pytest

from adapters.console.app import CHANNEL
from adapters.console.sheet import sheet_text
from adapters.i18n import translator
from core.actions import Join, Open, Start
from core.dice import SeededRoller
from core.game import apply, open_lobby
from core.identity import PlayerRef
from core.table import Game
from core.view import make_view

EN = translator("en")
RU = translator("ru")


def table(*names: str) -> Game:
    players = [PlayerRef(str(n), name) for n, name in enumerate(names)]
    game, _ = open_lobby("g", CHANNEL, players[0], Open())
    for player in players[1:]:
        game, _ = apply(game, player, Join(), SeededRoller(1))
    game, _ = apply(game, players[0], Start(), SeededRoller(1))
    return game


def test_sheet_shows_full_names_on_a_wide_terminal() -> None:
    names = ("Alexander", "Alexandra", "Bartholomew", "Christopher", "🤖 Master")
    view = make_view(table(*names))
    sheet = sheet_text(EN, view, columns=120)
    heading = sheet.split("\n")[0]
    assert heading.split() == [
        "Alexander",
        "Alexandra",
        "Bartholomew",
        "Christopher",
        "🤖",
        "Master",
    ]
    assert all(len(line) <= 120 for line in sheet.split("\n"))


def test_sheet_follows_the_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    view = make_view(table("Bartholomew", "Christopher"))
    monkeypatch.setenv("COLUMNS", "120")
    assert "Bartholomew" in sheet_text(EN, view)
    monkeypatch.setenv("COLUMNS", "30")
    assert "Bartholomew" not in sheet_text(EN, view)


def test_shortened_names_stay_different_and_fit() -> None:
    view = make_view(table("Alexander", "Alexandra", "Alexandros"))
    sheet = sheet_text(EN, view, columns=36)
    lines = sheet.split("\n")
    headings = lines[0].split()
    assert len(headings) == 3 and len(set(headings)) == 3, sheet
    assert all(len(line) <= 36 for line in lines), sheet
    assert all(name.startswith("Alex") for name in headings)


def test_a_crowded_table_is_cut_to_fit_and_split_only_when_it_cannot_be() -> None:
    names = [f"Player{n:02}" for n in range(1, 11)]
    view = make_view(table(*names))
    sheet = sheet_text(RU, view, columns=80)
    headings = sheet.split("\n")[0].split()
    assert "\n\n" not in sheet and len(set(headings)) == 10, sheet  # one table, no two alike
    assert all(len(line) <= 80 for line in sheet.split("\n"))
    narrow = sheet_text(RU, view, columns=40)
    tables = narrow.split("\n\n")
    assert len(tables) > 1
    headings = [word for part in tables for word in part.split("\n")[0].split()]
    assert len(headings) == 10 and len(set(headings)) == 10, narrow
    assert all(len(line) <= 40 for line in narrow.split("\n"))
