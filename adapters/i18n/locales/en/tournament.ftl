## Tournaments (core.tournament): the event's message, its rounds in the chat, its refusals.
cmd-tournament = open a tournament (those who manage the chat), or show this chat's
event-title = 🏆 Tournament
# The rules line: "Swiss · 3 rounds · tables of 4 · a round lasts 1 day · duplicate dice".
event-rules = { $format } · { $rounds } · tables of { $size } · a round lasts { $deadline } · { $dice }
event-format-swiss = Swiss
event-format-robin = Round robin
event-rounds = { $count ->
    [one] { $count } round
   *[other] { $count } rounds
}
event-rounds-robin = everyone meets everyone ({ $count ->
    [one] { $count } round
   *[other] { $count } rounds
})
event-deadline = { $hours ->
    [0] { $minutes } minutes
    [one] 1 hour
    [24] 1 day
    [72] 3 days
   *[other] { $hours } hours
}
event-dice-duplicate = duplicate dice (every table of a round throws the same)
event-dice-own = each table its own dice
event-hosted = Host: { $name }
event-entered = Entered ({ $count }): { $names }
event-entered-none = Nobody has entered yet.
event-open-how = Press Enter to play. The host sets the rules with the buttons and starts when everyone is in.
event-playing = Round { $round } of { $rounds } is being played.
event-finished = The tournament is over: the final table is below.
event-cancelled = The tournament was cancelled.
# Buttons.
btn-event-enter = Enter
btn-event-leave = Leave
btn-event-start = Start
btn-event-cancel = Cancel
btn-event-format = Format: { $value }
btn-event-rounds = Rounds: { $value }
btn-event-size = Tables of { $value }
btn-event-deadline = Round: { $value }
btn-event-dice = Dice: { $value }
event-dice-duplicate-short = duplicate
event-dice-own-short = own
event-rounds-auto = all play all
btn-event-computer = + { $name }
# What a press did (a short answer to the presser).
event-entered-you = You are in.
event-left-you = You are out.
event-withdrawn-you = You are out of the rounds still to be paired; your table plays on.
event-set = Done.
# A round begins: said in the event's chat.
event-round-start = 🏆 Round { $round } of { $rounds } begins: { $tables ->
    [one] { $tables } table
   *[other] { $tables } tables
}. Tables still playing in { $deadline } are closed as they stand.
event-round-sealed = 🔒 The round's dice are sealed: { $short } (revealed when every table is over).
event-round-table = Table { $table }: { $names }
event-round-threads = Each table plays in a thread of its own, named like “{ $where }”.
event-round-bye = Bye (counts as a win): { $names }
# Where a table plays: its thread's title.
event-table-title = Round { $round } · Table { $table }
# A table's board at an event: its final message's line.
event-table-over = This table's result goes to the tournament: the next round is paired when every table is over.
event-table-closed = ⏰ The round's time is up: this table is closed and counts as it stands.
# A round is over: said in the event's chat.
event-round-over = 🏁 Round { $round } is over.
event-round-seed = 🔓 Its dice: seed { $seed } (every table of it can be checked with /general verify in its thread).
event-standings-title = Standings after round { $round }
event-final-title = 🏆 The tournament is over: the final table
event-standings-head = place · name · score · points
event-winner = 🥇 { $name } wins the tournament with { $score } { $score ->
    [one] point
   *[other] points
}.
event-winners = 🥇 { $names } share first place with { $score } { $score ->
    [one] point
   *[other] points
} each.
# Refusals.
error-no-event = There is no tournament in this chat: /general tournament opens one.
error-event-exists = This chat has a tournament already: its message is above.
error-event-started = The tournament has begun: entries and rules are closed.
error-event-over = The tournament is over.
error-not-event-host = Only the tournament's host ({ $host }) can do that.
error-already-entered = You are in already.
error-not-entered = You are not in this tournament.
error-event-full = The tournament is full ({ $cap } { $cap ->
    [one] player
   *[other] players
}).
error-event-too-few = A tournament needs at least { $count } { $count ->
    [one] player
   *[other] players
}.
error-host-leaves = The host cannot leave the tournament: cancel it instead.
error-no-threads = This chat cannot hold the round's tables apart. On Telegram turn topics on in the group's settings (a forum); on Discord the bot needs to create threads here. Or choose tables big enough for everyone.
event-admins-only = Only those who manage the chat can open a tournament ({ $platform ->
    [discord] the Manage Server permission
   *[other] the chat's administrators
}).
verify-event-later = This table belongs to a tournament round still being played: its dice are revealed when every table of the round is over.
hint-title-places = Best play now (expected final points · expected place points in the tournament, 0 to 1):
hint-place-points = { NUMBER($points, minimumFractionDigits: 2, maximumFractionDigits: 2) }
hint-for-the-event = To play for the tournament's place points: { $choice } ({ $value }).
event-format-swiss-short = Swiss
event-format-robin-short = round robin
