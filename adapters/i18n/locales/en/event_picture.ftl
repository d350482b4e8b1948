## The tournament's end picture (adapters/pictures/event_table.py): the final table.
event-picture-title = The tournament is over
# The subtitle's parts, joined by " · ": "Swiss · 4 rounds · duplicate dice".
event-picture-swiss = Swiss
event-picture-robin = Round robin
event-picture-rounds = { $rounds } { $rounds ->
    [one] round
   *[other] rounds
}
event-picture-duplicate = duplicate dice
event-picture-own = each table its own dice
# A place's event score, above its step: "3.5 points" (thirds at tables of four: "1.67 points").
event-picture-score = { NUMBER($points, maximumFractionDigits: 2) } { NUMBER($points, maximumFractionDigits: 2) ->
    [one] point
   *[other] points
}
# The final table's columns, and a score in its column ("3.5").
event-picture-place = Place
event-picture-player = Player
event-picture-points = Score
event-picture-sheets = Sheets
event-picture-played = Tables
event-picture-cell = { NUMBER($points, maximumFractionDigits: 2) }
# Under the table: what its last two columns mean.
event-picture-note-sheets = Sheets: the points of every score sheet added up; they order equal scores.
event-picture-note-played = Tables: the tables played (a bye is not one).
