"""The page's own words, in the table's language, from the same catalogues as the chats'."""

from __future__ import annotations

from adapters.i18n import Translator

# Each word the page shows, with the placeholders it fills in itself ({round}, {name}…).
PAGE_WORDS: dict[str, tuple[str, ...]] = {
    "title": (),
    "roll": (),
    "hold-hint": (),
    "your-turn": (),
    "spectating": (),
    "connecting": (),
    "reconnecting": (),
    "lobby": (),
    "round": ("round", "rounds"),
    "throw": ("throw", "throws"),
    "total": (),
    "chances": (),
    "review": (),
    "chart": (),
    "replay": (),
    "previous": (),
    "next": (),
    "play": (),
    "pause": (),
    "time-left": ("time",),
    "finished": (),
    "box": (),
    "players": (),
    "die": ("value",),
    "die-held": ("value",),
    "turn": ("turn",),
    "failed": (),
    "session-over": (),
}


def page_texts(t: Translator) -> dict[str, str]:
    """Every word of the page, a placeholder left as `{name}` for the page to fill in."""
    return {
        key: t(f"web-{key}", **{name: f"{{{name}}}" for name in names})
        for key, names in PAGE_WORDS.items()
    }
