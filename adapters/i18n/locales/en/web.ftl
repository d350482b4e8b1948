# The live table's page (adapters/web): a placeholder in braces is filled in by the page.
web-title = General
web-roll = Roll
web-hold-hint = Tap a die to keep it for the next throw
web-your-turn = Your turn
web-spectating = Watching
web-connecting = Connecting…
web-reconnecting = Reconnecting…
web-lobby = Waiting for players
web-round = Round { $round } of { $rounds }
web-throw = Throw { $throw } of { $throws }
web-total = Total
web-chances = Chances to win
web-review = How it was played
web-chart = Win chances, turn by turn
web-replay = Replay
web-previous = Previous
web-next = Next
web-play = Play
web-pause = Pause
web-time-left = { $time } left
web-finished = The game is over
web-box = Box
web-players = Players
web-die = Die showing { $value }
web-die-held = Die showing { $value }, kept
web-turn = Turn { $turn }
web-winner = { $name } wins with { $points ->
    [one] { $points } point
   *[other] { $points } points
}
web-not-found = This table is not here (any more). Open it again from the chat.
web-bad-link = This link does not open the table: open it again from the chat.
web-link-expired = This link has expired: press “Open the table” in the chat again.
web-stale-launch = This window is too old: close it and open the table again from the chat.
web-session-over = This page's session is over: open the table again from the chat.
web-disabled = The live table is not set up here.
web-discord-refused = Discord did not confirm who you are: close the activity and open the table again.
web-discord-down = Discord is not answering just now: try again in a minute.
web-discord-elsewhere = Discord does not show you in this activity in this channel: open the table from the channel’s activity again.
web-failed = Something went wrong on our side. Please try again.
web-spectator-press = You are watching this table: only its players can play.
web-no-dice = That game's dice are not there to check: it is still being played (its seed is revealed at its end), it was played with the old dice, or there is no such game.
web-seal = 🔐 Dice sealed: { $short }
web-seal-file = The game's dice as a file, to check every throw
