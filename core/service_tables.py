"""A tournament's tables as the service opens and closes them: under the same locks, saved to
the same storage and timed by the same clocks as every table (core.service, whose part this is),
and one process at a time stepping an event (a lease, as a deadline's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from core.actions import Abandon
from core.broadcast import Broadcast
from core.clocks import LEASE, Clocks
from core.dice import Roller
from core.errors import ErrorCode, GameError
from core.event_tables import seated_game
from core.events import Event
from core.game import apply
from core.identity import ChannelKey, PlayerRef
from core.locks import ChannelLocks
from core.outcome import Outcome
from core.ports import GameRepository
from core.rules import Variants
from core.table import Game
from core.view import make_view


class EventTables:
    """The service's calls for tournaments (core.service.GameService has them)."""

    owner: str
    _repository: GameRepository
    _locks: ChannelLocks
    _roller: Roller
    _clock: Callable[[], float]
    _clocks: Clocks
    _broadcast: Broadcast
    _seeds: Callable[[], str]

    async def open_table(
        self,
        channel: ChannelKey,
        game_id: str,
        players: list[PlayerRef],
        variants: Variants,
        language: str,
        seed: str,
        event: str,
    ) -> Outcome | None:
        """A tournament's table, started (core.event_tables); None where that game exists
        already (opened by another process, or before a restart): it is opened once."""
        async with self._locks[channel], self._repository.channel_lock(channel):
            if await self._repository.get_game(game_id) is not None:
                return None
            if await self._repository.active_game(channel) is not None:
                raise GameError(ErrorCode.GAME_EXISTS)
            seats = replace(variants, table_cap=max(2, len(players)))
            new, events = seated_game(
                game_id, channel, players, seats, language, seed, event, self._roller,
                self._clock(),
            )  # fmt: skip
            await self._repository.save(new, events, None)
            self._clocks.schedule(new)
            return self._shown(new, events)

    async def close_table(self, channel: ChannelKey, game_id: str) -> Outcome | None:
        """A tournament's table closed as it stands (its round's time is up); None where that
        game is no longer in play there."""
        async with self._locks[channel], self._repository.channel_lock(channel):
            game = await self._repository.active_game(channel)
            if game is None or game.id != game_id:
                return None
            new, events = apply(game, game.seats[0].player, Abandon(), self._roller, self._clock())
            await self._repository.save(new, events, game.version)
            self._clocks.schedule(new)
            return self._shown(new, events)

    async def lead(self, work: str) -> bool:
        """Whether this process may do `work` (a tournament's steps) now, its lease renewed:
        of several processes one does, another once the holder's lease ran out (it died)."""
        return await self._repository.claim_deadline(work, self.owner, LEASE)

    async def unlead(self, work: str) -> None:
        await self._repository.release_deadline(work, self.owner)

    def new_seed(self) -> str:
        """A fresh secret seed for committed dice (a tournament's round)."""
        return self._seeds()

    def _shown(self, new: Game, events: tuple[Event, ...]) -> Outcome:
        """The outcome as a spectator sees it, offered to the table's watchers."""
        outcome = Outcome(new.sealed(), events, make_view(new, None, events))
        self._broadcast.offer(outcome)
        return outcome
