## Hints and computers
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
