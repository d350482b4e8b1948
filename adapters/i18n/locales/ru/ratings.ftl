## Рейтинг: у новичка 1000, «?» — рейтинг предварительный (меньше 5 игр)
rating-value = { $value }
rating-provisional-value = { $value }?
rating-line = 📈 Рейтинг здесь: { $players }
rating-entry = { $name } { $value } ({ $change })
rating-board-empty = Рейтинговых игр пока нет: рейтинг дают законченные игры с соперником (компьютер тоже считается); таблица по победам учитывает все игры.
rating-board-header = { $period }, по рейтингу: рейтинг · игры · лучший
rating-board-line = { $rank }. { $name } — { $value } · { $games } · { NUMBER($best, useGrouping: 0) }
rating-board-provisional = Предварительный рейтинг (игр пока меньше { $games }):
rating-board-newcomer = { $name } — { $value } · { $games }
stats-rating = Рейтинг (во всех чатах): { $value }, лучший { NUMBER($best, useGrouping: 0) }
stats-skill = Сила { NUMBER($mu, minimumFractionDigits: 1, maximumFractionDigits: 1) } ± { NUMBER($sigma, minimumFractionDigits: 1, maximumFractionDigits: 1) }: рейтинг — её осторожная оценка, он растёт по мере того, как оценка уточняется.
stats-rating-provisional = Рейтинг предварительный: сыграно игр — { $games } из { $n }.
stats-rating-none = Рейтинга пока нет: он появится после первой законченной игры с соперником.
stats-trend = { $games ->
    [one] Последняя { $games } игра
    [few] Последние { $games } игры
    [many] Последние { $games } игр
   *[other] Последние { $games } игры
}: { $value } { $change }

## Что решило исход игры — в итоговом сообщении
verdict-big-general = ⚡ Досрочно: в раунде { $round } из { $rounds } { $name } выбрасывает большой генерал и сразу побеждает.
verdict-last-turn = 🎯 Всё решил последний ход: { $name } записывает { $points } в графу «{ $box }» и выходит вперёд (прежний лидер — { $names }).
verdict-last-turn-level = 🎯 Всё решил последний ход: { $name } записывает { $points } в графу «{ $box }» и делит победу (прежний лидер — { $names }).
