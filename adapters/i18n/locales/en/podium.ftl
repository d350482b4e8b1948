## The season's end picture (adapters/pictures/podium.py): the chat's ladder, the season over.
# $period is the season's label: "2026-11" (a month) or "2026-Q4" (a quarter).
podium-title = Season { $period }
podium-subtitle = The season is over: the final podium
podium-empty = No rated games this season.
# A place's rating, under the name on the podium.
podium-rating = rating { $value }
podium-improved = Most improved: { $name } (+{ $points } rating { $points ->
    [one] point
   *[other] points
})
# $dice and $decisions come formatted: "+4.2 points", "−1.3 points".
podium-luckiest = Luckiest dice: { $name } ({ $dice })
podium-wisest = Best decisions: { $name } ({ $decisions })
