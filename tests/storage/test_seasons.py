"""What a chat's seasons are read from, on every backend: a span's recorded games in the order
they finished, the rating changes they made, the channels that played, and a season's end
claimed once per channel (a chat's move takes its claims along; one given up is free again)."""

from __future__ import annotations

from core.dice import ScriptedRoller
from core.identity import ChannelKey
from core.season_end import most_improved
from core.service import GameService
from tests.storage.conftest import Repository
from tests.storage.test_ratings import HERE, STRAIGHT, THERE, play

STRONG = [6, 6, 6, 5, 5]
FAR = 4e9  # a Unix time long after any test runs


async def test_a_spans_games_changes_and_channels(repository: Repository) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    first = await play(service, roller, HERE, [STRONG, STRAIGHT])
    await play(service, roller, THERE, [STRAIGHT, STRONG])
    await play(service, roller, HERE, [STRAIGHT, STRONG])
    here = await repository.season_games("tg", HERE, 0, FAR)
    assert len(here) == 2 and here[0].finished_at <= here[1].finished_at
    assert [seat.player_id for seat in here[0].seats] == first  # in seating order
    totals = [seat.total for seat in here[0].seats]
    assert totals[0] > totals[1]  # STRONG against STRAIGHT
    everywhere = await repository.season_games("tg", None, 0, FAR)
    assert len(everywhere) == 3
    until = await repository.season_games("tg", HERE, 0, here[1].finished_at)
    assert [g.game_id for g in until] == [here[0].game_id]  # `until` is not included
    assert await repository.season_games("tg", HERE, here[1].finished_at, FAR) == [here[1]]
    assert await repository.season_games("dc", None, 0, FAR) == []

    moves = await repository.rating_moves(HERE, 0, FAR)
    assert [m.player_id for m in moves] == first + first  # two games of two, in rated order
    assert moves[0].before is None and moves[2].before == moves[0].after
    assert most_improved(moves) is not None
    assert await repository.rating_moves(HERE, 0, here[0].finished_at) == []

    assert await repository.season_channels("tg", 0, FAR) == sorted([HERE, THERE], key=str)
    assert await repository.season_channels("tg", FAR, FAR + 1) == []


async def test_a_seasons_end_is_claimed_once_and_moves_with_its_chat(
    repository: Repository,
) -> None:
    assert await repository.claim_season_end(HERE, "2026-11") is True
    assert await repository.claim_season_end(HERE, "2026-11") is False
    assert await repository.claim_season_end(HERE, "2026-12") is True
    assert await repository.claim_season_end(THERE, "2026-11") is True
    await repository.release_season_end(THERE, "2026-11")  # its message could not be sent
    assert await repository.claim_season_end(THERE, "2026-11") is True
    moved = ChannelKey(HERE.platform, "-555")
    await repository.move_chat(HERE.platform, HERE.chat, moved.chat)
    assert await repository.claim_season_end(moved, "2026-11") is False  # told already
    assert await repository.claim_season_end(HERE, "2026-11") is True  # the old id is free
