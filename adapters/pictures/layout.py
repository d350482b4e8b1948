"""What the score-sheet picture says, as strings: pure, so that tests read it without pixels.

The only thing this module asks of the drawing side is a `Pen`: how wide a text comes out, what
it looks like (to tell whether two headers would be told apart) and which characters the font
has. Long names are wrapped onto two lines at a space, cut in the middle when even that is too
little (the start and the end tell names apart more often than the middle), and numbered by seat
when two would still look alike; a cut is always marked by an ellipsis.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from adapters.i18n import Translator
from adapters.i18n.dice import box_name
from core.table import Phase
from core.view import GameView, PlayerView

ELLIPSIS = "…"
EMPTY = "·"  # a box not written yet
MARKS_PER_CHARACTER = 2  # combining marks kept on one character: more would climb into the rows
WORD_SHARE = 0.6  # cut at a space only if the line keeps at least this share of its room


class Pen(Protocol):
    """One face of the font, as the layout needs it."""

    def width(self, text: str) -> float: ...

    def look(self, text: str) -> bytes:
        """The drawn text, as bytes: equal bytes would be the same picture."""
        ...

    def draws(self, char: str) -> bool:
        """Whether the font has a glyph for `char` (else it would draw an empty box)."""
        ...


@dataclass(frozen=True)
class Space:
    """A piece of text's pen and the room it may take, in pixels."""

    pen: Pen
    room: float


@dataclass(frozen=True)
class Column:
    """One player's column, top to bottom; `header` is one or two lines, `leader` a first place
    that someone is behind."""

    header: tuple[str, ...]
    cells: tuple[str, ...]
    total: str
    place: str
    current: bool
    active: bool
    leader: bool


@dataclass(frozen=True)
class SheetText:
    """Every string on the picture: the title, the round and whose turn, row labels, columns."""

    title: str
    status: str
    labels: tuple[str, ...]
    columns: tuple[Column, ...]


def labels(t: Translator, view: GameView) -> tuple[str, ...]:
    """Row labels: the boxes, then the total and the place."""
    return (*(box_name(t, row.box) for row in view.sheet), t("sheet-total"), t("picture-place"))


def sheet_text(
    t: Translator,
    view: GameView,
    title: str | None,
    *,
    title_space: Space,
    label_space: Space,
    status_space: Space,
    header_space: Space,
) -> SheetText:
    """Every string on the picture, each fitted to its space (which the drawing side knows)."""
    players = view.players
    names = [legible(p.name, header_space.pen) for p in players]
    heads, tags = headers(names, header_space)
    places = ranks(players)
    ahead = any(place not in (None, 1) for place in places)  # a lead that means something
    columns = tuple(
        Column(
            header=head,
            cells=tuple(EMPTY if r.cells[i] is None else str(r.cells[i]) for r in view.sheet),
            total=str(player.total),
            place=t("picture-rank", rank=place) if place else t("picture-out"),
            current=player.is_current,
            active=player.active,
            leader=place == 1 and ahead,
        )
        for i, (player, head, place) in enumerate(zip(players, heads, places, strict=True))
    )
    current = next((i for i, p in enumerate(players) if p.is_current), None)
    who = None
    if current is not None:  # the name cut to what the line leaves, its seat number kept whole
        pen = status_space.pen
        room = status_space.room - pen.width(status(t, view, _join("", tags[current])))
        who = _join(cut(names[current], Space(pen, room)), tags[current])
    return SheetText(
        title=cut(legible(title or t("sheet-title"), title_space.pen), title_space),
        status=cut(status(t, view, who), status_space),
        labels=tuple(cut(label, label_space) for label in labels(t, view)),
        columns=columns,
    )


def status(t: Translator, view: GameView, who: str | None) -> str:
    """The line under the title: the round first (so a long name cannot push it off), then
    whose turn it is, or that the game has not begun or is over."""
    if view.phase is Phase.LOBBY:
        return t("picture-lobby")
    parts = [t("picture-round", round=view.round, rounds=view.rounds)]
    if view.phase is Phase.FINISHED:
        parts.append(t("picture-final"))
    elif who is not None:
        parts.append(t("picture-turn", name=who))
    return " · ".join(parts)


def ranks(players: Sequence[PlayerView]) -> list[int | None]:
    """Places by total so far, equal totals sharing one (1, 2, 2, 4); those who left have none,
    as they cannot win."""
    totals = [p.total for p in players if p.active]
    return [1 + sum(x > p.total for x in totals) if p.active else None for p in players]


def seat_tag(index: int) -> str:
    return f"#{index + 1}"


