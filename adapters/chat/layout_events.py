"""A tournament's own message, for every platform: its rules in a line, who is in, where it
stands, and its buttons (entering and leaving for all; the rules, Start and Cancel for its host,
who alone may press them)."""

from __future__ import annotations

from adapters.chat import payload
from adapters.chat.layout import Button, Intent, Message, Row, Shape, bold, chunked, plain
from adapters.i18n import Translator
from adapters.i18n.names import shown_name
from core.levels import Level
from core.tournament import EventPhase, EventRules, Format, Tournament

NAME_ROOM = 24  # a name in the list of those entered (64 of them fit a message)
COMPUTERS = (Level.GRANDMASTER, Level.MASTER)


def deadline_words(t: Translator, seconds: int) -> str:
    hours = seconds // 3600
    return t("event-deadline", hours=hours, minutes=seconds // 60)


def rules_line(t: Translator, rules: EventRules, rounds: int) -> str:
    robin = rules.format is Format.ROUND_ROBIN
    return t(
        "event-rules",
        format=t(f"event-format-{rules.format.value}"),
        rounds=t("event-rounds-robin" if robin else "event-rounds", count=rounds),
        size=rules.size,
        deadline=deadline_words(t, rules.deadline),
        dice=t("event-dice-duplicate" if rules.duplicate else "event-dice-own"),
    )


def names_of(event: Tournament, ids: tuple[str, ...] | list[str]) -> str:
    by_id = {p.id: p.name for p in event.entrants}
    return ", ".join(shown_name(by_id.get(i, "?"), NAME_ROOM) for i in ids)


def event_screen(t: Translator, event: Tournament, shape: Shape) -> Message:
    host = event.entrant(event.host_id)
    lines = [bold(t("event-title")), plain(rules_line(t, event.rules, event.planned))]
    if host is not None:
        lines.append(plain(t("event-hosted", name=shown_name(host.name, NAME_ROOM))))
    ids = [p.id for p in event.entrants]
    if ids:
        lines.append(plain(t("event-entered", count=len(ids), names=names_of(event, ids))))
    else:
        lines.append(plain(t("event-entered-none")))
    rows: list[Row] = []
    match event.phase:
        case EventPhase.OPEN:
            lines.append(plain(t("event-open-how")))
            rows = _open_rows(t, event, shape)
        case EventPhase.PLAYING:
            number = len(event.rounds)
            lines.append(plain(t("event-playing", round=number, rounds=event.planned)))
            rows = [
                (
                    Button(t("btn-event-leave"), payload.event_code(event.id, "l")),
                    Button(t("btn-event-cancel"), payload.event_code(event.id, "x")),
                )
            ]
        case EventPhase.FINISHED:
            lines.append(plain(t("event-finished")))
        case EventPhase.CANCELLED:
            lines.append(plain(t("event-cancelled")))
    return Message(tuple(lines), tuple(rows))


def _open_rows(t: Translator, event: Tournament, shape: Shape) -> list[Row]:
    rules, code = event.rules, event.id
    robin = rules.format is Format.ROUND_ROBIN
    dice = "event-dice-duplicate-short" if rules.duplicate else "event-dice-own-short"
    settings = [
        Button(
            t("btn-event-format", value=t(f"event-format-{rules.format.value}-short")),
            payload.event_code(code, "cformat"),
        ),
        Button(
            t("btn-event-rounds", value=t("event-rounds-auto") if robin else str(rules.rounds)),
            payload.event_code(code, "crounds"),
        ),
        Button(t("btn-event-size", value=rules.size), payload.event_code(code, "csize")),
        Button(
            t("btn-event-deadline", value=deadline_words(t, rules.deadline)),
            payload.event_code(code, "cdeadline"),
        ),
        Button(t("btn-event-dice", value=t(dice)), payload.event_code(code, "cdice")),
    ]
    computers = [
        Button(
            t("btn-event-computer", name=t(f"computer-{level.value}")),
            payload.event_code(
                code, next(c for c, lv in payload.LEVEL_CODES.items() if lv is level)
            ),
        )
        for level in COMPUTERS
    ]
    people = (
        Button(t("btn-event-enter"), payload.event_code(code, "j"), intent=Intent.PRIMARY),
        Button(t("btn-event-leave"), payload.event_code(code, "l")),
    )
    ends = (
        Button(t("btn-event-start"), payload.event_code(code, "b"), intent=Intent.SUCCESS),
        Button(t("btn-event-cancel"), payload.event_code(code, "x"), intent=Intent.DANGER),
    )
    return [people, *chunked(settings, shape.settings), tuple(computers), ends]
