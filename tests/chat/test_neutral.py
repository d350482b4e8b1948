"""The chat layer knows no platform: what differs comes from the platform as data, and the ids
of chats and messages are opaque strings to it (the front ends convert them at their edge)."""

from __future__ import annotations

from pathlib import Path

import orjson

from adapters.chat.boards import BoardRef

CHAT = Path(__file__).parents[2] / "adapters" / "chat"


def test_no_module_of_the_chat_layer_branches_on_a_platform_or_keeps_a_language_aside() -> None:
    """No `platform == "telegram"`, and no context variable carrying a language."""
    for module in CHAT.glob("*.py"):
        source = module.read_text()
        for word in ('"telegram"', '"discord"', "ContextVar[Translator"):
            assert word not in source, (module.name, word)


def test_a_board_reference_is_stored_as_the_platforms_ids_are_and_read_back() -> None:
    """Stored references hold numbers (every one written so far does): read as strings, and
    written as numbers again, so that what is stored keeps its form."""
    stored = '{"chat":-1001234,"message":77}'
    ref = BoardRef.loads(stored)
    assert ref == BoardRef("-1001234", "77")
    assert ref is not None and orjson.loads(ref.dumps()) == orjson.loads(stored)
