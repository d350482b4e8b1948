"""The layout of a game's board: the lobby, the turn being played, a turn over, what happened.

Every game button's payload is built here, through the chat layer's payload codes.
"""

from __future__ import annotations

from dataclasses import replace

from adapters.chat import payload
from adapters.chat.cards import Board, Redrawn
from adapters.chat.layout import (
    SLOT,
    Button,
    Emphasis,
    Intent,
    Line,
    Mark,
    Message,
    Row,
    Shape,
    Span,
    bold,
    chunked,
    dice_line,
    person,
    plain,
)
from adapters.chat.plan import Redraw
from adapters.i18n import Translator
from adapters.i18n.chances import chances_line
from adapters.i18n.dice import box_name, dice_text
from adapters.i18n.names import shown_name
from adapters.i18n.narration import narrate, taken_back, turn_header
from adapters.i18n.standings import standings_line
from core.actions import Cancel, Join, Leave, Roll, Score, Start, TakeBack, ToggleHold
from core.boxes import ALL_BOXES
from core.dice import DICE_COUNT
from core.events import BigGeneralThrown, BoxScored, Event
from core.fairdice import short
from core.table import Phase
from core.view import GameView


def board(t: Translator, card: Board | Redrawn, shape: Shape) -> Message:
    """The one choice of which board to draw, for every platform."""
    view = card.view
    if isinstance(card, Board):
        playing = view.phase is Phase.PLAYING
        drawn = turn(t, view, shape, notify=card.notify) if playing else lobby(t, view, shape)
        if not card.preface:
            return drawn
        return replace(drawn, preface=tuple(plain(line) for line in card.preface))
    match card.how:
        case Redraw.LOBBY:
            return lobby(t, view, shape)
        case Redraw.TURN:
            return turn(t, view, shape)
        case Redraw.FINISHED_TURN:
            return finished_turn(t, view)
    return narration(t, view, card.events)


# Each game button's code, worked out once from its action (payload.action_code): a board
# names ten to twenty of them at every press.
JOIN, LEAVE, START, CANCEL = (payload.action_code(a) for a in (Join(), Leave(), Start(), Cancel()))
ROLL, TAKE_BACK = payload.action_code(Roll()), payload.action_code(TakeBack())
HOLDS = tuple(payload.action_code(ToggleHold(die)) for die in range(DICE_COUNT))
SCORES = {box: payload.action_code(Score(box)) for box in ALL_BOXES}


def _button(
    view: GameView, code: str, label: str, intent: Intent = Intent.SECONDARY, *, held: bool = False
) -> Button:
    return Button(label, payload.encode(view.game_id, view.version, code), intent=intent, held=held)


def _table(t: Translator, view: GameView, shape: Shape) -> tuple[Row, ...]:
    """The live table's button, on a row of its own last, where the platform offers it."""
    if not shape.table:
        return ()
    data = payload.encode(view.game_id, view.version, payload.TABLE)
    return ((Button(t("btn-table"), data),),)


def lobby(t: Translator, view: GameView, shape: Shape) -> Message:
    """The lobby: who hosts, who sits (as many names as one message holds); Join, Leave, the
    computers, Start and Cancel while it is open."""
    lines = [
        bold(t("lobby-title")),
        plain(t("lobby-host", host=view.host.name if view.host else "")),
        plain(t("lobby-players", count=len(view.players), names=SLOT)),
    ]
    names = tuple(shown_name(p.name) for p in view.players)
    if view.phase is not Phase.LOBBY:
        closed = "chat-game-started" if view.phase is Phase.PLAYING else "chat-lobby-closed"
        return Message((*lines, plain(t(closed))), names=names)
    lines.extend(sealed(t, view))
    lines.append(plain(t("lobby-hint")))
    seating = [
        _button(view, JOIN, t("btn-join"), Intent.PRIMARY),
        _button(view, LEAVE, t("btn-leave")),
    ]
    start = [
        _button(view, START, t("btn-start"), Intent.SUCCESS),
        _button(view, CANCEL, t("btn-cancel"), Intent.DANGER),
    ]
    computers = chunked(
        [
            _button(view, code, t(f"btn-add-{level.value}"))
            for code, level in payload.LEVEL_CODES.items()
        ],
        shape.computers,
    )
    rows: list[Row] = (
        [(*seating, *start), *computers]
        if shape.start_by_join
        else [tuple(seating), *computers, tuple(start)]
    )
    return Message(tuple(lines), (*rows, *_table(t, view, shape)), names=names)


