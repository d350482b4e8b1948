"""The live table's page in a real browser: Debian's Chromium driven by Playwright, phone-sized
contexts, a page's hands (tap a die, Roll, a box) and eyes (its sheet, totals and version as
drawn), the stored game to hold them against, and the screenshots the tests leave behind.

Without `chromium` on PATH the browser tests skip, saying how to install it; in CI (the `CI`
variable set) they fail instead, so that CI never passes without having run them."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.async_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    FloatRect,
    Page,
    async_playwright,
)

from core.boxes import ALL_BOXES

WIDTH, HEIGHT, SCALE = 360, 640, 2
WAIT_MS = 10_000  # how long a page may take to show what the bot did
REVIEW_MS = 30_000  # and the review of a whole game, worked out after its end
INSTALL = "install Debian's Chromium (`apt-get install chromium`) to run the browser tests"

# Telegram's own colours, as a Mini App is sent them in its launch parameters.
LIGHT = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#999999",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f1f1f1",
}
DARK = {
    "bg_color": "#212d3b",
    "text_color": "#ffffff",
    "hint_color": "#7d8b99",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#151e27",
}


def chromium() -> str:
    """The browser's path; a skip without one, but a failure in CI (a skip there hides that the
    browser tests never ran)."""
    found = shutil.which("chromium")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"`chromium` is not on PATH in CI: {INSTALL}")
        pytest.skip(f"`chromium` is not on PATH: {INSTALL}")
    return found


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """One Chromium per test: the bot and its fakes live on the test's own event loop, and
    Playwright's connection belongs to the loop it was started on."""
    path = chromium()
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=path)
        try:
            yield launched
        finally:
            await launched.close()


async def phone(browser: Browser, language: str, *, motion: bool = False) -> BrowserContext:
    """A phone-sized context in `language`; reduced motion unless `motion` (the flows need not
    wait for the dice to tumble)."""
    context = await browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT},
        device_scale_factor=SCALE,
        reduced_motion="no-preference" if motion else "reduce",
        locale=language,
    )
    context.set_default_timeout(WAIT_MS)
    return context


def mini_app_url(base: str, init_data: str, theme: dict[str, str]) -> str:
    """The page as Telegram opens a Mini App: its launch parameters in the fragment."""
    return (
        f"{base}#tgWebAppData={quote(init_data)}"
        f"&tgWebAppThemeParams={quote(json.dumps(theme))}"
        "&tgWebAppVersion=8.0&tgWebAppPlatform=web"
    )


@dataclass(frozen=True)
class Sheet:
    """A score sheet and its totals (`cells[box][seat]`, None for an open box) at a version."""

    version: int
    cells: tuple[tuple[int | None, ...], ...]
    totals: tuple[int, ...]


# What the page draws: a cell offering an option (the mover's open box) counts as open.
DRAWN = """() => ({
  version: Number(document.body.dataset.version),
  cells: [...document.querySelectorAll('#sheet tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((td) =>
      td.hasAttribute('data-option') || td.textContent === '' ? null : Number(td.textContent))),
  totals: [...document.querySelectorAll('#sheet tfoot td')].map((td) => Number(td.textContent)),
})"""

# Where the dice land: every time the throw's tumble ends (`data-animating` cleared), the faces
# then shown, recorded as it happens (a tumble is over in well under a second).
LANDINGS = """() => {
  window.landings = [];
  const dice = document.querySelector('[data-testid=dice]');
  new MutationObserver((changes) => {
    if (changes.some((c) => c.oldValue !== null) && !dice.hasAttribute('data-animating'))
      window.landings.push([...dice.children].map((d) => Number(d.dataset.value)));
  }).observe(dice, {
    attributes: true, attributeFilter: ['data-animating'], attributeOldValue: true,
  });
}"""

# Words the page cut short (an ellipsis in place of their end), a person's name aside, and
# whether the page is wider than the phone.
CUT = """() => {
  const cut = [...document.querySelectorAll('.hint, .status, .meta, .btn, h1, h2, .badge')]
    .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
    .map((e) => e.textContent);
  const wide = document.documentElement.scrollWidth > innerWidth;
  return wide ? cut.concat(['(the page scrolls sideways)']) : cut;
}"""

# What of a turn lies outside the phone's screen (it must all be seen without scrolling).
OUTSIDE = """() => ['turn', 'dice', 'roll', 'sheet', 'total-0'].filter((id) => {
  const box = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
  return box.top < 0 || box.bottom > innerHeight || box.height === 0;
})"""

# Whatever a person could press on the page: visible buttons that are enabled.
PRESSABLE = """() => [...document.querySelectorAll('button')].filter(
  (b) => !b.disabled && b.offsetParent !== null).map((b) => b.dataset.testid || b.className)"""


def stored(database: Path, game: str) -> Sheet:
    """The game as the bot stored it (SQLite), as a page's sheet would show it."""
    with sqlite3.connect(database) as db:
        (version, snapshot) = db.execute(
            "SELECT version, snapshot FROM games WHERE id = ?", (game,)
        ).fetchone()
    seats = json.loads(snapshot)["seats"]
    cells = tuple(tuple(seat["scores"][i] for seat in seats) for i in range(len(ALL_BOXES)))
    totals = tuple(sum(p for p in seat["scores"] if p is not None) for seat in seats)
    return Sheet(int(version), cells, totals)


