"""How each person played a finished game, in words (the final message and `/general review`)
and, for `/general review`, in a picture of everyone's win chance turn by turn.

Both are made once, as the game ends (in a thread: weighing a 10-player game by win chances
takes a few tenths of a second), and kept for the last few games, so that the `/general review`
that often follows answers at once.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence

from adapters.chat import cards
from adapters.i18n import Translator
from adapters.i18n.text import review_lines
from core.events import RECORDED_ENDS, Event
from core.identity import ChannelKey
from core.service import GameService
from core.view import GameView, make_view

KEPT = 32  # reviews of the latest finished games, by game, version and language
_kept: OrderedDict[tuple[str, int, str], cards.Review] = OrderedDict()


def reviewed(t: Translator, view: GameView, events: Sequence[Event]) -> cards.Review:
    """The review's lines (none for a game without people to review) and, where the table was
    small enough to weigh by win chances, its chart."""
    # Imported by the first review, in its thread: the review (numpy) and the chart (PIL).
    from adapters.pictures.chart import chart_png
    from core.review import review, story

    told = story(events, view.variants)
    if told is None:
        return cards.Review(
            tuple(review_lines(t, view, review(events, view.variants), view.variants))
        )
    lines = tuple(review_lines(t, view, told.reviews, view.variants, told))
    return cards.Review(lines, chart_png(t, view, told) if lines else None)


async def _review(t: Translator, service: GameService, view: GameView) -> cards.Review:
    key = (view.game_id, view.version, t.locale)
    if key not in _kept:
        events = await service.repository.events(view.game_id)
        _kept[key] = await asyncio.to_thread(reviewed, t, view, events)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    _kept.move_to_end(key)
    return _kept[key]


async def game_review(t: Translator, service: GameService, view: GameView) -> list[str]:
    """Lines on each person's play; none for a game that did not finish (nothing to judge)."""
    if view.end_reason not in RECORDED_ENDS:
        return []
    return list((await _review(t, service, view)).lines)


async def last_review(t: Translator, service: GameService, channel: ChannelKey) -> cards.Lines:
    """The review of the channel's last finished game with its chart, or a line saying there
    is none."""
    game = await service.repository.last_finished(channel)
    view = make_view(game) if game is not None else None
    if view is None or view.end_reason not in RECORDED_ENDS:
        return cards.Lines((t("review-none"),))
    card = await _review(t, service, view)
    return card if card.lines else cards.Lines((t("review-none"),))
