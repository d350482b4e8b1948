## Discord: описания команд (не длиннее 100 знаков)
discord-cmd-general = Играть в «Генерал», игру в кости, со всеми в этом канале
discord-cmd-start = Открыть здесь стол «Генерала» (ветка — отдельный стол)
discord-cmd-join = Сесть за открытый стол
discord-cmd-leave = Выйти из-за стола
discord-cmd-sheet = Таблица очков: игроки по горизонтали, графы по вертикали, итоги
discord-cmd-stop = Отменить игру (только хозяин стола)
discord-cmd-rules = Как играть в «Генерал»
discord-cmd-help = Команды «Генерала»

## Discord: ответы
discord-done = Готово.
