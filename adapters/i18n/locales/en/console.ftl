## Console
console-welcome = Welcome to General! Type "help" at any time.
console-resume = An unfinished game was found ({ $names }, round { $round }). Resume it? [Y/n]
console-ask-players = Player names, separated by commas; add computers with +master, +club or +novice:
console-no-players = Please enter at least one name.
console-duplicate-name = Each player needs a different name.
console-prompt = { $name }>
console-help =
    Commands:
      r, roll             throw the dice (held dice stay)
      h 1 3 5, hold 1 3 5 hold exactly dice 1, 3 and 5 (h alone releases all)
      s BOX, score BOX    write into a box: its number 1–10 or name (e.g. s 2, s full)
      sheet               show the score sheet
      hint                the best choices now, with expected final points
      rules               a summary of the rules
      q, quit             stop now; the game is saved and can be resumed
console-unknown = Unknown command "{ $command }". Type "help" for the list.
console-bad-box = There is no box "{ $box }". Use a number 1–10 or a name such as twos or straight.
console-bad-dice = Dice are numbered 1 to 5, e.g. "hold 1 3".
console-options = Score options (box: points now):
console-saved = The game is saved. Run the bot again to resume it.
console-bye = Goodbye!
console-new-game = Start a new game? [Y/n]
