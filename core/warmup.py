"""A rule set's strategy solved once, whichever thread asks for it first.

core.strategy and core.distribution keep what they solve in caches (an lru_cache) that do not
hold a second caller back while a first is still solving: both would solve. The bot solves the
default rules in a thread just after start-up (bot/app.py, warm_up); a board (core/view.py) or a
hint (core/service.py) that needs them meanwhile waits here for that thread instead of solving
them a second time on the event loop. Two stages, so that a hint, which needs only the value
tables, does not wait for the distributions too. Importing this module imports nothing heavy:
numpy and the strategy come with the first call.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.rules import Variants

_guard = threading.Lock()
_solving: dict[tuple[object, str], threading.Lock] = {}  # per rule set and stage: a handful


def _lock(key: object, stage: str) -> threading.Lock:
    with _guard:
        return _solving.setdefault((key, stage), threading.Lock())


def solved(variants: Variants) -> None:
    """Return once the value tables of `variants` are solved and kept (core.strategy.solve):
    solved here, unless another thread is solving them, then once that thread has."""
    from core.strategy import RuleKey, solve

    key = RuleKey.of(variants)
    with _lock(key, "solution"):
        solve(key)


def prepare(variants: Variants) -> None:
    """The same for the score distributions the chances need (core.distribution), the value
    tables first."""
    from core.distribution import distributions
    from core.strategy import RuleKey

    solved(variants)
    with _lock(RuleKey.of(variants), "distributions"):
        distributions(variants)
