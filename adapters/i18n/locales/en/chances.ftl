## Win chances, and the computer that plays to win
chances-line = 🎯 Chances to win: { $players }
chances-entry = { $name } { $value }
chances-percent = { $value }%
chances-below-one = <1%
chances-above-ninety-nine = >99%
chances-none = There is no game in play here: chances are shown while a game is played.
chances-title = Chances to win, if everyone plays the best for their own sheet from now on:
computer-grandmaster = 🤖 Grandmaster
btn-add-grandmaster = 🤖 + Grandmaster
settings-chances = Win chances on the board: { $value }
cmd-chances = Each player's chance of winning the game in play
hint-title-chances = Best play now (expected final points · chance to win):
hint-line-chances = { $rank }. { $choice } → { NUMBER($expected, minimumFractionDigits: 1, maximumFractionDigits: 1) } · { $value }
hint-for-the-win = To play for the win: { $choice } ({ $value }).
