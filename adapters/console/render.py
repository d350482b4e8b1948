"""Drawing the view as terminal text: a pure function of the view, the language and the width."""

from __future__ import annotations

from adapters.console.commands import WORDS, Command
from adapters.console.sheet import sheet_text, width
from adapters.i18n import DEFAULT_LOCALE, Translator
from adapters.i18n.chances import chances_line
from adapters.i18n.dice import DIE_FACES, box_name
from adapters.i18n.narration import turn_header
from adapters.i18n.standings import standings_line
from core.boxes import ALL_BOXES
from core.fairdice import short
from core.table import Phase
from core.view import GameView

# A die is five columns, "[⚄ 5]" held or " ⚄ 5 " not, one column between dice; its number is
# written under the middle column. The faces U+2680…2685 are one column wide (Unicode gives them
# no emoji presentation; tmux, VTE and xterm draw them in one cell), which the tests measure.
DIE_CELL = 5
NUMBER_AT = 2
# The usage of each command in the help, after its words.
ARGUMENTS = {Command.HOLD: " 1 3 5", Command.SCORE: " {box}"}


def render_dice(view: GameView) -> str:
    """The dice showing, held ones in brackets, and under each die its number for `h`."""
    faces = " ".join(
        f"[{DIE_FACES[d.value - 1]} {d.value}]"
        if d.held
        else f" {DIE_FACES[d.value - 1]} {d.value} "
        for d in view.dice
    )
    numbers = " ".join(
        (" " * NUMBER_AT + str(n)).ljust(DIE_CELL) for n in range(1, len(view.dice) + 1)
    )
    return f"{faces.rstrip()}\n{numbers.rstrip()}"


def box_lines(t: Translator, view: GameView) -> list[str]:
    """The current player's open boxes by number, with what the dice showing write there."""
    if not view.dice:
        sheet = view.sheet
        column = next(i for i, p in enumerate(view.players) if p.is_current)
        open_boxes = [row.box for row in sheet if row.cells[column] is None]
        lines = [t("console-open-boxes")]
        return lines + [f"  {box.index + 1:>2}  {box_name(t, box)}" for box in open_boxes]
    names = {option.box: box_name(t, option.box) for option in view.options}
    name_width = max(width(box_name(t, box)) for box in ALL_BOXES)
    lines = [t("console-options")]
    for option in view.options:
        name = names[option.box]
        padding = " " * (name_width - width(name))
        lines.append(f"  {option.box.index + 1:>2}  {name}{padding} {option.points:>3}")
    return lines


def render_board(t: Translator, view: GameView, columns: int | None = None) -> str:
    """The turn: header, dice and, for a person, each open box with what it scores now; a
    computer's turn is watched, so nobody is asked to throw for it."""
    if view.phase is not Phase.PLAYING:
        return sheet_text(t, view, columns)
    person = view.current is not None and not view.current.is_computer
    lines = [turn_header(t, view)]
    lines += [line for line in (standings_line(t, view), chances_line(t, view)) if line]
    if view.round == 1 and view.commitment:  # the first round keeps the dice's seal in sight
        lines.append(t("dice-sealed", short=short(view.commitment)) + view.commitment)
    if not view.dice:
        lines.append(t("turn-first") if person else t("console-computer-turn"))
        return "\n".join(lines)
    lines.append(render_dice(view))
    if any(d.held for d in view.dice):
        lines.append(t("held-legend"))
    if person:
        lines.extend(box_lines(t, view))
    return "\n".join(lines)


def revealed(t: Translator, view: GameView) -> list[str]:
    """The seed of a finished game's dice, and the command that checks every throw by it."""
    if not view.seed:
        return []
    return [
        t("dice-revealed", seed=view.seed),
        t("console-dice-check", command=f"python -m bot verify {view.game_id}"),
    ]


def words_of(t: Translator) -> dict[Command, tuple[str, ...]]:
    return WORDS.get(t.locale, WORDS[DEFAULT_LOCALE])


def help_text(t: Translator) -> str:
    """The commands in the reader's language, with the words of the others after."""
    box = t("console-box-argument")
    rows = [
        (", ".join(word + ARGUMENTS.get(command, "").format(box=box) for word in forms),
         t(f"console-help-{command.value}"))
        for command, forms in words_of(t).items()
    ]  # fmt: skip
    rows.insert(3, (words_of(t)[Command.SCORE][0], t("console-help-boxes")))
    usage = max(width(row[0]) for row in rows)
    lines = [t("console-help-title")]
    lines += [f"  {left}{' ' * (usage - width(left))}  {right}" for left, right in rows]
    others = [table for table in WORDS.values() if table is not words_of(t)]
    shorts = [forms[0] for table in others for forms in table.values()]
    lines.append(t("console-help-also", words=", ".join(shorts)))
    return "\n".join(lines)
