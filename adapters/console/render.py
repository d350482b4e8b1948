"""Drawing the view as terminal text: a pure function of the view and the language."""

from __future__ import annotations

from adapters.i18n import Translator
from adapters.i18n.text import DIE_FACES, box_name, sheet_table, turn_header
from core.game import Phase
from core.view import GameView


def render_dice(view: GameView) -> str:
    """Five dice with their positions; held dice in brackets."""
    numbers = "".join(f"  {i}    " for i in range(1, len(view.dice) + 1))
    faces = "".join(
        f"[{DIE_FACES[d.value - 1]} {d.value}] "
        if d.held
        else f" {DIE_FACES[d.value - 1]} {d.value}  "
        for d in view.dice
    )
    return f"{numbers.rstrip()}\n{faces.rstrip()}"


def render_board(t: Translator, view: GameView, with_options: bool = True) -> str:
    """The turn: header, dice and, for a person, each open box with what it scores now."""
    if view.phase is not Phase.PLAYING:
        return sheet_table(t, view)
    lines = [turn_header(t, view)]
    if not view.dice:
        lines.append(t("turn-first"))
        return "\n".join(lines)
    lines.append(render_dice(view))
    if any(d.held for d in view.dice):
        lines.append(t("held-legend"))
    if not with_options:
        return "\n".join(lines)
    lines.append(t("console-options"))
    for option in view.options:
        lines.append(
            f"  {option.box.index + 1:>2} {box_name(t, option.box):<12} {option.points:>3}"
        )
    return "\n".join(lines)
