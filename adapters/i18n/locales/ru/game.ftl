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
error-not-in-lobby = Игра уже идёт; сесть за стол можно только до её начала.
error-not-started = Игра ещё не началась.
error-game-over = Эта игра окончена.
error-already-seated = Вы уже за столом.
error-not-seated = Вы не играете за этим столом.
error-table-full = Свободных мест нет: за столом уже { $cap } { $cap ->
    [one] игрок
    [few] игрока
    [many] игроков
   *[other] игрока
}.
error-not-host = Это может только хозяин стола ({ $host }).
error-not-your-turn = Сейчас ходит { $player }.
error-no-throws-left = Бросков больше нет: выберите графу.
error-all-held = Чтобы бросить ещё раз, освободите хотя бы одну кость — или запишите очки в графу.
error-throw-first = Сначала бросьте кости.
error-box-filled = Эта графа уже заполнена.
error-bad-die = Такой кости нет.
error-stale = Это сообщение устарело: игра ушла вперёд.
error-bad-action = Эта кнопка не работает.
error-busy = Слишком много запросов сразу; попробуйте ещё раз.
error-unexpected = Что-то пошло не так с нашей стороны; игра не изменилась. Попробуйте ещё раз.
error-restarting = Бот перезапускается; ничего не изменилось. Нажмите ещё раз через несколько секунд.
error-game-lost = Игру за этим столом не удалось восстановить после сбоя, её отложили. Начните новую: /general start.

## Лобби и ход игры
lobby-title = 🎲 Открыт стол для игры в «Генерал»
lobby-host = Хозяин стола: { $host }
lobby-players = За столом ({ $count }): { $names }
lobby-hint = Садитесь за стол; хозяин начнёт игру, когда все соберутся.
event-joined = { $name } садится за стол.
event-left = { $name } выходит из-за стола.
event-host = Теперь хозяин стола — { $name }.
lot-title = Жребий: первым ходит тот, у кого сумма меньше.
lot-line = { $name }: { $dice } = { $total }
lot-rethrow = Наименьшая сумма выпала сразу у нескольких — они бросают ещё раз.
lot-starter = Первым ходит { $name }.
game-started = Игра началась! Порядок ходов: { $order }.
game-solo = Одиночная игра началась. Удачи, { $name }!
turn-header = Ходит { $name } · раунд { $round }/{ $rounds } · бросок { $throw }/{ $throws }
turn-header-short = бросок { $throw }/3
toast-rolled = 🎲 { $dice }
toast-scored = ✍️ { $box }: { $points }
toast-held = 🔒 Оставлены { $held } · бросаются { $free }
toast-held-none = 🔓 Ничего не оставлено · бросаются все пять
toast-held-all = 🔒 Оставлены все пять: выберите графу
turn-first = Бросьте кости, чтобы начать ход.
turn-scored = { $name } записывает { $points } { $points ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
} в графу «{ $box }».
turn-scratched = { $name } вычёркивает графу «{ $box }» (0).
big-general = 🎉 БОЛЬШОЙ ГЕНЕРАЛ! { $name } выбрасывает { $dice } с первого броска — и это победа!
game-over = Игра окончена.
game-winner = 🏆 Победитель — { $names }: { $total } { $total ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}.
game-winners = 🏆 Победу делят { $names }: у каждого по { $total } { $total ->
    [one] очку
    [few] очка
    [many] очков
   *[other] очка
}.
event-removed-kicked = { $name } выходит из-за стола по решению хозяина.
event-removed-timeout = { $name } пропускает второй ход подряд и выходит из-за стола.
event-timed-out = ⏰ { $name }: время хода вышло, за игрока сходил бот.
event-reminder = ⏰ { $name }, прошла половина времени: до конца хода — { $time }.
game-idle = Стол закрыт: слишком долго никто не играл.
error-cannot-kick = Укажите, кого убрать из-за стола: /general kick имя.
game-cancelled = Игра отменена.
game-abandoned = Все ушли из-за стола; игра закрыта.
held-legend = [x] — отложенная кость

## Кнопки (чаты)
btn-join = ✋ Сесть
btn-leave = 🚪 Выйти
btn-start = ▶️ Начать
btn-cancel = ✖️ Отменить
btn-roll = 🎲 Бросить (осталось { $left })
btn-roll-first = 🎲 Бросить кости
btn-sheet = 📋 Таблица
btn-box = { $box } · { $points }

## Чаты
chat-unknown = Команды «{ $arg }» нет.
chat-sheet-none = За этим столом нет игры — показывать нечего.
sheet-for-players = Выложить таблицу очков в чат могут только игроки за этим столом.
sheet-above = С тех пор как выше выложили таблицу очков, в игре ничего не изменилось. Чтобы получать её лично, откройте чат со мной и нажмите 📋 снова.
chat-throws-left = { $left ->
    [0] Бросков больше нет: выберите графу.
    [one] Остался { $left } бросок: отложите кости и бросайте — или выберите графу.
    [few] Осталось { $left } броска: отложите кости и бросайте — или выберите графу.
    [many] Осталось { $left } бросков: отложите кости и бросайте — или выберите графу.
   *[other] Осталось { $left } броска: отложите кости и бросайте — или выберите графу.
}
chat-lobby-closed = Набор за стол закрыт.
chat-game-started = Игра началась.
game-winner-big-general = 🏆 Победитель — { $names }: большой генерал.

## Что изменилось с тех пор, как было нарисовано устаревшее сообщение (core.errors.Stale)
error-stale-thrown = Кости уже брошены — вот что выпало: { $dice }.
error-stale-held = Эта кость уже отложена.
error-stale-released = Эта кость уже освобождена.
error-stale-repeated = Это уже сделано: сообщение не успело обновиться после первого нажатия.
error-stale-started = Игра уже началась: набор за стол закрыт.
error-stale-turn-passed = Этот ход уже закончился: сейчас ходит { $player }.
error-stale-new-turn = Этот ход уже закончился: начался ваш ход в раунде { $round }.

## Отмена ошибочной записи
btn-take-back = ↩ Вернуть
toast-taken-back = ↩ { $box }: запись отменена
event-taken-back = ↩ { $name } отменяет запись в графе «{ $box }» ({ $points }).
error-nothing-to-take-back = Сейчас отменять нечего: запись можно вернуть, только пока следующий игрок не сделал ход.
error-not-your-take-back = Отменить эту запись может только тот, кто её сделал: { $player }.
