## Турниры (core.tournament): сообщение турнира, его туры в чате, отказы.
cmd-tournament = открыть турнир (для тех, кто управляет чатом) или показать турнир этого чата
event-title = 🏆 Турнир
event-rules = { $format } · { $rounds } · столы по { $size } · тур длится { $deadline } · { $dice }
event-format-swiss = Швейцарская система
event-format-robin = Круговая система
event-rounds = { $count ->
    [one] { $count } тур
    [few] { $count } тура
   *[many] { $count } туров
}
event-rounds-robin = каждый с каждым ({ $count ->
    [one] { $count } тур
    [few] { $count } тура
   *[many] { $count } туров
})
event-deadline = { $hours ->
    [0] { $minutes } минут
    [one] 1 час
    [24] 1 день
    [72] 3 дня
    [few] { $hours } часа
    [many] { $hours } часов
   *[other] { $hours } часа
}
event-dice-duplicate = одинаковые кости (все столы тура бросают одно и то же)
event-dice-own = у каждого стола свои кости
event-hosted = Ведущий: { $name }
event-entered = Участники ({ $count }): { $names }
event-entered-none = Пока никто не записался.
event-open-how = Нажмите «Участвовать», чтобы играть. Ведущий задаёт правила кнопками и начинает, когда все собрались.
event-playing = Идёт тур { $round } из { $rounds }.
event-finished = Турнир окончен: итоговая таблица ниже.
event-cancelled = Турнир отменён.
btn-event-enter = Участвовать
btn-event-leave = Выйти
btn-event-start = Начать
btn-event-cancel = Отменить
btn-event-format = Система: { $value }
btn-event-rounds = Туров: { $value }
btn-event-size = Столы по { $value }
btn-event-deadline = Тур: { $value }
btn-event-dice = Кости: { $value }
event-dice-duplicate-short = одинаковые
event-dice-own-short = свои
event-rounds-auto = каждый с каждым
btn-event-computer = + { $name }
event-entered-you = Вы участвуете.
event-left-you = Вы вышли.
event-withdrawn-you = В следующих турах вас не будет; ваш стол доигрывает без вас.
event-set = Готово.
event-round-start = 🏆 Начинается тур { $round } из { $rounds }: { $tables ->
    [one] { $tables } стол
    [few] { $tables } стола
   *[many] { $tables } столов
}. Столы, не доигравшие за { $deadline }, закрываются как есть.
event-round-sealed = 🔒 Кости тура запечатаны: { $short } (раскроются, когда доиграют все столы).
event-round-table = Стол { $table }: { $names }
event-round-threads = Каждый стол играет в своей ветке, их названия — как «{ $where }».
event-round-bye = Без пары (засчитывается как победа): { $names }
event-table-title = Тур { $round } · Стол { $table }
event-table-over = Результат этого стола идёт в турнир: следующий тур составится, когда доиграют все столы.
event-table-closed = ⏰ Время тура вышло: стол закрыт и засчитан как есть.
event-round-over = 🏁 Тур { $round } окончен.
event-round-seed = 🔓 Его кости: зерно { $seed } (любой его стол можно проверить командой /general verify в его ветке).
event-standings-title = Положение после тура { $round }
event-final-title = 🏆 Турнир окончен: итоговая таблица
event-standings-head = место · имя · очки турнира · очки
event-winner = 🥇 { $name } выигрывает турнир: { $score } { $score ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}.
event-winners = 🥇 { $names } делят первое место: по { $score } { $score ->
    [one] очку
    [few] очка
    [many] очков
   *[other] очка
}.
error-no-event = В этом чате нет турнира: /general tournament открывает его.
error-event-exists = В этом чате уже есть турнир: его сообщение выше.
error-event-started = Турнир начался: запись и правила закрыты.
error-event-over = Турнир окончен.
error-not-event-host = Это может только ведущий турнира ({ $host }).
error-already-entered = Вы уже участвуете.
error-not-entered = Вы не участвуете в этом турнире.
error-event-full = Мест в турнире нет: в нём уже { $cap } { $cap ->
    [one] игрок
    [few] игрока
    [many] игроков
   *[other] игрока
}.
error-event-too-few = Для турнира нужно хотя бы { $count } { $count ->
    [one] игрок
    [few] игрока
    [many] игроков
   *[other] игрока
}.
error-host-leaves = Ведущий не может выйти из турнира: его можно отменить.
error-no-threads = В этом чате столы тура не разнести по отдельности. В Telegram включите темы в настройках группы (форум); в Discord боту нужно право создавать ветки. Или выберите столы побольше, чтобы все сели за один.
event-admins-only = Открыть турнир могут только те, кто управляет чатом ({ $platform ->
    [discord] право «Управлять сервером»
   *[other] администраторы чата
}).
verify-event-later = Этот стол из тура турнира, который ещё идёт: его кости раскроются, когда доиграют все столы тура.
hint-title-places = Лучшие ходы сейчас (ожидаемый итог партии · ожидаемые очки турнира за место, от 0 до 1):
hint-place-points = { NUMBER($points, minimumFractionDigits: 2, maximumFractionDigits: 2) }
hint-for-the-event = Чтобы играть на очки турнира за место: { $choice } ({ $value }).
event-format-swiss-short = швейцарская
event-format-robin-short = круговая
