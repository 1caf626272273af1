"""Sakura: the digital edition of Reiner Knizia's race through the Emperor's garden.

The rules live in :mod:`sakura.engine` (standard library only); everything else (records,
command line, bots, apps) is built on top of it and never the other way round.

The engine's hot modules run compiled when the install had a C compiler (see
:mod:`sakura._build`); ``SAKURA_PURE=1`` runs the same ``.py`` source instead.
"""

from sakura._build import install_pure_finder, pure_requested

__version__ = "0.2.0"

install_pure_finder(everything=pure_requested())