def legible(name: str, pen: Pen) -> str:
    """`name` as the font can draw it: characters it lacks (most emoji) are left out, with the
    marks and joiners hanging on them, rather than drawn as empty boxes; blanks become single
    spaces; invisible format characters (bidi controls, zero-width ones) are left out, as in
    every message (`adapters.i18n.names.shown_name`), so they cannot reorder what is drawn."""
    kept: list[str] = []
    dropped = False
    marks = 0
    for char in name:
        category = unicodedata.category(char)
        if char.isspace() or category[0] == "Z" or category == "Cc":
            kept.append(" ")
            dropped, marks = False, 0
        elif category == "Cf":
            continue
        elif category in ("Mn", "Me"):
            if not dropped and marks < MARKS_PER_CHARACTER and pen.draws(char):
                kept.append(char)
                marks += 1
        else:
            dropped, marks = category == "Cs" or not pen.draws(char), 0
            if not dropped:
                kept.append(char)
    return " ".join("".join(kept).split())


def headers(names: Sequence[str], space: Space) -> tuple[list[tuple[str, ...]], list[str]]:
    """Column headers that never look alike, and the seat numbers they carry: names as they
    fit, then numbers added to those that clash, then to all (numbers differ, so headers do)."""
    tags = ["" if name else seat_tag(i) for i, name in enumerate(names)]
    for attempt in range(3):
        heads = [wrap(name, tag, space) for name, tag in zip(names, tags, strict=True)]
        looks = [tuple(space.pen.look(line) for line in head) for head in heads]
        seen = Counter(looks)
        clash = [i for i, look in enumerate(looks) if seen[look] > 1]
        if not clash:
            break
        for i in clash if attempt == 0 else range(len(names)):
            tags[i] = seat_tag(i)
    return heads, tags


def wrap(name: str, tag: str, space: Space) -> tuple[str, ...]:
    """`name` (and `tag`, kept whole at the end) on one line, else two broken at a space; a
    first word longer than a line is cut with an ellipsis ("Grandmas…"), never split across
    the lines. What two lines cannot hold is cut from the middle, marked by an ellipsis at the
    start of the second."""
    whole = _join(name, tag)
    if space.pen.width(whole) <= space.room:
        return (whole,)
    head = _words(name, space)
    if not head:  # the first word alone is too long for a line
        first = name.split(" ", 1)[0]
        head, rest = cut(first, space), name[len(first) :]
    else:
        rest = name[len(head) :]
    second = _join(rest.strip(), tag)
    if not second:
        return (head,)
    if space.pen.width(second) <= space.room:
        return (head.strip(), second)
    head = _start(name, space, WORD_SHARE)
    tail = _end(name[len(head) :], space, lambda end: ELLIPSIS + _join(end.strip(), tag))
    return (head.strip(), tail)


def _words(text: str, space: Space) -> str:
    """The longest start of `text` that ends with a whole word and fits the room; "" when
    even its first word does not."""
    size = _longest(len(text), lambda n: space.pen.width(text[:n].rstrip()) <= space.room)
    if size == len(text) or text[size] == " ":
        return text[:size]
    gap = text.rfind(" ", 0, size)
    return text[:gap] if gap > 0 else ""


def cut(text: str, space: Space) -> str:
    """`text` on one line, its end cut off with an ellipsis if it does not fit."""
    if space.pen.width(text) <= space.room:
        return text
    room = Space(space.pen, space.room - space.pen.width(ELLIPSIS))
    return _start(text, room, None).rstrip() + ELLIPSIS


def _join(name: str, tag: str) -> str:
    return f"{name} {tag}" if name and tag else name or tag


def _start(text: str, space: Space, share: float | None) -> str:
    """The longest start of `text` within the room (at least one character); cut at a space
    when that still fills `share` of the room, anywhere when `share` is None."""
    size = _longest(len(text), lambda n: space.pen.width(text[:n].rstrip()) <= space.room)
    size = max(size, 1)
    gap = text.rfind(" ", 0, size + 1)
    if share is not None and 0 < gap < size and space.pen.width(text[:gap]) >= share * space.room:
        size = gap
    return text[:size]


def _end(text: str, space: Space, dress: Callable[[str], str]) -> str:
    """`dress` of the longest end of `text` that keeps it within the room, from a space when
    that still fills most of the line."""
    size = _longest(
        len(text), lambda n: space.pen.width(dress(text[len(text) - n :])) <= space.room
    )
    start = len(text) - size
    gap = text.find(" ", start)
    if gap > start and space.pen.width(dress(text[gap:])) >= WORD_SHARE * space.room:
        start = gap
    return dress(text[start:])


def _longest(limit: int, fits: Callable[[int], bool]) -> int:
    """The largest n ≤ limit with fits(n), for a `fits` that holds up to some n and not after."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low
