"""Sakura's learned value: how a position at the start of a round is likely to end.

MCTS can stop a rollout at a round's start and ask this estimate instead of playing the game
out with its cheap rule (whose players are much weaker than the ones at the table, so the far
future it imagines is noise). The estimate is linear in a few features of the public board,
one set of weights for each sakura still to be scored, fitted offline by least squares to how
games of the heuristic's bots ended (``scripts/train_value.py``) and shipped as a data file
(``data/sakura_value.json``); evaluating it is a few dozen multiplications in plain Python, no
learning library at run time.

For each player it predicts two numbers, the two parts of the search's reward: the player's
share of the win, and its token margin over the best rival squashed as ``0.5 + 0.5 * tanh(
margin / 4)``.

Only the public board goes in (tokens, places, the Emperor, the sakuras scored), so the value
of a sampled state is the same whatever hidden cards the sample drew.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

from sakura.engine import Game, State
from sakura.engine.games.sakura import SELECTION, SakuraGame, SakuraState

FEATURES = (
    "bias",
    "tokens over best rival",
    "tokens over mean rival",
    "squashed tokens over best rival",
    "award now over best rival",
    "award now over mean rival",
    "award now over best rival, by nearness",
    "award now over mean rival, by nearness",
    "nearness of the sakura",
    "spaces behind the Emperor (capped at 8)",
    "right behind the Emperor",
    "spaces ahead of the next painter (capped at 6)",
    "on the gate",
)
MARGIN_SCALE = 4.0  # the margin part's tanh scale (the search's default ``scale``)


def features(game: SakuraGame, state: SakuraState, speed: float) -> list[list[float]]:
    """The features of :data:`FEATURES` of every seat (that can win) on ``state``'s public
    board, one list a seat."""
    pos, tokens, e, scored = state.painters, state.tokens, state.emperor, state.scored
    sakuras = game.sakuras
    awards = game.garden.last_awards if scored == len(sakuras) - 1 else game.garden.awards
    players = game.players  # seats that can win (a two-player table's court painter cannot)
    gate = pos.count(0)
    award = []
    for q in pos:
        if q == 0 and gate > 1:
            award.append(0.0)
            continue
        rank = sum(1 for r in pos if r > q)
        award.append(float(awards[rank]) if rank < len(awards) else 0.0)
    near = 1.0 / (1.0 + max(0, sakuras[scored] - e) / speed)
    out = []
    for seat in range(players):
        rivals = [s for s in range(players) if s != seat]
        best_tok = max(tokens[s] for s in rivals)
        mean_tok = sum(tokens[s] for s in rivals) / len(rivals)
        best_award = max(award[s] for s in rivals)
        mean_award = sum(award[s] for s in rivals) / len(rivals)
        me = pos[seat]
        behind = [q for s, q in enumerate(pos) if s != seat and q < me]
        t_best = float(tokens[seat] - best_tok)
        a_best = award[seat] - best_award
        a_mean = award[seat] - mean_award
        out.append(
            [
                1.0,
                t_best,
                tokens[seat] - mean_tok,
                math.tanh(t_best / 3.0),
                a_best,
                a_mean,
                a_best * near,
                a_mean * near,
                near,
                float(min(8, e - me)),
                1.0 if e - me == 1 else 0.0,
                float(min(6, me - max(behind))) if behind else 0.0,
                1.0 if me == 0 else 0.0,
            ]
        )
    return out


@dataclass(frozen=True, slots=True)
class SakuraValue:
    """The fitted weights: ``share[k]`` and ``margin[k]`` with ``k`` sakuras scored."""

    game: SakuraGame
    share: tuple[tuple[float, ...], ...]
    margin: tuple[tuple[float, ...], ...]
    speed: float

    @classmethod
    def for_game(cls, game: Game[Any]) -> SakuraValue | None:
        """The shipped weights for ``game``'s table size, or ``None`` where none were fitted."""
        if not isinstance(game, SakuraGame):
            return None
        data = load_weights()
        key = str(game.players)
        if key not in data.get("tables", {}):
            return None
        table = data["tables"][key]
        if table.get("features") != list(FEATURES):
            return None
        return cls(
            game,
            tuple(tuple(w) for w in table["share"]),
            tuple(tuple(w) for w in table["margin"]),
            float(table["speed"]),
        )

    def value(self, state: State[Any]) -> tuple[list[float], list[float]] | None:
        """(win share, squashed margin) for each player, or ``None`` where the estimate does
        not judge: anywhere but the start of a round, before any card is chosen."""
        if not isinstance(state, SakuraState):
            return None
        s = state
        progress = s.progress()
        if progress.decision != SELECTION or len(progress.players) != self.game.players:
            return None
        k = min(s.scored, len(self.share) - 1)
        ws, wm = self.share[k], self.margin[k]
        shares, margins = [], []
        for f in features(self.game, s, self.speed):
            shares.append(min(1.0, max(0.0, sum(a * b for a, b in zip(ws, f, strict=True)))))
            margins.append(min(1.0, max(0.0, sum(a * b for a, b in zip(wm, f, strict=True)))))
        return shares, margins


def load_weights() -> dict[str, Any]:
    """The shipped data file (``{}`` if it is missing)."""
    try:
        text = resources.files("sakura.bots").joinpath("data/sakura_value.json").read_text("utf-8")
    except FileNotFoundError:
        return {}
    data: dict[str, Any] = json.loads(text)
    return data
