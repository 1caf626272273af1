"""The decisions a game of Sakura waits on, by the names its :class:`Progress` gives them, and
the resolution stages of the card at the head of the round's queue behind them.

A round opens with the *selection*: every player secretly chooses a card (or two). Then the
revealed cards resolve in order; a card offering a choice stops there and asks its owner which
way the Emperor goes (a *garden* choice) or their own painter goes (a *painter* choice). The
stage numbers are the state's and a position's private bookkeeping (``Position.stage``, an
index into ``STAGES``); code outside the state names them by these constants, never by number.

>>> STAGE_OF_CHOICE[GARDEN], STAGE_OF_CHOICE[PAINTER]
(1, 3)
"""

from __future__ import annotations

SELECTION = "selection"  # the players yet to choose pick their cards, secretly and at once
GARDEN = "garden"  # a resolving card's owner chooses the Emperor's direction
PAINTER = "painter"  # a resolving card's owner chooses their painter's direction
DECISIONS = (SELECTION, GARDEN, PAINTER)

# Resolution stages of the card at the head of the queue (Position.STAGES "-", "g", "G", "p").
NOT_STARTED = 0  # not started (or the players are selecting)
GARDEN_CHOICE = 1  # its owner chooses the garden action's direction
GARDEN_DONE = 2  # the garden action is done; the painter action is next
PAINTER_CHOICE = 3  # its owner chooses the painter action's direction

STAGE_OF_CHOICE = {GARDEN: GARDEN_CHOICE, PAINTER: PAINTER_CHOICE}
CHOICE_STAGES = (GARDEN_CHOICE, PAINTER_CHOICE)

__all__ = [
    "CHOICE_STAGES",
    "DECISIONS",
    "GARDEN",
    "GARDEN_CHOICE",
    "GARDEN_DONE",
    "NOT_STARTED",
    "PAINTER",
    "PAINTER_CHOICE",
    "SELECTION",
    "STAGE_OF_CHOICE",
]
