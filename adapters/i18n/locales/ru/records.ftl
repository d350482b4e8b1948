## Таблицы лидеров, статистика, история
board-title = 🏆 Лучшие игроки здесь
board-title-global = 🏆 Лучшие игроки везде
board-period-all = За всё время
board-period-recent = { $days ->
    [one] За последний { $days } день
    [few] За последние { $days } дня
    [many] За последние { $days } дней
   *[other] За последние { $days } дня
}
board-header = { $period }: победы · игры · доля побед · средний счёт · лучший
board-line = { $rank }. { $name } — { $wins } · { $games } · { $rate }% · { NUMBER($average, minimumFractionDigits: 1, maximumFractionDigits: 1) } · { $best }
board-empty = Законченных игр пока нет.
stats-title = 📊 { $name }
stats-games = { $games } { $games ->
    [one] игра
    [few] игры
    [many] игр
   *[other] игры
}, { $wins } { $wins ->
    [one] победа
    [few] победы
    [many] побед
   *[other] победы
} ({ $rate }%)
stats-totals = Средний счёт { NUMBER($average, minimumFractionDigits: 1, maximumFractionDigits: 1) }, лучший { $best }
stats-generals = Генералы: малые — { $small }, большие — { $big }
stats-accuracy = Средняя точность по разборам: { NUMBER($accuracy, minimumFractionDigits: 1, maximumFractionDigits: 1) }%
stats-boxes = В среднем по графам:
stats-box = { $box }: { NUMBER($average, minimumFractionDigits: 1, maximumFractionDigits: 1) }
stats-none = { $name }: законченных игр пока нет.
stats-unknown = Никто под именем «{ $name }» здесь не играл.
history-title = 📜 Последние игры здесь (время по UTC)
history-line = { DATETIME($date, dateStyle: "short", timeStyle: "short") }: { $players }
history-empty = Здесь пока нет законченных игр.
