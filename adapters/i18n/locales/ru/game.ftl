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