def sealed(t: Translator, view: GameView) -> tuple[Line, ...]:
    """The seal of the game's dice (DICE.md): its short form, the full one a tap away."""
    if not view.commitment:
        return ()
    said = t("dice-sealed", short=short(view.commitment))
    return (Line((Span(said), Span(view.commitment, Mark.HIDDEN))),)


def turn(t: Translator, view: GameView, shape: Shape, *, notify: bool = False) -> Message:
    """The live board of the current turn. Rows: the dice (while holds are allowed), Roll, Sheet
    and Hint, then the open boxes with what each scores now (0: a scratch). A computer's board
    has the Sheet button only: it plays by itself."""
    current = view.current
    assert current is not None, "a turn board needs a current player"
    human = not current.is_computer
    who = person(current, notify=notify and human)
    lines = [plain(line) for line in taken_back(t, view)]
    lines.append(plain(turn_header(t, view, SLOT)))
    lines.extend(plain(line) for line in (standings_line(t, view), chances_line(t, view)) if line)
    if view.round == 1:  # the first round's boards keep the seal in sight
        lines.extend(sealed(t, view))
    sheet = _button(view, payload.SHEET, t("btn-sheet"))
    if not view.dice:
        rows: list[Row] = []
        if human:
            lines.append(plain(t("turn-first")))
            rows.append((_button(view, ROLL, t("btn-roll-first"), Intent.PRIMARY), sheet))
            if view.take_back is not None:  # for whoever wrote the last box (a mis-tap)
                rows.append((_button(view, TAKE_BACK, t("btn-take-back")),))
        else:
            rows.append((sheet,))
        return Message(tuple(lines), (*rows, *_table(t, view, shape)), who)
    values = dice_line((d.value for d in view.dice), (d.held for d in view.dice))
    lines.append(Line((Span(values),), Emphasis.FOCUS))
    if not human:
        return Message(tuple(lines), ((sheet,), *_table(t, view, shape)), who)
    lines.append(plain(t("chat-throws-left", left=view.throws_left)))
    rows = []
    if view.can_hold:
        rows.append(
            tuple(
                _button(view, HOLDS[i], str(d.value), Intent.PRIMARY, held=True)
                if d.held
                else _button(view, HOLDS[i], str(d.value))
                for i, d in enumerate(view.dice)
            )
        )
    control = []
    if view.can_roll:
        control.append(_button(view, ROLL, t("btn-roll", left=view.throws_left), Intent.PRIMARY))
    control.append(sheet)
    if view.variants.hints:
        control.append(_button(view, payload.HINT, t("btn-hint")))
    rows.append(tuple(control))
    boxes = [
        _button(
            view,
            SCORES[option.box],
            t("btn-box", box=box_name(t, option.box), points=option.points),
            Intent.SUCCESS if option.points else Intent.SECONDARY,
        )
        for option in view.options
    ]
    rows.extend(chunked(boxes, shape.boxes))
    return Message(tuple(lines), (*rows, *_table(t, view, shape)), who)


def finished_turn(t: Translator, view: GameView) -> Message:
    """What a turn's board keeps once the turn is over: the dice and what was written."""
    lines: list[Line] = []
    for event in view.events:
        match event:
            case BoxScored(player_id=pid, box=box, points=points, dice=dice, throw=throw):
                player = view.player(pid)
                name = shown_name(player.name) if player else "?"
                header = t("turn-header-short", throw=throw)
                lines.append(Line((Span(name, Mark.BOLD), Span(" · "), Span(header))))
                lines.append(plain(dice_line(dice)))
                key = "turn-scored" if points else "turn-scratched"
                said = t(key, name=name, points=points, box=box_name(t, box))
                lines.append(Line((Span("✍️ "), Span(said))))
            case BigGeneralThrown(player_id=pid, dice=dice):
                player = view.player(pid)
                name = player.name if player else "?"
                lines.append(Line((Span(dice_line(dice)),), Emphasis.HEADING))
                lines.append(bold(t("big-general", name=name, dice=dice_text(dice))))
    return Message(tuple(lines) or (plain(t("game-over")),))


def narration(t: Translator, view: GameView, events: tuple[Event, ...]) -> Message:
    """What happened (a player left, the host cancelled): the board keeps it, without buttons."""
    lines = narrate(t, view, events)
    return Message(tuple(plain(line) for line in lines) or (plain(t("game-over")),))
