## Hints, computers and the review
error-slow-down = Slow down a little, please: too many presses at once.
error-hints-off = Hints are off at this table.
hint-title = Best play now (expected final points):
hint-keep = keep { $dice } and roll
hint-keep-none = roll all five dice
hint-keep-all = hold all five and throw none
hint-box = write { $box } ({ $points })
hint-line = { $rank }. { $choice } → { NUMBER($expected, minimumFractionDigits: 1, maximumFractionDigits: 1) }
computer-master = 🤖 Master
computer-club = 🤖 Club
computer-novice = 🤖 Novice
btn-add-master = 🤖 + Master
btn-add-club = 🤖 + Club
btn-add-novice = 🤖 + Novice
btn-hint = 💡 Hint
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
