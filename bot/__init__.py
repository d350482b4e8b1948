"""Entry point and wiring: read settings, open storage, start the front ends."""
