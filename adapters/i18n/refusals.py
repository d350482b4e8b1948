"""A refused move or command in words."""

from __future__ import annotations

from adapters.i18n import Translator
from core.errors import GameError


def error_message(t: Translator, error: GameError) -> str:
    """A refusal in words; its numbers stay numbers, for the catalogue's plurals."""
    params = {k: v if isinstance(v, int | float) else str(v) for k, v in error.params.items()}
    return t(f"error-{error.code.value}", **params)
