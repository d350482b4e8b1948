"""`/general verify`: the table's last game's dice checked against the seed it revealed (DICE.md),
said to the chat; while a sealed game is in play, its seal and when it can be checked."""

from __future__ import annotations

from adapters.chat import cards
from adapters.chat.weblinks import WebLinks
from adapters.i18n import Translator
from adapters.i18n.dice import dice_text
from core.events import Event, PlayerJoined
from core.fairdice import Stage
from core.identity import ChannelKey
from core.service import GameService
from core.tournament import parse_tag, table_seed
from core.tournament_snapshot import event_from_record
from core.verification import Finding, Verdict, verify

SCRIPT, PAGE = "verifier/verify_dice.py", "DICE.md"  # in the bot's repository


async def verified(
    t: Translator, service: GameService, channel: ChannelKey, links: WebLinks | None = None
) -> cards.Lines:
    game = await service.game(channel)
    if game is not None and game.commitment:
        return cards.Lines((t("verify-playing", commitment=game.commitment),))
    ended = await service.last_finished(channel)
    if ended is None:
        return cards.Lines((t("verify-none"),))
    events = await service.events(ended.id)
    seed = None
    if ended.event:  # a tournament's table: its round reveals the seed once every table is over
        seed = await revealed_seed(service, ended.event)
        if seed is None:
            return cards.Lines((t("verify-event-later"),))
    # The game's file: the live table serves it to anyone; else its operator's command makes it.
    file = links.dice(ended.id) if links is not None else f"python -m bot export {ended.id}"
    return cards.Lines(tuple(verdict_lines(t, file, verify(events, seed), events)))


async def revealed_seed(service: GameService, tag: str) -> str | None:
    """The seed of a tournament table's dice, once its round is over (None before)."""
    place = parse_tag(tag)
    record = None if place is None else await service.tournaments.tournament(place[0])
    if place is None or record is None:
        return None
    event = event_from_record(record)
    _, number, table = place
    if not 0 < number <= len(event.rounds) or not event.rounds[number - 1].done:
        return None
    return table_seed(event.rounds[number - 1], table, event.rules.duplicate)


def verdict_lines(t: Translator, file: str, verdict: Verdict, events: list[Event]) -> list[str]:
    """The verdict in words: all match with the seal and the seed (and where the game's file
    is), or the first throw that does not."""
    match verdict.finding:
        case Finding.MATCH:
            return [
                t("verify-match", throws=verdict.throws),
                t("verify-sealed", commitment=verdict.commitment),
                t("verify-seed", seed=verdict.seed),
                t("verify-how", script=SCRIPT, file=file, page=PAGE),
            ]
        case Finding.NOT_COMMITTED:
            return [t("verify-old-dice")]
        case Finding.BAD_SEED | Finding.NOT_REVEALED:
            return [t("verify-bad-seed")]
    throw = verdict.first_bad
    assert throw is not None
    names = {e.player_id: e.name for e in events if isinstance(e, PlayerJoined)}
    name = names.get(throw.player_id, "?")
    where = (
        t("verify-where-lot", name=name)
        if throw.stage is Stage.LOT
        else t("verify-where-turn", round=throw.round, name=name, throw=throw.throw)
    )
    number = verdict.throws + 1
    if verdict.finding is Finding.ORDER:
        return [t("verify-order", n=number, where=where)]
    shown, given = dice_text(throw.dice), dice_text(verdict.expected)
    return [t("verify-mismatch", n=number, where=where, shown=shown, given=given)]
