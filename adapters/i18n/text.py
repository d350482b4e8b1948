"""Plain-text pieces every front end shares: box names, refusals, narration, the sheet table."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from core.boxes import Box
from core.chat_settings import ChatSettings, SheetStyle
from core.errors import GameError
from core.events import (
    BigGeneralThrown,
    BoxScored,
    EndReason,
    Event,
    GameEnded,
    GameStarted,
    HostChanged,
    LobbyOpened,
    LotThrown,
    PlayerJoined,
    PlayerLeft,
    PlayerRemoved,
    ScoreTakenBack,
    TurnReminder,
    TurnTimedOut,
)
from core.records import PastGame, PlayerStats, Standing
from core.rules import MAX_THROWS, BigGeneralMode, Variants
from core.verdict import Verdict, verdict
from core.view import GameView

if TYPE_CHECKING:  # the Translator shows names through shown_name: imported here only for types
    from adapters.i18n import Translator
    from core.review import Decision, PlayerReview, Story  # the review and the strategy: numpy
    from core.strategy import Choice

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
SHEET_NAME_WIDTH = 7
PHONE_COLUMNS = 4
POINTS_SHOWN = 0.05  # a costliest decision's points below this round to 0.0: not told
NAME_WIDTH = 32  # characters a name shows at most; the game keeps it whole
# Invisible characters outside the format category (Cf, stripped whole): fillers that show as
# blank, the combining grapheme joiner.
_INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
_BREAKS = frozenset("\n\r\t\x0b\x0c\x85\u2028\u2029")


def shown_name(name: str, width: int = NAME_WIDTH) -> str:
    """A person's name as every message shows it: bidi controls, zero-width and other invisible
    characters taken out (they would reorder or hide the text around the name), line breaks made
    spaces, and at most `width` characters, cut with "…" (a name may be thousands long)."""
    kept = "".join(
        " " if char in _BREAKS else char
        for char in name
        if char not in _INVISIBLE and unicodedata.category(char) != "Cf"
    ).strip()
    if len(kept) <= width:
        return kept or "?"
    cut = width - 1
    while cut > 1 and unicodedata.combining(kept[cut]):  # a mark stays with its letter
        cut -= 1
    return kept[:cut].rstrip() + "…"


def box_name(t: Translator, box: Box) -> str:
    return t(f"box-{box.value}")


def error_message(t: Translator, error: GameError) -> str:
    """A refusal in words; its numbers stay numbers, for the catalogue's plurals."""
    params = {k: v if isinstance(v, int | float) else str(v) for k, v in error.params.items()}
    return t(f"error-{error.code.value}", **params)


def dice_text(dice: Iterable[int]) -> str:
    return "-".join(str(d) for d in dice)


def listed(parts: list[str], room: int) -> str:
    """Parts joined by ", " within `room` characters, "…" standing for those that did not fit
    (fifty long names in a lobby that is one message)."""
    out = ""
    for number, part in enumerate(parts, start=1):
        longer = f"{out}, {part}" if out else part
        if len(longer) + (0 if number == len(parts) else len(", …")) > room:
            return f"{out}, …" if out else "…"
        out = longer
    return out


def name_of(view: GameView, player_id: str) -> str:
    player = view.player(player_id)
    return shown_name(player.name) if player else "?"


def turn_header(t: Translator, view: GameView, name: str | None = None) -> str:
    """Whose turn, the round and the throw; `name` in place of the player's (a mention)."""
    current = view.current
    return t(
        "turn-header",
        name=name if name is not None else current.name if current else "",
        round=view.round,
        rounds=view.rounds,
        throw=view.throw,
        throws=MAX_THROWS,
    )


