## Сезоны: таблица, которая начинается заново (core.seasons), в настройках, в таблице лидеров и в конце сезона.
settings-season = Сезоны: { $value }
settings-season-monthly = по месяцам
settings-season-quarterly = по кварталам
settings-season-off = выключены
settings-time_zone = Сезоны начинаются в полночь по: { $value }
board-period-season = Этот сезон ({ $value })
board-period-past-season = Сезон { $value }
board-seasons-off = Сезоны здесь выключены: их включают в /general settings те, кто управляет чатом.
board-season-unknown = Сезона «{ $value }» здесь нет: сезоны называются так: { $short } (нынешний).
season-over = 🏁 Сезон { $value } здесь закончился. Итоговая таблица:
season-podium = { $rank ->
    [1] 🥇
    [2] 🥈
   *[3] 🥉
} { $name } — { $value }
season-improved = 📈 Больше всех вырос: { $name } (+{ $points } к рейтингу)
season-luckiest = 🍀 Самые удачливые кости: { $name }, { $dice } за игру
season-wisest = 🎯 Лучшие решения: { $name }, { $decisions } за игру
season-next = Начинается новый сезон: все снова на равных. /general leaderboard покажет его, /general leaderboard прошлый — закончившийся.
