"""What every game the rules can reach holds true: checked as a stored game is loaded, so that a
snapshot damaged on disk (or by hand) is set aside rather than played, where it would crash
the bot's start-up or leave its table stuck.

Each check is what some code relies on: the current seat exists (the deadlines, the board),
every score is a number a box can hold (the totals, the sheet), the dice are five faces once
thrown (the scoring, the computers), and so on. A game that breaks one raises DamagedGame,
which the storage treats as it treats a snapshot that cannot be parsed: it quarantines it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import Enum
from itertools import chain
from typing import Any

from core.dice import DICE_COUNT, FACES
from core.events import RECORDED_ENDS, EndReason
from core.fairdice import commitment_of, is_seed
from core.rules import (
    FOUR_PRICE,
    FULL_HOUSE_PRICE,
    GENERAL_PRICE,
    MAX_THROWS,
    ROUNDS,
    STRAIGHT_PRICE,
)
from core.table import Game, Phase, Turn


class Broken(Enum):
    """Which part of a stored game is damaged: the machine code of a DamagedGame."""

    FIELD = "field"  # a field missing, of the wrong type or shape
    IDENTITY = "identity"  # the game's id, channel, host or language
    VARIANTS = "variants"
    PHASE = "phase"  # the phase against its ending, round, lot and winners
    VERSION = "version"
    SEATS = "seats"
    CURRENT = "current"
    ROUND = "round"
    TURN = "turn"  # the throw number and the reminder
    DICE = "dice"
    HELD = "held"
    SCORES = "scores"
    TIMES = "times"
    LOT = "lot"
    WINNERS = "winners"
    ROW = "row"  # the snapshot against its database row (id, channel, phase, version)
    RETAKE = "retake"  # what taking back the last box would restore
    SEED = "seed"  # the committed dice's seed: none, or 32 bytes in hex


class DamagedGame(ValueError):
    """A stored game the bot must not play; `broken` names the invariant (its code)."""

    def __init__(self, broken: Broken, detail: str) -> None:
        super().__init__(f"{broken.value}: {detail}")
        self.broken = broken


# The points each box can hold, in sheet order: a number box its face times 0…5 dice, a
# combination its two prices (first throw, later) or 0 (General has one price).
POSSIBLE_SCORES: tuple[frozenset[int], ...] = (
    *(frozenset(face * count for count in range(DICE_COUNT + 1)) for face in range(1, FACES + 1)),
    frozenset({0, *STRAIGHT_PRICE}),
    frozenset({0, *FULL_HOUSE_PRICE}),
    frozenset({0, *FOUR_PRICE}),
    frozenset({0, GENERAL_PRICE}),
)
_POSSIBLE_OR_OPEN = tuple(possible | {None} for possible in POSSIBLE_SCORES)
_contains = frozenset.__contains__
_SCORE_TYPES = frozenset({int, type(None)})
_INT, _STR, _BOOL = {int}, {str}, {bool}
_SHEET_LENGTH, _DICE_LENGTH = {len(POSSIBLE_SCORES)}, {DICE_COUNT}
_EMPTY_SHEET = (None,) * len(POSSIBLE_SCORES)


def check_game(game: Game) -> None:
    """Raise DamagedGame unless `game` is one the rules could have reached. It runs at every
    load (at every action, on PostgreSQL): plain tests, each detail written only on failure."""
    _check_identity(game)
    timer = game.variants.turn_timer
    if type(timer) is not int or timer < 0:
        raise DamagedGame(Broken.VARIANTS, f"turn timer {timer!r}")
    ids = _check_seats(game)
    _check_phase(game, ids)
    _check_turn(game.turn, game.phase)
    if game.lot:
        _check_lot(game, ids)
    if game.retake is not None:
        _check_retake(game)
    _check_seed(game)
    version = game.version
    if type(version) is not int or version < 1:
        raise DamagedGame(Broken.VERSION, repr(version))
    for when in (game.turn_started, game.touched):
        if type(when) not in _NUMBERS or not 0 <= when < math.inf:
            raise DamagedGame(Broken.TIMES, repr(when))


def _check_seed(game: Game) -> None:
    """A stored game holds its seed (a sealed one is never stored) and the seed's commitment."""
    seed, commitment = game.seed, game.commitment
    if type(seed) is not str or type(commitment) is not str:
        raise DamagedGame(Broken.SEED, "not text")
    if seed and not is_seed(seed):
        raise DamagedGame(Broken.SEED, f"a seed of {len(seed)} characters")
    if commitment != (commitment_of(seed) if seed else ""):
        raise DamagedGame(Broken.SEED, "the commitment is not the seed's")


