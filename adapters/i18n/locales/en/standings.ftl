## The board's standings line
standings-line = 🏅 { $players }
standings-entry = { $rank }. { $name } { $total }
