## Help
help-title = General (Генерал) — a dice game for any number of players.
help-rules =
    Ten rounds; in each, every player takes a turn of up to three throws of five dice.
    Between throws you may hold any dice. After your last throw you must write a score
    into one empty box: Ones…Sixes score the sum of that face; Straight 25/20, Full house 35/30,
    Four 45/40 (first throw / later); General (five of a kind on a later throw) 60.
    Five of a kind on the first throw is a BIG GENERAL: the game ends and the thrower wins.
    A box that the dice don't make scores 0. Highest total wins; equal totals share the win.