def check_row(game: Game, game_id: str, channel: str, phase: str, version: int) -> None:
    """The snapshot is its row's: a game whose row says another version would be refused as
    stale at every save, and one in another channel or phase would be looked for where it is
    not (the chat's table taken, for good, by a game it cannot reach)."""
    stored = (game_id, channel, phase, version)
    if (game.id, str(game.channel), game.phase.value, game.version) != stored:
        raise DamagedGame(Broken.ROW, f"the row's {stored}")


_NUMBERS = (int, float)


def _text(value: Any, empty: bool = True) -> bool:
    return type(value) is str and (empty or value != "")


def _check_identity(game: Game) -> None:
    channel = game.channel
    named = _text(game.id, empty=False) and _text(game.host_id) and _text(game.language)
    if not named:
        raise DamagedGame(Broken.IDENTITY, f"{game.id!r} {game.host_id!r} {game.language!r}")
    where = channel.platform, channel.chat, channel.thread
    if not (_text(where[0], empty=False) and _text(where[1], empty=False) and _text(where[2])):
        raise DamagedGame(Broken.IDENTITY, f"channel {where!r}")


def _check_seats(game: Game) -> set[str]:
    """The seats' players, each seated once; the host among them while the game is open; each
    score a number its box can hold. Column by column, each test one pass in C over all the
    seats rather than a Python loop over them."""
    seats, phase = game.seats, game.phase
    if len(seats) > game.variants.table_cap or not (seats or phase is Phase.FINISHED):
        raise DamagedGame(Broken.SEATS, f"{len(seats)} seats")
    if not seats:
        return set()
    players = [seat.player for seat in seats]
    player_ids = [player.id for player in players]
    names = [player.name for player in players]
    if not ({*map(type, player_ids)} == _STR == {*map(type, names)} and all(player_ids)):
        raise DamagedGame(Broken.SEATS, f"players {players!r}")
    ids = set(player_ids)
    if len(ids) != len(seats):
        raise DamagedGame(Broken.SEATS, "a player seated twice")
    if game.host_id not in ids and phase is not Phase.FINISHED:
        raise DamagedGame(Broken.SEATS, "the host is not seated")
    lobby = phase is Phase.LOBBY
    active = [seat.active for seat in seats]
    if {*map(type, active)} != _BOOL or (lobby and not all(active)):
        raise DamagedGame(Broken.SEATS, f"active {active!r}")
    missed = [seat.missed for seat in seats]
    if {*map(type, missed)} != _INT or min(missed) < 0:
        raise DamagedGame(Broken.SEATS, f"missed {missed!r}")
    _check_scores([seat.scores for seat in seats], lobby)
    return ids


def _check_scores(sheets: list[tuple[int | None, ...]], lobby: bool) -> None:
    """Each sheet ten boxes, each None (open) or a number its box can hold; none in a lobby."""
    if lobby:
        if any(sheet != _EMPTY_SHEET for sheet in sheets):
            raise DamagedGame(Broken.SCORES, f"a score in the lobby: {sheets!r}")
        return
    scores = tuple(chain.from_iterable(sheets))
    fine = {*map(len, sheets)} == _SHEET_LENGTH and {*map(type, scores)} <= _SCORE_TYPES
    if not (fine and all(map(_contains, _POSSIBLE_OR_OPEN * len(sheets), scores))):
        raise DamagedGame(Broken.SCORES, repr(sheets))


