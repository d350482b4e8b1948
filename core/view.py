"""How a game looks to one viewer: plain data that every front end renders and nothing else."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from core.boxes import ALL_BOXES, Box
from core.events import EndReason, Event
from core.rules import MAX_THROWS, ROUNDS, Variants, sheet_scores
from core.table import Game, Phase

if TYPE_CHECKING:  # core.chances (numpy) is imported by the first board that shows chances
    from core.chances import Standing


class Die(NamedTuple):
    """A die showing (named tuples: a board makes thirty of these small values a press)."""

    value: int
    held: bool


class BoxOption(NamedTuple):
    """An open box of the current player and what the dice showing would write there now."""

    box: Box
    points: int


@dataclass(frozen=True)
class PlayerView:
    id: str
    name: str
    total: int
    active: bool
    is_host: bool
    is_current: bool
    is_computer: bool = False


class SheetRow(NamedTuple):
    """One box across all players (players across, boxes down); None is an empty box."""

    box: Box
    cells: tuple[int | None, ...]


@dataclass(frozen=True)
class LotView:
    round: int
    player: PlayerView
    dice: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class GameView:
    game_id: str
    version: int
    phase: Phase
    variants: Variants
    players: tuple[PlayerView, ...]
    host: PlayerView | None
    round: int
    rounds: int
    current: PlayerView | None
    throw: int
    throws_left: int
    dice: tuple[Die, ...]
    options: tuple[BoxOption, ...]
    sheet: tuple[SheetRow, ...]
    lot: tuple[LotView, ...]
    winners: tuple[PlayerView, ...]
    end_reason: EndReason | None
    events: tuple[Event, ...]
    viewer_id: str | None
    # Each player's chance of winning as the turn began (players' order; empty where the table
    # does not show them, or fewer than two play on).
    chances: tuple[float, ...] = ()
    # Who may take back the box they wrote last (core.takeback), until the player to move acts.
    take_back: PlayerView | None = None
    # The committed dice (core.fairdice): the seed's SHA-256 from the lobby on, the seed itself
    # once the game is over; "" for the old dice.
    commitment: str = ""
    seed: str = ""
    event: str = ""  # a tournament's table (core.table.Game.event)

    @property
    def can_roll(self) -> bool:
        return self.phase is Phase.PLAYING and self.throws_left > 0

    @property
    def can_hold(self) -> bool:
        return self.phase is Phase.PLAYING and 0 < self.throw < MAX_THROWS

    @property
    def viewer_to_act(self) -> bool:
        return self.current is not None and self.current.id == self.viewer_id

    def player(self, player_id: str) -> PlayerView | None:
        return next((p for p in self.players if p.id == player_id), None)


def make_view(game: Game, viewer_id: str | None = None, events: tuple[Event, ...] = ()) -> GameView:
    current_id = game.seats[game.current].player.id if game.phase is Phase.PLAYING else None
    players = tuple(
        PlayerView(
            id=seat.player.id,
            name=seat.player.name,
            total=seat.total,
            active=seat.active,
            is_host=seat.player.id == game.host_id,
            is_current=seat.player.id == current_id,
            is_computer=seat.player.is_computer,
        )
        for seat in game.seats
    )
    by_id = {p.id: p for p in players}
    current = by_id.get(current_id) if current_id else None
    turn = game.turn
    retake = game.retake if game.phase is Phase.PLAYING else None
    options: tuple[BoxOption, ...] = ()
    if current is not None and turn.throws:
        open_boxes = tuple(points is None for points in game.seats[game.current].scores)
        options = _options(turn.dice, turn.throws == 1, game.variants, open_boxes)
    return GameView(
        game_id=game.id,
        version=game.version,
        phase=game.phase,
        variants=game.variants,
        players=players,
        host=by_id.get(game.host_id),
        round=game.round,
        rounds=ROUNDS,
        current=current,
        throw=turn.throws if current else 0,
        throws_left=turn.throws_left if current else 0,
        dice=_dice(turn.dice, turn.held) if current else (),
        options=options,
        sheet=_sheet(tuple(seat.scores for seat in game.seats)),
        lot=tuple(
            LotView(t.round, by_id[t.player_id], t.dice, sum(t.dice))
            for t in game.lot
            if t.player_id in by_id
        ),
        winners=tuple(by_id[w] for w in game.winners if w in by_id),
        end_reason=game.end_reason,
        events=events,
        viewer_id=viewer_id,
        chances=_chances(game) if game.phase is Phase.PLAYING and game.variants.chances else (),
        take_back=by_id.get(game.seats[retake.seat].player.id) if retake else None,
        commitment=game.commitment,
        seed=game.seed if game.phase is Phase.FINISHED and not game.event else "",
        event=game.event,
    )


def _chances(game: Game) -> tuple[float, ...]:
    if sum(seat.active for seat in game.seats) < 2:  # as standings_of counts those playing
        return ()
    from core.chances import standings_of

    return _shares(game.variants, standings_of(game.seats), game.current)


@lru_cache(maxsize=1024)
def _shares(variants: Variants, standings: tuple[Standing, ...], to_move: int) -> tuple[float, ...]:
    """The same turn's boards are drawn again and again: its chances are worked out once (the
    distributions they need are solved once, whichever thread asks first: core.once)."""
    from core.chances import win_shares

    return win_shares(variants, standings, to_move)


# A board is drawn after every press: the parts of its view that only its dice, holds and sheet
# decide are made once for each (bounded; one miss costs what making them did). Sheets are
# fewer: one of fifty seats keeps about 11 KiB alive.
VIEW_PARTS_KEPT = 4096
SHEETS_KEPT = 512


@lru_cache(maxsize=VIEW_PARTS_KEPT)
def _dice(dice: tuple[int, ...], held: tuple[bool, ...]) -> tuple[Die, ...]:
    return tuple(Die(v, h) for v, h in zip(dice, held, strict=False))


@lru_cache(maxsize=VIEW_PARTS_KEPT)
def _options(
    dice: tuple[int, ...], first_throw: bool, variants: Variants, open_boxes: tuple[bool, ...]
) -> tuple[BoxOption, ...]:
    """The open boxes (`open_boxes`, in sheet order) with what these dice write in each."""
    points = sheet_scores(dice, first_throw, variants)
    return tuple(
        BoxOption(box, points[index])
        for index, (box, is_open) in enumerate(zip(ALL_BOXES, open_boxes, strict=True))
        if is_open
    )


@lru_cache(maxsize=SHEETS_KEPT)
def _sheet(columns: tuple[tuple[int | None, ...], ...]) -> tuple[SheetRow, ...]:
    """The score sheet turned to one row per box, players across (a column per seat)."""
    if not columns:
        return tuple(SheetRow(box, ()) for box in ALL_BOXES)
    return tuple(map(SheetRow, ALL_BOXES, zip(*columns, strict=True)))
