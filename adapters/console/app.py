"""The console game loop: set up or resume a table, then read commands for whoever's turn it is."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from adapters.console.commands import BadBox, BadDice, Meta, Unknown, parse
from adapters.console.render import render_board
from adapters.i18n import Translator
from adapters.i18n.text import error_message, hint_lines, narrate, review_lines, sheet_table
from core.actions import Action, AddComputer, Cancel, Join, Open, Start
from core.computer import level_of, next_action
from core.errors import GameError
from core.events import Event
from core.game import Game, Phase
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.service import GameService
from core.view import make_view

CHANNEL = ChannelKey("console", "local")
Ask = Callable[[str], Awaitable[str | None]]
Say = Callable[[str], None]


async def ask_stdin(prompt: str) -> str | None:
    """One line from the terminal; None at end of input."""
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


def say_stdout(text: str) -> None:
    print(text, flush=True)


def _yes(answer: str | None) -> bool:
    return answer is not None and answer.strip().lower() in ("", "y", "yes", "д", "да")


COMPUTER_WORDS = {f"+{level.value}": level for level in Level}


class ConsoleGame:
    def __init__(
        self, service: GameService, t: Translator, ask: Ask, say: Say, pause: float = 1.0
    ) -> None:
        self.service = service
        self.t = t
        self.ask = ask
        self.say = say
        self.pause = pause

    async def run(self) -> None:
        self.say(self.t("console-welcome"))
        game = await self.service.game(CHANNEL)
        if game is not None and not await self._resume(game):
            return
        while True:
            game = await self.service.game(CHANNEL)
            if game is None:
                game = await self._set_up()
                if game is None:
                    return
            if not await self._play(game):
                self.say(self.t("console-saved"))
                return
            if not _yes(await self.ask(self.t("console-new-game") + " ")):
                self.say(self.t("console-bye"))
                return

    async def _resume(self, game: Game) -> bool:
        """Offer an unfinished game; declining cancels it. False when input ended."""
        if game.phase is Phase.PLAYING:
            names = ", ".join(seat.player.name for seat in game.seats)
            answer = await self.ask(self.t("console-resume", names=names, round=game.round) + " ")
            if answer is None:
                return False
            if _yes(answer):
                return True
        host = game.host or game.seats[0].player
        await self.service.act(CHANNEL, host, Cancel())
        return True

    async def _set_up(self) -> Game | None:
        while True:
            line = await self.ask(self.t("console-ask-players") + " ")
            if line is None:
                return None
            words = [word.strip() for word in line.split(",") if word.strip()]
            computers = [COMPUTER_WORDS[w.lower()] for w in words if w.lower() in COMPUTER_WORDS]
            names = [w for w in words if w.lower() not in COMPUTER_WORDS]
            if not names:
                self.say(self.t("console-no-players"))
            elif len({name.casefold() for name in names}) != len(names):
                self.say(self.t("console-duplicate-name"))
            else:
                break
        players = [PlayerRef(f"console:{n}", name) for n, name in enumerate(names, start=1)]
        host = players[0]
        await self.service.act(CHANNEL, host, Open())
        for player in players[1:]:
            await self.service.act(CHANNEL, player, Join())
        for level in computers:
            await self.service.act(
                CHANNEL, host, AddComputer(level, self.t(f"computer-{level.value}"))
            )
        outcome = await self.service.act(CHANNEL, host, Start())
        self._tell(outcome.game, outcome.events)
        return outcome.game

    def _tell(self, game: Game, events: tuple[Event, ...]) -> None:
        view = make_view(game)
        for line in narrate(self.t, view, events):
            self.say(line)

    async def _play(self, game: Game) -> bool:
        """Play until the game ends (True) or the player quits or input ends (False)."""
        show_board = True
        while game.phase is Phase.PLAYING:
            seat = game.seats[game.current]
            view = make_view(game, seat.player.id)
            level = level_of(seat.player)
            if show_board:
                self.say("")
                self.say(render_board(self.t, view, with_options=level is None))
            if level is not None:
                await asyncio.sleep(self.pause)
                game, show_board = await self._act(game, seat.player, next_action(game, level))
                continue
            line = await self.ask(self.t("console-prompt", name=seat.player.name) + " ")
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
                    self.say(self.t("console-help"))
                case Meta.RULES:
                    self.say(self.t("help-rules"))
                case Meta.SHEET:
                    self.say(sheet_table(self.t, view))
                case Meta.HINT:
                    await self._hint(seat.player, game)
                case Unknown(command=command):
                    self.say(self.t("console-unknown", command=command))
                case BadBox(box=box):
                    self.say(self.t("console-bad-box", box=box))
                case BadDice():
                    self.say(self.t("console-bad-dice"))
                case _:
                    game, show_board = await self._act(game, seat.player, parsed)
        view = make_view(game)
        self.say("")
        self.say(sheet_table(self.t, view))
        if view.round:
            reviews = await self.service.review(game.id)
            for line in review_lines(self.t, view, reviews, game.variants):
                self.say(line)
        return True

    async def _hint(self, player: PlayerRef, game: Game) -> None:
        try:
            options = await self.service.hint(CHANNEL, player)
        except GameError as error:
            self.say(error_message(self.t, error))
            return
        self.say("\n".join(hint_lines(self.t, options, game.turn.dice)))

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
    ask: Ask = ask_stdin,
    say: Say = say_stdout,
    pause: float = 1.0,
) -> None:
    await ConsoleGame(service, t, ask, say, pause).run()
