"""Each person's accuracy, dice and decisions (core.luck, in expected points) beside their
result, weighed once a recorded game ends; and the latest ends as weighed, which the final
message reads too (its review) without weighing again."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.events import Event
from core.identity import COMPUTER_PREFIX
from core.ports import GameRepository
from core.records import Weighed
from core.table import Game

if TYPE_CHECKING:  # the review (numpy) is imported when first used
    from core.review import PlayerReview

ENDED_KEPT = 32  # the latest ended games whose log and review are kept for their final message


@dataclass(frozen=True)
class Ended:
    """A recorded game's end as it was weighed: its log and each player's review in expected
    points."""

    events: tuple[Event, ...]
    reviews: Mapping[str, PlayerReview]


class Accuracy:
    """Weighs the games that end and keeps the latest ends."""

    def __init__(self, repository: GameRepository) -> None:
        self._repository = repository
        self._ended: OrderedDict[tuple[str, int], Ended] = OrderedDict()

    async def record(self, game: Game) -> None:
        """Weighing every decision of the game takes milliseconds a player: in a thread, not
        on the loop every table shares."""
        from core.review import review

        events = tuple(await self._repository.events(game.id))
        reviews = await asyncio.to_thread(review, events, game.variants)
        self._ended[game.id, game.version] = Ended(events, reviews)
        while len(self._ended) > ENDED_KEPT:
            self._ended.popitem(last=False)
        weighed = {
            player_id: Weighed(
                player_review.accuracy(game.variants),
                player_review.luck.dice if player_review.luck else 0.0,
                player_review.luck.decisions if player_review.luck else 0.0,
            )
            for player_id, player_review in reviews.items()
            if not player_review.player_id.startswith(COMPUTER_PREFIX)
        }
        await self._repository.set_weighed(game.id, weighed)

    def ended(self, game_id: str, version: int) -> Ended | None:
        return self._ended.get((game_id, version))
