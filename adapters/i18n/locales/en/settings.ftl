## Chat settings (on Discord a server's: whoever may manage its channels changes them)
settings-title = ⚙️ Settings of this { $platform ->
    [discord] server
   *[other] chat
} (new games use them; a running game keeps its rules)
settings-language = Language: { $value }
settings-language-auto = the host's, table by table
settings-language-en = English
settings-language-ru = Русский
settings-turn_timer = Turn timer: { $value }
settings-timer-off = off
settings-minutes = { $n ->
    [one] { $n } minute
   *[other] { $n } minutes
}
settings-hours = { $n ->
    [one] { $n } hour
   *[other] { $n } hours
}
settings-seconds = { $n ->
    [one] { $n } second
   *[other] { $n } seconds
}
settings-hints = Hints: { $value }
settings-hints-on = on
settings-hints-off = off
settings-yes = yes
settings-no = no
settings-big_general = Big general: { $value }
settings-big-ends = ends the game
settings-big-sixty = scores 60
settings-five_of_a_kind_full_house = Five of a kind counts as a full house: { $value }
settings-straight_joker = A 1 is a joker in a straight: { $value }
settings-table_cap = Seats at a table: { $value }
settings-sheet = Score sheets: { $value }
settings-sheet-text = text
settings-sheet-picture = picture
settings-computer_pause = Pause before a computer's move: { $value }
settings-default = default
settings-done = ✅ Done
settings-admins-only = { $platform ->
    [discord] Only members with the Manage Server permission can change the settings.
   *[other] Only the chat's administrators can change the settings.
}
settings-closed = Settings saved.
