## Графы таблицы
box-ones = Единицы
box-twos = Двойки
box-threes = Тройки
box-fours = Четвёрки
box-fives = Пятёрки
box-sixes = Шестёрки
box-straight = Стрит
box-full_house = Фулл
box-four = Каре
box-general = Генерал
sheet-total = Итого
sheet-title = Таблица очков

## Отказы (по одному на машинный код core.errors.ErrorCode)
error-no-game = За этим столом нет игры. Начните её командой /general start.
error-game-exists = За этим столом уже открыта игра.
error-not-in-lobby = Игра уже идёт; сесть за стол можно только до начала.
error-not-started = Игра ещё не началась.
error-game-over = Эта игра окончена.
error-already-seated = Вы уже за столом.
error-not-seated = Вы не играете за этим столом.
error-table-full = Стол заполнен ({ $cap } игроков).
error-not-host = Это может только хозяин стола ({ $host }).
error-not-your-turn = Сейчас ходит { $player }.
error-no-throws-left = Броски кончились: выберите графу.
error-throw-first = Сначала бросьте кости.
error-box-filled = Эта графа уже заполнена.
error-bad-die = Такой кости нет.
error-stale = Это поле устарело.
error-bad-action = Эта кнопка недействительна.
error-busy = Слишком много запросов сразу; попробуйте ещё раз.
error-unexpected = У нас что-то пошло не так; игра не изменилась. Попробуйте ещё раз.
error-slow-down = Пожалуйста, помедленнее: слишком много нажатий подряд.
error-hints-off = Подсказки за этим столом выключены.

## Лобби и ход игры
lobby-title = 🎲 Открыт стол для игры в Генерал
lobby-host = Хозяин стола: { $host }
lobby-players = За столом ({ $count }): { $names }
lobby-hint = Присоединяйтесь, затем хозяин начнёт игру.
event-joined = { $name } садится за стол.
event-left = { $name } выходит из-за стола.
event-host = Теперь хозяин стола — { $name }.
lot-title = Жребий: начинает тот, у кого меньше очков.
lot-line = { $name }: { $dice } = { $total }
lot-rethrow = Равенство по наименьшей сумме: они бросают снова.
lot-starter = Начинает { $name }.
game-started = Игра началась! Порядок: { $order }.
game-solo = Одиночная игра началась. Удачи, { $name }!
turn-header = Ходит { $name } · раунд { $round }/{ $rounds } · бросок { $throw }/{ $throws }
turn-header-short = бросок { $throw }/3
turn-first = Бросьте кости, чтобы начать ход.
turn-scored = { $name } записывает { $points } в графу «{ $box }».
turn-scratched = { $name } вычёркивает графу «{ $box }» (0).
big-general = 🎉 БОЛЬШОЙ ГЕНЕРАЛ! { $name } выбрасывает { $dice } с первой попытки и выигрывает!
game-over = Игра окончена.
game-winner = 🏆 Победитель: { $names } — { $total } { $total ->
    [one] очко
    [few] очка
   *[other] очков
}.
game-winners = 🏆 Победа поровну: { $names } — по { $total } { $total ->
    [one] очку
   *[other] очков
}.
event-removed-kicked = Хозяин стола убрал { $name } из-за стола.
event-removed-timeout = { $name } пропускает второй ход подряд и выходит из-за стола.
event-timed-out = ⏰ Время { $name } вышло: бот сходил за игрока.
event-reminder = ⏰ { $name }, половина времени прошла: на ход осталось { $left }.
game-idle = Стол закрыт: слишком долго никто не играл.
error-cannot-kick = Назовите игрока за столом: /general kick Имя.
game-cancelled = Игра отменена.
game-abandoned = Все вышли из-за стола; игра закрыта.
held-legend = [x] = отложена

## Справка
help-title = Генерал — игра в кости для любого числа игроков.
help-rules =
    Десять раундов; в каждом каждый игрок делает ход — до трёх бросков пяти костей.
    Между бросками можно отложить любые кости. После последнего броска нужно записать очки
    в одну пустую графу: Единицы…Шестёрки — сумма костей этого номинала; Стрит 25/20, Фулл 35/30,
    Каре 45/40 (с первой попытки / со второй-третьей); Генерал (пять одинаковых со второй или
    третьей попытки) — 60. Пять одинаковых с первой попытки — БОЛЬШОЙ ГЕНЕРАЛ: игра кончается,
    бросивший побеждает. Графа, которую кости не дают, получает 0. Побеждает наибольшая сумма;
    при равенстве победа делится.

## Консоль
console-welcome = Добро пожаловать в Генерал! Наберите «help» в любой момент.
console-resume = Найдена незаконченная игра ({ $names }, раунд { $round }). Продолжить? [Y/n]
console-ask-players = Имена игроков через запятую; компьютеры: +master, +club или +novice:
console-no-players = Введите хотя бы одно имя.
console-duplicate-name = У каждого игрока должно быть своё имя.
console-prompt = { $name }>
console-help =
    Команды:
      r, roll             бросить кости (отложенные остаются)
      h 1 3 5, hold 1 3 5 отложить ровно кости 1, 3 и 5 (h без чисел снимает все)
      s ГРАФА, score ГРАФА записать в графу: её номер 1–10 или имя (например, s 2, s фулл)
      sheet               показать таблицу очков
      hint                лучшие варианты сейчас и ожидаемый итог каждого
      rules               кратко о правилах
      q, quit             остановиться; игра сохранена, её можно продолжить
