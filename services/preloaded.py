"""Imported once in the process the services' processes are forked from (services/supervisor.py):
the games loaded, so that a new process has them already, and every object made so far moved
out of the garbage collector's sight, so that collections in the forked processes do not
write to (and so copy) the pages they share."""

import gc

from services.registry import games

games()
gc.freeze()
