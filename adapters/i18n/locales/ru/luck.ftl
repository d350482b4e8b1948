## Удача против умения (core.luck): что дали кости игрока и что он упустил своими решениями.
luck-share = { $sign ->
    [minus] −
   *[plus] +
}{ NUMBER($amount, maximumFractionDigits: 0) }%
luck-points = { $sign ->
    [minus] −
   *[plus] +
}{ NUMBER($amount, minimumFractionDigits: 1, maximumFractionDigits: 1) } { NUMBER($amount, minimumFractionDigits: 1, maximumFractionDigits: 1) ->
    [one] очко
    [few] очка
    [many] очков
   *[other] очка
}
luck-line = 🎲 { $name }: кости { $dice } · решения { $decisions }
luck-line-rest = 🎲 { $name }: кости { $dice } · решения { $decisions } · игра соперников { $rest }
luck-legend = кости { $dice } · решения { $decisions }
