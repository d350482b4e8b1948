## The score-sheet picture
picture-round = Round { $round }/{ $rounds }
picture-turn = Turn: { $name }
picture-final = Final standings
picture-lobby = The game has not started yet
picture-place = Place
picture-rank = { $rank }.
picture-out = out
