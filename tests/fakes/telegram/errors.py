"""What the fake Bot API answers when a request breaks a rule: the error types, and the real
server's error texts."""

from __future__ import annotations

from typing import Any

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
EMPTY_TEXT = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"
NOT_A_FORUM = "Bad Request: the chat is not a forum"
NO_TOPIC_RIGHTS = "Bad Request: not enough rights to create a topic"
TOPIC_NAME_EMPTY = "Bad Request: title must be non-empty"
THREAD_NOT_FOUND = "Bad Request: message thread not found"
CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)


class ApiError(Exception):
    """An API error answered to the bot (not a fake failure): status + Telegram description."""

    def __init__(
        self, description: str, status: int = 400, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.description = description
        self.status = status
        self.parameters = parameters


class _Unhandled(Exception):
    """The fake does not understand the request: recorded in ``unhandled``."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
