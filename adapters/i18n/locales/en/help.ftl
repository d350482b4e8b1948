## Help
help-title = General (Генерал) — a dice game for any number of players.
help-rules =
    Before the first round everyone throws the five dice once: the lowest total starts.
    Ten rounds; in each, every player takes a turn of up to three throws of five dice.
    After the first and the second throw you may hold any dice and throw the rest again, or stop. After your last throw you write a score into one empty box of your column: each box is filled once a game.
    Ones…Sixes score the sum of the dice showing that face.
    Straight 25/20 (on the first throw / later): 1-2-3-4-5 or 2-3-4-5-6. A 1 may stand for a 2 or a 6 in a straight, so 1-3-4-5-6 and 1-1-3-4-5 count too; 1-2-3-4-6 does not.
    Full house 35/30: three dice of one face and two of another (five of a kind is not a full house).
    Four of a kind 45/40: at least four dice of one face.
    General 60: five of a kind on the second or third throw.
    Five of a kind on the first throw is a BIG GENERAL: the game ends at once and the thrower wins.
    You may write into any empty box; one that the dice don't make scores 0. There are no bonuses.
    The highest total wins; equal totals share the win.
    A chat may change three of these rules in its settings: the big general, five of a kind as a full house, and the 1 in a straight.
