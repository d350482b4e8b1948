"""What every chat does the same way, written once: a front end turns its platform's updates into
calls of `ChatLayer` and draws the cards it is handed (see surface.py for what it provides)."""
