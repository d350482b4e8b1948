## Skill ratings: a newcomer shows 1000, "?" marks a provisional rating (fewer than 5 games)
rating-value = { $value }
rating-provisional-value = { $value }?
rating-line = 📈 Ratings here: { $players }
rating-entry = { $name } { $value } ({ $change })
rating-board-empty = No rated games yet: ratings come from finished games against someone (a computer counts); the leaderboard by wins counts every game.
rating-board-header = { $period }, by rating: rating · games · best
rating-board-line = { $rank }. { $name } — { $value } · { $games } · { NUMBER($best, useGrouping: 0) }
rating-board-provisional = Provisional (fewer than { $games ->
    [one] { $games } game
   *[other] { $games } games
}):
rating-board-newcomer = { $name } — { $value } · { $games }
stats-rating = Rating (every chat): { $value }, best { NUMBER($best, useGrouping: 0) }
stats-skill = Skill { NUMBER($mu, minimumFractionDigits: 1, maximumFractionDigits: 1) } ± { NUMBER($sigma, minimumFractionDigits: 1, maximumFractionDigits: 1) }: the rating is the cautious end of it, and rises as the bot grows sure.
stats-rating-provisional = Provisional: { $games } of the first { $n ->
    [one] game
   *[other] { $n } games
} played.
stats-rating-none = No rating yet: it comes with the first finished game against someone.
stats-trend = The last { $games ->
    [one] game
   *[other] { $games } games
}: { $value } { $change }

## What decided a game, on its final message
verdict-big-general = ⚡ The game ended early, in round { $round } of { $rounds }: { $name } threw a big general and wins at once.
verdict-last-turn = 🎯 Decided on the last turn: { $name } scored { $points } in { $box } and overtook { $names }.
verdict-last-turn-level = 🎯 Decided on the last turn: { $name } scored { $points } in { $box } and drew level with { $names }.
