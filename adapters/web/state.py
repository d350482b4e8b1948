"""A game as the live table's page shows it to one viewer (adapters/web/PROTOCOL.md, "State"):
plain JSON-ready values, in the table's language, with the press codes this viewer may send.

A pure function of the view: the page decides nothing, so everything it draws is here, and
every press it may make is a code the chat layer's payloads already name (the same codes a
chat button carries), so a press from the page is judged exactly as a button's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adapters.chat import payload
from adapters.chat.layout import Shape
from adapters.chat.layout_boards import HOLDS, JOIN, LEAVE, ROLL, SCORES, TAKE_BACK, lobby
from adapters.i18n import Translator
from adapters.i18n.dice import box_name
from adapters.i18n.narration import narrate
from core.events import GameEnded
from core.fairdice import short
from core.rules import MAX_THROWS
from core.table import Phase
from core.view import GameView

# How the page lays the lobby's buttons out: one list, the order the chats show them.
PAGE = Shape(
    platform="web",
    typed=False,
    boxes=2,
    computers=4,
    settings=3,
    start_by_join=False,
    welcome_menu=False,
)

State = dict[str, Any]


@dataclass(frozen=True)
class Ending:
    """What the page shows under a finished game: its review's lines and its win chances turn
    by turn (`chart[i]`: the seats' chances before turn i, players' order)."""

    lines: tuple[str, ...] = ()
    chart: tuple[tuple[float, ...], ...] = ()


def state(
    t: Translator,
    view: GameView,
    *,
    table: str,
    now: float,
    deadline: float | None = None,
    ending: Ending | None = None,
    frame: tuple[int, int] | None = None,
) -> State:
    """The viewer's state (view.viewer_id; None: a spectator). `frame`: (index, count) of a
    replay's frame, whose presses are all None."""
    live = frame is None
    you = next((i for i, p in enumerate(view.players) if p.id == view.viewer_id), None)
    mover = live and view.viewer_to_act and view.phase is Phase.PLAYING
    options = {option.box: option.points for option in view.options}
    holds = mover and view.can_hold
    return {
        "table": table,
        "game": view.game_id,
        "version": view.version,
        "phase": view.phase.value,
        "live": live,
        "round": view.round,
        "rounds": view.rounds,
        "throw": view.throw,
        "max_throws": MAX_THROWS,
        "thrown": _thrown(view),
        "status": _status(t, view),
        "players": [
            {
                "name": p.name,
                "total": p.total,
                "active": p.active,
                "current": p.is_current,
                "host": p.is_host,
                "computer": p.is_computer,
                "you": i == you,
                "chance": view.chances[i] if i < len(view.chances) else None,
            }
            for i, p in enumerate(view.players)
        ],
        "you": you,
        "to_act": mover,
        "dice": [
            {"value": d.value, "held": d.held, "press": HOLDS[i] if holds else None}
            for i, d in enumerate(view.dice)
        ],
        "roll": _roll(t, view) if mover and view.can_roll else None,
        "sheet": [
            {
                "box": row.box.value,
                "name": box_name(t, row.box),
                "cells": list(row.cells),
                "option": options.get(row.box) if live else None,
                "press": SCORES[row.box] if mover and row.box in options else None,
            }
            for row in view.sheet
        ],
        "totals": [p.total for p in view.players],
        "actions": _actions(t, view, you) if live else [],
        "deadline": deadline,
        "now": now,
        "end": _end(t, view),
        "review": _review(view, ending) if view.phase is Phase.FINISHED else None,
        "seal": _seal(t, view),
        "frame": None if frame is None else {"index": frame[0], "count": frame[1]},
    }


def _seal(t: Translator, view: GameView) -> dict[str, Any] | None:
    """The dice's seal (DICE.md), with at the end the seed it seals and the game's dice as a
    file for a verifier; None for the old dice."""
    if not view.commitment:
        return None
    seed = view.seed
    return {
        "short": t("web-seal", short=short(view.commitment)),
        "commitment": view.commitment,
        "revealed": t("dice-revealed", seed=seed) if seed else None,
        "file": {"label": t("web-seal-file"), "href": f"api/dice?game={view.game_id}"}
        if seed
        else None,
    }


def _thrown(view: GameView) -> str:
    """Which throw the dice showing come from: it changes at every throw, and only then."""
    if not view.dice:
        return ""
    current = next((i for i, p in enumerate(view.players) if p.is_current), -1)
    return f"{view.round}.{current}.{view.throw}"


def _status(t: Translator, view: GameView) -> str:
    """What just happened, in a line (a box written, a time-out, the start), beside what the
    page shows by itself (whose turn, the round, the throw); the lobby's title in a lobby."""
    if view.phase is Phase.LOBBY:
        return t("lobby-title")
    if view.phase is Phase.FINISHED:
        return ""  # the end's own lines say it
    said = narrate(t, view, view.events)
    return said[-1] if said else ""


def _roll(t: Translator, view: GameView) -> dict[str, str]:
    label = t("btn-roll-first") if not view.dice else t("btn-roll", left=view.throws_left)
    return {"label": label, "press": ROLL}


def _actions(t: Translator, view: GameView, you: int | None) -> list[dict[str, str]]:
    """The lobby's buttons as the chats have them (Join for those not seated, Leave for those
    who are; the host's Start, Cancel and computers), the take-back of a mis-tapped box, the
    rematch at the end."""
    found: list[dict[str, str]] = []
    if view.phase is Phase.LOBBY:
        for row in lobby(t, view, PAGE).rows:
            for button in row:
                press = payload.decode(button.payload)
                if press is None or not _mine(press.code, view, you):
                    continue
                found.append({"label": button.label, "press": press.code, "intent": button.intent})
    elif view.phase is Phase.PLAYING:
        taker = view.take_back
        if taker is not None and taker.id == view.viewer_id:
            found.append({"label": t("btn-take-back"), "press": TAKE_BACK, "intent": "secondary"})
    elif payload.rematch(view) is not None and view.viewer_id is not None:
        found.append({"label": t("btn-rematch"), "press": payload.REMATCH, "intent": "primary"})
    return found


def _mine(code: str, view: GameView, you: int | None) -> bool:
    """Whether the viewer's page offers this lobby button: a spectator none, Join only to
    those not seated, Leave only to those who are, the host's own only to the host."""
    if view.viewer_id is None:
        return False
    seated = you is not None
    if code == JOIN:
        return not seated
    if code == LEAVE:
        return seated
    host = view.host is not None and view.host.id == view.viewer_id
    return host and seated


def _end(t: Translator, view: GameView) -> dict[str, Any] | None:
    if view.phase is not Phase.FINISHED:
        return None
    ended = [e for e in view.events if isinstance(e, GameEnded)]
    over = t("game-over")  # the page's heading says it
    lines = [line for line in narrate(t, view, ended) if line != over] if ended else []
    if not lines:
        lines = [t("web-winner", name=w.name, points=w.total) for w in view.winners]
    winners = {w.id for w in view.winners}
    return {
        "lines": lines or [t("game-over")],
        "winners": [i for i, p in enumerate(view.players) if p.id in winners],
    }


def _review(view: GameView, ending: Ending | None) -> dict[str, Any] | None:
    if ending is None or not (ending.lines or ending.chart):
        return None
    chart = None
    if ending.chart:
        count = len(view.players)
        chart = {
            "labels": [str(turn) for turn in range(len(ending.chart))],
            "series": [[point[i] for point in ending.chart] for i in range(count)],
        }
    return {"lines": list(ending.lines), "chart": chart}
