"""Imported where the services' processes are forked from (services/supervisor.py): the games
loaded once, so that a new process has them already."""

from services.registry import games

games()
