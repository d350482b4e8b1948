## Шансы на победу и компьютер, который играет на победу
chances-line = 🎯 Шансы на победу: { $players }
chances-entry = { $name } { $value }
chances-percent = { $value }%
chances-below-one = <1%
chances-above-ninety-nine = >99%
chances-none = Здесь сейчас не идёт игра: шансы видны, пока идёт партия.
chances-title = Шансы на победу, если с этого момента каждый играет лучшим образом для своего листа:
computer-grandmaster = 🤖 Гроссмейстер
btn-add-grandmaster = 🤖 + Гроссмейстер
settings-chances = Шансы на победу на доске: { $value }
cmd-chances = Шансы каждого игрока выиграть идущую партию
hint-title-chances = Лучшие ходы сейчас (ожидаемый итог партии · шанс на победу):
hint-line-chances = { $rank }. { $choice } → { NUMBER($expected, minimumFractionDigits: 1, maximumFractionDigits: 1) } · { $value }
hint-for-the-win = Чтобы играть на победу: { $choice } ({ $value }).