def narrate(t: Translator, view: GameView, events: Iterable[Event]) -> list[str]:
    """What people should be told about `events`, one line each, in order."""
    events = tuple(events)
    opened = any(isinstance(event, LobbyOpened) for event in events)
    removed = {event.player_id for event in events if isinstance(event, PlayerRemoved)}
    lines: list[str] = []
    lot_round = 0
    for event in events:
        match event:
            case PlayerJoined(name=name) if not opened:
                lines.append(t("event-joined", name=name))
            case PlayerLeft(player_id=pid, name=name) if pid not in removed:  # said: removed
                lines.append(t("event-left", name=name or name_of(view, pid)))
            case HostChanged(player_id=pid):
                lines.append(t("event-host", name=name_of(view, pid)))
            case PlayerRemoved(player_id=pid, cause=cause):
                lines.append(t(f"event-removed-{cause}", name=name_of(view, pid)))
            case TurnTimedOut(player_id=pid):
                lines.append(t("event-timed-out", name=name_of(view, pid)))
            case TurnReminder(player_id=pid, seconds_left=left):
                lines.append(t("event-reminder", name=name_of(view, pid), time=duration(t, left)))
            case LotThrown(round=r, player_id=pid, dice=dice):
                if r != lot_round:
                    lines.append(t("lot-title") if r == 1 else t("lot-rethrow"))
                    lot_round = r
                lines.append(t("lot-line", name=name_of(view, pid), dice=dice_text(dice),
                               total=sum(dice)))  # fmt: skip
            case GameStarted(order=order):
                names = [name_of(view, pid) for pid in order]
                if len(order) > 1:
                    lines.append(t("lot-starter", name=names[0]))
                    lines.append(t("game-started", order=", ".join(names)))
                else:
                    lines.append(t("game-solo", name=names[0]))
            case BoxScored(player_id=pid, box=box, points=points):
                key = "turn-scored" if points else "turn-scratched"
                lines.append(t(key, name=name_of(view, pid), points=points, box=box_name(t, box)))
            case ScoreTakenBack(player_id=pid, box=box, points=points):
                name = name_of(view, pid)
                lines.append(t("event-taken-back", name=name, points=points, box=box_name(t, box)))
            case BigGeneralThrown(player_id=pid, dice=dice):
                lines.append(t("big-general", name=name_of(view, pid), dice=dice_text(dice)))
            case GameEnded(reason=reason):
                lines.extend(ending(t, view, reason))
    return lines


def taken_back(t: Translator, view: GameView) -> list[str]:
    """What a board says on top of the turn a taking back restored (its view's events)."""
    return narrate(t, view, [event for event in view.events if isinstance(event, ScoreTakenBack)])


