## Удача против умения (core.luck): что дали кости игрока и что он упустил своими решениями.
luck-share = { $sign ->
    [minus] −
   *[plus] +
}{ NUMBER($amount, maximumFractionDigits: 0) }%
luck-points = { $sign ->
    [minus] −
   *[plus] +
}{ NUMBER($amount, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($amount, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}
luck-line = 🎲 { $name }: кости { $dice } · решения { $decisions }
luck-line-rest = 🎲 { $name }: кости { $dice } · решения { $decisions } · игра соперников { $rest }
luck-legend = кости { $dice } · решения { $decisions }
## Таблица удачи: `/general leaderboard удача` (или `решения`), по разобранным играм каждого.
luck-board-title = { $order ->
    [skill] 🎯 Лучшие решения
   *[luck] 🍀 Самые удачливые кости
} { $where ->
    [global] везде
   *[here] здесь
}
luck-board-header = { $period }, в среднем за игру против точной лучшей игры, в ожидаемых очках (не меньше { $games } разобранных игр): кости · решения · игры
luck-board-line = { $rank }. { $name } — кости { $dice } · решения { $decisions } · { $games }
luck-board-empty = Ни у кого здесь пока нет { $games } разобранных игр: одна удачная игра — ещё не удача, так что таблица ждёт нескольких.
stats-luck = В среднем за игру по разборам: кости { $dice } · решения { $decisions }
