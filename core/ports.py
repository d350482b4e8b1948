"""The storage port the core owns; SQLite (adapters.sqlite) and PostgreSQL (adapters.postgres)
implement it, structurally: neither imports it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, fields
from typing import Any, Protocol

from core.chat_settings import ChatSettings
from core.events import Event
from core.forget import Forgotten
from core.identity import ChannelKey, PlayerRef
from core.ratings import Change, Rating
from core.records import Fortune, LuckOrder, PastGame, PlayerStats, Rated, Standing, Weighed
from core.season_end import Move
from core.seasons import SeasonGame
from core.snapshot import game_from_dict
from core.subscriptions import Subscriber
from core.table import Game


class Records(Protocol):
    """Read side of the stored results (leaderboards, statistics, history); every figure is
    computed in the database. People only rank: computers are left off the leaderboards."""

    async def leaderboard(
        self,
        platform: str,
        channel: ChannelKey | None,
        since: float | None,
        limit: int = 10,
        *,
        until: float | None = None,
    ) -> list[Standing]:
        """A channel's standings, or (channel None) the platform's; `since` and `until` (not
        included) Unix times."""
        ...

    async def player_stats(
        self, platform: str, player_id: str, channel: ChannelKey | None
    ) -> PlayerStats | None:
        """None where the player has no recorded game in that scope."""
        ...

    async def find_player(self, platform: str, channel: ChannelKey, name: str) -> str | None:
        """A player of this channel by the name they last played under (case-insensitive)."""
        ...

    async def history(self, channel: ChannelKey, limit: int = 10) -> list[PastGame]:
        """The channel's recorded games, the latest first."""
        ...

    async def rating_board(
        self, platform: str, channel: ChannelKey | None, since: float | None, limit: int = 10
    ) -> list[Rated]:
        """The best rated of a channel or (None) the platform, computers too: the established
        by rating, then the provisional; `since` keeps those who played since then."""
        ...

    async def player_rating(
        self, platform: str, player_id: str, channel: ChannelKey | None
    ) -> Rating | None:
        """A player's (or a computer level's) rating in a channel or the platform, with its
        trend; None before their first rated game there."""
        ...

    async def game_ratings(self, game_id: str, channel: ChannelKey) -> list[Change]:
        """What a game changed in its channel's ratings (none while it waits to be rated)."""
        ...

    async def luck_board(
        self,
        platform: str,
        channel: ChannelKey | None,
        since: float | None,
        order: LuckOrder,
        limit: int = 10,
        *,
        until: float | None = None,
    ) -> list[Fortune]:
        """People with LUCK_GAMES reviewed games or more, by their dice or their decisions per
        game on average (the better first)."""
        ...


# What another process saved, as this one hears it: the game as stored, and that save's events.
Heard = Callable[[Game, tuple[Event, ...]], None]
# Whether anyone here watches a channel (by its key as text): the saves of the others' tables
# are not read back.
Wanted = Callable[[str], bool]


class Seasons(Protocol):
    """What a chat's seasons are read from (core.seasons): the recorded games of a span, the
    rating changes they made, and one claim per chat and season on its end's message."""

    async def season_games(
        self, platform: str, channel: ChannelKey | None, since: float, until: float
    ) -> list[SeasonGame]:
        """The recorded games of a channel (None: the platform's every chat) that finished
        from `since` and before `until`, in the order they finished."""
        ...

    async def rating_moves(self, channel: ChannelKey, since: float, until: float) -> list[Move]:
        """The changes those games made to the channel's ratings, in the order rated."""
        ...

    async def season_channels(self, platform: str, since: float, until: float) -> list[ChannelKey]:
        """The channels that recorded a game in the span."""
        ...

    async def claim_season_end(self, channel: ChannelKey, label: str) -> bool:
        """True for the first to claim that season's end in that channel, once ever."""
        ...

    async def release_season_end(self, channel: ChannelKey, label: str) -> None:
        """The claim given up (its message could not be sent): the next look tries again."""
        ...


@dataclass(frozen=True)
class EventRecord:
    """A tournament as stored: its id, the chat it was opened in, its version (the optimistic
    check of every save, as a game's), whether it is over, and its state as core.tournament
    writes it (JSON-able; the storage reads nothing inside it)."""

    id: str
    platform: str
    chat: str
    version: int
    finished: bool
    data: dict[str, Any]


class Tournaments(Protocol):
    """The chats' tournaments (core.tournament), each saved whole with a version check."""

    async def save_tournament(self, record: EventRecord, previous_version: int | None) -> None:
        """Write the record; GameError STALE where the stored version is not
        `previous_version` (None: the event is new, and no event of that id exists)."""
        ...

    async def tournament(self, event_id: str) -> EventRecord | None: ...

    async def open_tournaments(self, platform: str, chat: str | None = None) -> list[EventRecord]:
        """The events not over, of one chat (every thread of it) or (None) of the platform,
        the earliest opened first."""
        ...


