"""One table's pure transitions: (game, player, action, roller) → (game, events); the values
they move between are core.table's."""

from __future__ import annotations

from dataclasses import replace

from core.actions import (
    Abandon,
    Action,
    AddComputer,
    Cancel,
    Hold,
    Join,
    Kick,
    Leave,
    Open,
    Remind,
    Roll,
    Score,
    Start,
    TakeBack,
    ToggleHold,
)
from core.boxes import ALL_BOXES, Box
from core.dice import DICE_COUNT, Roller
from core.errors import ErrorCode, GameError
from core.events import (
    BigGeneralThrown,
    BoxScored,
    DiceRolled,
    EndReason,
    Event,
    GameEnded,
    GameStarted,
    HoldChanged,
    HostChanged,
    LobbyOpened,
    LotThrown,
    PlayerJoined,
    PlayerLeft,
    PlayerRemoved,
    RemovalCause,
    TurnReminder,
    TurnStarted,
)
from core.fairdice import Place, Stage, commitment_of
from core.identity import COMPUTER_PREFIX, ChannelKey, PlayerRef
from core.rules import ROUNDS, is_big_general, score
from core.table import (
    NEW_TURN,
    NO_HOLDS,
    Game,
    LotThrow,
    Phase,
    Seat,
    Turn,
    evolve,
)
from core.takeback import retake_of, take_back


def open_lobby(
    game_id: str,
    channel: ChannelKey,
    host: PlayerRef,
    action: Open,
    now: float = 0.0,
    seed: str = "",
) -> tuple[Game, tuple[Event, ...]]:
    """The lobby of a new game whose dice are committed to `seed` ("": the old dice)."""
    game = Game(
        id=game_id,
        channel=channel,
        host_id=host.id,
        variants=action.variants,
        seats=(Seat(host),),
        version=1,
        turn_started=now,
        touched=now,
        language=action.language,
        commitment=commitment_of(seed) if seed else "",
        seed=seed,
    )
    opened = LobbyOpened(host.id, commitment=game.commitment)
    return game, (opened, PlayerJoined(host.id, host.name))


def apply(
    game: Game, player: PlayerRef, action: Action, roller: Roller, now: float = 0.0
) -> tuple[Game, tuple[Event, ...]]:
    """Apply one action at time `now`; raises GameError (nothing changed) when refused."""
    if game.phase is Phase.FINISHED:
        raise GameError(ErrorCode.GAME_OVER)
    match action:
        case Open():
            raise GameError(ErrorCode.GAME_EXISTS)
        case Join():
            new, events = _join(game, player)
        case AddComputer(level=level, name=name):
            _require_host(game, player)
            number = sum(1 for seat in game.seats if seat.player.is_computer) + 1
            computer = PlayerRef(f"{COMPUTER_PREFIX}{level.value}-{number}", name)
            new, events = _join(game, computer)
        case Leave():
            new, events = _leave(game, player)
        case Kick(player_id=target):
            new, events = _kick(game, player, target)
        case Remind():
            new, events = _remind(game, now)
        case Abandon():
            new, ended = _finish(game, EndReason.IDLE, ())
            events = (ended,)
        case Start():
            new, events = _start(game, player, roller)
        case Cancel():
            new, events = _cancel(game, player)
        case Roll():
            new, events = _roll(game, player, roller)
        case ToggleHold(index=index):
            new, events = _hold(game, player, _toggled(game, index))
        case Hold(indices=indices):
            new, events = _hold(game, player, _held_set(indices))
        case Score(box=box):
            new, events = _score(game, player, box, now)
        case TakeBack():
            new, events = take_back(game, player, now)
        case _:
            raise GameError(ErrorCode.BAD_ACTION)
    if new.retake is not None and not isinstance(action, Score | Remind):
        new = evolve(new, retake=None)  # the next player acted: the last box stands
    if any(isinstance(event, TurnStarted) for event in events):
        return evolve(new, version=game.version + 1, touched=now, turn_started=now), events
    return evolve(new, version=game.version + 1, touched=now), events


def _require_host(game: Game, player: PlayerRef) -> None:
    if game.seat_of(player.id) is None:
        raise GameError(ErrorCode.NOT_SEATED)
    if player.id != game.host_id:
        host = game.host
        raise GameError(ErrorCode.NOT_HOST, host=host.name if host else "")


def _join(game: Game, player: PlayerRef) -> tuple[Game, tuple[Event, ...]]:
    if game.phase is not Phase.LOBBY:
        raise GameError(ErrorCode.NOT_IN_LOBBY)
    if game.seat_of(player.id) is not None:
        raise GameError(ErrorCode.ALREADY_SEATED)
    if len(game.seats) >= game.variants.table_cap:
        raise GameError(ErrorCode.TABLE_FULL, cap=game.variants.table_cap)
    seats = (*game.seats, Seat(player))
    return replace(game, seats=seats), (PlayerJoined(player.id, player.name),)


