# Живой стол (adapters/web): подстановки в фигурных скобках заполняет страница.
web-title = Генерал
web-roll = Бросить
web-hold-hint = Нажмите на кубик, чтобы оставить его на следующий бросок
web-your-turn = Ваш ход
web-spectating = Вы смотрите
web-connecting = Подключение…
web-reconnecting = Переподключение…
web-lobby = Ждём игроков
web-round = Раунд { $round } из { $rounds }
web-throw = Бросок { $throw } из { $throws }
web-total = Итого
web-chances = Шансы на победу
web-review = Разбор партии
web-chart = Шансы на победу по ходам
web-replay = Повтор
web-previous = Назад
web-next = Вперёд
web-play = Смотреть
web-pause = Пауза
web-time-left = Осталось { $time }
web-finished = Игра окончена
web-box = Графа
web-players = Игроки
web-die = Кубик: { $value }
web-die-held = Кубик: { $value }, оставлен
web-turn = Ход { $turn }
web-winner = { $name } побеждает: { $points } { $points ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}
web-not-found = Этого стола здесь нет (или уже нет). Откройте его снова из чата.
web-bad-link = Эта ссылка не открывает стол: откройте его снова из чата.
web-link-expired = Срок ссылки истёк: нажмите «Открыть стол» в чате ещё раз.
web-stale-launch = Это окно устарело: закройте его и откройте стол снова из чата.
web-session-over = Сеанс этой страницы закончился: откройте стол снова из чата.
web-disabled = Живой стол здесь не настроен.
web-discord-refused = Discord не подтвердил, кто вы: закройте активность и откройте стол снова.
web-discord-down = Discord сейчас не отвечает: попробуйте через минуту.
web-discord-elsewhere = Discord не видит вас в этой активности этого канала: откройте стол снова из активности канала.
web-failed = У нас что-то сломалось. Попробуйте ещё раз.
web-spectator-press = Вы смотрите этот стол: играть могут только его игроки.
web-no-dice = Кости этой игры не проверить: она ещё идёт (зерно откроется в конце), шла на старых костях или такой игры нет.
web-seal = 🔐 Кости запечатаны: { $short }
web-seal-file = Кости игры файлом — чтобы проверить каждый бросок
