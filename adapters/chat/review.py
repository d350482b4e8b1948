"""How each person played a finished game, in words (the final message and `/general review`)."""

from __future__ import annotations

from adapters.i18n import Translator
from adapters.i18n.text import review_lines
from core.events import RECORDED_ENDS
from core.identity import ChannelKey
from core.service import GameService
from core.view import GameView, make_view


async def game_review(t: Translator, service: GameService, view: GameView) -> list[str]:
    """Lines on each person's play; none for a game that did not finish (nothing to judge)."""
    if view.end_reason not in RECORDED_ENDS:
        return []
    reviews = await service.review(view.game_id)
    return review_lines(t, view, reviews, view.variants)


async def last_review(t: Translator, service: GameService, channel: ChannelKey) -> list[str]:
    """The review of the channel's last finished game, or a line saying there is none."""
    game = await service.repository.last_finished(channel)
    lines = await game_review(t, service, make_view(game)) if game is not None else []
    return lines or [t("review-none")]
