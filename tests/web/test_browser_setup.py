"""The rule for a machine without Chromium: the browser tests skip, saying how to install it,
except in CI, where they fail (a skip there would pass without having run them)."""

from __future__ import annotations

import shutil

import pytest

from tests.web import browser


def test_without_chromium_the_browser_tests_skip_saying_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        browser.chromium()


def test_in_ci_without_chromium_they_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="in CI"):
        browser.chromium()


def test_with_chromium_its_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: f"/opt/bin/{name}")
    monkeypatch.setenv("CI", "true")
    assert browser.chromium() == "/opt/bin/chromium"
