"""How each person played a finished game, in words (the final message and `/general review`)
and, for `/general review`, in a picture of everyone's win chance turn by turn.

The words are weighed once, as the game ends (in a thread: weighing a 10-player game by win
chances takes a few tenths of a second); the picture is drawn the first time `/general review`
asks for it (in a thread too: most games' reviews are only read in the final message, and a
chart is the dearest part). Both are kept for the last few games.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adapters.chat import cards
from adapters.chat.voices import choose
from adapters.i18n import Translator
from adapters.i18n.review import review_lines
from core.events import RECORDED_ENDS, Event
from core.identity import ChannelKey
from core.service import GameService
from core.view import GameView, make_view

if TYPE_CHECKING:  # the review (numpy) is imported by the first one, in its thread
    from core.review import PlayerReview, Story

KEPT = 32  # reviews of the latest finished games, by game, version and language


@dataclass
class Reviewed:
    """A game's review in one language: its lines, the story its chart is drawn from (where the
    table was small enough to weigh by win chances) and, once drawn, the chart."""

    lines: tuple[str, ...]
    story: Story | None = None
    picture: bytes | None = None


_kept: OrderedDict[tuple[str, int, str], Reviewed] = OrderedDict()
_weighing: dict[tuple[str, int, str], asyncio.Task[Reviewed]] = {}


def reviewed(
    t: Translator,
    view: GameView,
    events: Sequence[Event],
    points: Mapping[str, PlayerReview] | None = None,
) -> Reviewed:
    """The review's lines (none for a game without people to review) and, where the table was
    weighed by win chances, the story to draw its chart from. `points`: the review in expected
    points already made of these events (the service's, at the game's end)."""
    from core.review import review, story

    told = story(events, view.variants)
    if told is None:
        reviews = points if points is not None else review(events, view.variants)
        return Reviewed(tuple(review_lines(t, view, reviews, view.variants)))
    lines = tuple(review_lines(t, view, told.reviews, view.variants, told))
    return Reviewed(lines, told if lines else None)


def chart(t: Translator, view: GameView, story: Story) -> bytes:
    """The chart as PNG bytes (PIL is imported by the first one, in its thread)."""
    from adapters.pictures.chart import chart_png

    return chart_png(t, view, story)


async def review_of(t: Translator, service: GameService, view: GameView) -> Reviewed:
    """A finished game's review in `t`'s language, weighed once: whoever asks while it is
    being weighed (the final message, each open page of the table) waits for that weighing."""
    key = (view.game_id, view.version, t.locale)
    if key not in _kept:
        weighing = _weighing.get(key)
        if weighing is None:
            weighing = asyncio.create_task(_weigh(t, service, view))
            _weighing[key] = weighing
            weighing.add_done_callback(lambda _: _weighing.pop(key, None))
        _kept[key] = await asyncio.shield(weighing)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    _kept.move_to_end(key)
    return _kept[key]


async def _weigh(t: Translator, service: GameService, view: GameView) -> Reviewed:
    ended = service.ended(view.game_id, view.version)  # its end, weighed a moment ago
    events: Sequence[Event]
    if ended is None:
        events, points = await service.events(view.game_id), None
    else:
        events, points = ended.events, ended.reviews
    return await asyncio.to_thread(reviewed, t, view, events, points)


async def game_review(t: Translator, service: GameService, view: GameView) -> list[str]:
    """Lines on each person's play; none for a game that did not finish (nothing to judge)."""
    if view.end_reason not in RECORDED_ENDS:
        return []
    return list((await review_of(t, service, view)).lines)


async def last_review(
    t: Translator, service: GameService, channel: ChannelKey, chosen: str | None = None
) -> cards.Lines:
    """The review of the channel's last finished game with its chart, or a line saying there
    is none. The chat reads it: in the chat's language (`chosen`), else the one the game was
    played in, not the asker's (`t`, the table's while no game is being played)."""
    game = await service.last_finished(channel)
    view = make_view(game) if game is not None else None
    if game is None or view is None or view.end_reason not in RECORDED_ENDS:
        return cards.Lines((t("review-none"),))
    t = choose(t, chosen, game.language)
    kept = await review_of(t, service, view)
    if not kept.lines:
        return cards.Lines((t("review-none"),))
    if kept.story is not None and kept.picture is None:
        kept.picture = await asyncio.to_thread(chart, t, view, kept.story)
    return cards.Review(kept.lines, kept.picture)
