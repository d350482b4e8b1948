"""A game's snapshot, stored with each version: explicit JSON-ready data, never pickled."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from core.events import EndReason
from core.identity import ChannelKey, PlayerRef
from core.invariants import Broken, DamagedGame, check_game
from core.rules import DEFAULT_VARIANTS, Variants
from core.table import Game, LotThrow, Phase, Seat, Turn
from core.takeback import retake_from_dict, retake_to_dict


def game_to_dict(game: Game) -> dict[str, Any]:
    """The snapshot stored with each version: explicit, JSON-ready, never pickled."""
    return {
        "id": game.id,
        "channel": {
            "platform": game.channel.platform,
            "chat": game.channel.chat,
            "thread": game.channel.thread,
        },
        "host_id": game.host_id,
        "variants": game.variants.to_dict(),
        "phase": game.phase.value,
        "seats": [
            {
                "id": seat.player.id,
                "name": seat.player.name,
                "scores": list(seat.scores),
                "active": seat.active,
                "missed": seat.missed,
            }
            for seat in game.seats
        ],
        "current": game.current,
        "round": game.round,
        "turn": {
            "throws": game.turn.throws,
            "dice": list(game.turn.dice),
            "held": list(game.turn.held),
            "reminded": game.turn.reminded,
        },
        "lot": [[t.round, t.player_id, list(t.dice)] for t in game.lot],
        "version": game.version,
        "winners": list(game.winners),
        "end_reason": game.end_reason.value if game.end_reason else None,
        "turn_started": game.turn_started,
        "touched": game.touched,
        "language": game.language,
        "retake": retake_to_dict(game.retake),
        "commitment": game.commitment,
        "seed": game.seed,
        "event": game.event,
    }


def game_from_dict(data: dict[str, Any]) -> Game:
    """The game a snapshot holds, only if the bot can play it: DamagedGame (core.invariants)
    for a field missing or of the wrong type, or a game the rules could not have reached.
    Nothing is coerced, so that damage is found rather than hidden (a "3" is not a 3)."""
    try:
        game = _game(data)
    except DamagedGame:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise DamagedGame(Broken.FIELD, f"{type(error).__name__}: {error}") from error
    check_game(game)
    return game


def _game(data: dict[str, Any]) -> Game:
    turn = data["turn"]
    end_reason = data["end_reason"]
    return Game(
        id=data["id"],
        channel=ChannelKey(**data["channel"]),
        host_id=data["host_id"],
        variants=_variants(data["variants"]),
        phase=Phase(data["phase"]),
        seats=tuple(
            Seat(
                PlayerRef(s["id"], s["name"]),
                _sequence(s["scores"]),
                s["active"],
                s.get("missed", 0),
            )
            for s in _sequence(data["seats"])
        ),
        current=data["current"],
        round=data["round"],
        turn=Turn(
            turn["throws"],
            _sequence(turn["dice"]),
            _sequence(turn["held"]),
            turn.get("reminded", False),
        ),
        lot=tuple(LotThrow(r, p, _sequence(d)) for r, p, d in _sequence(data["lot"])),
        version=data["version"],
        winners=_sequence(data["winners"]),
        end_reason=None if end_reason is None else EndReason(end_reason),
        turn_started=data.get("turn_started", 0.0),
        touched=data.get("touched", 0.0),
        language=data.get("language", ""),
        retake=retake_from_dict(data.get("retake")),
        commitment=data.get("commitment", ""),
        seed=data.get("seed", ""),
        event=data.get("event", ""),
    )


def _sequence(value: Any) -> tuple[Any, ...]:
    """A JSON array as a tuple; a string or an object is not one (tuple() would take either)."""
    if type(value) is not list:
        raise DamagedGame(Broken.FIELD, f"{type(value).__name__} where a list belongs")
    return tuple(value)


# Each variant's JSON type, as the defaults write it (a rule mode is written as its name).
_VARIANT_TYPES = {name: type(value) for name, value in DEFAULT_VARIANTS.to_dict().items()}


def _variants(data: Any) -> Variants:
    """The table's rules, each of its type: Variants.from_dict alone would read "no" as true.
    A variant missing was written before it existed: it has its default."""
    if type(data) is not dict:
        raise DamagedGame(Broken.VARIANTS, f"{type(data).__name__}, not an object")
    for name, value in data.items():
        expected = _VARIANT_TYPES.get(name)
        if expected is not None and type(value) is not expected:
            raise DamagedGame(Broken.VARIANTS, f"{name} {value!r}")
    try:
        return _known_variants(tuple(data.items()))
    except (TypeError, ValueError) as error:
        raise DamagedGame(Broken.VARIANTS, str(error)) from error


@lru_cache(maxsize=256)
def _known_variants(items: tuple[tuple[str, Any], ...]) -> Variants:
    """Variants.from_dict, remembered: the tables play a few rule sets, and from_dict costs
    a third of a load. (Keyed on the values once their types are checked, so that a 1 is
    never taken for a true.)"""
    return Variants.from_dict(dict(items))
