"""What both storage backends answer alike: the records' and ratings' part of the port
(core.ports.Records) and the subscriptions, handed to each backend's own parts, whose SQL
differs."""

from __future__ import annotations

from typing import Protocol

from core.identity import ChannelKey
from core.ratings import Change, Rating
from core.records import Fortune, LuckOrder, PastGame, PlayerStats, Rated, Standing
from core.subscriptions import Subscriber


class RecordsPart(Protocol):
    async def leaderboard(
        self, platform: str, channel: ChannelKey | None, since: float | None, limit: int
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
        self, platform: str, channel: ChannelKey | None, since: float | None, limit: int = 10
    ) -> list[Standing]:
        return await self._records.leaderboard(platform, channel, since, limit)

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
    ) -> list[Fortune]:
        return await self._records.luck_board(platform, channel, since, order, limit)

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
