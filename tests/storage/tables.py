"""Games driven with the real core and saved after every action, as the service does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.actions import Join, Open, Roll, Score, Start
from core.boxes import Box
from core.dice import ScriptedRoller
from core.events import Event
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import Variants
from core.table import Game, Phase

CHANNEL = ChannelKey("telegram", "-100200300", "7")
ALICE = PlayerRef("a1", "Alice")
BOB = PlayerRef("b2", "Bob")
CAROL = PlayerRef("c3", "Carol")


class Table:
    """One game on one repository; remembers every event and every die handed out."""

    def __init__(self, repo: Any, game_id: str = "g-1", channel: ChannelKey = CHANNEL) -> None:
        self.repo = repo
        self.game_id = game_id
        self.channel = channel
        self.roller = ScriptedRoller()
        self.thrown: list[int] = []  # every face the roller handed out, in order
        self.game: Game | None = None
        self.log: list[Event] = []

    async def open(self, host: PlayerRef, variants: Variants | None = None) -> Game:
        self.game, events = open_lobby(
            self.game_id, self.channel, host, Open(variants or Variants())
        )
        await self.repo.save(self.game, events, None)
        self.log.extend(events)
        return self.game

    async def do(self, player: PlayerRef, action: Any, dice: Sequence[int] = ()) -> Game:
        assert self.game is not None
        self.roller.push(dice)
        self.thrown.extend(dice)
        new, events = apply(self.game, player, action, self.roller)
        assert self.roller.remaining == 0
        await self.repo.save(new, events, self.game.version)
        self.game = new
        self.log.extend(events)
        return new

    def current(self) -> PlayerRef:
        assert self.game is not None and self.game.phase is Phase.PLAYING
        return self.game.seats[self.game.current].player

    async def turn(self, dice: Sequence[int], box: Box | None = None) -> Game:
        player = self.current()
        await self.do(player, Roll(), dice)
        assert self.game is not None
        if self.game.phase is not Phase.PLAYING:
            return self.game
        box = box or self.game.seats[self.game.current].open_boxes()[0]
        return await self.do(player, Score(box))


async def started_pair(repo: Any, game_id: str = "g-1", channel: ChannelKey = CHANNEL) -> Table:
    table = Table(repo, game_id, channel)
    await table.open(ALICE)
    await table.do(BOB, Join())
    await table.do(ALICE, Start(), [1, 1, 1, 1, 1, 6, 6, 6, 6, 6])  # Alice's lot is lowest
    return table
