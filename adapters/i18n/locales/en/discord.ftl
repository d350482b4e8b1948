## Discord front end: answers
discord-done = Done.
discord-cannot-post = I may not post in this channel, so the game cannot be shown here; it is kept. Ask for the permission to send messages (and attach files) here.
