"""The crash soak in short: the real bot SIGKILLed mid-play on both platforms loses nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.soak import soak


@pytest.mark.slow
async def test_short_crash_soak(tmp_path: Path) -> None:
    report = await soak(games=4, actions=50, kills=3, seed=7, directory=tmp_path)
    assert report.problems == []
    assert report.kills >= 3 and report.actions >= 50
    assert report.seen > report.actions // 2  # most presses were seen through
