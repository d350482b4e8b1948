"""The repository's copies in memory: bounded, so that a long-running bot's chats do not grow
them without end."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

T = TypeVar("T")

RECENT = 4096  # chats' settings and games' boards kept in memory, the most recently used
LOGS_KEPT = 64  # logs of games just ended, read with their last save, kept until first asked for


class Recent(Generic[T]):
    """A bounded map that forgets the least recently used entry first."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[str, T] = OrderedDict()

    def get(self, key: str) -> T | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: str, item: T) -> T:
        self._items[key] = item
        self._items.move_to_end(key)
        if len(self._items) > self._size:
            self._items.popitem(last=False)
        return item

    def drop(self, key: str) -> None:
        self._items.pop(key, None)

    def take(self, key: str) -> T | None:
        return self._items.pop(key, None)
