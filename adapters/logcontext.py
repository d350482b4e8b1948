"""Where a log record happened: the platform, chat and game of the action being handled. The
chat layer binds them as it takes an action up; a context variable carries them to every record
logged meanwhile, in that task and the tasks it starts."""

from __future__ import annotations

import logging
from contextvars import ContextVar
from types import MappingProxyType

_where: ContextVar[MappingProxyType[str, str]] = ContextVar(
    "general_log_where", default=MappingProxyType({})
)


def bind(**fields: str) -> None:
    """Add to where the current task is (platform, chat, game); an empty value is left out."""
    kept = {name: value for name, value in fields.items() if value}
    _where.set(MappingProxyType({**_where.get(), **kept}))


class Where(logging.Filter):
    """Puts the bound fields on each record as it is made (in the task that logs it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.where = dict(_where.get())
        return True
