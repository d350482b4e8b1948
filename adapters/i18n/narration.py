"""What happened in a game, told line by line: the turn's header and the events."""

from __future__ import annotations

from collections.abc import Iterable

from adapters.i18n import Translator
from adapters.i18n.dice import box_name, dice_text
from adapters.i18n.endings import ending
from adapters.i18n.names import name_of
from adapters.i18n.settings import duration
from core.events import (
    BigGeneralThrown,
    BoxScored,
    Event,
    GameEnded,
    GameStarted,
    HostChanged,
    LobbyOpened,
    LotThrown,
    PlayerJoined,
    PlayerLeft,
    PlayerRemoved,
    ScoreTakenBack,
    TurnReminder,
    TurnTimedOut,
)
from core.rules import MAX_THROWS
from core.view import GameView


def turn_header(t: Translator, view: GameView, name: str | None = None) -> str:
    """Whose turn, the round and the throw; `name` in place of the player's (a mention)."""
    current = view.current
    return t(
        "turn-header",
        name=name if name is not None else current.name if current else "",
        round=view.round,
        rounds=view.rounds,
        throw=view.throw,
        throws=MAX_THROWS,
    )


def narrate(t: Translator, view: GameView, events: Iterable[Event]) -> list[str]:
    """What people should be told about `events`, one line each, in order."""
    events = tuple(events)
    opened = any(isinstance(event, LobbyOpened) for event in events)
    removed = {event.player_id for event in events if isinstance(event, PlayerRemoved)}
    lines: list[str] = []
    lot_round = 0
    for event in events:
        match event:
            case PlayerJoined(name=name) if not opened:
                lines.append(t("event-joined", name=name))
            case PlayerLeft(player_id=pid, name=name) if pid not in removed:  # said: removed
                lines.append(t("event-left", name=name or name_of(view, pid)))
            case HostChanged(player_id=pid):
                lines.append(t("event-host", name=name_of(view, pid)))
            case PlayerRemoved(player_id=pid, cause=cause):
                lines.append(t(f"event-removed-{cause}", name=name_of(view, pid)))
            case TurnTimedOut(player_id=pid):
                lines.append(t("event-timed-out", name=name_of(view, pid)))
            case TurnReminder(player_id=pid, seconds_left=left):
                lines.append(t("event-reminder", name=name_of(view, pid), time=duration(t, left)))
            case LotThrown(round=r, player_id=pid, dice=dice):
                if r != lot_round:
                    lines.append(t("lot-title") if r == 1 else t("lot-rethrow"))
                    lot_round = r
                lines.append(t("lot-line", name=name_of(view, pid), dice=dice_text(dice),
                               total=sum(dice)))  # fmt: skip
            case GameStarted(order=order):
                names = [name_of(view, pid) for pid in order]
                if len(order) > 1:
                    lines.append(t("lot-starter", name=names[0]))
                    lines.append(t("game-started", order=", ".join(names)))
                else:
                    lines.append(t("game-solo", name=names[0]))
            case BoxScored(player_id=pid, box=box, points=points):
                key = "turn-scored" if points else "turn-scratched"
                lines.append(t(key, name=name_of(view, pid), points=points, box=box_name(t, box)))
            case ScoreTakenBack(player_id=pid, box=box, points=points):
                name = name_of(view, pid)
                lines.append(t("event-taken-back", name=name, points=points, box=box_name(t, box)))
            case BigGeneralThrown(player_id=pid, dice=dice):
                lines.append(t("big-general", name=name_of(view, pid), dice=dice_text(dice)))
            case GameEnded(reason=reason):
                lines.extend(ending(t, view, reason))
    return lines


def taken_back(t: Translator, view: GameView) -> list[str]:
    """What a board says on top of the turn a taking back restored (its view's events)."""
    return narrate(t, view, [event for event in view.events if isinstance(event, ScoreTakenBack)])
