"""A finished game's review in words: how well each player played, their costliest
decision and the turning point."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from adapters.i18n import Translator
from adapters.i18n.dice import box_name, dice_text
from adapters.i18n.hints import choice_text
from adapters.i18n.luck import luck_line
from adapters.i18n.names import shown_name
from core.rules import Variants
from core.view import GameView

if TYPE_CHECKING:  # the review loads numpy: imported here only for types
    from core.review import Decision, PlayerReview, Story


POINTS_SHOWN = 0.05  # a costliest decision's points below this round to 0.0: not told


def review_lines(
    t: Translator,
    view: GameView,
    reviews: Mapping[str, PlayerReview],
    variants: Variants,
    story: Story | None = None,
) -> list[str]:
    """Two or three lines per human player on how well they played, their costliest decision
    and their dice against their decisions (core.luck); where the game was weighed by win
    chances (`story`), the game's turning point."""
    lines: list[str] = []
    for player in view.players:
        player_review = reviews.get(player.id)
        if player_review is None or player.is_computer:
            continue
        if story is None:
            lines.extend(_points_lines(t, player.name, player_review, variants))
        else:
            lines.extend(_chance_lines(t, player.name, player_review, variants))
        if player_review.luck is not None:
            lines.append(luck_line(t, player.name, player_review.luck))
    if not lines:
        return []
    turning = turning_line(t, view, story) if story is not None else None
    return [t("review-title"), *lines, *([turning] if turning else [])]


def _points_lines(
    t: Translator, name: str, player_review: PlayerReview, variants: Variants
) -> list[str]:
    """A review in expected points alone (a table too big to weigh by win chances)."""
    costly = player_review.costly
    if not costly:
        return [t("review-flawless", name=name)]
    accuracy, lost = player_review.accuracy(variants), player_review.lost
    return [t("review-line", name=name, accuracy=accuracy, lost=lost), decision_text(t, costly[0])]


def _chance_lines(
    t: Translator, name: str, player_review: PlayerReview, variants: Variants
) -> list[str]:
    """Accuracy, points given away and the errors counted; then the costliest decision."""
    from core.review import ERRORS  # loaded with the review being shown

    grades = player_review.grades
    costliest = player_review.costliest
    if costliest is None:
        return [t("review-flawless", name=name)]
    accuracy, lost = player_review.accuracy(variants), player_review.lost
    tally = [t(f"review-grade-{g.value}", count=grades[g]) for g in ERRORS if grades[g]]
    if not tally:
        return [t("review-player-clean", name=name, accuracy=accuracy, lost=lost)]
    words = ", ".join(tally)
    line = t("review-player", name=name, accuracy=accuracy, lost=lost, words=words)
    return [line, decision_text(t, costliest)]


def decision_text(t: Translator, decision: Decision) -> str:
    """A costly decision: what was chosen, what was better and what it cost (in win chance
    when the review was weighed by it, and in expected points)."""
    from core.review import NOISE  # loaded with the review being shown

    args = {
        "round": decision.round,
        "throw": decision.throw,
        "dice": dice_text(decision.dice),
        "chosen": choice_text(t, decision.chosen, decision.dice),
    }
    if decision.winning is None or decision.chance_lost <= NOISE:
        better = choice_text(t, decision.best, decision.dice)
        return t("review-costliest", **args, better=better, loss=decision.loss)
    args["better"] = choice_text(t, decision.winning, decision.dice)
    rate = 100 * decision.chance_lost
    if decision.loss < POINTS_SHOWN:
        return t("review-costliest-chance-only", **args, rate=rate)
    return t("review-costliest-chance", **args, rate=rate, loss=decision.loss)


def turning_line(t: Translator, view: GameView, story: Story) -> str | None:
    """The turn that raised the eventual winner's chance the most, and what happened in it."""
    turning = story.turning
    if turning is None:
        return None
    names = {player.id: player.name for player in view.players}
    turn = story.turns[turning.turn]
    word = "big" if turn.big_general else "box" if turn.box is not None else "left"
    return t(
        "review-turning",
        round=turn.round,
        player=shown_name(names.get(turn.player_id, "?")),
        word=word,
        box=box_name(t, turn.box) if turn.box is not None else "",
        points=turn.points,
        name=names.get(turning.winner_id, "?"),
        n=100 * turning.before,
        rate=100 * turning.after,
    )
