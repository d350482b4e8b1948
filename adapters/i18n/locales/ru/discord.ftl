## Discord: описания команд (не длиннее 100 знаков)
discord-cmd-general = Играть в «Генерал», игру в кости, со всеми в этом канале
discord-cmd-start = Открыть здесь стол «Генерала» (ветка — отдельный стол)
discord-cmd-join = Сесть за открытый стол
discord-cmd-leave = Выйти из-за стола
discord-cmd-sheet = Таблица очков: игроки по горизонтали, графы по вертикали, итоги
discord-cmd-hint = Лучшие ходы сейчас для того, кто ходит (видно только вам)
discord-cmd-review = Разбор последней законченной здесь игры
discord-cmd-leaderboard = Лучшие игроки этого канала или всех серверов
discord-cmd-stats = Игры, победы, средние и генералы игрока
discord-cmd-history = Последние игры в этом канале
discord-cmd-settings = Язык, таймер хода, подсказки, правила, таблицы (для управляющих каналом)
discord-cmd-kick = Убрать игрока из-за стола (только хозяин стола)
discord-cmd-stop = Отменить игру (только хозяин стола)
discord-cmd-rules = Как играть в «Генерал»
discord-cmd-help = Команды «Генерала»

## Discord: параметры команд (имена — одно слово строчными буквами, до 32 знаков)
discord-opt-text = текстом
discord-opt-text-about = Прислать таблицу текстом, даже если на сервере выбраны картинки
discord-opt-scope = где
discord-opt-scope-about = Этот канал или все серверы
discord-opt-period = период
discord-opt-period-about = За всё время или за последние 30 дней
discord-opt-player = игрок
discord-opt-stats-player-about = Чья статистика (ваша, если не указать)
discord-opt-kick-player-about = Кого убрать из-за стола
discord-choice-channel = этот канал
discord-choice-global = все серверы
discord-choice-all = за всё время
discord-choice-recent = последние 30 дней

## Discord: ответы
discord-done = Готово.
discord-cannot-post = Мне нельзя писать в этом канале, поэтому игру здесь не показать; она сохранена. Попросите дать боту право отправлять сообщения (и прикреплять файлы) здесь.
discord-kick-not-seated = { $name } не играет за этим столом.
discord-kick-self = Чтобы выйти из-за стола самому, используйте /general leave.
