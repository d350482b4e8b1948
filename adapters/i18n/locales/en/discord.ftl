## Discord front end: the slash commands (descriptions are at most 100 characters)
discord-cmd-general = Play General, the dice game, with everyone in this channel
discord-cmd-start = Open a table of General here (a thread is a table of its own)
discord-cmd-join = Take a seat at the open table
discord-cmd-leave = Leave the table
discord-cmd-sheet = Show the score sheet: players across, boxes down, totals
discord-cmd-stop = Cancel the game (the host only)
discord-cmd-rules = How to play General
discord-cmd-help = The commands of General

## Discord front end: answers
discord-done = Done.
