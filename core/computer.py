"""Computer players: the next action of a Grandmaster, Master, Club or Novice, from the game
alone."""

from __future__ import annotations

from core.actions import Action, Hold, Roll, Score
from core.boxes import Box
from core.errors import ErrorCode, GameError
from core.identity import COMPUTER_PREFIX, PlayerRef
from core.levels import Level
from core.rules import MAX_THROWS, score
from core.table import Game, Phase


def level_of(player: PlayerRef | str) -> Level | None:
    player_id = player.id if isinstance(player, PlayerRef) else player
    if not player_id.startswith(COMPUTER_PREFIX):
        return None
    return Level(player_id[len(COMPUTER_PREFIX) :].rsplit("-", 1)[0])


def next_action(game: Game, level: Level) -> Action:
    """What the computer whose turn it is does next: hold, roll or write a box."""
    if game.phase is not Phase.PLAYING:
        raise GameError(ErrorCode.NOT_STARTED)
    seat = game.seats[game.current]
    turn = game.turn
    if turn.throws == 0:
        return Roll()
    if level is Level.NOVICE:
        return _novice(game)
    # The strategy (numpy) is imported by the first computer to choose, not with the game.
    from core.eventplay import event_choice
    from core.strategy import choices, held_positions
    from core.winplay import winning_choice

    if level is Level.GRANDMASTER:
        # A tournament's table scores every place (core.tournament.placings), not the win alone.
        best = event_choice(game) if game.event else winning_choice(game)
    else:
        best = choices(
            game.variants,
            seat.open_boxes(),
            turn.dice,
            turn.throws,
            seat.total,
            greedy=level is Level.CLUB,
        )[0]
    if best.box is not None:
        return Score(best.box)
    assert best.keep is not None
    return _hold_then_roll(game, held_positions(turn.dice, best.keep))


def _hold_then_roll(game: Game, positions: frozenset[int]) -> Action:
    held = frozenset(i for i, h in enumerate(game.turn.held) if h)
    return Roll() if held == positions else Hold(positions)


def _novice(game: Game) -> Action:
    seat = game.seats[game.current]
    dice = game.turn.dice
    face = max(set(dice), key=lambda f: (dice.count(f), f))
    if game.turn.throws < MAX_THROWS and dice.count(face) < len(dice):
        return _hold_then_roll(game, frozenset(i for i, d in enumerate(dice) if d == face))
    first = game.turn.throws == 1

    def points(box: Box) -> int:
        return score(box, dice, first, game.variants)

    return Score(max(seat.open_boxes(), key=lambda b: (points(b), -b.index)))
