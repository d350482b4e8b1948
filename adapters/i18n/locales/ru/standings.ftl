## Строка мест на доске
standings-line = 🏅 { $players }
standings-entry = { $rank }. { $name } { $total }