class Table:
    """One open page of the table: what it draws, and a person's taps that wait until the bot
    has answered them with a new state."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", self._console)

    def _console(self, message: ConsoleMessage) -> None:
        """An error the page logs (a refused script or style, a failed load) fails the test."""
        if message.type == "error":
            self.errors.append(message.text)

    @classmethod
    async def open(
        cls, browser: Browser, language: str, url: str, *, motion: bool = False
    ) -> Table:
        """`url` opened in a phone of its own (see `phone`), once it shows the table."""
        context = await phone(browser, language, motion=motion)
        table = cls(await context.new_page())
        await table.page.goto(url)
        await table.page.wait_for_function("() => document.body.dataset.version", timeout=WAIT_MS)
        return table

    async def version(self) -> int:
        return int(await self.page.evaluate("() => Number(document.body.dataset.version)"))

    async def at(self, version: int) -> None:
        """Wait until the page shows the state of `version`."""
        await self.page.wait_for_function(
            "v => document.body.dataset.version === String(v)", arg=version, timeout=WAIT_MS
        )

    async def tap(self, selector: str) -> None:
        """Tap what `selector` finds and wait for the bot's new state (a version other than the
        one tapped on: a rematch's lobby starts its own count)."""
        before = await self.version()
        await self.page.locator(selector).click()
        await self.page.wait_for_function(
            "v => document.body.dataset.version !== String(v)", arg=before, timeout=WAIT_MS
        )

    async def roll(self) -> None:
        await self.tap("[data-testid=roll]")

    async def hold(self, die: int) -> None:
        await self.tap(f"[data-testid=die-{die}]")
        held = self.page.locator(f"[data-testid=die-{die}]")
        assert await held.get_attribute("data-held") == "1"

    async def score(self, box: str, seat: int) -> None:
        await self.tap(f"[data-testid=cell-{box}-{seat}] button.opt")

    async def action(self, code: str) -> None:
        await self.tap(f"[data-testid=action-{code}]")

    async def dice(self) -> list[int]:
        values = await self.page.locator("[data-testid^=die-]").evaluate_all(
            "dice => dice.map((d) => Number(d.dataset.value))"
        )
        return [int(v) for v in values]

    async def watch_landings(self) -> None:
        """From now on, record where the dice land after each tumble."""
        await self.page.evaluate(LANDINGS)

    async def landing(self, number: int) -> list[int]:
        """The faces the `number`th tumble since `watch_landings` landed on, once it has."""
        await self.page.wait_for_function("n => window.landings.length >= n", arg=number)
        return [int(v) for v in await self.page.evaluate(f"() => window.landings[{number - 1}]")]

    async def option(self, box: str, seat: int) -> int:
        """What the page offers for `box` now."""
        cell = self.page.locator(f"[data-testid=cell-{box}-{seat}]")
        return int(await cell.get_attribute("data-option") or "-1")

    async def sheet(self) -> Sheet:
        drawn: dict[str, Any] = await self.page.evaluate(DRAWN)
        return Sheet(
            drawn["version"], tuple(tuple(row) for row in drawn["cells"]), tuple(drawn["totals"])
        )

    async def pressable(self) -> list[str]:
        return list(await self.page.evaluate(PRESSABLE))

    async def outside(self) -> list[str]:
        """The parts of a turn (whose turn, the dice, Roll, the sheet to its totals) that the
        phone's screen does not show as the page is."""
        return list(await self.page.evaluate(OUTSIDE))

    async def text(self, testid: str) -> str:
        return await self.page.locator(f"[data-testid={testid}]").inner_text()


async def agree(database: Path, game: str, *tables: Table) -> Sheet:
    """Every page shows the stored game: its version, sheet and totals."""
    expected = stored(database, game)
    for table in tables:
        await table.at(expected.version)
        assert await table.sheet() == expected
        assert table.errors == []
    return expected


class Screenshots:
    """PNGs of pages as people see them: under the test's tmp_path always, and in the folder
    GENERAL_SCREENSHOTS names when it is set (to refresh docs/screenshots/)."""

    def __init__(self, tmp_path: Path) -> None:
        self.folders = [tmp_path / "screenshots"]
        if os.environ.get("GENERAL_SCREENSHOTS"):
            self.folders.append(Path(os.environ["GENERAL_SCREENSHOTS"]))
        for folder in self.folders:
            folder.mkdir(parents=True, exist_ok=True)

    async def take(
        self, table: Table, name: str, *, whole: bool = False, upto: str | None = None
    ) -> bytes:
        """The page's viewport (the `whole` page; or from its top to the bottom of what `upto`
        finds), written as `name`.png to every folder."""
        # A toast fades on its own a moment later: left out of a still picture, where it would
        # cover what lies under it (hidden as the page hides it: its CSP refuses injected styles).
        await table.page.evaluate("() => { document.getElementById('toast').hidden = true; }")
        clip = None
        if upto is not None:
            box = await table.page.locator(upto).bounding_box()
            assert box is not None, upto
            scrolled = await table.page.evaluate("() => scrollY")
            bottom = box["y"] + scrolled + box["height"] + 12
            clip = FloatRect(x=0, y=0, width=WIDTH, height=bottom)
        picture = await table.page.screenshot(
            full_page=whole or upto is not None, clip=clip, animations="disabled"
        )
        cut = await table.page.evaluate(CUT)
        assert cut == [], (name, cut)
        for folder in self.folders:
            (folder / f"{name}.png").write_bytes(picture)
        return picture
