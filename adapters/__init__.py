"""Everything that touches the outside world: chat platforms, the terminal, storage."""
