"""What an applied action gives back: the game, its events, and a viewer's view of it."""

from __future__ import annotations

from dataclasses import dataclass

from core.events import Event
from core.table import Game
from core.view import GameView


@dataclass(frozen=True)
class Outcome:
    """The result of an applied action: the new game, what happened, and the actor's view."""

    game: Game
    events: tuple[Event, ...]
    view: GameView
