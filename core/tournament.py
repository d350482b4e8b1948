"""A chat's tournament as values: its rules, entrants and rounds, and the pure steps between them
(open, enter, start, a table's result, the next round). Saved whole, with a version, as a game is;
the tables themselves are ordinary games (core.table.Game.event names their place here).

A table scores each of its players by place: the share of the others they finished above (a tie
half each), so first is 1 and last 0 at any size; a bye scores as a win (1), as in chess Swiss.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from core.errors import ErrorCode, GameError
from core.fairdice import commitment_of
from core.identity import ChannelKey, PlayerRef
from core.pairing import Pairing, round_robin, round_robin_rounds, swiss
from core.table import Game, Phase

BYE_SCORE = 1.0
MAX_ENTRANTS = 64
MIN_ENTRANTS = 2
SIZES = (2, 3, 4, 5, 6)
ROUNDS = (2, 3, 4, 5, 6, 7)
DEADLINES = (1800, 3600, 3 * 3600, 86400, 3 * 86400)  # seconds a round may take


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "robin"


class EventPhase(StrEnum):
    OPEN = "open"  # people enter
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class EventRules:
    """What the host chooses before the start."""

    format: Format = Format.SWISS
    rounds: int = 3  # Swiss; a round robin plays as many as all-play-all takes
    size: int = 4  # players at a table at most
    deadline: int = 86400
    duplicate: bool = True  # every table of a round throws the same dice


def cycled(rules: EventRules, name: str) -> EventRules:
    """The host's buttons: each moves one rule to its next choice."""
    match name:
        case "format":
            return replace(rules, format=_next(tuple(Format), rules.format))
        case "rounds":
            return replace(rules, rounds=_next(ROUNDS, rules.rounds))
        case "size":
            return replace(rules, size=_next(SIZES, rules.size))
        case "deadline":
            return replace(rules, deadline=_next(DEADLINES, rules.deadline))
        case "dice":
            return replace(rules, duplicate=not rules.duplicate)
    raise GameError(ErrorCode.BAD_ACTION)


def _next(options: tuple[Any, ...], value: Any) -> Any:
    index = options.index(value) if value in options else -1
    return options[(index + 1) % len(options)]


@dataclass(frozen=True)
class Placing:
    """One player's result at a table: the sheet's points and the event's score for them."""

    player_id: str
    total: int
    score: float


@dataclass(frozen=True)
class EventTable:
    """A table of a round: who sits there in seating order, where it plays, its result."""

    number: int
    players: tuple[str, ...]
    channel: str = ""  # the ChannelKey (as text) it plays in, once it has one
    placings: tuple[Placing, ...] = ()  # its result, once over

    @property
    def done(self) -> bool:
        return bool(self.placings)


@dataclass(frozen=True)
class EventRound:
    """A round: its tables, who sits it out, its dice (sealed until every table is over) and
    when its tables still playing are closed."""

    number: int
    tables: tuple[EventTable, ...]
    byes: tuple[str, ...]
    seed: str = field(repr=False)  # secret until every table is over
    commitment: str
    deadline: float  # when the tables still playing are closed as they stand

    @property
    def done(self) -> bool:
        return all(table.done for table in self.tables)


@dataclass(frozen=True)
class Standing:
    """A player's place in the event so far: place points (byes included), sheets' points,
    tables played, byes."""

    player: PlayerRef
    score: float
    points: int
    played: int
    byes: int


@dataclass(frozen=True)
class Tournament:
    """One chat's event, from its entries to its final table."""

    id: str
    channel: ChannelKey  # where its messages are (the chat it was opened in)
    host_id: str
    rules: EventRules
    language: str = ""
    phase: EventPhase = EventPhase.OPEN
    entrants: tuple[PlayerRef, ...] = ()
    withdrawn: tuple[str, ...] = ()
    rounds: tuple[EventRound, ...] = ()
    told: int = 0  # rounds whose standings (the last: the final table) were said in the chat
    message: str = ""  # the event's own message (its card), once posted
    announced: int = 0  # rounds whose tables were said in the chat
    version: int = 0
    opened: float = 0.0

    @property
    def current(self) -> EventRound | None:
        return self.rounds[-1] if self.rounds and self.phase is EventPhase.PLAYING else None

    @property
    def planned(self) -> int:
        """How many rounds the event plays."""
        if self.rules.format is Format.ROUND_ROBIN:
            return round_robin_rounds(len(self.entrants), self.rules.size)
        return self.rules.rounds

    def entrant(self, player_id: str) -> PlayerRef | None:
        return next((p for p in self.entrants if p.id == player_id), None)

    def is_entered(self, player_id: str) -> bool:
        return self.entrant(player_id) is not None


def open_event(
    event_id: str, channel: ChannelKey, host: PlayerRef, language: str, now: float
) -> Tournament:
    """A new event, its host entered."""
    return Tournament(
        event_id, channel, host.id, EventRules(), language, entrants=(host,), version=1, opened=now
    )


