## /general forget: a person asks the bot to forget them
cmd-forget = Have the bot forget you: your name and statistics removed, your past games anonymised
forget-ask-title = Should the bot forget you?
forget-ask =
    The bot then no longer knows your name, your statistics or your ratings. The games you played stay in the other players' records, under an anonymous name, and you leave every game you sit in now.
    This cannot be undone; should you play again, you start anew.
forget-yes = Forget me
forget-no = Keep me
forget-done = Done: the bot has forgotten you. Your past games now show an anonymous player.
forget-nothing = The bot keeps nothing about you: there was nothing to forget.
forget-kept = Nothing was forgotten.
forget-not-yours = Only the person who asked to be forgotten may press this.
