"""A press judged against what the presser was shown, not only against the newest version.

Where a chat platform holds a board's edit back (its rate limits), the player keeps pressing on
a board that shows an older version. Such a press is still theirs to make when everything that
happened since that version was their own holding and releasing of dice in this turn: the dice
they saw are the dice on the table. A throw since then (they have not seen its dice), anyone
else's move, or a second tap on a die they already toggled (a double tap) is refused as before.
In a lobby, others taking or leaving seats changes nothing the presser relied on: only their
own second tap of the same button is refused.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from core.actions import Action, ToggleHold
from core.game import Game, Phase
from core.identity import PlayerRef

GAMES = 4096  # games whose current turn's presses are remembered


@dataclass(frozen=True)
class _Press:
    before: int  # the version it was applied to
    player_id: str
    action: Action


class TurnPresses:
    """The presses applied in each game's current turn, in order (bounded: the games least
    recently pressed are forgotten, and their old boards' presses are refused as stale)."""

    def __init__(self) -> None:
        self._turns: OrderedDict[str, tuple[tuple[int, int], list[_Press]]] = OrderedDict()

    def applied(self, before: Game | None, after: Game, player: PlayerRef, action: Action) -> None:
        """Remember a press applied to `before`, which made `after`."""
        if before is None:
            return
        turn = (after.round, after.current)
        kept = self._turns.get(after.id)
        presses = kept[1] if kept is not None and kept[0] == turn else []
        if (before.round, before.current) != turn:
            presses = []  # the turn passed on: nothing of it is judged again
        else:
            presses.append(_Press(before.version, player.id, action))
        self._turns[after.id] = (turn, presses)
        self._turns.move_to_end(after.id)
        if len(self._turns) > GAMES:
            self._turns.popitem(last=False)

    def caught_up(self, game: Game, player: PlayerRef, action: Action, version: int) -> bool:
        """Whether a press made on the board of `version` may be applied to `game` as it is."""
        if version == game.version:
            return True
        kept = self._turns.get(game.id)
        if kept is None or version > game.version or kept[0] != (game.round, game.current):
            return False
        since = [press for press in kept[1] if press.before >= version]
        if len(since) != game.version - version or since[0].before != version:
            return False  # something this process did not see moved the game
        if game.phase is Phase.LOBBY:  # what was shown (an open table) is still so
            return not any(p.player_id == player.id and p.action == action for p in since)
        if any(p.player_id != player.id or not isinstance(p.action, ToggleHold) for p in since):
            return False
        if isinstance(action, ToggleHold):
            toggled = sum(1 for p in since if p.action == action)
            return toggled == 0  # a second tap on the same die is a double tap
        return True
