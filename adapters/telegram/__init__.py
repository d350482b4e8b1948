"""The Telegram front end (python-telegram-bot): commands, inline keyboards, HTML rendering."""
