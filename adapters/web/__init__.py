"""The live table: a web page where a table's game is seen and played (PROTOCOL.md)."""