def _bumped(event: Tournament, **changes: Any) -> Tournament:
    return replace(event, version=event.version + 1, **changes)


def _require_open(event: Tournament) -> None:
    if event.phase is not EventPhase.OPEN:
        raise GameError(ErrorCode.EVENT_STARTED)


def _require_host(event: Tournament, player_id: str) -> None:
    if player_id != event.host_id:
        host = event.entrant(event.host_id)
        raise GameError(ErrorCode.NOT_EVENT_HOST, host=host.name if host else "")


def enter(event: Tournament, player: PlayerRef) -> Tournament:
    _require_open(event)
    if event.is_entered(player.id):
        raise GameError(ErrorCode.ALREADY_ENTERED)
    if len(event.entrants) >= MAX_ENTRANTS:
        raise GameError(ErrorCode.EVENT_FULL, cap=MAX_ENTRANTS)
    return _bumped(event, entrants=(*event.entrants, player))


def add_computer(event: Tournament, host: str, level: str, name: str) -> Tournament:
    """The host enters a computer of `level` (core.levels), numbered among the event's."""
    _require_host(event, host)
    number = sum(1 for p in event.entrants if p.is_computer) + 1
    return enter(event, PlayerRef(f"cpu-{level}-{number}", f"{name} {number}"))


def leave(event: Tournament, player_id: str) -> Tournament:
    """Before the start, off the list (a host leaving cancels: see cancel); after it, out of
    the rounds still to pair (the tables they sit at go on without a stand-in choice)."""
    if not event.is_entered(player_id) or player_id in event.withdrawn:
        raise GameError(ErrorCode.NOT_ENTERED)
    if event.phase is EventPhase.OPEN:
        if player_id == event.host_id:
            raise GameError(ErrorCode.HOST_LEAVES)
        return _bumped(event, entrants=tuple(p for p in event.entrants if p.id != player_id))
    if event.phase is not EventPhase.PLAYING:
        raise GameError(ErrorCode.EVENT_OVER)
    return _bumped(event, withdrawn=(*event.withdrawn, player_id))


def configure(event: Tournament, host: str, name: str) -> Tournament:
    _require_open(event)
    _require_host(event, host)
    return _bumped(event, rules=cycled(event.rules, name))


def cancel(event: Tournament, host: str) -> Tournament:
    if event.phase not in (EventPhase.OPEN, EventPhase.PLAYING):
        raise GameError(ErrorCode.EVENT_OVER)
    _require_host(event, host)
    return _bumped(event, phase=EventPhase.CANCELLED)


def start(event: Tournament, host: str, seed: str, now: float) -> Tournament:
    """Round 1 paired (its tables to be opened by the caller)."""
    _require_open(event)
    _require_host(event, host)
    if len(event.entrants) < MIN_ENTRANTS:
        raise GameError(ErrorCode.EVENT_TOO_FEW, count=MIN_ENTRANTS)
    playing = _bumped(event, phase=EventPhase.PLAYING)
    return replace(playing, rounds=(_paired(playing, 1, seed, now),))


def _paired(event: Tournament, number: int, seed: str, now: float) -> EventRound:
    ids = [p.id for p in event.entrants if p.id not in event.withdrawn]
    if event.rules.format is Format.ROUND_ROBIN:
        every = round_robin([p.id for p in event.entrants], event.rules.size, number)
        pairing = _without(every, frozenset(event.withdrawn))
    else:
        ranked = [s.player.id for s in standings(event) if s.player.id in ids]
        pairing = swiss(ranked, met(event), byes_had(event), event.rules.size)
    tables = tuple(EventTable(n, players) for n, players in enumerate(pairing.tables, start=1))
    return EventRound(
        number, tables, pairing.byes, seed, commitment_of(seed), now + event.rules.deadline
    )


def _without(pairing: Pairing, gone: frozenset[str]) -> Pairing:
    """A round robin's round without those who withdrew: a table left with one player gives
    them the bye."""
    tables, byes = [], [p for p in pairing.byes if p not in gone]
    for table in pairing.tables:
        left = tuple(p for p in table if p not in gone)
        if len(left) >= 2:
            tables.append(left)
        else:
            byes.extend(left)
    return Pairing(tuple(tables), tuple(byes))


def met(event: Tournament) -> dict[frozenset[str], int]:
    """How often each pair shared a table."""
    counts: dict[frozenset[str], int] = {}
    for round_ in event.rounds:
        for table in round_.tables:
            for i, a in enumerate(table.players):
                for b in table.players[i + 1 :]:
                    pair = frozenset((a, b))
                    counts[pair] = counts.get(pair, 0) + 1
    return counts


def byes_had(event: Tournament) -> dict[str, int]:
    counts: dict[str, int] = {}
    for round_ in event.rounds:
        for player_id in round_.byes:
            counts[player_id] = counts.get(player_id, 0) + 1
    return counts


