"""Failures a test injects into the fake Bot API: an error answer (a 429 carries
``retry_after``), a connection dropped before the call, or one dropped after the call was
carried out (the bot never learns it worked). They are answered in
:mod:`tests.fakes.telegram.http`."""

from __future__ import annotations

from dataclasses import dataclass

from tests.fakes.base import FakeServer, FaultQueue
from tests.fakes.telegram.params import _SPECS


@dataclass(eq=False)
class _Fault:
    method: str
    status: int
    retry_after: int | None
    description: str | None
    mode: str  # "error", "drop", "drop_after"


class Faults(FakeServer):
    """Fault injection, mixed into :class:`~tests.fakes.telegram.FakeTelegram`."""

    _faults: FaultQueue[_Fault]

    def fail_next(
        self,
        method: str,
        status: int = 429,
        *,
        retry_after: int | None = 1,
        times: int = 1,
        description: str | None = None,
        mode: str = "error",
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail.

        mode="error": answer ``status`` (429 carries parameters.retry_after);
        mode="drop": close the connection before doing anything;
        mode="drop_after": perform the call, then close the connection without answering.
        """
        if mode not in ("error", "drop", "drop_after"):
            raise ValueError(f"unknown fault mode {mode!r}")
        if method not in _SPECS:
            raise ValueError(f"the fake does not implement {method!r}; no fault can fire there")
        if status == 429 and mode == "error" and not retry_after:
            raise ValueError("a 429 needs retry_after >= 1 (PTB ignores retry_after=0)")
        if times > 0:
            fault = _Fault(
                method, status, retry_after if status == 429 else None, description, mode
            )
            self._faults.add(fault, times)
