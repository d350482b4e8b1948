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