console-unknown = Неизвестная команда «{ $command }». Список команд — «help».
console-bad-box = Графы «{ $box }» нет. Укажите номер 1–10 или название, например «двойки» или «стрит».
console-bad-dice = Кости нумеруются от 1 до 5, например «hold 1 3».
console-options = Варианты записи (графа: очки сейчас):
console-saved = Игра сохранена. Запустите бота снова, чтобы продолжить.
console-bye = До свидания!
console-new-game = Начать новую игру? [Y/n]

## Кнопки (чаты)
btn-join = ✋ Сесть
btn-leave = 🚪 Выйти
btn-start = ▶️ Начать
btn-cancel = ✖️ Отменить
btn-roll = 🎲 Бросить (осталось { $left })
btn-roll-first = 🎲 Бросить кости
btn-sheet = 📋 Таблица
btn-box = { $box } · { $points }
btn-hint = 💡 Подсказка
btn-add-master = 🤖 + Мастер
btn-add-club = 🤖 + Любитель
btn-add-novice = 🤖 + Новичок

## Чаты
chat-unknown = Я не знаю «{ $arg }».
chat-sheet-none = За этим столом нет игры, которую можно показать.
chat-throws-left = { $left ->
    [0] Броски кончились: выберите графу.
    [one] Остался { $left } бросок: отложите кости и бросайте или выберите графу.
    [few] Осталось { $left } броска: отложите кости и бросайте или выберите графу.
   *[other] Осталось { $left } бросков: отложите кости и бросайте или выберите графу.
}
chat-lobby-closed = Лобби закрыто.
chat-game-started = Игра началась.

## Подсказки, компьютеры и разбор
hint-title = Лучшие ходы сейчас (ожидаемый итог партии):
hint-keep = оставить { $dice } и бросить
hint-keep-none = бросить все пять костей
hint-keep-all = больше не бросать (оставить все пять)
hint-box = записать в «{ $box }» ({ $points })
hint-line = { $rank }. { $choice } → { $expected }
computer-master = 🤖 Мастер
computer-club = 🤖 Любитель
computer-novice = 🤖 Новичок
review-title = Как все сыграли (в сравнении с наилучшей игрой):
review-line = { $name }: точность { $accuracy }%, упущено в среднем { $lost } очков.
review-flawless = { $name }: безупречно — каждое решение было лучшим.
review-costliest = Самое дорогое: раунд { $round }, бросок { $throw }, кости { $dice }: { $chosen }; лучше: { $best } (−{ $loss }).
review-none = Разбирать пока нечего.

## Таблицы лидеров, статистика, история
board-title = 🏆 Лидеры этого чата
board-title-global = 🏆 Лидеры всех чатов
board-period-all = за всё время
board-period-recent = за последние { $days } дней
board-header = { $period }: победы · игры · доля побед · среднее · лучшее
board-line = { $rank }. { $name } — { $wins } · { $games } · { $rate }% · { $average } · { $best }
board-empty = Законченных игр пока нет.
stats-title = 📊 { $name }
stats-games = Игр { $games }, побед { $wins } ({ $rate }%)
stats-totals = В среднем { $average }, лучший результат { $best }
stats-generals = Малых генералов { $small }, больших генералов { $big }
stats-accuracy = Средняя точность по разборам: { $accuracy }%
stats-boxes = В среднем по графам:
stats-none = У { $name } пока нет законченных игр.
stats-unknown = Игрок «{ $name }» здесь не играл.
history-title = 📜 Последние игры здесь
history-line = { $date }: { $players }
history-empty = Здесь пока нет законченных игр.

## Настройки чата
settings-title = ⚙️ Настройки этого чата (для новых игр; идущая игра сохраняет свои правила)
settings-language = Язык: { $value }
settings-language-auto = у каждого свой
settings-language-en = English
settings-language-ru = Русский
settings-turn_timer = Таймер хода: { $value }
settings-off = выключен
settings-minutes = { $n } мин
settings-hours = { $n } ч
settings-hints = Подсказки: { $value }
settings-on = включены
settings-yes = да
settings-no = нет
settings-big_general = Большой генерал: { $value }
settings-big-ends = заканчивает игру
settings-big-sixty = даёт 60 очков
settings-five_of_a_kind_full_house = Пять одинаковых — это фулл: { $value }
settings-straight_joker = Единица — джокер в стрите: { $value }
settings-table_cap = Мест за столом: { $value }
settings-sheet = Таблица очков: { $value }
settings-sheet-text = текстом
settings-sheet-picture = картинкой
settings-computer_pause = Пауза компьютера: { $value }
settings-default = как у бота
settings-seconds = { $n } с
settings-done = ✅ Готово
settings-admins-only = Менять настройки могут только администраторы чата.
settings-closed = Настройки сохранены.
