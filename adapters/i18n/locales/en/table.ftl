# The live table: a web page where a chat's game is seen and played.
btn-table = 🌐 Open the table
table-spectator = Watch this table's game live, as it is played:
table-replay = The last game at this table, to replay turn by turn:
table-personal-title = Your own link to the table
table-personal = It is yours alone: whoever opens it plays as you, so do not pass it on. It works for { $count } { $count ->
    [one] minute
   *[other] minutes
}.
table-none = No game has been played at this table yet. Start one with /general start.
table-off = The live table is not set up here.
table-write-to-me = Your own link to the table can only be sent to you privately: open a private chat with me, then press again.
