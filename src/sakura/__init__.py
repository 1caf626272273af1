"""Sakura: the digital edition of Reiner Knizia's race through the Emperor's garden.

The rules live in :mod:`sakura.engine` (standard library only); everything else (records,
command line, bots, apps) is built on top of it and never the other way round.
"""

__version__ = "0.1.0"
