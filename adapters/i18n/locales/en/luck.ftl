## Luck against skill (core.luck): what a player's dice gave and their decisions gave away.
# A change in win chance, in percentage points, with its sign.
luck-share = { $sign ->
    [minus] −
   *[plus] +
}{ NUMBER($amount, maximumFractionDigits: 0) }%
# A change in expected final points, with its sign.
luck-points = { $sign ->
    [minus] −
   *[plus] +
}{ NUMBER($amount, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($amount, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] point
   *[other] points
}
luck-line = 🎲 { $name }: dice { $dice } · decisions { $decisions }
luck-line-rest = 🎲 { $name }: dice { $dice } · decisions { $decisions } · the others' play { $rest }
luck-legend = dice { $dice } · decisions { $decisions }
## The luck board: `/general leaderboard luck` (or `decisions`), each person's reviewed games.
luck-board-title = { $order ->
    [skill] 🎯 The best decisions
   *[luck] 🍀 The luckiest dice
} { $where ->
    [global] everywhere
   *[here] here
}
luck-board-header = { $period }, a game on average against the exact best play, in expected points (at least { $games } reviewed games): dice · decisions · games
luck-board-line = { $rank }. { $name } — dice { $dice } · decisions { $decisions } · { $games }
luck-board-empty = Nobody here has { $games } reviewed games yet: one lucky game is not luck, so the board waits for a few.
# A person's statistics: the dice and the decisions, a reviewed game on average.
stats-luck = A game on average in reviews: dice { $dice } · decisions { $decisions }
