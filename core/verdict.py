"""What decided a finished game, where one turn did: a big general that ended it early, or the
last turn of the game, which changed who wins. Read from the view of the action that ended it
(its events), so every front end says the same."""

from __future__ import annotations

from dataclasses import dataclass

from core.boxes import Box
from core.events import BigGeneralThrown, BoxScored, EndReason
from core.view import GameView


@dataclass(frozen=True)
class Verdict:
    """`player_id`'s turn decided the game: a big general in `round` (of `rounds`), or their
    last turn, `points` in `box`, which took them past (or `level` with) `passed`, who led."""

    player_id: str
    round: int
    rounds: int
    big_general: bool = False
    points: int = 0
    box: Box | None = None
    passed: tuple[str, ...] = ()
    level: bool = False  # they share the win with someone


def verdict(view: GameView) -> Verdict | None:
    """None where no single turn decided it (whoever led before the last turn still wins), or
    the view is not of the ending action."""
    if view.end_reason is EndReason.BIG_GENERAL:
        thrown = [e for e in view.events if isinstance(e, BigGeneralThrown)]
        if not thrown:
            return None
        return Verdict(thrown[-1].player_id, view.round, view.rounds, big_general=True)
    scored = [e for e in view.events if isinstance(e, BoxScored)]
    if view.end_reason is not EndReason.COMPLETED or not scored:
        return None
    last = scored[-1]
    winners = {p.id for p in view.winners}
    before = {p.id: p.total - (last.points if p.id == last.player_id else 0) for p in view.players}
    active = [p for p in view.players if p.active]
    top = max(before[p.id] for p in active)
    leaders = {p.id for p in active if before[p.id] == top}
    if leaders == winners:
        return None  # whoever led before the last turn still wins
    passed = tuple(p.id for p in active if p.id in leaders and p.id != last.player_id)
    return Verdict(
        last.player_id, view.round, view.rounds, False, last.points, last.box, passed,
        level=len(winners) > 1,
    )  # fmt: skip
