## Discord front end: the slash commands (descriptions are at most 100 characters)
discord-cmd-general = Play General, the dice game, with everyone in this channel
discord-cmd-start = Open a table of General here (a thread is a table of its own)
discord-cmd-join = Take a seat at the open table
discord-cmd-leave = Leave the table
discord-cmd-sheet = Show the score sheet: players across, boxes down, totals
discord-cmd-hint = The best choices now, for the player whose turn it is (only you see it)
discord-cmd-review = How everyone played the last finished game here
discord-cmd-leaderboard = The top players of this channel, or of every server
discord-cmd-stats = A player's games, wins, averages and generals
discord-cmd-history = The last games played in this channel
discord-cmd-settings = Language, turn timer, hints, rules, sheets (members who manage the channel)
discord-cmd-kick = Remove a player from the table (the host only)
discord-cmd-stop = Cancel the game (the host only)
discord-cmd-rules = How to play General
discord-cmd-help = The commands of General

## Discord front end: options of the commands (names: lowercase, one word, at most 32 characters)
discord-opt-text = text
discord-opt-text-about = Send the sheet as text even where this server chose pictures
discord-opt-scope = scope
discord-opt-scope-about = This channel, or every server
discord-opt-period = period
discord-opt-period-about = All time, or the last 30 days
discord-opt-player = player
discord-opt-stats-player-about = Whose statistics (yours if you leave it out)
discord-opt-kick-player-about = The player to remove from the table
discord-choice-channel = this channel
discord-choice-global = every server
discord-choice-all = all time
discord-choice-recent = the last 30 days

## Discord front end: answers
discord-done = Done.
discord-cannot-post = I may not post in this channel, so the game cannot be shown here; it is kept. Ask for the permission to send messages (and attach files) here.
discord-kick-not-seated = { $name } is not playing at this table.
discord-kick-self = To leave the table yourself, use /general leave.
