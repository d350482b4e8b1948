"""Helpers for the core tests: players, a reference scorer written from RULES.md, game drivers.

Nothing here replaces code under test: games are built with the real `open_lobby`/`apply`, dice
come from the real `ScriptedRoller`/`SeededRoller`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from core.actions import Action, Hold, Join, Leave, Open, Roll, Score, Start
from core.boxes import Box
from core.dice import Roller, ScriptedRoller, SecureRoller, SeededRoller
from core.errors import ErrorCode, GameError
from core.events import (
    BigGeneralThrown,
    BoxScored,
    DiceRolled,
    Event,
    GameEnded,
    GameStarted,
    HoldChanged,
    LobbyOpened,
    LotThrown,
    PlayerJoined,
    PlayerLeft,
)
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import BigGeneralMode, Variants
from core.snapshot import game_to_dict
from core.table import Game, Phase

CHANNEL = ChannelKey("test", "room-1")
ALICE = PlayerRef("u-alice", "Alice")
BOB = PlayerRef("u-bob", "Bob")
CAROL = PlayerRef("u-carol", "Carol")
DAVE = PlayerRef("u-dave", "Dave")
ERIN = PlayerRef("u-erin", "Erin")
STRANGER = PlayerRef("u-stranger", "Stranger")
PLAYERS = (ALICE, BOB, CAROL, DAVE, ERIN)

# Sheet order and face boxes as RULES.md lists them.
SHEET_ORDER = (
    Box.ONES,
    Box.TWOS,
    Box.THREES,
    Box.FOURS,
    Box.FIVES,
    Box.SIXES,
    Box.STRAIGHT,
    Box.FULL_HOUSE,
    Box.FOUR,
    Box.GENERAL,
)
FACE_OF = {Box.ONES: 1, Box.TWOS: 2, Box.THREES: 3, Box.FOURS: 4, Box.FIVES: 5, Box.SIXES: 6}

# "Those four sets of faces are the only straights" (RULES.md, Scoring).
RULES_STRAIGHTS = frozenset({(1, 2, 3, 4, 5), (2, 3, 4, 5, 6), (1, 3, 4, 5, 6), (1, 1, 3, 4, 5)})
RULES_NATURAL_STRAIGHTS = frozenset({(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)})


def reference_score(box: Box, dice: Sequence[int], first_throw: bool, variants: Variants) -> int:
    """The scoring table of RULES.md, written independently of core.rules."""
    counts = sorted(Counter(dice).values(), reverse=True)
    if box in FACE_OF:
        return sum(d for d in dice if d == FACE_OF[box])
    if box is Box.STRAIGHT:
        allowed = RULES_STRAIGHTS if variants.straight_joker else RULES_NATURAL_STRAIGHTS
        return (25 if first_throw else 20) if tuple(sorted(dice)) in allowed else 0
    if box is Box.FULL_HOUSE:
        full = counts == [3, 2] or (variants.five_of_a_kind_full_house and counts == [5])
        return (35 if first_throw else 30) if full else 0
    if box is Box.FOUR:
        return (45 if first_throw else 40) if counts[0] >= 4 else 0
    assert box is Box.GENERAL
    return 60 if counts == [5] else 0


def no_dice() -> ScriptedRoller:
    """A roller that fails loudly if anything throws a die."""
    return ScriptedRoller()


def act(
    game: Game, player: PlayerRef, action: Action, roller: ScriptedRoller | None = None
) -> tuple[Game, tuple[Event, ...]]:
    """Apply an action that must be accepted; every applied action bumps the version by one."""
    new, events = apply(game, player, action, roller or no_dice())
    assert new.version == game.version + 1
    assert events, "an applied action tells what happened"
    return new, events


def refuse(
    game: Game,
    player: PlayerRef,
    action: Action,
    code: ErrorCode,
    roller: ScriptedRoller | None = None,
) -> GameError:
    """Apply an action that must be refused with `code`; nothing may change, no die thrown."""
    roller = roller or no_dice()
    before = game_to_dict(game)
    dice_left = roller.remaining
    try:
        apply(game, player, action, roller)
    except GameError as error:
        assert error.code is code, f"expected {code}, got {error.code}"
        assert game_to_dict(game) == before
        assert roller.remaining == dice_left, "a refused action threw dice"
        return error
    raise AssertionError(f"{action} by {player.name} was accepted; expected {code}")


def lobby(*players: PlayerRef, variants: Variants | None = None, game_id: str = "g-1") -> Game:
    host, *others = players or (ALICE,)
    game, _ = open_lobby(game_id, CHANNEL, host, Open(variants or Variants()))
    for player in others:
        game, _ = act(game, player, Join())
    return game


def lot_in_join_order(count: int) -> list[int]:
    """Lot dice that make the players' totals rise in join order (the first joiner is lowest)."""
    assert count <= 6, "lot_in_join_order handles up to six players"
    return [face for index in range(count) for face in (index + 1, 1, 1, 1, 1)]


