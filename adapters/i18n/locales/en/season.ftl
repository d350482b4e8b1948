## Seasons: the ladder that resets (core.seasons), in the settings, the leaderboard and at a season's end.
settings-season = Seasons: { $value }
settings-season-monthly = monthly
settings-season-quarterly = quarterly
settings-season-off = off
settings-time_zone = Seasons begin at midnight in: { $value }
# A leaderboard's span: this season, or one before it ("2026-11", "2026-Q4").
board-period-season = This season ({ $value })
board-period-past-season = Season { $value }
board-seasons-off = Seasons are off here: those who manage the chat turn them on in /general settings.
board-season-unknown = There is no season “{ $value }” here: a season is named like { $short } (this one).
# The message a table gets when its season ends.
season-over = 🏁 Season { $value } is over here. The final standings:
season-podium = { $rank ->
    [1] 🥇
    [2] 🥈
   *[3] 🥉
} { $name } — { $value }
season-improved = 📈 Most improved: { $name } (+{ $points } rating)
season-luckiest = 🍀 Luckiest dice: { $name }, { $dice } a game
season-wisest = 🎯 Best decisions: { $name }, { $decisions } a game
season-next = A new season begins now: everyone starts level. /general leaderboard shows it, /general leaderboard last the season just over.
