## Rematch: the final message's button, and its answers
btn-rematch = 🔁 Rematch
rematch-opened = The rematch is open: its table is below.
error-not-at-table = Only the players of that game can call its rematch.
error-rematch-unavailable = A rematch of that game is not possible here.
error-rematch-open = That game's rematch is already open at this table.
