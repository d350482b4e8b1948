"""Score sheets in a chat: a picture drawn once per game version and language, and a sheet
posted publicly at most once per turn per chat (a sheet changes only when a turn ends), so that
asking again and again (anyone can ask) never floods the chat or the bot."""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from adapters.i18n import Translator
from core.identity import ChannelKey
from core.view import GameView

PICTURES = 64  # pictures remembered (a 50-seat sheet is about 260 KB)
CHATS = 4096  # chats whose last public sheet is remembered


def _sheet_png(t: Translator, view: GameView) -> bytes:
    from adapters.pictures import sheet_png  # PIL: imported by the first picture, in its thread

    return sheet_png(t, view)


class Sheets:
    """What was drawn and what was posted, both bounded (least recently used go first)."""

    def __init__(self) -> None:
        self._pictures: OrderedDict[tuple[str, int, str], bytes] = OrderedDict()
        self._posted: OrderedDict[str, tuple[str, int, str, bool]] = OrderedDict()

    async def picture(self, t: Translator, view: GameView) -> bytes:
        """The sheet as a PNG, drawn (off the event loop) only the first time it is needed."""
        key = (view.game_id, view.version, t.locale)
        found = self._pictures.get(key)
        if found is None:
            found = await asyncio.to_thread(_sheet_png, t, view)
            self._pictures[key] = found
            if len(self._pictures) > PICTURES:
                self._pictures.popitem(last=False)
        else:
            self._pictures.move_to_end(key)
        return found

    def first_post(self, channel: ChannelKey, view: GameView, *, picture: bool) -> bool:
        """Whether this turn's sheet (as a picture or as text) has not been posted in the chat
        yet; from now on it has."""
        turn = view.current.id if view.current is not None else view.phase.value
        key, shown = str(channel), (view.game_id, view.round, turn, picture)
        if self._posted.get(key) == shown:
            self._posted.move_to_end(key)
            return False
        self._posted[key] = shown
        self._posted.move_to_end(key)
        if len(self._posted) > CHATS:
            self._posted.popitem(last=False)
        return True
