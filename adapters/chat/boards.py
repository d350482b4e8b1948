"""Where each game's live board is, and which version of its game each board message shows."""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass

import orjson

log = logging.getLogger(__name__)
# Which version of its game each board message shows (the latest few thousand messages).
DRAWN_MEMORY = 4096
# What an ended game's board reference becomes once its final message is out: until then the
# final message is owed (a process may die between the end's save and the message).
FINAL_SHOWN = "final"


@dataclass(frozen=True)
class BoardRef:
    """A board message: the chat (or channel) it is in and its id, as the platform's front end
    names them (opaque here: it converts them at its edge)."""

    chat: str
    message: str

    def dumps(self) -> str:
        """Stored as the platforms' ids are, numbers (every stored reference is one)."""
        return orjson.dumps({"chat": int(self.chat), "message": int(self.message)}).decode()

    @classmethod
    def loads(cls, text: str | None) -> BoardRef | None:
        """None for no board or an unreadable reference (it is then posted again). Earlier
        versions wrote Discord's as {"channel", "message"}: read too."""
        if not text or text == FINAL_SHOWN:
            return None
        try:
            data = orjson.loads(text)
            chat = int(data.get("chat", data.get("channel")))
            return cls(str(chat), str(int(data["message"])))
        except (orjson.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError):
            log.warning("unreadable board reference %r", text[:200])
            return None


class Drawn:
    """Which version of its game each board message shows now (the latest DRAWN_MEMORY), so
    that a burst of presses on one board redraws it once."""

    def __init__(self, memory: int = DRAWN_MEMORY) -> None:
        self.memory = memory
        self._versions: OrderedDict[BoardRef, int] = OrderedDict()

    def shows(self, ref: BoardRef, version: int) -> bool:
        return self._versions.get(ref) == version

    def forget(self, ref: BoardRef) -> None:
        self._versions.pop(ref, None)

    def remember(self, ref: BoardRef, version: int) -> None:
        self._versions[ref] = version
        self._versions.move_to_end(ref)
        while len(self._versions) > self.memory:
            self._versions.popitem(last=False)
