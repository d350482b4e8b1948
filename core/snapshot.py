"""A game's snapshot, stored with each version: explicit JSON-ready data, never pickled."""

from __future__ import annotations

from typing import Any

from core.events import EndReason
from core.game import Game, LotThrow, Phase, Seat, Turn
from core.identity import ChannelKey, PlayerRef
from core.rules import Variants
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
    }


def game_from_dict(data: dict[str, Any]) -> Game:
    turn = data["turn"]
    return Game(
        id=data["id"],
        channel=ChannelKey(**data["channel"]),
        host_id=data["host_id"],
        variants=Variants.from_dict(data["variants"]),
        phase=Phase(data["phase"]),
        seats=tuple(
            Seat(
                PlayerRef(s["id"], s["name"]),
                tuple(s["scores"]),
                bool(s["active"]),
                int(s.get("missed", 0)),
            )
            for s in data["seats"]
        ),
        current=int(data["current"]),
        round=int(data["round"]),
        turn=Turn(
            int(turn["throws"]),
            tuple(turn["dice"]),
            tuple(turn["held"]),
            bool(turn.get("reminded", False)),
        ),
        lot=tuple(LotThrow(r, p, tuple(d)) for r, p, d in data["lot"]),
        version=int(data["version"]),
        winners=tuple(data["winners"]),
        end_reason=EndReason(data["end_reason"]) if data["end_reason"] else None,
        turn_started=float(data.get("turn_started", 0.0)),
        touched=float(data.get("touched", 0.0)),
        language=str(data.get("language", "")),
        retake=retake_from_dict(data.get("retake")),
    )
