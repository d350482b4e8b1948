## Разбор партии: в ожидаемых очках и в шансах на победу (adapters/i18n/text.py, график)
review-title = Как все сыграли (по сравнению с наилучшей игрой):
review-line = { $name }: точность { NUMBER($accuracy, minimumFractionDigits: 1, maximumFractionDigits: 1) }%, упущено в среднем { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}.
review-flawless = { $name }: безупречно — каждое решение было лучшим.
review-costliest = Самая дорогая ошибка — раунд { $round }, бросок { $throw }, кости { $dice }: решено { $chosen }, а лучше было { $better } (потеряно { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}).
review-none = Разбирать пока нечего.
review-player = { $name }: точность { NUMBER($accuracy, minimumFractionDigits: 1, maximumFractionDigits: 1) }%, упущено в среднем { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}; { $words }.
review-player-clean = { $name }: точность { NUMBER($accuracy, minimumFractionDigits: 1, maximumFractionDigits: 1) }%, упущено в среднем { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($lost, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}; ни неточностей, ни ошибок.
review-grade-blunder = { $count ->
    [one] { $count } грубая ошибка
    [few] { $count } грубые ошибки
    [many] { $count } грубых ошибок
   *[other] { $count } грубой ошибки
}
review-grade-mistake = { $count ->
    [one] { $count } ошибка
    [few] { $count } ошибки
    [many] { $count } ошибок
   *[other] { $count } ошибки
}
review-grade-inaccuracy = { $count ->
    [one] { $count } неточность
    [few] { $count } неточности
    [many] { $count } неточностей
   *[other] { $count } неточности
}
review-costliest-chance = Самая дорогая ошибка — раунд { $round }, бросок { $throw }, кости { $dice }: решено { $chosen } — шанс на победу ниже на { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] процентный пункт
    [few] процентных пункта
    [many] процентных пунктов
   *[other] процентного пункта
}, в среднем потеряно { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}; лучше было { $better }.
review-costliest-chance-only = Самая дорогая ошибка — раунд { $round }, бросок { $throw }, кости { $dice }: решено { $chosen } — шанс на победу ниже на { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] процентный пункт
    [few] процентных пункта
    [many] процентных пунктов
   *[other] процентного пункта
}; лучше было { $better }.
review-turning = Переломный момент — раунд { $round }: { $player } — { $word ->
    [big] большой генерал
    [box] «{ $box }», { $points }
   *[other] выход из-за стола
}. Шанс на победу — { $name }: с { NUMBER($n, maximumFractionDigits: 0) }% до { NUMBER($rate, maximumFractionDigits: 0) }%.
review-chart-title = Шансы на победу по ходу игры
review-chart-round = Раунд
review-chart-general = Генерал
review-chart-big = Большой генерал
review-chart-lead = Смена лидера
