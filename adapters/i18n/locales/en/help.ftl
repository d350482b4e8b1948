## Help
help-title = General (Генерал) — a dice game for any number of players.
help-rules =
    Ten rounds; in each, every player takes a turn of up to three throws of five dice.
    Between throws you may hold any dice. After your last throw you write a score into one empty box.
    Ones…Sixes score the sum of the dice showing that face; Straight 25/20, Full house 35/30, Four of a kind 45/40 (on the first throw / later).
    General (five of a kind on a later throw) scores 60.
    Five of a kind on the first throw is a BIG GENERAL: the game ends and the thrower wins.
    A box that the dice don't make scores 0. The highest total wins; equal totals share the win.
