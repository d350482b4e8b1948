## Console
console-welcome = Welcome to General! Type "help" (or "?") at any prompt to see the commands.
console-resume = There is an unfinished game ({ $names }, round { $round }). Carry on with it? [Y/n]
console-ask-players = Players' names, separated by commas (computers: +grandmaster, +master, +club or +novice):
console-names-help = Now type the players' names, separated by commas, e.g. Ann, Ben, +club.
console-names-first = The game has not started yet: type the players' names first (or "help").
console-no-players = Type at least one player's name: computers do not play on their own.
console-duplicate-name = Two players cannot share a name.
console-command-name = "{ $name }" is a command, so it cannot be a name. Please choose another.
console-long-name = The name "{ $name }" is too long: a name has at most { $limit ->
    [one] { $limit } character
   *[other] { $limit } characters
}.
console-bad-computer = There is no computer "{ $word }": choose +grandmaster, +master, +club or +novice.
console-prompt = { $name }>
console-too-long = That line is too long: { $length ->
    [one] { $length } character
   *[other] { $length } characters
}, and the most is { $limit }. Nothing was done.
console-yes-no = Please answer y (yes) or n (no).
console-unknown = Unknown command "{ $command }". Type "help" for the list.
console-bad-box = There is no box "{ $box }". Type s alone to see the open boxes.
console-ambiguous-box = "{ $box }" fits several boxes: { $boxes }. Type more letters or the number.
console-bad-dice = Dice are numbered 1 to 5, e.g. "hold 1 3".
console-options = Open boxes, and what these dice would score in each:
console-open-boxes = Open boxes (throw the dice to see what each would score):
console-saved = The game is saved. Start the bot again to carry on.
console-bye = Goodbye!
console-new-game = Start a new game? [Y/n]
console-box-argument = BOX
console-help-title = Commands:
console-help-roll = throw the dice (held dice stay put)
console-help-hold = hold dice 1, 3 and 5, and only those; alone, release all
console-help-score = write into a box: its number 1–10, its name, or its first letters
console-help-boxes = the open boxes, and what the dice showing would score in each
console-help-sheet = the score sheet
console-help-hint = the best choices now, each with its expected final score
console-help-chances = every player's chance of winning, with the throw in progress counted
console-help-rules = the rules in brief
console-help-help = this list
console-help-quit = stop (or Ctrl-C); the game is kept for the next start
console-help-also = The Russian commands work as well: { $words }.
console-computer-turn = The computer plays this turn by itself: watch its throws.
console-help-undo = take back the box just written, until the next player acts
console-dice-check = Its SHA-256 is the seal shown in the first round; { $command } checks every throw by it.