def duration(t: Translator, seconds: int) -> str:
    """A span of time in words: whole hours, else minutes, else seconds."""
    if seconds >= 3600 and seconds % 3600 == 0:
        return t("settings-hours", n=seconds // 3600)
    if seconds >= 60:
        return t("settings-minutes", n=round(seconds / 60))
    return t("settings-seconds", n=seconds)


def ending(t: Translator, view: GameView, reason: EndReason) -> list[str]:
    if reason is EndReason.CANCELLED:
        return [t("game-cancelled")]
    if reason is EndReason.ABANDONED:
        return [t("game-abandoned")]
    if reason is EndReason.IDLE:
        return [t("game-idle")]
    winners = view.winners
    if not winners:
        return [t("game-over")]
    names = ", ".join(shown_name(w.name) for w in winners)
    if reason is EndReason.BIG_GENERAL:  # how it was won, not the points (often none yet)
        won = t("game-winner-big-general", names=names)
    else:
        key = "game-winner" if len(winners) == 1 else "game-winners"
        won = t(key, names=names, total=winners[0].total)
    lines = [t("game-over"), won]
    decided = verdict(view)
    return lines if decided is None else [*lines, verdict_line(t, view, decided)]


def verdict_line(t: Translator, view: GameView, decided: Verdict) -> str:
    """The turn that decided the game, said plainly."""
    name = name_of(view, decided.player_id)
    if decided.big_general:
        return t("verdict-big-general", name=name, round=decided.round, rounds=decided.rounds)
    passed = ", ".join(name_of(view, player_id) for player_id in decided.passed)
    key = "verdict-last-turn-level" if decided.level else "verdict-last-turn"
    box = box_name(t, decided.box) if decided.box else ""
    return t(key, name=name, points=decided.points, box=box, names=passed)


def _width(text: str) -> int:
    """Display width in a monospace font: wide (East Asian, emoji) characters take two cells."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _fit(text: str, width: int) -> str:
    out = ""
    for char in text:
        if _width(out + char) > width:
            return out[:-1] + "…" if out else "…"
        out += char
    return out


def _pad_left(text: str, width: int) -> str:
    return " " * (width - _width(text)) + text


def sheet_table(t: Translator, view: GameView, columns: range | None = None) -> str:
    """Players across, boxes down, totals last; monospace text. '·' is an empty box."""
    columns = columns if columns is not None else range(len(view.players))
    players = [view.players[i] for i in columns]
    names = [_fit(shown_name(p.name), SHEET_NAME_WIDTH) for p in players]
    labels = [box_name(t, row.box) for row in view.sheet] + [t("sheet-total")]
    label_width = max(_width(label) for label in labels)
    widths = [max(3, _width(name)) for name in names]
    lines = [_row("", label_width, names, widths)]
    for label, row in zip(labels, view.sheet, strict=False):
        cells = ["·" if row.cells[i] is None else str(row.cells[i]) for i in columns]
        lines.append(_row(label, label_width, cells, widths))
    lines.append(_row(labels[-1], label_width, [str(p.total) for p in players], widths))
    return "\n".join(lines)


def sheet_tables(t: Translator, view: GameView, per_table: int = PHONE_COLUMNS) -> list[str]:
    """The sheet cut into tables of a few players each, so that a phone shows them unwrapped."""
    count = len(view.players)
    return [
        sheet_table(t, view, range(start, min(start + per_table, count)))
        for start in range(0, max(count, 1), per_table)
    ]


def _row(label: str, label_width: int, cells: list[str], widths: list[int]) -> str:
    padded = label + " " * (label_width - _width(label))
    return padded + "".join(" " + _pad_left(c, w) for c, w in zip(cells, widths, strict=True))


def choice_text(t: Translator, choice: Choice, dice: tuple[int, ...]) -> str:
    """A decision in words: which dice to keep, or which box to write and for how much."""
    if choice.box is not None:
        return t("hint-box", box=box_name(t, choice.box), points=choice.points)
    keep = choice.keep or ()
    if not keep:
        return t("hint-keep-none")
    if len(keep) == len(dice):  # a review of a game logged before a throw had to throw a die
        return t("hint-keep-all")
    return t("hint-keep", dice=dice_text(keep))


def percent(t: Translator, share: float) -> str:
    """A share as a whole percentage; never 0% or 100% for what is merely unlikely or likely."""
    if share >= 1 - 1e-12:
        return t("chances-percent", value="100")
    if share <= 1e-12:
        return t("chances-percent", value="0")
    if share < 0.005:
        return t("chances-below-one")
    if share > 0.995:
        return t("chances-above-ninety-nine")
    return t("chances-percent", value=str(round(share * 100)))


def hint_lines(
    t: Translator,
    options: list[Choice],
    dice: tuple[int, ...],
    count: int = 4,
    shares: tuple[float, ...] = (),
) -> list[str]:
    """The best few choices with their expected final points, best first, and each one's
    chance of winning where the table is a race (`shares`, in the same order); where another
    choice gives the best chance, it is named first (a short answer keeps the first lines)."""
    if not shares:
        lines = [t("hint-title")]
        for rank, option in enumerate(options[:count], start=1):
            text = choice_text(t, option, dice)
            lines.append(t("hint-line", rank=rank, choice=text, expected=option.expected))
        return lines
    lines = [t("hint-title-chances")]
    best = max(range(len(shares)), key=lambda index: (shares[index], -index))
    if shares[best] > shares[0] + 1e-12:
        text = choice_text(t, options[best], dice)
        lines.append(t("hint-for-the-win", choice=text, value=percent(t, shares[best])))
    for rank, (option, share) in enumerate(zip(options[:count], shares, strict=False), start=1):
        text = choice_text(t, option, dice)
        value = percent(t, share)
        lines.append(
            t("hint-line-chances", rank=rank, choice=text, expected=option.expected, value=value)
        )
    return lines


def review_lines(
    t: Translator,
    view: GameView,
    reviews: Mapping[str, PlayerReview],
    variants: Variants,
    story: Story | None = None,
) -> list[str]:
    """One or two lines per human player on how well they played, their costliest decision
    and, where the game was weighed by win chances (`story`), the game's turning point."""
    lines: list[str] = []
    for player in view.players:
        player_review = reviews.get(player.id)
        if player_review is None or player.is_computer:
            continue
        if story is None:
            lines.extend(_points_lines(t, player.name, player_review, variants))
        else:
            lines.extend(_chance_lines(t, player.name, player_review, variants))
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


def leaderboard_lines(
    t: Translator, standings: list[Standing], global_: bool, days: int | None
) -> list[str]:
    title = t("board-title-global" if global_ else "board-title")
    if not standings:
        return [title, t("board-empty")]
    period = t("board-period-recent", days=days) if days else t("board-period-all")
    lines = [title, t("board-header", period=period)]
    for rank, s in enumerate(standings, start=1):
        lines.append(
            t(
                "board-line",
                rank=rank,
                name=s.name,
                wins=s.wins,
                games=s.games,
                rate=round(100 * s.win_rate),
                average=s.average,
                best=s.best,
            )
        )
    return lines


def stats_lines(t: Translator, stats: PlayerStats, rating: Iterable[str] = ()) -> list[str]:
    """A player's statistics, their rating's lines (see ratings.py) after the games."""
    lines = [
        t("stats-title", name=stats.name),
        t("stats-games", games=stats.games, wins=stats.wins, rate=round(100 * stats.win_rate)),
        *rating,
        t("stats-totals", average=stats.average, best=stats.best),
        t("stats-generals", small=stats.small_generals, big=stats.big_generals),
    ]
    if stats.accuracy is not None:
        lines.append(t("stats-accuracy", accuracy=stats.accuracy))
    lines.append(t("stats-boxes"))
    for box, average in stats.box_averages.items():
        lines.append("  " + t("stats-box", box=box_name(t, box), average=average))
    return lines


def history_lines(t: Translator, games: list[PastGame]) -> list[str]:
    if not games:
        return [t("history-empty")]
    lines = [t("history-title")]
    for game in games:
        players = ", ".join(
            f"{'🏆 ' if winner else ''}{shown_name(name)} {total}"
            for name, total, winner in game.players
        )
        date = datetime.fromtimestamp(game.finished_at, UTC)
        lines.append(t("history-line", date=date, players=players))
    return lines


def setting_value(t: Translator, name: str, value: object) -> str:
    """A setting's current choice in words."""
    if name == "language":
        return t(f"settings-language-{value}" if value else "settings-language-auto")
    if name == "computer_pause":
        return t("settings-default") if value is None else t("settings-seconds", n=value)
    if name == "turn_timer" and isinstance(value, int):
        return duration(t, value) if value else t("settings-timer-off")
    if name in ("hints", "chances"):
        return t("settings-hints-on" if value else "settings-hints-off")
    if isinstance(value, BigGeneralMode):
        return t("settings-big-ends" if value is BigGeneralMode.ENDS_GAME else "settings-big-sixty")
    if isinstance(value, SheetStyle):
        return t(f"settings-sheet-{value.value}")
    if isinstance(value, bool):
        return t("settings-yes" if value else "settings-no")
    return str(value)


def setting_label(t: Translator, name: str, settings: ChatSettings) -> str:
    return t(f"settings-{name}", value=setting_value(t, name, getattr(settings, name)))
