## Картинка таблицы очков
picture-round = Раунд { $round }/{ $rounds }
picture-turn = Ходит: { $name }
picture-final = Итоговые места
picture-lobby = Игра ещё не началась
picture-place = Место
picture-rank = { $rank }.
picture-out = вне игры
