## Boxes of the score sheet
box-ones = Ones
box-twos = Twos
box-threes = Threes
box-fours = Fours
box-fives = Fives
box-sixes = Sixes
box-straight = Straight
box-full_house = Full house
box-four = Four of a kind
box-general = General
sheet-total = Total
sheet-title = Score sheet

## Refusals (one per machine code of core.errors.ErrorCode)
error-no-game = There is no game at this table. Start one with /general start.
error-game-exists = A game is already open at this table.
error-not-in-lobby = The game is already under way; joining is only possible before it starts.
error-not-started = The game has not started yet.
error-game-over = That game is over.
error-already-seated = You are already at the table.
error-not-seated = You are not playing at this table.
error-table-full = The table is full: it seats { $cap ->
    [one] { $cap } player
   *[other] { $cap } players
}.
error-not-host = Only the host ({ $host }) can do that.
error-not-your-turn = It's { $player }'s turn.
error-no-throws-left = No throws left: choose a box to score.
error-all-held = Release at least one die to throw again, or write a box.
error-throw-first = Throw the dice first.
error-box-filled = That box is already filled.
error-bad-die = There is no such die.
error-stale = This board is out of date.
error-bad-action = That button is not valid.
error-busy = Too many requests at once; please try again.
error-unexpected = Something went wrong on our side; the game is unchanged. Please try again.
error-restarting = The bot is restarting; nothing was changed. Press again in a few seconds.
error-game-lost = This table's game could not be restored after a fault and was set aside. Start a new one with /general start.

## Lobby and game flow
lobby-title = 🎲 A table of General is open
lobby-host = Host: { $host }
lobby-players = Seated ({ $count }): { $names }
lobby-hint = Take a seat; the host starts the game when everyone is in.
event-joined = { $name } sat down at the table.
event-left = { $name } left the table.
event-host = { $name } is now the host.
lot-title = Drawing lots: the lowest total goes first.
lot-line = { $name }: { $dice } = { $total }
lot-rethrow = A tie for the lowest total: those players throw again.
lot-starter = { $name } starts.
game-started = The game begins! Turn order: { $order }.
game-solo = A solo game begins. Good luck, { $name }!
turn-header = { $name }'s turn · round { $round }/{ $rounds } · throw { $throw }/{ $throws }
turn-header-short = throw { $throw }/3
toast-rolled = 🎲 { $dice }
toast-scored = ✍️ { $box }: { $points }
toast-held = 🔒 Keeping { $held } · throwing { $free }
toast-held-none = 🔓 Keeping none · throwing all five
toast-held-all = 🔒 Keeping all five: choose a box
turn-first = Throw the dice to begin your turn.
turn-scored = { $name } wrote { $points } in { $box }.
turn-scratched = { $name } scratched { $box } (0).
big-general = 🎉 BIG GENERAL! { $name } threw { $dice } on the first throw and wins the game!
game-over = The game is over.
game-winner = 🏆 Winner: { $names } with { $total ->
    [one] { $total } point
   *[other] { $total } points
}.
game-winners = 🏆 Shared win: { $names } with { $total ->
    [one] { $total } point
   *[other] { $total } points
} each.
event-removed-kicked = The host removed { $name } from the table.
event-removed-timeout = { $name } missed two turns in a row and has left the table.
event-timed-out = ⏰ Time is up for { $name }: the bot played the turn for them.
event-reminder = ⏰ { $name }, half your time is gone: { $time } left for this turn.
game-idle = The table was closed: nobody played for too long.
error-cannot-kick = Name a player at the table: /general kick Name.
game-cancelled = The game was cancelled.
game-abandoned = Everyone left; the game is closed.
held-legend = [x] = held

## Buttons (chat front ends)
btn-join = ✋ Join
btn-leave = 🚪 Leave
btn-start = ▶️ Start
btn-cancel = ✖️ Cancel
btn-roll = 🎲 Roll ({ $left } left)
btn-roll-first = 🎲 Roll the dice
btn-sheet = 📋 Sheet
btn-box = { $box } · { $points }

## Chat front ends
chat-unknown = I don't know "{ $arg }".
chat-sheet-none = There is no game at this table to show.
sheet-for-players = Only the players at this table can post the score sheet here.
sheet-above = Nothing has changed since the score sheet above was posted. To get it privately, open a chat with me and press 📋 again.
chat-throws-left = { $left ->
    [0] No throws left: choose a box.
    [one] { $left } throw left: hold dice and roll, or choose a box.
   *[other] { $left } throws left: hold dice and roll, or choose a box.
}
chat-lobby-closed = The lobby is closed.
chat-game-started = The game has started.
game-winner-big-general = 🏆 Winner: { $names }, with a big general.

## What changed since an out-of-date board was pressed (core.errors.Stale)
error-stale-thrown = The dice have been thrown since — here they are: { $dice }.
error-stale-held = That die is already held.
error-stale-released = That die is already released.
error-stale-repeated = That is done already: the board had not caught up with your first press.
error-stale-started = The game has started since: the lobby is closed.
error-stale-turn-passed = That turn is over: it's { $player }'s turn now.
error-stale-new-turn = That turn is over: your turn of round { $round } has begun.

## Taking back a mis-tapped box
btn-take-back = ↩ Take back
toast-taken-back = ↩ { $box }: taken back
event-taken-back = ↩ { $name } took back { $box } ({ $points }).
error-nothing-to-take-back = There is no box to take back now: a box can be taken back only until the next player acts.
error-not-your-take-back = Only the player who wrote that box can take it back: { $player }.
