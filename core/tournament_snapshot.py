"""A tournament to and from JSON (the storage's EventRecord), strictly: a bad record raises."""

from __future__ import annotations

from typing import Any

from core.identity import ChannelKey, PlayerRef
from core.ports import EventRecord
from core.tournament import (
    EventPhase,
    EventRound,
    EventRules,
    EventTable,
    Format,
    Placing,
    Tournament,
)


def event_record(event: Tournament) -> EventRecord:
    # An event is over for the storage once its end was said too (a crash in between: the
    # next look says it).
    told = event.told >= len(event.rounds)
    finished = event.phase is EventPhase.CANCELLED or (event.phase is EventPhase.FINISHED and told)
    return EventRecord(
        event.id,
        event.channel.platform,
        event.channel.chat,
        event.version,
        finished,
        event_to_dict(event),
    )


def event_to_dict(event: Tournament) -> dict[str, Any]:
    rules = event.rules
    return {
        "id": event.id,
        "channel": str(event.channel),
        "host_id": event.host_id,
        "rules": {
            "format": rules.format.value,
            "rounds": rules.rounds,
            "size": rules.size,
            "deadline": rules.deadline,
            "duplicate": rules.duplicate,
        },
        "language": event.language,
        "phase": event.phase.value,
        "entrants": [[p.id, p.name] for p in event.entrants],
        "withdrawn": list(event.withdrawn),
        "rounds": [_round_to_dict(r) for r in event.rounds],
        "told": event.told,
        "message": event.message,
        "announced": event.announced,
        "version": event.version,
        "opened": event.opened,
    }


def _round_to_dict(round_: EventRound) -> dict[str, Any]:
    return {
        "number": round_.number,
        "tables": [
            {
                "number": t.number,
                "players": list(t.players),
                "channel": t.channel,
                "placings": [[p.player_id, p.total, p.score] for p in t.placings],
            }
            for t in round_.tables
        ],
        "byes": list(round_.byes),
        "seed": round_.seed,
        "commitment": round_.commitment,
        "deadline": round_.deadline,
    }


def event_from_record(record: EventRecord) -> Tournament:
    """The record's tournament, its version the record's (the storage's column rules)."""
    data = record.data
    rules = data["rules"]
    channel = ChannelKey.parse(data["channel"])
    if channel.platform != record.platform:
        raise ValueError("a tournament's record names another platform")
    return Tournament(
        id=str(data["id"]),
        channel=ChannelKey(channel.platform, record.chat, channel.thread),
        host_id=str(data["host_id"]),
        rules=EventRules(
            Format(rules["format"]),
            int(rules["rounds"]),
            int(rules["size"]),
            int(rules["deadline"]),
            bool(rules["duplicate"]),
        ),
        language=str(data["language"]),
        phase=EventPhase(data["phase"]),
        entrants=tuple(PlayerRef(str(i), str(n)) for i, n in data["entrants"]),
        withdrawn=tuple(str(i) for i in data["withdrawn"]),
        rounds=tuple(_round(r) for r in data["rounds"]),
        told=int(data["told"]),
        message=str(data["message"]),
        announced=int(data["announced"]),
        version=record.version,
        opened=float(data["opened"]),
    )


def _round(data: dict[str, Any]) -> EventRound:
    tables = tuple(
        EventTable(
            int(t["number"]),
            tuple(str(p) for p in t["players"]),
            str(t["channel"]),
            tuple(Placing(str(i), int(total), float(score)) for i, total, score in t["placings"]),
        )
        for t in data["tables"]
    )
    return EventRound(
        int(data["number"]),
        tables,
        tuple(str(p) for p in data["byes"]),
        str(data["seed"]),
        str(data["commitment"]),
        float(data["deadline"]),
    )
