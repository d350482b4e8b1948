## Leaderboards, statistics, history
board-title = 🏆 Top players here
board-title-global = 🏆 Top players everywhere
board-period-all = All time
board-period-recent = { $days ->
    [one] The last day
   *[other] The last { $days } days
}
board-header = { $period }: wins · games · win rate · average · best
board-line = { $rank }. { $name } — { $wins } · { $games } · { $rate }% · { NUMBER($average, minimumFractionDigits: 1, maximumFractionDigits: 1) } · { $best }
board-empty = No finished games yet.
stats-title = 📊 { $name }
stats-games = { $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins ->
    [one] { $wins } win
   *[other] { $wins } wins
} ({ $rate }%)
stats-totals = Average total { NUMBER($average, minimumFractionDigits: 1, maximumFractionDigits: 1) }, best { $best }
stats-generals = Generals: { $small } small, { $big } big
stats-accuracy = Average accuracy in reviews: { NUMBER($accuracy, minimumFractionDigits: 1, maximumFractionDigits: 1) }%
stats-boxes = Average per box:
stats-box = { $box }: { NUMBER($average, minimumFractionDigits: 1, maximumFractionDigits: 1) }
stats-none = No finished games for { $name } yet.
stats-unknown = Nobody called "{ $name }" has played here.
history-title = 📜 Recent games here (times in UTC)
history-line = { DATETIME($date, dateStyle: "medium", timeStyle: "short") }: { $players }
history-empty = No finished games here yet.
