## `/general notify`: a private message when a table opens in a chat.
notify-on = 🔔 Done: when a table opens here, I'll write to you privately.
notify-on-already = 🔔 You're already on the list: when a table opens here, I'll write to you privately.
notify-off = 🔕 Done: no more private messages about new tables here.
notify-off-already = 🔕 You weren't on the list here: there is nothing to stop.
# Written to the person privately, at once: it shows the bot may write there.
notify-confirmed = 🔔 I'll write to you here when a table of General opens in “{ $where }”. (/general notify off there stops it.)
notify-confirmed-there = 🔔 I'll write to you here when a table of General opens in that chat. (/general notify off there stops it.)
notify-blocked = { $platform ->
    [telegram] But I can't write to you privately yet: open a private chat with me and press Start, and I can.
   *[other] But I can't write to you privately: allow direct messages from this server's members (the server's Privacy settings), and I can.
}
notify-private-open = 🔔 I can write to you here now: when a table opens in a chat where you asked for it (/general notify), you'll hear of it here.
btn-open-private = 💬 Open a private chat
# What each subscriber gets when a table opens.
notify-opened = 🎲 { $host } opened a table of General in “{ $where }”: join while the lobby is open.
notify-opened-there = 🎲 { $host } opened a table of General: join while the lobby is open.
btn-join-table = 🎲 Go to the table
