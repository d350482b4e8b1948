"""What the bot counts, for /metrics (bot/http.py), and whether each platform is connected, for
/healthz: written once for every chat, counted where the outcome is known.

The metrics live in a registry of the bot's own (never the client library's global one), with
the process's own figures beside them. A press or a command is counted once, with its outcome:
applied, refused (with the refusal's code, core/errors.py), stale (an old board), flood_limited
(the per-person limit) or failed (a bug, logged); its latency runs from the chat layer taking it
to its answer. The core knows nothing of this module.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)

from adapters.chat.catalogue import NAMES
from adapters.chat.pacing import unshown
from core.computer import level_of
from core.errors import ErrorCode
from core.events import BigGeneralThrown, BoxScored, Event, GameEnded, TurnReminder, TurnTimedOut

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

# Outcomes of a press or a command.
APPLIED, REFUSED, STALE, FLOOD_LIMITED, FAILED = (
    "applied",
    "refused",
    "stale",
    "flood_limited",
    "failed",
)
NOT_ADMIN = "not-admin"  # a refusal of the chat's own: the settings are for administrators

PRESSES = Counter(
    "general_presses",
    "Button presses by platform and outcome (code: the refusal's, for refused ones)",
    ["platform", "outcome", "code"],
    registry=REGISTRY,
)
COMMANDS = Counter(
    "general_commands",
    "/general commands by platform, command and outcome (code: the refusal's, for refused ones)",
    ["platform", "command", "outcome", "code"],
    registry=REGISTRY,
)
ACTION_SECONDS = Histogram(
    "general_action_seconds",
    "Seconds from a press or command reaching the chat layer to its answer",
    ["platform", "kind"],
    registry=REGISTRY,
)
SAVE_SECONDS = Histogram(
    "general_storage_save_seconds",
    "Seconds one game's save (snapshot and events, one transaction) takes",
    registry=REGISTRY,
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
ACTIVE_TABLES = Gauge(
    "general_active_tables",
    "Games not finished (lobbies and games in play) by platform and phase, read at the scrape",
    ["platform", "phase"],
    registry=REGISTRY,
)
GAMES_FINISHED = Counter(
    "general_games_finished",
    "Games ended by platform and end reason",
    ["platform", "reason"],
    registry=REGISTRY,
)
PLATFORM_ERRORS = Counter(
    "general_platform_errors",
    "Platform answers that failed, by kind: 429, 5xx, forbidden (403) or network (no answer)",
    ["platform", "kind"],
    registry=REGISTRY,
)
TIMERS_FIRED = Counter(
    "general_timers_fired",
    "Deadlines the bot acted on by itself, by kind: remind, expire (a turn), abandon (a table)",
    ["platform", "kind"],
    registry=REGISTRY,
)
COMPUTER_TURNS = Counter(
    "general_computer_turns",
    "Turns computer players finished, by platform and level",
    ["platform", "level"],
    registry=REGISTRY,
)
UPDATES = Counter(
    "general_updates_received",
    "Updates (Telegram) and interactions (Discord) received",
    ["platform"],
    registry=REGISTRY,
)
LIVE_PAGES = Gauge(
    "general_live_pages",
    "Live table pages open in this process (adapters/web), by platform and whether a player's",
    ["platform", "seat"],
    registry=REGISTRY,
)
CONNECTED = Gauge(
    "general_platform_connected",
    "1 while the platform's front end is connected (see /healthz), else 0",
    ["platform"],
    registry=REGISTRY,
)
UNSHOWN = Gauge(
    "general_unshown",
    "Actions being shown, and sends and edits waiting for their chat's pace (a busy group's "
    "minute) or on their way, right now",
    registry=REGISTRY,
)
UNSHOWN.set_function(lambda: float(unshown()))
LAST_UPDATE = Gauge(
    "general_last_update_timestamp_seconds",
    "When the platform's last update or interaction arrived (Unix time)",
    ["platform"],
    registry=REGISTRY,
)


# ---------------------------------------------------------------------- presses and commands


@dataclass
class _Action:
    outcome: str = APPLIED
    code: str = ""
    done: bool = False


_current: ContextVar[_Action | None] = ContextVar("general_metrics_action", default=None)


@contextlib.contextmanager
def counted(platform: str, kind: str, command: str | None = None) -> Iterator[None]:
    """Count the press (`command` None) or the command carried out inside, once, with the
    outcome marked meanwhile (applied unless marked otherwise), and time it."""
    action = _Action()
    token = _current.set(action)
    started = time.perf_counter()
    try:
        yield
    except BaseException:
        action.outcome, action.code = FAILED, ""
        raise
    finally:
        _current.reset(token)
        action.done = True  # a task started inside (a computer's turn) marks nothing
        ACTION_SECONDS.labels(platform, kind).observe(time.perf_counter() - started)
        if command is None:
            PRESSES.labels(platform, action.outcome, action.code).inc()
        else:
            name = command if command in NAMES else "unknown"
            COMMANDS.labels(platform, name, action.outcome, action.code).inc()


def _mark(outcome: str, code: str = "") -> None:
    action = _current.get()
    if action is not None and not action.done and action.outcome == APPLIED:
        action.outcome, action.code = outcome, code  # the first refusal is the answer


def refused(code: ErrorCode | str) -> None:
    """The press or command being carried out was refused (stale: a press on an old board);
    `code` is the game's refusal, or one of the chat's own ("not-admin": the settings)."""
    if code is ErrorCode.STALE:
        _mark(STALE)
    else:
        _mark(REFUSED, code.value if isinstance(code, ErrorCode) else code)


def flood_limited() -> None:
    _mark(FLOOD_LIMITED)


def failed() -> None:
    """Something unexpected broke while carrying it out (logged where it happened)."""
    action = _current.get()
    if action is not None and not action.done:
        action.outcome, action.code = FAILED, ""


# ---------------------------------------------------------------------- what games did


def outcome(platform: str, events: Iterable[Event]) -> None:
    """An applied action's events: a game that ended, a computer's turn finished."""
    for event in events:
        if isinstance(event, GameEnded):
            GAMES_FINISHED.labels(platform, event.reason.value).inc()
        elif isinstance(event, BoxScored | BigGeneralThrown):
            level = level_of(event.player_id)
            if level is not None:
                COMPUTER_TURNS.labels(platform, level.value).inc()


def timer_fired(platform: str, events: Iterable[Event]) -> None:
    """The bot acted on a deadline by itself: a reminder, a turn played out, a table closed."""
    seen = list(events)
    if any(isinstance(event, TurnReminder) for event in seen):
        kind = "remind"
    elif any(isinstance(event, TurnTimedOut) for event in seen):
        kind = "expire"
    else:
        kind = "abandon"
    TIMERS_FIRED.labels(platform, kind).inc()


def answered(platform: str, status: int | None) -> None:
    """A platform's HTTP answer (None: none came): the failing kinds are counted."""
    if status is None:
        kind = "network"
    elif status == 429:
        kind = "429"
    elif status == 403:
        kind = "forbidden"
    elif 500 <= status <= 599:
        kind = "5xx"
    else:
        return
    PLATFORM_ERRORS.labels(platform, kind).inc()


