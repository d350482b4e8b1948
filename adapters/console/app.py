"""The console game loop: set up or resume a table, then read commands for whoever's turn it is."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Awaitable, Callable

from adapters.console.commands import (
    COMMAND_WORDS,
    MAX_LINE,
    Ambiguous,
    BadBox,
    BadDice,
    Command,
    Meta,
    Unknown,
    clip,
    fold,
    parse,
    yes_or_no,
)
from adapters.console.render import box_lines, help_text, render_board, revealed
from adapters.console.sheet import sheet_text
from adapters.console.terminal import Terminal
from adapters.i18n import Translator, available_locales, translator
from adapters.i18n.chances import live_chances_line
from adapters.i18n.dice import box_name
from adapters.i18n.hints import hint_lines
from adapters.i18n.narration import narrate
from adapters.i18n.ratings import rating_line
from adapters.i18n.refusals import error_message
from adapters.i18n.review import review_lines
from core.actions import Action, AddComputer, Cancel, Join, Open, Start, TakeBack
from core.computer import level_of, next_action
from core.errors import GameError
from core.events import RECORDED_ENDS, Event
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.outcome import Outcome
from core.service import GameService
from core.table import Game, Phase
from core.view import make_view
from core.winplay import hint_shares

CHANNEL = ChannelKey("console", "local")
NAME_LIMIT = 32  # characters in a player's name, as in the chat front ends
Ask = Callable[[str], Awaitable[str | None]]
Say = Callable[[str], None]


def say_stdout(text: str) -> None:
    print(text, flush=True)


def _computer_words() -> dict[str, Level]:
    """`+master` and the level's name in every language (`+мастер`), without the robot."""
    words = {fold(f"+{level.value}"): level for level in Level}
    for locale in available_locales():
        for level in Level:
            name = translator(locale)(f"computer-{level.value}").removeprefix("🤖").strip()
            words[fold(f"+{name}")] = level
    return words


COMPUTER_WORDS = _computer_words()


