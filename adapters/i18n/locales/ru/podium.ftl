## Картинка конца сезона (adapters/pictures/podium.py): рейтинг чата, сезон закончился.
# $period — название сезона: «2026-11» (месяц) или «2026-Q4» (квартал).
podium-title = Сезон { $period }
podium-subtitle = Сезон завершён: итоговый пьедестал
podium-empty = Рейтинговых игр в этом сезоне не было.
# Рейтинг призёра, под именем на пьедестале.
podium-rating = рейтинг { $value }
podium-improved = Лучший рост рейтинга: { $name } (+{ $points } { $points ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
})
# $dice и $decisions приходят готовыми: «+4,2 очка», «−1,3 очка».
podium-luckiest = Самые удачные кости: { $name } ({ $dice })
podium-wisest = Лучшие решения: { $name } ({ $decisions })
