"""The garbage collector as the bot runs it. Most of what a table makes dies young by its
reference count; the collector's walks only cost. At 100 tables on the default thresholds they
took 13% of the event loop's time, in pauses of up to 170 ms (full collections walking every
cache the games filled); collecting the young generation every 20,000 allocations instead of
700 leaves a table's short-lived values dead before a walk (BENCHMARKS.md, issue 20's fifth
pass)."""

from __future__ import annotations

import gc

YOUNG = 20_000  # allocations of tracked objects, less their releases, between young collections


def settle() -> None:
    """At ready and again once the warm-up is built: what exists then lives as long as the
    process, out of every walk; the young generation collected rarely."""
    gc.freeze()
    gc.set_threshold(YOUNG, 10, 10)
