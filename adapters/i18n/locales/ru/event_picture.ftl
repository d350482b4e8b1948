## Картинка конца турнира (adapters/pictures/event_table.py): итоговая таблица.
event-picture-title = Турнир завершён
# Части подзаголовка, через « · »: «Швейцарская система · 4 раунда · одинаковые кости».
event-picture-swiss = Швейцарская система
event-picture-robin = Круговая система
event-picture-rounds = { $rounds } { $rounds ->
    [one] раунд
    [few] раунда
    [many] раундов
   *[other] раунда
}
event-picture-duplicate = одинаковые кости
event-picture-own = у каждого стола свои кости
# Очки места в турнире, над его ступенью: «3,5 очка» (трети за столами на четверых: «1,67 очка»).
event-picture-score = { NUMBER($points, maximumFractionDigits: 2) } { NUMBER($points, maximumFractionDigits: 2) ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}
# Столбцы итоговой таблицы и очки в своём столбце («3,5»).
event-picture-place = Место
event-picture-player = Игрок
event-picture-points = Очки
event-picture-sheets = Сумма
event-picture-played = Столы
event-picture-cell = { NUMBER($points, maximumFractionDigits: 2) }
# Под таблицей: что значат два последних столбца.
event-picture-note-sheets = Сумма: очки всех листов вместе; она решает при равных очках.
event-picture-note-played = Столы: сколько столов сыграно (раунд без пары не в счёт).
