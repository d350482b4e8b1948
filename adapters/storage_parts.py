"""What both storage backends answer alike: the records' and ratings' part of the port
(core.ports.Records), the seasons and the subscriptions, handed to each backend's own parts,
whose SQL differs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from core.identity import ChannelKey
from core.ratings import Change, Rating
from core.records import Fortune, LuckOrder, PastGame, PlayerStats, Rated, Standing
from core.season_end import Move
from core.seasons import SeasonGame, SeasonSeat
from core.subscriptions import Subscriber


class RecordsPart(Protocol):
    async def leaderboard(
        self,
        platform: str,
        channel: ChannelKey | None,
        since: float | None,
        limit: int,
        *,
        until: float | None,
    ) -> list[Standing]: ...

    async def player_stats(
        self, platform: str, player_id: str, channel: ChannelKey | None
    ) -> PlayerStats | None: ...

    async def find_player(self, platform: str, channel: ChannelKey, name: str) -> str | None: ...

    async def history(self, channel: ChannelKey, limit: int) -> list[PastGame]: ...

    async def luck_board(
        self,
        platform: str,
        channel: ChannelKey | None,
        since: float | None,
        order: LuckOrder,
        limit: int,
        *,
        until: float | None,
    ) -> list[Fortune]: ...


class RatingsPart(Protocol):
    async def rate_games(self) -> int: ...

    async def rebuild_ratings(self) -> int: ...

    async def game_ratings(self, game_id: str, channel: ChannelKey) -> list[Change]: ...

    async def rating_board(
        self, platform: str, channel: ChannelKey | None, since: float | None, limit: int
    ) -> list[Rated]: ...

    async def player_rating(
        self, platform: str, player_id: str, channel: ChannelKey | None
    ) -> Rating | None: ...


class RecordsByParts:
    """A repository's records and ratings, answered by its `_records` and `_ratings` parts."""

    _records: RecordsPart
    _ratings: RatingsPart

    async def leaderboard(
        self,
        platform: str,
        channel: ChannelKey | None,
        since: float | None,
        limit: int = 10,
        *,
        until: float | None = None,
    ) -> list[Standing]:
        return await self._records.leaderboard(platform, channel, since, limit, until=until)

    async def player_stats(
        self, platform: str, player_id: str, channel: ChannelKey | None
    ) -> PlayerStats | None:
        return await self._records.player_stats(platform, player_id, channel)

    async def find_player(self, platform: str, channel: ChannelKey, name: str) -> str | None:
        return await self._records.find_player(platform, channel, name)

    async def history(self, channel: ChannelKey, limit: int = 10) -> list[PastGame]:
        return await self._records.history(channel, limit)

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
        return await self._records.luck_board(platform, channel, since, order, limit, until=until)

    async def rate_games(self) -> int:
        return await self._ratings.rate_games()

    async def rebuild_ratings(self) -> int:
        return await self._ratings.rebuild_ratings()

    async def game_ratings(self, game_id: str, channel: ChannelKey) -> list[Change]:
        return await self._ratings.game_ratings(game_id, channel)

    async def rating_board(
        self, platform: str, channel: ChannelKey | None, since: float | None, limit: int = 10
    ) -> list[Rated]:
        return await self._ratings.rating_board(platform, channel, since, limit)

    async def player_rating(
        self, platform: str, player_id: str, channel: ChannelKey | None
    ) -> Rating | None:
        return await self._ratings.player_rating(platform, player_id, channel)


class SubscriptionsPart(Protocol):
    async def subscribe(self, platform: str, chat: str, player_id: str, locale: str) -> bool: ...

    async def unsubscribe(self, platform: str, chat: str, player_id: str) -> bool: ...

    async def subscribers(self, platform: str, chat: str) -> list[Subscriber]: ...


class SubscriptionsByParts:
    """A repository's subscriptions (`/general notify`), answered by its `_subscriptions`."""

    _subscriptions: SubscriptionsPart

    async def subscribe(self, platform: str, chat: str, player_id: str, locale: str) -> bool:
        return await self._subscriptions.subscribe(platform, chat, player_id, locale)

    async def unsubscribe(self, platform: str, chat: str, player_id: str) -> bool:
        return await self._subscriptions.unsubscribe(platform, chat, player_id)

    async def subscribers(self, platform: str, chat: str) -> list[Subscriber]:
        return await self._subscriptions.subscribers(platform, chat)


def season_games_of(rows: Iterable[Mapping[str, Any]]) -> list[SeasonGame]:
    """A season's results rows (by finish, game and seat) as its games."""
    games: dict[str, tuple[float, list[SeasonSeat]]] = {}
    for row in rows:
        seat = SeasonSeat(row["player_id"], row["name"], row["total"], bool(row["big_general"]))
        games.setdefault(row["game_id"], (float(row["finished_at"]), []))[1].append(seat)
    return [SeasonGame(game_id, at, tuple(seats)) for game_id, (at, seats) in games.items()]


class SeasonsPart(Protocol):
    async def season_games(
        self, platform: str, channel: ChannelKey | None, since: float, until: float
    ) -> list[SeasonGame]: ...

    async def rating_moves(self, channel: ChannelKey, since: float, until: float) -> list[Move]: ...

    async def season_channels(
        self, platform: str, since: float, until: float
    ) -> list[ChannelKey]: ...

    async def claim_season_end(self, channel: ChannelKey, label: str) -> bool: ...

    async def release_season_end(self, channel: ChannelKey, label: str) -> None: ...


class SeasonsByParts:
    """A repository's seasons (core.ports.Seasons), answered by its `_seasons`."""

    _seasons: SeasonsPart

    async def season_games(
        self, platform: str, channel: ChannelKey | None, since: float, until: float
    ) -> list[SeasonGame]:
        return await self._seasons.season_games(platform, channel, since, until)

    async def rating_moves(self, channel: ChannelKey, since: float, until: float) -> list[Move]:
        return await self._seasons.rating_moves(channel, since, until)

    async def season_channels(self, platform: str, since: float, until: float) -> list[ChannelKey]:
        return await self._seasons.season_channels(platform, since, until)

    async def claim_season_end(self, channel: ChannelKey, label: str) -> bool:
        return await self._seasons.claim_season_end(channel, label)

    async def release_season_end(self, channel: ChannelKey, label: str) -> None:
        await self._seasons.release_season_end(channel, label)
