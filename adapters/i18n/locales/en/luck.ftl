## Luck against skill (core.luck): what a player's dice gave and their decisions gave away.
# A change in win chance, in percentage points, with its sign.
luck-share = { $sign ->
    [minus] −
   *[plus] +
}{ NUMBER($amount, maximumFractionDigits: 0) }%
# A change in expected final points, with its sign.
luck-points = { $sign ->
    [minus] −
   *[plus] +
}{ NUMBER($amount, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($amount, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] point
   *[other] points
}
luck-line = 🎲 { $name }: dice { $dice } · decisions { $decisions }
luck-line-rest = 🎲 { $name }: dice { $dice } · decisions { $decisions } · the others' play { $rest }
luck-legend = dice { $dice } · decisions { $decisions }