def started(
    *players: PlayerRef, variants: Variants | None = None, game_id: str = "g-1"
) -> tuple[Game, ScriptedRoller]:
    """A started game whose seating order is the join order (the lot keeps the host first)."""
    game = lobby(*players, variants=variants, game_id=game_id)
    roller = ScriptedRoller(lot_in_join_order(len(game.seats)) if len(game.seats) > 1 else ())
    game, _ = act(game, game.seats[0].player, Start(), roller)
    assert roller.remaining == 0
    assert [s.player for s in game.seats] == list(players or (ALICE,))
    return game, roller


def current_player(game: Game) -> PlayerRef:
    assert game.phase is Phase.PLAYING
    return game.seats[game.current].player


def one_throw_turn(
    game: Game, roller: ScriptedRoller, dice: Iterable[int], box: Box | None = None
) -> tuple[Game, tuple[Event, ...]]:
    """The current player throws `dice` once and writes into `box` (the first open one if None)."""
    player = current_player(game)
    roller.push(dice)
    game, rolled = act(game, player, Roll(), roller)
    if game.phase is not Phase.PLAYING:
        return game, rolled
    if box is None:
        box = game.seats[game.current].open_boxes()[0]
    game, scored = act(game, player, Score(box), roller)
    return game, rolled + scored


def play_out(
    game: Game, roller: ScriptedRoller, dice_for: Callable[[PlayerRef], Iterable[int]]
) -> tuple[Game, list[Event]]:
    """Play one-throw turns (first open box) until the game ends."""
    log: list[Event] = []
    while game.phase is Phase.PLAYING:
        game, events = one_throw_turn(game, roller, dice_for(current_player(game)))
        log.extend(events)
    return game, log


def variants_of(big: BigGeneralMode, full: bool, joker: bool, cap: int = 10) -> Variants:
    return Variants(
        big_general=big, five_of_a_kind_full_house=full, straight_joker=joker, table_cap=cap
    )


def play_random_game(
    players: Sequence[PlayerRef],
    variants: Variants,
    dice_seed: int,
    rng: random.Random,
    leave_chance: float = 0.0,
    on_step: Callable[[Game], None] | None = None,
    sealed_with: str = "",
) -> tuple[Game, list[Event]]:
    """A whole game of random legal actions: random holds, stop points, boxes, optional leaves.
    `sealed_with`: the committed dice of that seed (the production roller), not seeded ones."""
    roller: Roller = SecureRoller() if sealed_with else SeededRoller(dice_seed)
    game, events = open_lobby("g-random", CHANNEL, players[0], Open(variants), seed=sealed_with)
    log = list(events)

    def step(player: PlayerRef, action: Action) -> None:
        nonlocal game
        new, more = apply(game, player, action, roller)
        assert new.version == game.version + 1
        game = new
        log.extend(more)
        if on_step is not None:
            on_step(game)

    for player in players[1:]:
        step(player, Join())
    step(players[0], Start())
    while game.phase is Phase.PLAYING:
        actives = [s.player for s in game.seats if s.active]
        if leave_chance and rng.random() < leave_chance:
            step(rng.choice(actives), Leave())
            continue
        seat = game.seats[game.current]
        player, turn = seat.player, game.turn
        if turn.throws == 0:
            step(player, Roll())
        elif turn.throws < 3 and rng.random() < 0.6:
            if rng.random() < 0.7:
                kept = frozenset(i for i in range(5) if rng.random() < 0.5)
                step(player, Hold(kept))
            if all(game.turn.held):  # no die left to throw: the rules leave only a box
                step(player, Score(rng.choice(seat.open_boxes())))
            else:
                step(player, Roll())
        else:
            step(player, Score(rng.choice(seat.open_boxes())))
    return game, log


def replay(log: Sequence[Event], game_id: str, channel: ChannelKey, variants: Variants) -> Game:
    """Rebuild a game from its event log alone: actions from events, dice from the thrown dice."""
    assert isinstance(log[0], LobbyOpened)
    names: dict[str, str] = {}
    roller = ScriptedRoller()
    game: Game | None = None

    def ref(player_id: str) -> PlayerRef:
        return PlayerRef(player_id, names[player_id])

    index = 0
    while index < len(log):
        event = log[index]
        index += 1
        match event:
            case PlayerJoined(player_id=pid, name=name):
                names[pid] = name
                if game is None:
                    game, _ = open_lobby(game_id, channel, ref(pid), Open(variants))
                else:
                    game, _ = apply(game, ref(pid), Join(), roller)
            case LotThrown(dice=dice):
                roller.push(dice)
            case GameStarted():
                assert game is not None
                game, _ = apply(game, ref(game.host_id), Start(), roller)
            case DiceRolled(player_id=pid, dice=dice, held=held):
                assert game is not None
                roller.push(d for d, h in zip(dice, held, strict=True) if not h)
                game, _ = apply(game, ref(pid), Roll(), roller)
            case HoldChanged(player_id=pid, held=held):
                assert game is not None
                kept = frozenset(i for i, h in enumerate(held) if h)
                game, _ = apply(game, ref(pid), Hold(kept), roller)
            case BoxScored(player_id=pid, box=box):
                assert game is not None
                game, _ = apply(game, ref(pid), Score(box), roller)
            case PlayerLeft(player_id=pid):
                assert game is not None
                game, _ = apply(game, ref(pid), Leave(), roller)
            case BigGeneralThrown() | GameEnded():
                pass
            case _:
                pass
    assert game is not None
    assert roller.remaining == 0
    return game
