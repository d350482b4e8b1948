"""A press judged by what it asks on the board the presser saw, not by that board's version.

A chat platform holds a board's edits back (its rate limits), and a reminder or others taking
seats moves a game's version on without changing anything a press relies on. So a press made on
an older board is carried out where it still means on the game now what it meant on the board
shown, and refused, saying what changed, where it does not. Only the board shown and the game
now (read under the table's lock) decide; what happened in between does not matter.

| pressed on an older board | carried out when, since that board, | else refused, saying |
|---|---|---|
| every press | the phase and the turn are still the ones shown | STARTED; TURN_PASSED; NEW_TURN |
| Roll, Hold, Score | and no throw was made: the dice are the ones shown | THROWN, with the dice |
| ToggleHold(i) | and no throw, and die i is held (free) as shown | THROWN; HELD (RELEASED) |
| Join (Leave) | and the presser has not taken (left) their seat | REPEATED |
| AddComputer | and no computer of that level was seated | REPEATED |
| Start, Cancel | (nothing more: the game starts with whoever is seated now) | |
| anything else | never: only on the newest board | out of date |

Carried out, a press is still the rules' to refuse, as on the newest board (a table filled up).

So a reminder, others taking, leaving or being given seats, and the presser's own holds (for
their throw, their box, their other dice) change nothing; a throw since (the presser has not
seen its dice), a second tap on the same die or button (it would undo or repeat itself) and the
turn passing do. A lobby's buttons are on lobby boards only and a turn's on turn boards only, so
the button tells which board a press of an earlier turn came from.

What a board showed is known only for versions this process saved or loaded, a turn's latest
ones; a board it does not know (another process's, with shared storage, or one forgotten) is
refused as out of date, without a detail, as it always was.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from core.actions import (
    Action,
    AddComputer,
    Cancel,
    Hold,
    Join,
    Leave,
    Roll,
    Score,
    Start,
    ToggleHold,
)
from core.computer import level_of
from core.dice import SeededRoller
from core.errors import ErrorCode, GameError, Stale
from core.game import apply
from core.identity import PlayerRef
from core.levels import Level
from core.table import Game, Phase, Seat, Turn

GAMES = 4096  # games whose boards are remembered, the least recently played forgotten first
BOARDS = 32  # versions of a turn remembered per game, the oldest forgotten first
TURN_PRESSES = (Roll, Hold, ToggleHold, Score)
LOBBY_PRESSES = (Join, Leave, AddComputer, Start, Cancel)

TurnKey = tuple[Phase, int, int]  # the phase, the round and the seat whose turn it is


@dataclass(frozen=True, slots=True)
class Shown:
    """What a board of one version showed, as far as a press relies on it."""

    key: TurnKey
    turn: Turn
    seats: tuple[Seat, ...]

    @classmethod
    def of(cls, game: Game) -> Shown:
        return cls(_key(game), game.turn, game.seats)


def _key(game: Game) -> TurnKey:
    return game.phase, game.round, game.current


def _stale(detail: Stale | None = None, **params: object) -> GameError:
    return GameError(ErrorCode.STALE, detail=detail, **params)


def judge(shown: Shown, game: Game, player: PlayerRef, action: Action) -> GameError | None:
    """None where a press made on the board `shown` means the same on `game` (the rules may
    still refuse it there, as on the newest board); else the refusal saying what changed."""
    if shown.key != _key(game):
        return over(game, player, action)
    match action:
        case Roll() | Hold() | Score():
            return _thrown(shown.turn, game.turn)
        case ToggleHold(index=index):
            return _thrown(shown.turn, game.turn) or _tapped(shown.turn, game.turn, index)
        case Join() | Leave():  # refused where the presser took (left) the seat since
            joins = isinstance(action, Join)
            then, now = _seated(shown.seats, player.id), _seated(game.seats, player.id)
            return _stale(Stale.REPEATED) if (then, now) == (not joins, joins) else None
        case AddComputer(level=level):
            same = _computers(shown.seats, level) == _computers(game.seats, level)
            return None if same else _stale(Stale.REPEATED)
        case Start() | Cancel():
            return None
    return _stale()


def over(game: Game, player: PlayerRef, action: Action) -> GameError:
    """A press on a board of a turn or phase that is over: whose turn it is now, or that the
    game has started (a lobby's button)."""
    seat = game.current_seat
    if isinstance(action, TURN_PRESSES) and seat is not None:
        if seat.player.id == player.id:
            return _stale(Stale.NEW_TURN, round=game.round)
        return _stale(Stale.TURN_PASSED, player=seat.player.name)
    if isinstance(action, LOBBY_PRESSES) and game.phase is Phase.PLAYING:
        return _stale(Stale.STARTED)
    return _stale()


def _thrown(shown: Turn, now: Turn) -> GameError | None:
    if (shown.throws, shown.dice) == (now.throws, now.dice):
        return None
    return _stale(Stale.THROWN, dice=now.dice)


def _tapped(shown: Turn, now: Turn, index: int) -> GameError | None:
    """A die held or released since the board showed it: this press would undo that."""
    if not 0 <= index < len(now.held) or shown.held[index] == now.held[index]:
        return None  # a die there is not is the rules' to refuse
    return _stale(Stale.HELD if now.held[index] else Stale.RELEASED)


def _seated(seats: tuple[Seat, ...], player_id: str) -> bool:
    return any(seat.player.id == player_id and seat.active for seat in seats)


def _computers(seats: tuple[Seat, ...], level: Level) -> int:
    return sum(1 for seat in seats if level_of(seat.player) is level)


@dataclass(slots=True)
class _Boards:
    """One game's boards this process knows: its current turn's, by version; and the last
    version it knew of an earlier turn or phase (-1: none)."""

    key: TurnKey
    shown: dict[int, Shown]
    earlier: int = -1

    @property
    def newest(self) -> int:
        return next(reversed(self.shown), self.earlier)


class TurnPresses:
    """What each game's boards of its current turn showed, to judge the presses made on them
    (bounded: the games least recently played are forgotten, and so are old versions)."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, _Boards] = OrderedDict()

    def seen(self, game: Game) -> None:
        """Remember a version of a game this process saved or loaded (the newest there is)."""
        if game.phase is Phase.FINISHED:
            self._games.pop(game.id, None)
            return
        kept = self._games.get(game.id)
        key = _key(game)
        if kept is None or game.version < kept.newest:  # new here, or its store went back
            kept = self._games[game.id] = _Boards(key, {})
        elif game.version == kept.newest:
            return
        elif kept.key != key:  # a new turn or phase: the last one's boards show an earlier one
            kept.key, kept.shown, kept.earlier = key, {}, kept.newest
        kept.shown[game.version] = Shown.of(game)
        if len(kept.shown) > BOARDS:
            del kept.shown[next(iter(kept.shown))]
        self._games.move_to_end(game.id)
        if len(self._games) > GAMES:
            self._games.popitem(last=False)

    def judged(
        self, game: Game, player: PlayerRef, action: Action, version: int
    ) -> GameError | None:
        """None where a press made on the board of `version` is carried out on `game`, the
        newest (seen already); else its refusal."""
        if version == game.version:
            return None
        kept = self._games.get(game.id)
        if kept is None or kept.key != _key(game):
            return _stale()
        shown = kept.shown.get(version)
        if shown is not None:
            return judge(shown, game, player, action)
        if version <= kept.earlier:
            return over(game, player, action)
        return _stale()  # a version not known here


def why_stale(game: Game, player: PlayerRef, action: Action, refused: GameError) -> GameError:
    """An old board's press refused (above). Someone not at the table is told whose turn
    it is, which says more to them than what changed at it, unless what changed is their own
    doing (a double tap); anyone seated is told what changed since their board, where that is
    known (else "out of date"), and gets the board redrawn."""
    if refused.detail is not Stale.REPEATED and game.seat_of(player.id) is None:
        try:
            apply(game, player, action, SeededRoller(0))  # a dry run on the game as it is now
        except GameError as error:
            if error.code in (ErrorCode.NOT_YOUR_TURN, ErrorCode.NOT_SEATED, ErrorCode.NOT_HOST):
                return error
    return refused