def _check_phase(game: Game, ids: set[str]) -> None:
    """Where the game is (phase, round, current seat) and how it ended, together."""
    phase, current, round_ = game.phase, game.current, game.round
    if type(current) is not int or type(round_) is not int:
        raise DamagedGame(Broken.FIELD, f"current {current!r}, round {round_!r}")
    if phase is Phase.FINISHED:
        if game.end_reason is None:
            raise DamagedGame(Broken.PHASE, "finished without an ending")
        if not 0 <= round_ <= ROUNDS:
            raise DamagedGame(Broken.ROUND, str(round_))
        if not 0 <= current < max(1, len(game.seats)):
            raise DamagedGame(Broken.CURRENT, f"{current} of {len(game.seats)} seats")
        _check_winners(game, ids)
        return
    if game.end_reason is not None or game.winners:
        raise DamagedGame(Broken.PHASE, f"{phase.value} with an ending")
    if not (round_ == 0 if phase is Phase.LOBBY else 1 <= round_ <= ROUNDS):
        raise DamagedGame(Broken.ROUND, f"{round_} in {phase.value}")
    playing = phase is Phase.PLAYING
    if not (0 <= current < len(game.seats) if playing else current == 0):
        raise DamagedGame(Broken.CURRENT, f"{current} of {len(game.seats)} seats")
    if playing and not game.seats[current].active:
        raise DamagedGame(Broken.CURRENT, "the current player left")


def _check_winners(game: Game, ids: set[str]) -> None:
    """Who won, among the seated: one for a big general, none for a game that did not count."""
    winners = game.winners
    seated = all(type(winner) is str and winner in ids for winner in winners)
    counted = bool(winners) == (game.end_reason in RECORDED_ENDS)
    single = game.end_reason is not EndReason.BIG_GENERAL or len(winners) == 1
    if not (seated and counted and single and len(set(winners)) == len(winners)):
        raise DamagedGame(Broken.WINNERS, f"{game.end_reason}: {winners!r}")


def _check_turn(turn: Turn, phase: Phase) -> None:
    throws, dice, held = turn.throws, turn.dice, turn.held
    if type(throws) is not int or not 0 <= throws <= MAX_THROWS or type(turn.reminded) is not bool:
        raise DamagedGame(Broken.TURN, f"throw {throws!r}, reminded {turn.reminded!r}")
    if throws and phase is Phase.LOBBY:
        raise DamagedGame(Broken.TURN, "a throw in the lobby")
    _check_faces(dice, DICE_COUNT if throws else 0, Broken.DICE)
    if len(held) != DICE_COUNT or any(type(hold) is not bool for hold in held):
        raise DamagedGame(Broken.HELD, repr(held))
    if not throws and any(held):
        raise DamagedGame(Broken.HELD, "held before a throw")


def _check_retake(game: Game) -> None:
    """A box that may be taken back: in a game in play, its writer seated, the turn it restores
    one the rules could have reached (a throw made, five dice, five holds)."""
    retake = game.retake
    assert retake is not None
    numbers = (retake.seat, retake.round, retake.throws, retake.missed)
    fine = game.phase is Phase.PLAYING and {*map(type, numbers)} == _INT
    fine = fine and 0 <= retake.seat < len(game.seats) and 1 <= retake.round <= game.round
    fine = fine and 1 <= retake.throws <= MAX_THROWS and retake.missed >= 0
    fine = fine and type(retake.reminded) is bool and type(retake.elapsed) in _NUMBERS
    fine = fine and 0 <= retake.elapsed < math.inf
    holds = retake.held
    fine = fine and len(holds) == DICE_COUNT and all(type(hold) is bool for hold in holds)
    if not (fine and len(retake.dice) == DICE_COUNT and _faces(retake.dice)):
        raise DamagedGame(Broken.RETAKE, repr(retake))


def _check_lot(game: Game, ids: set[str]) -> None:
    """The lot for the seating: thrown at the start by the players seated, five dice each."""
    lot = game.lot
    if game.phase is Phase.LOBBY:
        raise DamagedGame(Broken.LOT, "a lot in the lobby")
    numbers = [throw.round for throw in lot]
    throwers = [throw.player_id for throw in lot]
    dice = [throw.dice for throw in lot]
    fine = {*map(type, numbers)} == _INT and min(numbers) >= 1
    fine = fine and {*map(type, throwers)} == _STR and ids.issuperset(throwers)
    if not (fine and {*map(len, dice)} == _DICE_LENGTH and _faces(chain.from_iterable(dice))):
        raise DamagedGame(Broken.LOT, repr(lot))


def _check_faces(dice: tuple[int, ...], count: int, broken: Broken) -> None:
    if len(dice) != count or (dice and not _faces(dice)):
        raise DamagedGame(broken, repr(dice))


def _faces(dice: Iterable[int]) -> bool:
    """Every face 1…6 (in C: the types first, so that min and max compare numbers only)."""
    faces = tuple(dice)
    return {*map(type, faces)} == _INT and min(faces) >= 1 and max(faces) <= FACES
