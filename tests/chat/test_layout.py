"""The layout of a card without any platform: which buttons, in which rows, with which payloads
(each decoding back to its action) and labels; and a layout is plain JSON."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import orjson

from adapters.chat import cards, payload
from adapters.chat.layout import (
    HELD,
    KEYCAPS,
    Button,
    Emphasis,
    Intent,
    Line,
    Mark,
    Message,
    Pages,
    Person,
    Span,
    Strip,
    Table,
)
from adapters.chat.layout_boards import finished_turn, lobby, turn
from adapters.chat.layout_cards import of
from adapters.chat.plan import Redraw
from adapters.discord.render import SHAPE as DISCORD
from adapters.i18n import translator
from adapters.telegram.render import SHAPE as TELEGRAM
from core.actions import Cancel, Join, Leave, Open, Roll, Score, Start, ToggleHold
from core.boxes import Box
from core.dice import ScriptedRoller, SeededRoller
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.rules import Variants
from core.table import Game
from core.view import GameView, make_view

T = translator("en")
ALICE, BOB = PlayerRef("1", "Alice"), PlayerRef("2", "Bob")


def opened() -> Game:
    game, _ = open_lobby("abcdefgh", ChannelKey("tg", "-5"), ALICE, Open(Variants()))
    game, _ = apply(game, BOB, Join(), ScriptedRoller())
    return game


def held_turn() -> GameView:
    """Alice's turn after a throw of 2 2 5 6 2, the first and the last two held."""
    game, _ = apply(opened(), ALICE, Start(), SeededRoller(3))
    current = game.seats[game.current].player
    game, _ = apply(game, current, Roll(), ScriptedRoller([2, 2, 5, 6, 2]))
    for index in (0, 4):
        game, _ = apply(game, current, ToggleHold(index), ScriptedRoller())
    return make_view(game)


def pressed(button: Button) -> payload.Press:
    press = payload.decode(button.payload)
    assert press is not None, button
    return press


def test_a_lobby_s_buttons_seat_start_and_cancel_and_add_computers() -> None:
    view = make_view(opened())
    drawn = lobby(T, view, TELEGRAM)
    rows = [[pressed(button) for button in row] for row in drawn.rows]
    assert [[press.action for press in row] for row in (rows[0], rows[-1])] == [
        [Join(), Leave()],
        [Start(), Cancel()],
    ]
    computers = [press.computer for row in rows[1:-1] for press in row]
    assert computers == [Level.GRANDMASTER, Level.MASTER, Level.CLUB, Level.NOVICE]
    assert all(
        press.game_id == view.game_id and press.version == view.version
        for row in rows
        for press in row
    )
    assert [len(row) for row in drawn.rows] == [2, 2, 2, 2]
    assert drawn.rows[0][0] == Button(
        T("btn-join"), drawn.rows[0][0].payload, intent=Intent.PRIMARY
    )
    assert drawn.names == ("Alice", "Bob") and drawn.person is None
    wide = lobby(T, view, DISCORD)  # the same buttons, arranged on Discord's wide rows
    assert [len(row) for row in wide.rows] == [4, 4]
    assert sorted(b.payload or "" for row in wide.rows for b in row) == sorted(
        b.payload or "" for row in drawn.rows for b in row
    )
    assert [b.intent for b in wide.rows[0]] == [
        Intent.PRIMARY,
        Intent.SECONDARY,
        Intent.SUCCESS,
        Intent.DANGER,
    ]


