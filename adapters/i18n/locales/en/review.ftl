## The post-game review: in expected points, and in chances to win (adapters/i18n/text.py, the chart)
review-title = How everyone played (against the exact best play):
review-line = { $name }: { NUMBER($accuracy, minimumFractionDigits: 1, maximumFractionDigits: 1) }% accuracy, { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) } expected { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] point
   *[other] points
} given away.
review-flawless = { $name }: flawless — every decision was the best one.
review-costliest = Costliest decision: round { $round }, throw { $throw }, dice { $dice } — “{ $chosen }”, where “{ $better }” was better by { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] point
   *[other] points
}.
review-none = There is nothing to review yet.
review-player = { $name }: { NUMBER($accuracy, minimumFractionDigits: 1, maximumFractionDigits: 1) }% accuracy, { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) } expected { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] point
   *[other] points
} given away; { $words }.
review-player-clean = { $name }: { NUMBER($accuracy, minimumFractionDigits: 1, maximumFractionDigits: 1) }% accuracy, { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) } expected { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] point
   *[other] points
} given away; no inaccuracies, mistakes or blunders.
review-grade-blunder = { $count ->
    [one] { $count } blunder
   *[other] { $count } blunders
}
review-grade-mistake = { $count ->
    [one] { $count } mistake
   *[other] { $count } mistakes
}
review-grade-inaccuracy = { $count ->
    [one] { $count } inaccuracy
   *[other] { $count } inaccuracies
}
review-costliest-chance = Costliest: round { $round }, throw { $throw }, dice { $dice } — “{ $chosen }” cost { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } percentage { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] point
   *[other] points
} of the chance to win (and { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) } expected { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] point
   *[other] points
}); “{ $better }” was better.
review-costliest-chance-only = Costliest: round { $round }, throw { $throw }, dice { $dice } — “{ $chosen }” cost { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } percentage { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] point
   *[other] points
} of the chance to win; “{ $better }” was better.
review-turning = Turning point — round { $round }: { $player } { $word ->
    [big] threw a big general
    [box] wrote { $box } ({ $points })
   *[other] left the table
}; { $name }’s chance to win went from { NUMBER($n, maximumFractionDigits: 0) }% to { NUMBER($rate, maximumFractionDigits: 0) }%.
review-chart-title = Chance to win, turn by turn
review-chart-round = Round
review-chart-general = General
review-chart-big = Big general
review-chart-lead = The lead changes hands