def table_seed(round_: EventRound, table: int, duplicate: bool) -> str:
    """The dice of a round's table: the round's own seed where the dice are duplicate (every
    table throws the same), else one drawn from it for this table alone; revealing the
    round's seed reveals them all."""
    if duplicate:
        return round_.seed
    return hmac.new(bytes.fromhex(round_.seed), f"table {table}".encode(), "sha256").hexdigest()


def table_game_id(event_id: str, round_number: int, table: int) -> str:
    """The game of a table, the same in every process (opening it twice opens it once)."""
    digest = hashlib.sha256(f"{event_id}:{round_number}:{table}".encode()).digest()
    return base64.b32encode(digest[:5]).decode().lower()


def event_tag(event_id: str, round_number: int, table: int) -> str:
    return f"{event_id}:{round_number}:{table}"


def parse_tag(tag: str) -> tuple[str, int, int] | None:
    try:
        event_id, round_text, table_text = tag.split(":")
        return event_id, int(round_text), int(table_text)
    except ValueError:
        return None


def placings(game: Game) -> tuple[Placing, ...]:
    """A table's result by place: a big general's thrower (the game's winners) above all, then
    those still seated by points, then those who left by points."""
    winners = set(game.winners)

    def rank(seat_index: int) -> tuple[bool, bool, int]:
        seat = game.seats[seat_index]
        return seat.player.id in winners, seat.active, seat.total

    keys = [rank(i) for i in range(len(game.seats))]
    others = max(1, len(keys) - 1)
    result = []
    for index, seat in enumerate(game.seats):
        below = sum(1 for key in keys if key < keys[index])
        equal = sum(1 for key in keys if key == keys[index]) - 1
        result.append(Placing(seat.player.id, seat.total, (below + 0.5 * equal) / others))
    return tuple(sorted(result, key=lambda p: -p.score))


def table_over(event: Tournament, round_number: int, table: int, game: Game) -> Tournament:
    """A table's result recorded (once: a second call for it changes nothing)."""
    if event.phase is not EventPhase.PLAYING or game.phase is not Phase.FINISHED:
        return event
    rounds = list(event.rounds)
    index = round_number - 1
    if not 0 <= index < len(rounds):
        return event
    tables = list(rounds[index].tables)
    if not 0 < table <= len(tables) or tables[table - 1].done:
        return event
    tables[table - 1] = replace(tables[table - 1], placings=placings(game))
    rounds[index] = replace(rounds[index], tables=tuple(tables))
    return _bumped(event, rounds=tuple(rounds))


def table_placed(event: Tournament, round_number: int, table: int, channel: str) -> Tournament:
    """Where a table plays (its thread), once the platform made it."""
    rounds = list(event.rounds)
    round_ = rounds[round_number - 1]
    tables = list(round_.tables)
    tables[table - 1] = replace(tables[table - 1], channel=channel)
    rounds[round_number - 1] = replace(round_, tables=tuple(tables))
    return _bumped(event, rounds=tuple(rounds))


def advanced(event: Tournament, seed: str, now: float) -> Tournament:
    """After a round whose every table is over: the next round paired, or the event over."""
    current = event.current
    if current is None or not current.done:
        return event
    playing = [p for p in event.entrants if p.id not in event.withdrawn]
    if current.number >= event.planned or len(playing) < MIN_ENTRANTS:
        return _bumped(event, phase=EventPhase.FINISHED)
    following = _paired(event, current.number + 1, seed, now)
    return _bumped(event, rounds=(*event.rounds, following))


def said(event: Tournament, rounds: int) -> Tournament:
    return _bumped(event, told=rounds)


def posted(event: Tournament, message: str) -> Tournament:
    return _bumped(event, message=message)


def announced(event: Tournament, rounds: int) -> Tournament:
    return _bumped(event, announced=rounds)


def standings(event: Tournament) -> list[Standing]:
    """Everyone entered by score, then the sheet's points, then the order they entered."""
    score = {p.id: 0.0 for p in event.entrants}
    points = {p.id: 0 for p in event.entrants}
    played = {p.id: 0 for p in event.entrants}
    byes = {p.id: 0 for p in event.entrants}
    for round_ in event.rounds:
        for player_id in round_.byes:
            if round_.done and player_id in score:
                score[player_id] += BYE_SCORE
                byes[player_id] += 1
        for table in round_.tables:
            for placing in table.placings:
                if placing.player_id in score:
                    score[placing.player_id] += placing.score
                    points[placing.player_id] += placing.total
                    played[placing.player_id] += 1
    order = {p.id: n for n, p in enumerate(event.entrants)}
    ranked = sorted(event.entrants, key=lambda p: (-score[p.id], -points[p.id], order[p.id]))
    return [Standing(p, score[p.id], points[p.id], played[p.id], byes[p.id]) for p in ranked]
