"""What a chat shows, said without any platform's widgets: each front end draws every card.

A card is a pure description; its layout (layout_cards.of) says its words, buttons and pages
once for every front end, whose `draw` serialises it. Words come from the catalogue of the
language in force when the card is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from adapters.chat.plan import Redraw
from core.chat_settings import ChatSettings
from core.events import Event
from core.table import Phase
from core.tournament import Tournament
from core.view import GameView, PlayerView

if TYPE_CHECKING:  # the strategy (numpy) is imported by the first hint
    from core.strategy import Choice


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


def live(card: object) -> bool:
    """Whether a board's drawing has buttons to play with (one deleted must be sent again)."""
    return isinstance(card, Board) or (isinstance(card, Redrawn) and card.live)


@dataclass(frozen=True)
class Stripped:
    """An old board without its buttons (its text stays)."""


@dataclass(frozen=True)
class Lines:
    """Plain lines of the catalogue (a refusal, a narration, a review)."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class Review(Lines):
    """A game's review and, where one was drawn, the picture of everyone's win chance turn by
    turn; a kind of Lines, so that a front end that shows no pictures shows its words."""

    picture: bytes | None = None


@dataclass(frozen=True)
class Aside(Lines):
    """Lines for the asker alone, even where a command's answers are replies in the chat
    (Telegram's groups: its private chat with the bot instead, where it may write): a hint's
    refusal is nothing for the whole table to read."""


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
    """The end of a game: why, who won, the final sheet (a picture or text), everyone's new
    rating, the review."""

    view: GameView
    review: tuple[str, ...] = ()
    picture: bytes | None = None
    ratings: tuple[str, ...] = ()

    @property
    def notes(self) -> tuple[str, ...]:
        """The lines after the sheet."""
        return (*self.ratings, *self.review)


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
    """The best choices now for the dice showing, best first; for the game and version named
    (where a platform must offer a button to see it privately)."""

    options: tuple[Choice, ...]
    dice: tuple[int, ...]
    game_id: str = ""
    version: int = 0
    shares: tuple[float, ...] = ()  # each option's chance of winning (empty: a game alone)
    places: bool = False  # a tournament's table: the shares are expected place points


@dataclass(frozen=True)
class Welcome:
    """A first contact: what General is and how to begin (`brief` in a group, where the chat
    knows already); `invite` is a link that adds the bot to a group, where there is one."""

    brief: bool = False
    invite: str | None = None


@dataclass(frozen=True)
class Forget:
    """/general forget's confirmation, for `player_id` alone: what forgetting removes, a button
    that does it and one that does not."""

    player_id: str


@dataclass(frozen=True)
class TableLink:
    """The live table's link: a person's own (`minutes` it works for), or anyone's to watch
    (`minutes` None) the game being played, or the last one again (`replay`)."""

    url: str
    minutes: int | None = None
    replay: bool = False


@dataclass(frozen=True)
class Linked(Lines):
    """Lines with one link button (`label`, already in the reader's words): a table to join,
    the private chat to open."""

    label: str = ""
    url: str = ""


@dataclass(frozen=True)
class EventCard:
    """A tournament's own message: its rules, who is in and where it stands, with the buttons
    to enter and leave and (its host's) to set the rules, start and cancel."""

    event: Tournament


Card = (
    Board
    | Redrawn
    | Stripped
    | Lines
    | Aside
    | Review
    | Records
    | Sheet
    | Final
    | Notice
    | Settings
    | Help
    | Hint
    | Welcome
    | Forget
    | TableLink
    | Linked
    | EventCard
)
