## Настройки чата (в Discord — сервера: их меняет тот, кто может управлять его каналами)
settings-title = ⚙️ Настройки этого { $platform ->
    [discord] сервера
   *[other] чата
} (действуют для новых игр; начатая игра идёт по своим правилам)
settings-language = Язык: { $value }
settings-language-auto = как у хозяина стола
settings-language-en = English
settings-language-ru = Русский
settings-turn_timer = Таймер хода: { $value }
settings-timer-off = выключен
settings-minutes = { $n } { $n ->
    [one] минута
    [few] минуты
    [many] минут
   *[other] минуты
}
settings-hours = { $n } { $n ->
    [one] час
    [few] часа
    [many] часов
   *[other] часа
}
settings-seconds = { $n } { $n ->
    [one] секунда
    [few] секунды
    [many] секунд
   *[other] секунды
}
settings-hints = Подсказки: { $value }
settings-hints-on = включены
settings-hints-off = выключены
settings-yes = да
settings-no = нет
settings-big_general = Большой генерал: { $value }
settings-big-ends = заканчивает игру
settings-big-sixty = даёт 60 очков
settings-five_of_a_kind_full_house = Пять одинаковых считаются фуллом: { $value }
settings-straight_joker = Единица — джокер в стрите: { $value }
settings-table_cap = Мест за столом: { $value }
settings-sheet = Таблица очков: { $value }
settings-sheet-text = текстом
settings-sheet-picture = картинкой
settings-computer_pause = Пауза перед ходом компьютера: { $value }
settings-default = по умолчанию
settings-done = ✅ Готово
settings-admins-only = { $platform ->
    [discord] Менять настройки могут только участники с правом «Управлять сервером».
   *[other] Менять настройки могут только администраторы чата.
}
settings-closed = Настройки сохранены.
