## Discord front end: answers
discord-done = Done.
discord-cannot-post = I can't post in this channel, so the game can't be shown here; it is saved. Ask for the bot to be given the Send Messages permission here (and Attach Files, for pictures).