def _leave(game: Game, player: PlayerRef) -> tuple[Game, tuple[Event, ...]]:
    index = game.seat_of(player.id)
    if index is None or not game.seats[index].active:
        raise GameError(ErrorCode.NOT_SEATED)
    events: list[Event] = [PlayerLeft(player.id, game.seats[index].player.name)]
    if game.phase is Phase.LOBBY:
        seats = game.seats[:index] + game.seats[index + 1 :]
    else:  # in play the sheet stays in the record; the seat just stops taking turns
        seats = tuple(
            replace(s, active=False) if i == index else s for i, s in enumerate(game.seats)
        )
    game = replace(game, seats=seats)
    staying = tuple(seat for seat in seats if seat.active)
    if all(seat.player.is_computer for seat in staying):
        game, ended = _finish(game, EndReason.ABANDONED, ())
        return game, (*events, ended)
    if player.id == game.host_id:
        game = replace(game, host_id=_first_human(staying))
        events.append(HostChanged(game.host_id))
    if game.phase is Phase.PLAYING and index == game.current:
        game, more = _advance(game)
        events.extend(more)
    return game, tuple(events)


def _first_human(seats: tuple[Seat, ...]) -> str:
    """The next host: computers never host a table."""
    return next(seat.player.id for seat in seats if not seat.player.is_computer)


def _kick(game: Game, host: PlayerRef, target_id: str) -> tuple[Game, tuple[Event, ...]]:
    _require_host(game, host)
    index = game.seat_of(target_id)
    if index is None or not game.seats[index].active:
        raise GameError(ErrorCode.NOT_SEATED)
    if target_id == host.id:
        raise GameError(ErrorCode.BAD_ACTION)
    game, events = _leave(game, game.seats[index].player)
    return game, (PlayerRemoved(target_id, RemovalCause.KICKED), *events)


def _remind(game: Game, now: float) -> tuple[Game, tuple[Event, ...]]:
    if game.phase is not Phase.PLAYING:
        raise GameError(ErrorCode.NOT_STARTED)
    seat = game.seats[game.current]
    left = max(0, round(game.turn_started + game.variants.turn_timer - now))
    reminded = replace(game, turn=replace(game.turn, reminded=True))
    return reminded, (TurnReminder(seat.player.id, left),)


def _cancel(game: Game, player: PlayerRef) -> tuple[Game, tuple[Event, ...]]:
    _require_host(game, player)
    game, ended = _finish(game, EndReason.CANCELLED, ())
    return game, (ended,)


def _start(game: Game, player: PlayerRef, roller: Roller) -> tuple[Game, tuple[Event, ...]]:
    if game.phase is not Phase.LOBBY:
        raise GameError(ErrorCode.NOT_IN_LOBBY)
    _require_host(game, player)
    _require_seed(game)
    lot, starter = _throw_lot(game.seats, game.seed, roller)
    seats = game.seats[starter:] + game.seats[:starter]
    events: list[Event] = [LotThrown(t.round, t.player_id, t.dice) for t in lot]
    order = tuple(seat.player.id for seat in seats)
    events.append(GameStarted(order))
    events.append(TurnStarted(order[0], 1))
    started = replace(
        game, phase=Phase.PLAYING, seats=seats, lot=lot, round=1, current=0, turn=Turn()
    )
    return started, tuple(events)


def _throw_lot(
    seats: tuple[Seat, ...], seed: str, roller: Roller
) -> tuple[tuple[LotThrow, ...], int]:
    """Everyone throws once; those tied for lowest throw again until one is lowest. Solo: no lot.
    A die's place is the lot's round and the thrower's seat in the lobby."""
    if len(seats) == 1:
        return (), 0
    throws: list[LotThrow] = []
    contenders = list(range(len(seats)))
    lot_round = 1
    while True:
        totals = {}
        for index in contenders:
            places = tuple(Place(Stage.LOT, lot_round, index, 1, die) for die in range(DICE_COUNT))
            dice = roller.throw(seed, places)
            throws.append(LotThrow(lot_round, seats[index].player.id, dice))
            totals[index] = sum(dice)
        lowest = min(totals.values())
        contenders = [index for index in contenders if totals[index] == lowest]
        if len(contenders) == 1:
            return tuple(throws), contenders[0]
        lot_round += 1


def require_turn(game: Game, player: PlayerRef) -> Seat:
    """The seat of the player whose turn it is, when that is `player`: the one check of the
    rules and of the service's hint alike."""
    seat = game.current_seat
    if seat is None:
        raise GameError(ErrorCode.NOT_STARTED)
    if seat.player.id != player.id:
        # Seated or not, what the presser needs to know is whose turn it is.
        raise GameError(ErrorCode.NOT_YOUR_TURN, player=seat.player.name)
    return seat


def _roll(game: Game, player: PlayerRef, roller: Roller) -> tuple[Game, tuple[Event, ...]]:
    require_turn(game, player)
    turn = game.turn
    if turn.throws_left <= 0:
        raise GameError(ErrorCode.NO_THROWS_LEFT)
    held = turn.held if turn.throws else NO_HOLDS
    if all(held):  # a throw throws at least one die: to stop, the player writes a box
        raise GameError(ErrorCode.ALL_HELD)
    _require_seed(game)
    throw = turn.throws + 1
    places = tuple(
        Place(Stage.TURN, game.round, game.current, throw, die)
        for die in range(DICE_COUNT)
        if not held[die]
    )
    fresh = iter(roller.throw(game.seed, places))
    dice = tuple(turn.dice[i] if held[i] else next(fresh) for i in range(DICE_COUNT))
    # The turn goes on (its reminder included): only its throws, dice and holds change.
    game = evolve(game, turn=evolve(turn, throws=throw, dice=dice, held=held))
    events: list[Event] = [DiceRolled(player.id, throw, dice, held)]
    if is_big_general(dice, throw, game.variants):
        events.append(BigGeneralThrown(player.id, dice))
        game, ended = _finish(game, EndReason.BIG_GENERAL, (player.id,))
        return game, (*events, ended)
    return game, tuple(events)


def _require_seed(game: Game) -> None:
    """A sealed game (core.table) is for reading: its dice would not be the committed ones."""
    if game.commitment and not game.seed:
        raise ValueError("a sealed game cannot throw: its seed is not in it")


def _toggled(game: Game, index: int) -> tuple[bool, ...]:
    if not 0 <= index < DICE_COUNT:
        raise GameError(ErrorCode.BAD_DIE)
    held = list(game.turn.held)
    held[index] = not held[index]
    return tuple(held)


def _held_set(indices: frozenset[int]) -> tuple[bool, ...]:
    if any(not 0 <= index < DICE_COUNT for index in indices):
        raise GameError(ErrorCode.BAD_DIE)
    return tuple(index in indices for index in range(DICE_COUNT))


def _hold(game: Game, player: PlayerRef, held: tuple[bool, ...]) -> tuple[Game, tuple[Event, ...]]:
    require_turn(game, player)
    if game.turn.throws == 0:
        raise GameError(ErrorCode.THROW_FIRST)
    if game.turn.throws_left <= 0:
        raise GameError(ErrorCode.NO_THROWS_LEFT)
    return evolve(game, turn=evolve(game.turn, held=held)), (HoldChanged(player.id, held),)


def _score(game: Game, player: PlayerRef, box: Box, now: float) -> tuple[Game, tuple[Event, ...]]:
    seat = require_turn(game, player)
    turn = game.turn
    if turn.throws == 0:
        raise GameError(ErrorCode.THROW_FIRST)
    if seat.score_of(box) is not None:
        raise GameError(ErrorCode.BOX_FILLED, box=box.value)
    points = score(box, turn.dice, turn.throws == 1, game.variants)
    scores = tuple(points if b is box else seat.scores[b.index] for b in ALL_BOXES)
    seats = tuple(evolve(s, scores=scores, missed=0) if s is seat else s for s in game.seats)
    events: list[Event] = [BoxScored(player.id, box, points, turn.dice, turn.throws)]
    retake = retake_of(game, box, now)
    game, more = _advance(evolve(game, seats=seats, retake=retake))
    events.extend(more)
    if retake is not None and game.phase is Phase.FINISHED:  # the game's last box stands
        game = evolve(game, retake=None)
    return game, tuple(events)


def _advance(game: Game) -> tuple[Game, tuple[Event, ...]]:
    """Pass the turn to the next active seat; after the last seat, the next round or the end."""
    index, round_ = game.current, game.round
    for _ in range(len(game.seats)):
        index += 1
        if index == len(game.seats):
            index, round_ = 0, round_ + 1
        if game.seats[index].active:
            break
    if round_ > ROUNDS:
        game, ended = _finish(game, EndReason.COMPLETED, _leaders(game.seats))
        return game, (ended,)
    game = evolve(game, current=index, round=round_, turn=NEW_TURN)
    return game, (TurnStarted(game.seats[index].player.id, round_),)


def _leaders(seats: tuple[Seat, ...]) -> tuple[str, ...]:
    """Equal highest totals share the win; players who left the table cannot win."""
    active = [seat for seat in seats if seat.active]
    best = max(seat.total for seat in active)
    return tuple(seat.player.id for seat in active if seat.total == best)


def _finish(game: Game, reason: EndReason, winners: tuple[str, ...]) -> tuple[Game, GameEnded]:
    """The game ended, and its end told with the seed of its dice revealed (an event's table:
    not yet, see core.table.Game.event)."""
    ended = GameEnded(reason, winners, seed="" if game.event else game.seed)
    return evolve(game, phase=Phase.FINISHED, end_reason=reason, winners=winners), ended
