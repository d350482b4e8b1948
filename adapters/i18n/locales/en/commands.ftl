## The /general commands, on every chat (descriptions are at most 100 characters: Discord's limit)
cmd-general = Play General, the dice game, with everyone here
cmd-start = Open a table of General here (a thread or a topic is a table of its own)
cmd-join = Take a seat at the open table
cmd-leave = Leave the table (during the game, your turns are skipped)
cmd-sheet = Show the score sheet: players across, boxes down, totals
cmd-hint = The best choices now, for the player whose turn it is
cmd-review = How everyone played the last finished game here
cmd-verify = Check the last game's dice against the seed it was sealed with
cmd-table = The link to watch this table's game live on a web page
cmd-leaderboard = The top players by rating, wins, luck or decisions, here or everywhere, all time or 30 days
cmd-stats = A player's games, wins, averages, generals, luck and decisions (yours by default)
cmd-history = The last games played here
cmd-notify = A private message when a table opens here (off: no more)
cmd-settings = Language, timer, hints, win chances, rules, sheets, dice, seasons (for those who manage the chat)
cmd-kick = Remove a player from the table (the host only)
cmd-stop = Cancel the game (the host only)
cmd-rules = How to play General
cmd-help = The commands of General

## Their arguments: what a person's name stands for in the help, as typed on Telegram
arg-name = name
## Their arguments on Discord (names: lowercase, one word, at most 32 characters)
opt-text = text
opt-text-about = Send the sheet as text even where pictures were chosen
opt-off = off
opt-off-about = Stop the messages
opt-season = season
opt-season-about = A season by its name, such as 2026-10
opt-scope = scope
opt-scope-about = Here, or everywhere
opt-period = period
opt-period-about = This season, the last one, all time, or the last 30 days
opt-order = order
opt-order-about = By rating, by wins, by luck with the dice, or by decisions
opt-player = player
opt-stats-player-about = Whose statistics (yours if you leave it out)
opt-kick-player-about = The player to remove from the table
choice-channel = here
choice-global = everywhere
choice-season = this season
choice-previous = last season
choice-all = all time
choice-recent = the last 30 days
choice-rating = by rating
choice-wins = by wins
choice-luck = by luck with the dice
choice-skill = by decisions

## Answers about the commands
kick-not-seated = { $name } is not playing at this table.
kick-self = To leave the table yourself, use /general leave.

## The words that give an option on Telegram (in any language of the catalogues)
word-text = text
word-off = off
word-scope = global
word-period = 30d
word-all = all
word-previous = last
word-order = wins
word-luck = luck
word-skill = decisions
word-season = 2026-11