# ---------------------------------------------------------------------- connected or not


@dataclass
class Link:
    """Whether one platform's front end is connected, and when its last update came.

    `down` holds what is not connected, by part ("" the whole; a shard's number), with why;
    connected means nothing is. A new link is down until its front end says otherwise."""

    platform: str
    mode: str = ""  # "polling", "webhook", "gateway"
    down: dict[str, str] = field(default_factory=lambda: {"": "not connected yet"})
    since: float = field(default_factory=time.time)  # when it last changed
    last_update: float | None = None
    closed: bool = False  # stopped for good: nothing connects it again

    def __post_init__(self) -> None:
        CONNECTED.labels(self.platform).set(0)

    @property
    def connected(self) -> bool:
        return not self.down

    @property
    def reason(self) -> str:
        """Why it is not connected ("" when it is)."""
        return "; ".join(
            f"shard {part}: {why}" if part else why for part, why in sorted(self.down.items())
        )

    def up(self, part: str | None = None) -> None:
        """Connected again: the part named (a shard), or (None) all of it."""
        was = self.connected
        if self.closed:
            return
        if part is None:
            self.down.clear()
        else:
            self.down.pop(part, None)
        self._changed(was)

    def lost(self, reason: str, part: str = "") -> None:
        was = self.connected
        self.down[part] = reason
        self._changed(was)

    def close(self) -> None:
        """The front end stops: not connected, whatever comes after."""
        self.lost("stopped")
        self.closed = True

    def received(self) -> None:
        """An update or interaction arrived."""
        self.last_update = time.time()
        UPDATES.labels(self.platform).inc()
        LAST_UPDATE.labels(self.platform).set(self.last_update)

    def _changed(self, was: bool) -> None:
        if was != self.connected:
            self.since = time.time()
        CONNECTED.labels(self.platform).set(1 if self.connected else 0)
