## Boxes of the score sheet
box-ones = Ones
box-twos = Twos
box-threes = Threes
box-fours = Fours
box-fives = Fives
box-sixes = Sixes
box-straight = Straight
box-full_house = Full house
box-four = Four
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
error-table-full = The table is full ({ $cap } players).
error-not-host = Only the host ({ $host }) can do that.
error-not-your-turn = It's { $player }'s turn.
error-no-throws-left = No throws left: choose a box to score.
error-throw-first = Throw the dice first.
error-box-filled = That box is already filled.
error-bad-die = There is no such die.
error-stale = This board is out of date.
error-bad-action = That button is not valid.
error-busy = Too many requests at once; please try again.
error-unexpected = Something went wrong on our side; the game is unchanged. Please try again.

## Lobby and game flow
lobby-title = 🎲 A table of General is open
lobby-host = Host: { $host }
lobby-players = Seated ({ $count }): { $names }
lobby-hint = Join, then the host starts the game.
event-joined = { $name } sat down at the table.
event-left = { $name } left the table.
event-host = { $name } is now the host.
lot-title = The lot: the lowest total starts.
lot-line = { $name }: { $dice } = { $total }
lot-rethrow = Tied for lowest: they throw again.
lot-starter = { $name } starts.
game-started = The game begins! Order: { $order }.
game-solo = A solo game begins. Good luck, { $name }!
turn-header = { $name }'s turn · round { $round }/{ $rounds } · throw { $throw }/{ $throws }
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
event-removed-timeout = { $name } missed two turns in a row and leaves the table.
event-timed-out = ⏰ Time is up for { $name }: the bot played the turn for them.
event-reminder = ⏰ { $name }, half your time is gone: { $left } left for this turn.
game-idle = The table was closed: nobody played for too long.
error-cannot-kick = Name a player at the table: /general kick Name.
game-cancelled = The game was cancelled.
game-abandoned = Everyone left; the game is closed.
held-legend = [x] = held

## Help
help-title = General (Генерал) — a dice game for any number of players.
help-rules =
    Ten rounds; in each, every player takes a turn of up to three throws of five dice.
    Between throws you may hold any dice. After your last throw you must write a score
    into one empty box: Ones…Sixes score the sum of that face; Straight 25/20, Full house 35/30,
    Four 45/40 (first throw / later); General (five of a kind on a later throw) 60.
    Five of a kind on the first throw is a BIG GENERAL: the game ends and the thrower wins.
    A box that the dice don't make scores 0. Highest total wins; equal totals share the win.

## Console
console-welcome = Welcome to General! Type "help" at any time.
console-resume = An unfinished game was found ({ $names }, round { $round }). Resume it? [Y/n]
console-ask-players = Player names, separated by commas; add computers with +master, +club or +novice:
console-no-players = Please enter at least one name.
console-duplicate-name = Each player needs a different name.
console-prompt = { $name }>
console-help =
    Commands:
      r, roll             throw the dice (held dice stay)
      h 1 3 5, hold 1 3 5 hold exactly dice 1, 3 and 5 (h alone releases all)
      s BOX, score BOX    write into a box: its number 1–10 or name (e.g. s 2, s full)
      sheet               show the score sheet
      hint                the best choices now, with expected final points
      rules               a summary of the rules
      q, quit             stop now; the game is saved and can be resumed
console-unknown = Unknown command "{ $command }". Type "help" for the list.
console-bad-box = There is no box "{ $box }". Use a number 1–10 or a name such as twos or straight.
console-bad-dice = Dice are numbered 1 to 5, e.g. "hold 1 3".
console-options = Score options (box: points now):
console-saved = The game is saved. Run the bot again to resume it.
console-bye = Goodbye!
console-new-game = Start a new game? [Y/n]

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
chat-throws-left = { $left ->
    [0] No throws left: choose a box.
    [one] 1 throw left: hold dice and roll, or choose a box.
   *[other] { $left } throws left: hold dice and roll, or choose a box.
}
chat-lobby-closed = The lobby is closed.
chat-game-started = The game has started.
turn-header-short = throw { $throw }/3

## Hints, computers and the review
error-slow-down = Slow down a little, please: too many presses at once.
error-hints-off = Hints are off at this table.
hint-title = Best play now (expected final points):
hint-keep = keep { $dice } and roll
hint-keep-none = roll all five dice
hint-keep-all = roll nothing more (keep all five)
hint-box = write { $box } ({ $points })
hint-line = { $rank }. { $choice } → { $expected }
computer-master = 🤖 Master
computer-club = 🤖 Club
computer-novice = 🤖 Novice
btn-add-master = 🤖 + Master
btn-add-club = 🤖 + Club
btn-add-novice = 🤖 + Novice
btn-hint = 💡 Hint
review-title = How everyone played (against the exact best play):
review-line = { $name }: { $accuracy }% accuracy, { $lost } expected points given away.
review-flawless = { $name }: flawless — every decision was the best one.
review-costliest = Costliest: round { $round }, throw { $throw }, dice { $dice }: { $chosen }; better: { $best } (−{ $loss }).
review-none = There is nothing to review yet.

## Leaderboards, statistics, history
board-title = 🏆 Leaderboard of this chat
board-title-global = 🏆 Leaderboard of every chat
board-period-all = all time
board-period-recent = the last { $days } days
board-header = { $period }: wins · games · win rate · average · best
board-line = { $rank }. { $name } — { $wins } · { $games } · { $rate }% · { $average } · { $best }
board-empty = No finished games yet.
stats-title = 📊 { $name }
stats-games = Games { $games }, wins { $wins } ({ $rate }%)
stats-totals = Average { $average }, best { $best }
stats-generals = Small generals { $small }, big generals { $big }
stats-accuracy = Average accuracy in reviews: { $accuracy }%
stats-boxes = Average per box:
stats-none = No finished games for { $name } yet.
stats-unknown = Nobody called "{ $name }" has played here.
history-title = 📜 Recent games here
history-line = { $date }: { $players }
history-empty = No finished games here yet.

## Chat settings
settings-title = ⚙️ Settings of this chat (new games use them; a running game keeps its rules)
settings-language = Language: { $value }
settings-language-auto = each person's own
settings-language-en = English
settings-language-ru = Русский
settings-turn_timer = Turn timer: { $value }
settings-off = off
settings-minutes = { $n } min
settings-hours = { $n } h
settings-hints = Hints: { $value }
settings-on = on
settings-yes = yes
settings-no = no
settings-big_general = Big general: { $value }
settings-big-ends = ends the game
settings-big-sixty = scores 60
settings-five_of_a_kind_full_house = Five of a kind as full house: { $value }
settings-straight_joker = 1 as joker in a straight: { $value }
settings-table_cap = Table cap: { $value }
settings-sheet = Score sheets: { $value }
settings-sheet-text = text
settings-sheet-picture = picture
settings-computer_pause = Computer pause: { $value }
settings-default = the bot's default
settings-seconds = { $n } s
settings-done = ✅ Done
settings-admins-only = Only the chat's administrators can change the settings.
settings-closed = Settings saved.
