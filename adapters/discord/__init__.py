"""The Discord front end (discord.py): a /general command group, boards with dynamic buttons."""
