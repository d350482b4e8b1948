"""How a game ended, who won, and the turn that decided it."""

from __future__ import annotations

from adapters.i18n import Translator
from adapters.i18n.dice import box_name
from adapters.i18n.names import name_of, shown_name
from core.events import EndReason
from core.verdict import Verdict, verdict
from core.view import GameView


def ending(t: Translator, view: GameView, reason: EndReason) -> list[str]:
    if reason is EndReason.CANCELLED:
        return [t("game-cancelled")]
    if reason is EndReason.ABANDONED:
        return [t("game-abandoned")]
    if reason is EndReason.IDLE:
        return [t("game-idle")]
    winners = view.winners
    if not winners:
        return [t("game-over")]
    names = ", ".join(shown_name(w.name) for w in winners)
    if reason is EndReason.BIG_GENERAL:  # how it was won, not the points (often none yet)
        won = t("game-winner-big-general", names=names)
    else:
        key = "game-winner" if len(winners) == 1 else "game-winners"
        won = t(key, names=names, total=winners[0].total)
    lines = [t("game-over"), won]
    decided = verdict(view)
    return lines if decided is None else [*lines, verdict_line(t, view, decided)]


def verdict_line(t: Translator, view: GameView, decided: Verdict) -> str:
    """The turn that decided the game, said plainly."""
    name = name_of(view, decided.player_id)
    if decided.big_general:
        return t("verdict-big-general", name=name, round=decided.round, rounds=decided.rounds)
    passed = ", ".join(name_of(view, player_id) for player_id in decided.passed)
    key = "verdict-last-turn-level" if decided.level else "verdict-last-turn"
    box = box_name(t, decided.box) if decided.box else ""
    return t(key, name=name, points=decided.points, box=box, names=passed)