class ConsoleGame:
    """One console session; `stopped` (set by Ctrl-C) ends it at its next step."""

    def __init__(
        self,
        service: GameService,
        t: Translator,
        ask: Ask,
        say: Say,
        pause: float = 1.0,
        stopped: asyncio.Event | None = None,
    ) -> None:
        self.service = service
        self.t = t
        self.ask = ask
        self.say = say
        self.pause = pause
        self.stopped = stopped or asyncio.Event()

    async def run(self) -> None:
        self.say(self.t("console-welcome"))
        game = await self.service.game(CHANNEL)
        if game is not None and not await self._resume(game):
            self.say(self.t("console-saved"))
            return
        while True:
            game = await self.service.game(CHANNEL)
            if game is None:
                game = await self._set_up()
                if game is None:
                    self.say(self.t("console-bye"))
                    return
            if not await self._play(game):
                self.say(self.t("console-saved"))
                return
            if not await self._yes_no(self.t("console-new-game")):
                self.say(self.t("console-bye"))
                return

    async def _line(self, prompt: str) -> str | None:
        """A line of at most MAX_LINE characters; None when input ended or a stop was asked."""
        while True:
            line = await self.ask(prompt + " ")
            if line is None or len(line) <= MAX_LINE:
                return line
            self.say(self.t("console-too-long", length=len(line), limit=MAX_LINE))

    async def _yes_no(self, prompt: str) -> bool | None:
        while True:
            line = await self._line(prompt)
            if line is None:
                return None
            answer = yes_or_no(line)
            if answer is not None:
                return answer
            self.say(self.t("console-yes-no"))

    async def _resume(self, game: Game) -> bool:
        """Offer an unfinished game; declining cancels it. False when input ended."""
        if game.phase is Phase.PLAYING:
            names = ", ".join(seat.player.name for seat in game.seats)
            answer = await self._yes_no(self.t("console-resume", names=names, round=game.round))
            if answer is None:
                return False
            if answer:
                return True
        outcome = await self._cancel(game)
        if game.phase is Phase.PLAYING:
            self._tell(outcome.game, outcome.events)
        return True

    async def _set_up(self) -> Game | None:
        while True:
            line = await self._line(self.t("console-ask-players"))
            if line is None:
                return None
            words = [word.strip() for word in line.split(",") if word.strip()]
            command = COMMAND_WORDS.get(fold(words[0])) if len(words) == 1 else None
            if command is Command.QUIT:
                return None
            if command is not None:
                self._before_game(command)
                continue
            refusal = self._refusal(words)
            if refusal is not None:
                self.say(refusal)
                continue
            try:
                return await self._seat(words)
            except GameError as error:  # more players than the table takes
                self.say(error_message(self.t, error))
                lobby = await self.service.game(CHANNEL)
                if lobby is not None:
                    await self._cancel(lobby)

    async def _seat(self, words: list[str]) -> Game:
        names = [word for word in words if fold(word) not in COMPUTER_WORDS]
        # A person is known by their name (unique at a table): their rating and statistics
        # follow them from game to game, whichever seat they take.
        players = [PlayerRef(f"console:{fold(name)}", name) for name in names]
        host = players[0]
        await self.service.act(CHANNEL, host, Open())
        for player in players[1:]:
            await self.service.act(CHANNEL, player, Join())
        for level, name in self._computers(words):
            await self.service.act(CHANNEL, host, AddComputer(level, name))
        outcome = await self.service.act(CHANNEL, host, Start())
        self._tell(outcome.game, outcome.events)
        return outcome.game

    async def _cancel(self, game: Game) -> Outcome:
        return await self.service.act(CHANNEL, game.host or game.seats[0].player, Cancel())

    def _before_game(self, command: Command) -> None:
        """A command word typed at the names prompt: help and rules answered, others refused."""
        if command is Command.HELP:
            self.say(help_text(self.t))
            self.say(self.t("console-names-help"))
        elif command is Command.RULES:
            self.say(self.t("help-rules"))
        else:
            self.say(self.t("console-names-first"))

    def _refusal(self, words: list[str]) -> str | None:
        """Why these names cannot seat a table, or None when they can."""
        unknown = [w for w in words if w.startswith("+") and fold(w) not in COMPUTER_WORDS]
        names = [word for word in words if not word.startswith("+")]
        commands = [name for name in names if fold(name) in COMMAND_WORDS]
        long = [name for name in names if len(name) > NAME_LIMIT]
        if unknown:
            return self.t("console-bad-computer", word=clip(unknown[0]))
        if not names:
            return self.t("console-no-players")
        if commands:
            return self.t("console-command-name", name=commands[0])
        if long:
            return self.t("console-long-name", name=clip(long[0]), limit=NAME_LIMIT)
        if len({fold(name) for name in names}) != len(names):
            return self.t("console-duplicate-name")
        return None

    def _computers(self, words: list[str]) -> list[tuple[Level, str]]:
        """The computers asked for, each named in the console's language; a second of the same
        level is numbered, so that the sheet tells them apart."""
        seen: Counter[Level] = Counter()
        computers = []
        for level in (COMPUTER_WORDS[fold(w)] for w in words if fold(w) in COMPUTER_WORDS):
            seen[level] += 1
            name = self.t(f"computer-{level.value}")
            computers.append((level, name if seen[level] == 1 else f"{name} {seen[level]}"))
        return computers

    def _tell(self, game: Game, events: tuple[Event, ...]) -> None:
        view = make_view(game, None, events)  # the events: what decided a game's end
        for line in narrate(self.t, view, events):
            self.say(line)

    async def _rest(self) -> bool:
        """The pause before a computer's step; True when a stop was asked for meanwhile."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopped.wait(), self.pause)
        return self.stopped.is_set()

    async def _play(self, game: Game) -> bool:
        """Play until the game ends (True) or the player quits or input ends (False)."""
        show_board = True
        while game.phase is Phase.PLAYING:
            seat = game.seats[game.current]
            view = make_view(game, seat.player.id)
            level = level_of(seat.player)
            if show_board:
                self.say("")
                self.say(render_board(self.t, view))
            if level is not None:
                if await self._rest():
                    return False
                game, show_board = await self._act(game, seat.player, next_action(game, level))
                continue
            line = await self._line(self.t("console-prompt", name=seat.player.name))
            if line is None:
                return False
            parsed = parse(line)
            show_board = False
            match parsed:
                case Meta.QUIT:
                    return False
                case Meta.EMPTY:
                    show_board = True
                case Meta.HELP:
                    self.say(help_text(self.t))
                case Meta.RULES:
                    self.say(self.t("help-rules"))
                case Meta.SHEET:
                    self.say(sheet_text(self.t, view))
                case Meta.HINT:
                    await self._hint(seat.player, game)
                case Meta.CHANCES:
                    self.say(live_chances_line(self.t, game))
                case Meta.BOXES:
                    self.say("\n".join(box_lines(self.t, view)))
                case Unknown(command=command):
                    self.say(self.t("console-unknown", command=command))
                case BadBox(box=box):
                    self.say(self.t("console-bad-box", box=box))
                case Ambiguous(box=box, boxes=boxes):
                    listed = ", ".join(f"{box_name(self.t, b)} ({b.index + 1})" for b in boxes)
                    self.say(self.t("console-ambiguous-box", box=box, boxes=listed))
                case BadDice():
                    self.say(self.t("console-bad-dice"))
                case TakeBack():  # whoever wrote the last box, at this one keyboard
                    writer = game.seats[game.retake.seat].player if game.retake else seat.player
                    game, show_board = await self._act(game, writer, parsed)
                case _:
                    game, show_board = await self._act(game, seat.player, parsed)
        view = make_view(game)
        self.say("")
        self.say(sheet_text(self.t, view))
        if view.end_reason in RECORDED_ENDS:
            changes = await self.service.records.game_ratings(game.id, CHANNEL)
            for line in rating_line(self.t, view, changes):  # none in a game alone
                self.say(line)
        if view.round:
            reviews = await self.service.review(game.id)
            lines = review_lines(self.t, view, reviews, game.variants)
            if lines:
                self.say("")
                self.say("\n".join(lines))
        for line in revealed(self.t, view):
            self.say(line)
        return True

    async def _hint(self, player: PlayerRef, game: Game) -> None:
        try:
            options = await self.service.hint(CHANNEL, player)
        except GameError as error:
            self.say(error_message(self.t, error))
            return
        shares = hint_shares(game, options)
        self.say("\n".join(hint_lines(self.t, options, game.turn.dice, shares=shares)))

    async def _act(self, game: Game, player: PlayerRef, action: Action) -> tuple[Game, bool]:
        try:
            outcome = await self.service.act(CHANNEL, player, action, version=game.version)
        except GameError as error:
            self.say(error_message(self.t, error))
            return game, False
        self._tell(outcome.game, outcome.events)
        return outcome.game, True


async def run_console(
    service: GameService,
    t: Translator,
    ask: Ask | None = None,
    say: Say = say_stdout,
    pause: float = 1.0,
) -> None:
    """Play in this terminal, or with `ask` and `say` in its place (the tests' scripts)."""
    if ask is not None:
        await ConsoleGame(service, t, ask, say, pause).run()
        return
    async with Terminal() as terminal:
        await ConsoleGame(service, t, terminal.ask, say, pause, terminal.stopped).run()
