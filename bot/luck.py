"""`python -m bot.analyse luck GAME`: a stored game's luck against skill (core.luck), every
throw's and every decision's change in each player's value, as the game's review weighs it
(win chances where the table is weighed by them, else expected points; `--points` asks for
points). Read from the bot's database as `python -m bot verify` reads it."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.dicecheck import Missing, names, stored_game
from bot.startup import load_settings
from core.luck import Cause, Luck, Unit
from core.review import review, story

# How a value is shown in text: percentage points of win chance, or expected points.
SCALE = {Unit.SHARE: (100.0, "%"), Unit.POINTS: (1.0, " pts")}
SAID = {Cause.DICE: "dice", Cause.DECISION: "decision", Cause.REST: "the others' play"}


def weigh(game_id: str, *, points: bool) -> tuple[dict[str, Any], str]:
    """The figures as JSON-ready data and as text; Missing or StartupError where they cannot
    be read."""
    game, events = asyncio.run(stored_game(load_settings(), game_id))
    told = None if points else story(events, game.variants)
    reviews = told.reviews if told is not None else review(events, game.variants)
    lucks = [r.luck for r in reviews.values() if r.luck is not None]
    if not lucks:
        raise Missing(f"game {game_id!r} has no decision to weigh (unfinished, or none made)")
    called = names(events)
    unit = lucks[0].unit
    data = {
        "game": game_id,
        "unit": unit.value,
        "players": [_player(luck, called.get(luck.player_id, luck.player_id)) for luck in lucks],
    }
    return data, _text(game_id, unit, lucks, called)


def _player(luck: Luck, name: str) -> dict[str, Any]:
    return {
        "player_id": luck.player_id,
        "name": name,
        "start": luck.start,
        "dice": luck.dice,
        "decisions": luck.decisions,
        "rest": luck.rest,
        "result": luck.result,
        "steps": [
            {"cause": s.cause.value, "round": s.round, "throw": s.throw, "change": s.change}
            for s in luck.steps
        ],
    }


def _text(game_id: str, unit: Unit, lucks: list[Luck], called: dict[str, str]) -> str:
    scale, suffix = SCALE[unit]
    weighed = "win chances" if unit is Unit.SHARE else "expected final points"
    lines = [f"game {game_id}, weighed by {weighed}"]
    for luck in lucks:
        lines += [
            "",
            f"{called.get(luck.player_id, luck.player_id)}: start {scale * luck.start:.1f}{suffix},"
            f" dice {scale * luck.dice:+.1f}{suffix}, decisions {scale * luck.decisions:+.1f}"
            f"{suffix}, the others' play {scale * luck.rest:+.1f}{suffix},"
            f" result {scale * luck.result:.1f}{suffix}",
        ]
        for step in luck.steps:
            if step.cause is Cause.REST and abs(step.change) < 1e-9:
                continue  # a reading where nothing changed
            at = f"round {step.round}" + (f", throw {step.throw}" if step.throw else "")
            lines.append(f"  {at:<18}{SAID[step.cause]:<18}{scale * step.change:+8.2f}")
    return "\n".join(lines)
