"""A season's end, told once to each table that played in it (whichever process gets there
first): the podium, who rose the most, the luckiest dice and the best decisions, in words and
as a picture, in the table's language."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from adapters.chat import cards
from adapters.chat.envelope import envelope
from adapters.chat.voices import Voices
from adapters.i18n import Translator
from adapters.i18n.luck import figure
from adapters.i18n.ratings import rated_name, shown_rating
from core.chat_settings import ChatSettings
from core.identity import ChannelKey
from core.luck import Unit
from core.records import LuckOrder
from core.season_end import most_improved
from core.seasons import Season, SeasonGame, previous, season_at, season_ratings

if TYPE_CHECKING:
    from adapters.chat.tables import Tables

# Long enough to find every table whose season (a quarter at most) has just ended.
LOOKBACK = 200 * 86400
# Every zone a chat may choose is a whole number of hours from UTC, so a season ends on the
# hour: the tables are looked at a few seconds after each hour (not at a start: a season that
# ended while the bot was down is told at the next hour).
HOUR, SETTLE = 3600.0, 5.0
PODIUM = 3


class Herald:
    """Looks at each hour's turn for tables whose season is over and tells each of them once."""

    def __init__(self, tables: Tables, log: logging.Logger) -> None:
        self.tables = tables
        self.log = log
        self._looked: set[tuple[str, str]] = set()  # (table, season) settled in this process
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(HOUR - time.time() % HOUR + SETTLE)
            try:
                await self.tick(time.time())
            except Exception:
                self.log.exception("looking for seasons just over failed")

    async def tick(self, now: float) -> int:
        """Tell each table whose last season is over and untold; how many were told."""
        tables = self.tables
        seasons, key = tables.service.seasons, tables.platform.key
        told = 0
        for channel in await seasons.season_channels(key, now - LOOKBACK, now):
            settings = await tables.languages.settings(channel)
            current = season_at(now, settings.season, settings.time_zone)
            if current is None:
                continue
            ended = previous(current)
            if (str(channel), ended.label) in self._looked:
                continue
            self._looked.add((str(channel), ended.label))
            games = await seasons.season_games(key, channel, ended.start, ended.end)
            if games and await seasons.claim_season_end(channel, ended.label):
                await self._tell(channel, ended, games)
                told += 1
        return told

    async def _tell(self, channel: ChannelKey, season: Season, games: list[SeasonGame]) -> None:
        tables = self.tables

        async def say(voices: Voices, settings: ChatSettings) -> None:
            card = await self.card(voices.table, channel, season, games)
            try:
                await tables.platform.send(channel, card, voices.table)
            except tables.platform.forbidden:
                raise  # the bot may not write there: it is not asked again
            except tables.platform.errors:  # the platform failed: the next look tries again
                await tables.service.seasons.release_season_end(channel, season.label)
                self._looked.discard((str(channel), season.label))
                raise

        await envelope(tables, channel, say, doing="a season's end", wake=False)

    async def card(
        self, t: Translator, channel: ChannelKey, season: Season, games: list[SeasonGame]
    ) -> cards.Review:
        """The season's end in words and as a picture."""
        service, key = self.tables.service, channel.platform
        names = {seat.player_id: seat.name for game in games for seat in game.seats}
        lines = [t("season-over", value=season.label)]
        podium: list[tuple[str, int]] = []
        for rank, rated in enumerate(season_ratings(games)[:PODIUM], start=1):
            name = rated_name(t, rated.player_id, rated.name)
            value = shown_rating(t, rated.rating.shown, rated.rating.provisional)
            lines.append(t("season-podium", rank=rank, name=name, value=value))
            podium.append((name, rated.rating.shown))
        moves = await service.seasons.rating_moves(channel, season.start, season.end)
        rose = most_improved(moves)
        improved = None if rose is None else (names.get(rose[0], "?"), rose[1])
        if improved is not None:
            lines.append(t("season-improved", name=improved[0], points=improved[1]))
        best: dict[LuckOrder, tuple[str, str]] = {}
        for order in LuckOrder:
            found = await service.records.luck_board(
                key, channel, season.start, order, 1, until=season.end
            )
            if found:
                amount = found[0].dice if order is LuckOrder.DICE else found[0].decisions
                best[order] = (found[0].name, figure(t, amount, Unit.POINTS))
        luckiest, wisest = best.get(LuckOrder.DICE), best.get(LuckOrder.DECISIONS)
        if luckiest is not None:
            lines.append(t("season-luckiest", name=luckiest[0], dice=luckiest[1]))
        if wisest is not None:
            lines.append(t("season-wisest", name=wisest[0], decisions=wisest[1]))
        lines.append(t("season-next"))
        from adapters.pictures.podium import SeasonEnd, podium_png  # Pillow: only when drawn

        end = SeasonEnd(season.label, tuple(podium), improved, luckiest, wisest)
        picture = await asyncio.to_thread(podium_png, t, end)
        return cards.Review(tuple(lines), picture)