def test_a_turn_with_held_dice() -> None:
    view = held_turn()
    drawn = turn(T, view, TELEGRAM, notify=True)
    assert drawn.person == Person("1", "Alice", notify=True)
    dice, control, *boxes = drawn.rows
    assert [(b.label, b.held) for b in dice] == [
        ("2", True),
        ("2", False),
        ("5", False),
        ("6", False),
        ("2", True),
    ]
    assert [b.intent for b in dice] == [Intent.PRIMARY, *[Intent.SECONDARY] * 3, Intent.PRIMARY]
    assert [pressed(b).action for b in dice] == [ToggleHold(i) for i in range(5)]
    assert [pressed(b).code for b in control] == [
        payload.action_code(Roll()),
        payload.SHEET,
        payload.HINT,
    ]
    assert control[0].label == T("btn-roll", left=view.throws_left)
    scored = [(pressed(b).action, b.label) for row in boxes for b in row]
    assert scored == [
        (Score(o.box), T("btn-box", box=T(f"box-{o.box.value}"), points=o.points))
        for o in view.options
    ]
    assert all(len(row) <= 2 for row in boxes)
    focus = [line for line in drawn.lines if line.emphasis is Emphasis.FOCUS]
    shown = f"{KEYCAPS[1]}{HELD}  {KEYCAPS[1]}  {KEYCAPS[4]}  {KEYCAPS[5]}  {KEYCAPS[1]}{HELD}"
    assert focus == [Line((Span(shown),), Emphasis.FOCUS)]
    wide = turn(T, view, DISCORD)
    count = len(view.options)
    assert [len(row) for row in wide.rows[2:]] == [min(5, count - i) for i in range(0, count, 5)]
    assert wide.person == Person("1", "Alice", notify=False)


def test_a_finished_turn_keeps_the_dice_and_what_was_written_without_buttons() -> None:
    game, _ = apply(opened(), ALICE, Start(), SeededRoller(3))
    current = game.seats[game.current].player
    game, _ = apply(game, current, Roll(), ScriptedRoller([6, 6, 6, 1, 2]))
    game, events = apply(game, current, Score(Box.SIXES), ScriptedRoller())
    drawn = finished_turn(T, make_view(game, None, events))
    assert drawn.rows == ()
    header, dice, scored = drawn.lines
    assert header.spans[0] == Span(current.name, Mark.BOLD)
    assert dice == Line((Span("  ".join(KEYCAPS[d - 1] for d in (6, 6, 6, 1, 2))),))
    assert scored.spans[0] == Span("✍️ ") and "18" in scored.spans[1].text


def test_each_card_has_its_kind_of_layout() -> None:
    view = make_view(opened())
    assert isinstance(of(T, cards.Board(view), TELEGRAM), Message)
    assert of(T, cards.Stripped(), DISCORD) == Strip()
    assert of(T, cards.Records(("Top", "1 Alice")), TELEGRAM) == Table("Top", ("1 Alice",))
    paged = of(T, cards.Review(("a", "b"), b"PNG"), DISCORD)
    assert isinstance(paged, Pages) and paged.picture == b"PNG" and len(paged.parts) == 2
    forget = of(T, cards.Forget("7"), TELEGRAM)
    assert isinstance(forget, Message)
    assert [payload.forget_pressed(b.payload) for b in forget.rows[0]] == [
        payload.ForgetPress("7", True),
        payload.ForgetPress("7", False),
    ]
    redrawn = of(T, cards.Redrawn(Redraw.LOBBY, view), TELEGRAM)
    assert redrawn == lobby(T, view, TELEGRAM)


def _message(data: dict[str, Any]) -> Message:
    """A message read back from its JSON."""

    def line(value: dict[str, Any]) -> Line:
        spans = tuple(Span(span["text"], Mark(span["mark"])) for span in value["spans"])
        return Line(spans, Emphasis(value["emphasis"]))

    def button(value: dict[str, Any]) -> Button:
        return Button(**{**value, "intent": Intent(value["intent"])})

    person = data["person"]
    return Message(
        lines=tuple(map(line, data["lines"])),
        rows=tuple(tuple(map(button, row)) for row in data["rows"]),
        person=Person(**person) if person else None,
        names=tuple(data["names"]),
        preface=tuple(map(line, data["preface"])),
        lead=tuple(map(line, data["lead"])),
    )


def test_a_turn_s_layout_is_plain_json_and_reads_back_the_same() -> None:
    drawn = of(T, cards.Board(held_turn(), notify=True, preface=("The lot: Alice first",)), DISCORD)
    assert isinstance(drawn, Message)
    data = orjson.loads(orjson.dumps(asdict(drawn)))
    assert data["rows"][0][0] == {
        "label": "2",
        "payload": drawn.rows[0][0].payload,
        "url": None,
        "intent": "primary",
        "held": True,
    }
    assert _message(data) == drawn
