"""What every chat does the same way, written once. A front end builds `Tables` (tables.py) over
its `Platform` (surface.py), passes each command to `commands.command` as an `Asked` and each
button press to `presses.press`, and draws the cards (cards.py) it is handed."""