class Subscriptions(Protocol):
    """Who hears privately of a table opening in a chat (`/general notify`)."""

    async def subscribe(self, platform: str, chat: str, player_id: str, locale: str) -> bool:
        """`/general notify`: the person hears privately of the chat's new tables, in
        `locale`; True where they did not yet."""
        ...

    async def unsubscribe(self, platform: str, chat: str, player_id: str) -> bool:
        """True where the person was subscribed."""
        ...

    async def subscribers(self, platform: str, chat: str) -> list[Subscriber]:
        """Who hears of the chat's new tables, the earliest first."""
        ...


class Boards(Protocol):
    """Where each game's live board message is, as the chat layer writes it (opaque text)."""

    async def board(self, game_id: str) -> str | None: ...

    async def set_board(self, game_id: str, ref: str) -> None: ...

    async def claim_board(self, game_id: str, expected: str, ref: str) -> bool:
        """Set `ref` only where the stored reference is still `expected`: of several
        processes doing the same, one wins."""
        ...


class GameRepository(Records, Boards, Subscriptions, Seasons, Tournaments, Protocol):
    """Keeps each game's latest snapshot and its append-only event log, and the finished games'
    results, which the front ends read as Records. `shared` says whether other processes use
    the same storage.

    `save` writes the snapshot and the events in one transaction and refuses (GameError STALE)
    when the stored version is not `previous_version` (None: the game is new).
    """

    shared: bool

    async def active_game(self, channel: ChannelKey) -> Game | None: ...

    async def get_game(self, game_id: str) -> Game | None: ...

    async def save(
        self, game: Game, events: Sequence[Event], previous_version: int | None
    ) -> None: ...

    async def last_finished(self, channel: ChannelKey) -> Game | None: ...

    async def events(self, game_id: str) -> list[Event]: ...

    async def active_games(self, platform: str) -> list[Game]: ...

    async def rate_games(self) -> int:
        """Rate the recorded games not yet rated, in the order they are to be (a save that
        records a game does this itself); how many were."""
        ...

    async def rebuild_ratings(self) -> int:
        """Rate every recorded game again from nothing, in the order they were rated (then any
        never rated): the live ratings exactly; how many games."""
        ...

    async def set_weighed(self, game_id: str, weighed: dict[str, Weighed]) -> None:
        """Record what each person's post-game review found beside their result."""
        ...

    async def chat_settings(self, platform: str, chat: str) -> ChatSettings: ...

    async def save_chat_settings(
        self, platform: str, chat: str, settings: ChatSettings
    ) -> None: ...

    async def listen(self, heard: Heard, wanted: Wanted) -> None:
        """From now on, hand `heard` what other processes save in the channels `wanted` names
        (nothing, where no other process can save)."""
        ...

    def channel_lock(self, channel: ChannelKey) -> AbstractAsyncContextManager[None]:
        """Serialises actions on one channel across processes (a no-op where one process owns
        the storage); the repository's calls inside the block share its transaction."""
        ...

    async def claim_deadline(self, game_id: str, owner: str, lease_seconds: float) -> bool:
        """Whether this process (`owner`) may act on the game's deadline now: one process does,
        and another may once the holder's lease has run out (it died)."""
        ...

    async def release_deadline(self, game_id: str, owner: str) -> None: ...

    async def quarantined(self, channel: ChannelKey) -> str | None:
        """The id of the channel's active game whose stored snapshot could not be read (it was
        set aside, never deleted), until a new game is opened there; None if there is none.
        Reads never raise on such a row: the game is simply not there."""
        ...

    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> None:
        """Move a chat's games (every thread, their snapshots too), settings, board references
        and results to a new chat id (a Telegram group become a supergroup), in one transaction;
        moving again changes nothing. An active game does not move onto a thread of the new chat
        that has one already."""
        ...

    async def forget_player(self, platform: str, player_id: str, alias: PlayerRef) -> Forgotten:
        """Forget a person (see core.forget), in one transaction: their results, ratings and
        rating changes move to `alias` (a fresh anonymous player), and every stored game of
        the platform that names them, with its event log, names `alias` instead (a game in
        progress gets a new version, so that a save made from it as it was is stale); a chat
        whose id is theirs moves to the alias's. ValueError for a computer."""
        ...

    async def close(self) -> None: ...


# What a snapshot may hold: a field this bot does not know was written by a newer one, and reading
# past it would save the game back without it.
SNAPSHOT_FIELDS = frozenset(field.name for field in fields(Game))


def read_snapshot(data: Any) -> Game:
    """A stored snapshot (decoded JSON) as a Game, strictly: any error (a missing or unknown
    field, a bad value) raises, and the backends then quarantine the row."""
    if not isinstance(data, dict):
        raise ValueError(f"a snapshot is an object, not {type(data).__name__}")
    unknown = sorted(set(data) - SNAPSHOT_FIELDS)
    if unknown:
        raise ValueError(f"unknown fields {unknown} (written by a newer bot?)")
    return game_from_dict(data)
