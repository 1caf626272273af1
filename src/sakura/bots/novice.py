"""What a newcomer to Sakura sees at a glance: the moves that walk their own painter into the
Emperor.

A person who is new to the game misjudges how much a card is worth, but does not play a card
that plainly walks their painter onto the Emperor, nor answer "forward" when the preview shows
their painter bumped, except now and then by a slip. This module names those moves, so that
the ``beginner`` level (a hot softmax over the heuristic's scores, ``softmax:T,avoid=P``) can
leave them out of its draw on a share ``P`` of its decisions.

A card is a likely bump when the rollout rule's own test says so (``SakuraHeuristic._quick``:
the painter's target comes within :data:`SAFETY` spaces of the Emperor's expected space, his
advance from the round's earlier cards and the card's own garden move included); a choice is
one when the engine's preview of that answer bumps the chooser's painter.

>>> from sakura.engine import make_game
>>> from sakura.bots.heuristics import heuristic_for
>>> game = make_game("sakura", {"players": 4})
>>> view = game.new_initial_state(3).view(0)
>>> flags = obvious_bumps(heuristic_for(game), view)
>>> len(flags) == len(view.legal_actions) and all(isinstance(f, bool) for f in flags)
True
"""

from __future__ import annotations

from typing import Any

from sakura.bots.sakura_heuristic import _rounded
from sakura.engine import View
from sakura.engine.games.sakura import Play

_CLOSEST, _FURTHEST, _P, _P_CHOICE = "C", "F", "P", "P?"  # the engine's card kinds
# Spaces short of the Emperor's expected space that a newcomer keeps clear: the rollout rule's
# own 0.3 left the beginner walking into him 1.6x as often as club; 2.3 brought it to 1.3x
# (benchmarks/ladder.py --bumps; docs/bots.md).
SAFETY = 2.3


def obvious_bumps(heuristic: Any, view: View) -> list[bool]:
    """For each of ``view.legal_actions``: whether it plainly walks the player's painter into
    the Emperor (see the module docstring)."""
    v: Any = view
    me = v.player
    if v.pending is not None:
        bumped = {p.choice: any(b.seat == me for b in p.bumps) for p in v.preview}
        return [bumped.get(a, False) for a in v.legal_actions]
    pos = list(v.painters)
    out = []
    for text in v.legal_actions:
        action = heuristic.game.parse_action(text)
        out.append(isinstance(action, Play) and _reaches(heuristic, pos, v.emperor, me, action.card))
    return out


def _reaches(h: Any, pos: list[int], e: int, seat: int, card: int) -> bool:
    """The rollout rule's test of a likely bump (``SakuraHeuristic._quick``), as a yes or no."""
    me = pos[seat]
    ex = e + h.pre[card]
    kind = h.gk[card]
    if h.ga[card] < 0 and _rounded(ex) == me:  # the Emperor steps back onto the painter
        return True
    if kind == _CLOSEST:
        if me > 0 and not any(q > me for i, q in enumerate(pos) if i != seat):
            me -= 2
    elif kind == _FURTHEST and not any(q < me for i, q in enumerate(pos) if i != seat):
        me += 2
    kind, amount = h.pk[card], h.pa[card]
    if kind == _P:
        target = me + amount
    elif kind == _P_CHOICE:
        target = me + amount if me + amount < ex - SAFETY else me - amount
    else:
        target = h._quick_target(pos, seat, kind, amount, me)
    return bool(target >= ex - SAFETY)
