"""What a tournament says in its chat, in words: a round's tables, a round's end with its dice
revealed and the standings, and the final table with its picture."""

from __future__ import annotations

import asyncio

from adapters.chat import cards
from adapters.chat.layout_events import deadline_words, names_of
from adapters.i18n import Translator
from adapters.i18n.names import shown_name
from core.fairdice import short
from core.identity import ChannelKey
from core.tournament import EventPhase, Standing, Tournament, standings

NAME_ROOM = 18  # a name in the standings' monospace table


def score_text(t: Translator, score: float) -> str:
    """An event score as the reader writes numbers: 3, 2.5, 1.67 (thirds at tables of four)."""
    text = f"{score:.2f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") if t.locale.startswith("ru") else text


def round_start_lines(t: Translator, event: Tournament) -> list[str]:
    """A round begins: its tables and where each plays, its byes, its dice's seal."""
    round_ = event.rounds[-1]
    lines = [
        t(
            "event-round-start",
            round=round_.number,
            rounds=event.planned,
            tables=len(round_.tables),
            deadline=deadline_words(t, event.rules.deadline),
        ),
        t("event-round-sealed", short=short(round_.commitment)),
    ]
    for table in round_.tables:
        names = names_of(event, table.players)
        lines.append(t("event-round-table", table=table.number, names=names))
    apart = any(
        t_.channel and ChannelKey.parse(t_.channel) != event.channel for t_ in round_.tables
    )
    if apart:  # the threads are named for their round and table
        title = t("event-table-title", round=round_.number, table=1)
        lines.append(t("event-round-threads", where=title))
    if round_.byes:
        lines.append(t("event-round-bye", names=names_of(event, round_.byes)))
    return lines


def standings_lines(t: Translator, event: Tournament, title: str) -> list[str]:
    """A title, then a line per player: place (shared on equal score and points), name,
    score, points."""
    rows = [title, t("event-standings-head")]
    for place, standing in placed(standings(event)):
        name = shown_name(standing.player.name, NAME_ROOM)
        score = score_text(t, standing.score)
        rows.append(f"{place:>2}. {name:<{NAME_ROOM}} {score:>5} {standing.points:>5}")
    return rows


def placed(ranked: list[Standing]) -> list[tuple[int, Standing]]:
    """Each standing with its place: equal score and points share one."""
    out: list[tuple[int, Standing]] = []
    for index, standing in enumerate(ranked, start=1):
        same = out and (out[-1][1].score, out[-1][1].points) == (standing.score, standing.points)
        out.append((out[-1][0] if same else index, standing))
    return out


def round_over_cards(t: Translator, event: Tournament, number: int) -> list[cards.Card]:
    """A round is over: its dice revealed, then (before the last) the standings so far; the
    final table is the final card's."""
    round_ = event.rounds[number - 1]
    said: list[cards.Card] = [
        cards.Lines((t("event-round-over", round=number), t("event-round-seed", seed=round_.seed)))
    ]
    last = event.phase is EventPhase.FINISHED and number == len(event.rounds)
    if not last:
        title = t("event-standings-title", round=number)
        said.append(cards.Records(tuple(standings_lines(t, event, title))))
    return said


def winner_line(t: Translator, ranked: list[Standing]) -> str:
    best = ranked[0]
    top = [s for s in ranked if (s.score, s.points) == (best.score, best.points)]
    score = round(best.score, 2)  # a number: the catalogue's plural and the reader's digits
    if len(top) == 1:
        return t("event-winner", name=shown_name(best.player.name), score=score)
    names = ", ".join(shown_name(s.player.name) for s in top)
    return t("event-winners", names=names, score=score)


async def final_cards(t: Translator, event: Tournament) -> list[cards.Card]:
    """The end: the winner in words under the final table's picture, then every place."""
    ranked = standings(event)
    from adapters.pictures.event_table import EventEnd, EventRow, event_png  # Pillow

    rows = [
        EventRow(place, s.player.name, s.score, s.points, s.played) for place, s in placed(ranked)
    ]
    end = EventEnd(len(event.rounds), event.rules.format.value, event.rules.duplicate, tuple(rows))
    picture = await asyncio.to_thread(event_png, t, end)
    table = standings_lines(t, event, t("event-final-title"))
    return [cards.Review((winner_line(t, ranked),), picture), cards.Records(tuple(table))]
