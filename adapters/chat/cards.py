"""What a chat shows, said without any platform's widgets: each front end draws every card.

A card is a pure description; drawing it (text, markup, buttons, pages) is the front end's
`draw`. Words come from the catalogue of the language in force when the card is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from adapters.chat.plan import Redraw
from core.chat_settings import ChatSettings
from core.events import Event
from core.game import Phase
from core.strategy import Choice
from core.view import GameView, PlayerView


@dataclass(frozen=True)
class Board:
    """The live board of a game: the lobby, or the turn being played (`notify`: a new message
    that tells the player it is their turn), after `preface` lines (the lot, the start)."""

    view: GameView
    notify: bool = False
    preface: tuple[str, ...] = ()


@dataclass(frozen=True)
class Redrawn:
    """The current board message drawn anew after `events` (see plan.Redraw)."""

    how: Redraw
    view: GameView
    events: tuple[Event, ...] = ()

    @property
    def live(self) -> bool:
        """Whether it has buttons to play with (a deleted one must be sent again)."""
        lobby_open = self.how is Redraw.LOBBY and self.view.phase is Phase.LOBBY
        return self.how is Redraw.TURN or lobby_open


@dataclass(frozen=True)
class Stripped:
    """An old board without its buttons (its text stays)."""


@dataclass(frozen=True)
class Lines:
    """Plain lines of the catalogue (a refusal, a narration, a review)."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class Records:
    """A leaderboard, statistics or history: a title, then a monospace body."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class Sheet:
    """The score sheet, as a PNG picture where one was made, else as text tables."""

    view: GameView
    picture: bytes | None = None


@dataclass(frozen=True)
class Final:
    """The end of a game: why, who won, the final sheet (a picture or text), the review."""

    view: GameView
    review: tuple[str, ...] = ()
    picture: bytes | None = None


@dataclass(frozen=True)
class Notice:
    """A line about `player` in a message of its own, so that it notifies them."""

    text: str
    player: PlayerView


@dataclass(frozen=True)
class Settings:
    """The settings screen: a button per setting, each press moves it to its next choice."""

    settings: ChatSettings


@dataclass(frozen=True)
class Help:
    """The rules (`topic` "rules"), or the list of commands, after `preface` lines."""

    topic: str = "help"
    preface: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hint:
    """The best choices now for the dice showing, best first."""

    options: tuple[Choice, ...]
    dice: tuple[int, ...]


Card = (
    Board | Redrawn | Stripped | Lines | Records | Sheet | Final | Notice | Settings | Help | Hint
)
