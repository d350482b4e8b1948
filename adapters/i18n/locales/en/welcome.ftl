## First contact (Telegram's /start and /help), the command menus and the bot's descriptions
welcome-title = 🎲 Welcome to General!
welcome-about = General is a dice game for any number of players: five dice, up to three throws a turn, ten rounds, and the highest total wins.
welcome-where = Play a solo game right here with /general start, or add me to a group and play there with your friends.
welcome-commands = Commands:
welcome-group = 🎲 General is here: /general start opens a table, /general help lists the commands.
btn-add-to-group = ➕ Add me to a group
menu-general-private = Play General: /general start begins a solo game
menu-general-group = Play General at this table: /general start
menu-help = What this bot does and its commands
bot-description = General is a dice game for any number of players: five dice, up to three throws a turn, ten rounds. Play a solo game here, or add me to a group and type /general start to open a table for your friends.
bot-short-description = The dice game General: play solo here or with friends in a group.

## A hint asked for in a group goes to the asker alone
hint-from = 💡 Your hint for the game in “{ $chat }”:
hint-write-to-me = 💡 Hints are for your eyes only, and I can't write to you privately yet. Press the button below (or 💡 on your board) to see yours, or open a chat with me and send /start.
hint-refused-from = 💡 About a hint in “{ $chat }”:
