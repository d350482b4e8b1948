"""Discord's API errors as the fake answers them, and the nested ``errors`` of an Invalid Form
Body (50035)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


class _ApiError(Exception):
    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message} {errors or ''}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        return out


class _Errors:
    """Builds Discord's nested ``errors`` object of a 50035 Invalid Form Body."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Iterable[str | int], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def length(
        self, path: Sequence[str | int], value: Any, lo: int, hi: int, *, required: bool = False
    ) -> None:
        if value is None:
            if required:
                self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return
        if not isinstance(value, str):
            self.add(path, "BASE_TYPE_STRING", "Must be a string.")
            return
        if len(value) > hi:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {hi} or fewer in length.")
        elif len(value) < lo:
            self.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {lo} or more in length.")

    def raise_if_any(self) -> None:
        if self.tree:
            raise _ApiError(400, 50035, "Invalid Form Body", self.tree)


def _invalid_form(path: Sequence[str | int], code: str, message: str) -> _ApiError:
    """A 50035 Invalid Form Body with a single error, at ``path`` in the body."""
    errs = _Errors()
    errs.add(path, code, message)
    return _ApiError(400, 50035, "Invalid Form Body", errs.tree)
