"""A person's name as every message shows it, a list of names that fits its room."""

from __future__ import annotations

import unicodedata

from core.view import GameView

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
