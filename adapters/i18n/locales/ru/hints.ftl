## Подсказки и компьютеры
error-slow-down = Пожалуйста, помедленнее: слишком много нажатий подряд.
error-hints-off = Подсказки за этим столом выключены.
hint-title = Лучшие ходы сейчас (ожидаемый итог партии):
hint-keep = отложить { $dice } и бросить остальные
hint-keep-none = перебросить все пять костей
hint-keep-all = отложить все пять и не бросать ни одной
hint-box = записать в «{ $box }» ({ $points })
hint-line = { $rank }. { $choice } → { NUMBER($expected, minimumFractionDigits: 1, maximumFractionDigits: 1) }
computer-master = 🤖 Мастер
computer-club = 🤖 Любитель
computer-novice = 🤖 Новичок
btn-add-master = 🤖 + Мастер
btn-add-club = 🤖 + Любитель
btn-add-novice = 🤖 + Новичок
btn-hint = 💡 Подсказка
