"""python-telegram-bot, without persistence, keeps bounded memory: its Application marks each
update's chat and user for the next persistence run, but with no persistence nothing ever drains
those sets, which would grow by every chat and person the bot has seen."""

from __future__ import annotations

from typing import Any

from telegram.ext import Application


class ForgetfulApplication(Application[Any, Any, Any, Any, Any, Any]):
    """An Application that marks nothing for persistence when there is none (PTB 22: the marks
    are made after each update and task, and drained only by `update_persistence`, which does
    nothing without persistence). tests/test_bounded.py holds this against the installed PTB."""

    def _mark_for_persistence_update(self, *, update: object = None, job: Any = None) -> None:
        if self.persistence is not None:
            super()._mark_for_persistence_update(update=update, job=job)
