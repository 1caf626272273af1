"""Fit Sakura's value estimate (``sakura/bots/sakura_value.py``) from games of the heuristic's bots.

Run: ``python scripts/train_value.py --players 4 --games 6000 [--seed 1]`` (adds or replaces that
table size in ``src/sakura/bots/data/sakura_value.json``).

Each game seats a random mix of ``greedy`` and ``softmax:0.5`` (plausible players who differ a
little, so positions are varied); at the start of every round the features of every seat are
recorded, and at the end each seat's win share and squashed token margin. One least-squares fit
(with a small ridge) per number of sakuras scored; games are split 80/20 by seed, and the
held-out games' mean squared error is printed beside the error of always predicting the mean,
so the fit is seen to explain something.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from sakura.bots import make_bot
from sakura.bots.sakura_heuristic import SakuraHeuristic
from sakura.bots.sakura_value import FEATURES, MARGIN_SCALE, features
from sakura.engine import make_game

DATA = Path(__file__).resolve().parents[1] / "src" / "sakura" / "bots" / "data" / "sakura_value.json"


def play(game: Any, seed: int, speed: float) -> list[tuple[int, list[float], float, float]]:
    """(sakuras scored, features, share, squashed margin) for every seat at every round start."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    players = state.num_players
    bots = [make_bot(rng.choice(("greedy", "softmax:0.5")), game, seed * 16 + p) for p in range(players)]
    rows: list[tuple[int, int, list[float]]] = []
    while not state.is_terminal():
        if state.in_selection and all(p is None for p in state.picks):
            for seat, f in enumerate(features(game, state, speed)):
                rows.append((state.scored, seat, f))
        for p in state.current_players():
            state.apply_action(p, bots[p].act(state.view(p)))
    outcome = state.outcome()
    assert outcome is not None
    shares = outcome.returns()
    scores = outcome.scores
    out = []
    for scored, seat, f in rows:
        best = max(scores[o] for o in range(players) if o != seat)
        margin = 0.5 + 0.5 * math.tanh((scores[seat] - best) / MARGIN_SCALE)
        out.append((scored, f, shares[seat], margin))
    return out


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    a = x.T @ x + ridge * len(x) * np.eye(x.shape[1])
    a[0, 0] -= ridge * len(x)  # the bias is not shrunk
    weights: np.ndarray = np.linalg.solve(a, x.T @ y)
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = make_game("sakura", {"players": args.players})
    speed = SakuraHeuristic(game).speed  # type: ignore[arg-type]
    train: list[tuple[int, list[float], float, float]] = []
    test: list[tuple[int, list[float], float, float]] = []
    for i in range(args.games):
        rows = play(game, args.seed * 1_000_003 + i, speed)
        (test if i % 5 == 4 else train).extend(rows)
        if (i + 1) % 500 == 0:
            print(f"  {i + 1}/{args.games} games", file=sys.stderr, flush=True)
    phases = 1 + max(r[0] for r in train)
    table: dict[str, Any] = {
        "features": list(FEATURES),
        "speed": speed,
        "games": args.games,
        "seed": args.seed,
        "share": [],
        "margin": [],
        "heldout": [],
    }
    for k in range(phases):
        tr = [r for r in train if r[0] == k]
        te = [r for r in test if r[0] == k]
        x, xt = np.array([r[1] for r in tr]), np.array([r[1] for r in te])
        line: dict[str, float] = {"rows": float(len(tr))}
        for name, col in (("share", 2), ("margin", 3)):
            y, yt = np.array([r[col] for r in tr]), np.array([r[col] for r in te])
            w = fit(x, y)
            table[name].append([round(float(v), 6) for v in w])
            mse = float(np.mean((np.clip(xt @ w, 0, 1) - yt) ** 2))
            base = float(np.mean((yt - y.mean()) ** 2))
            line[f"{name} mse"], line[f"{name} baseline mse"] = round(mse, 5), round(base, 5)
            print(
                f"sakuras scored {k}: {name}: held-out MSE {mse:.4f} vs {base:.4f} for the mean "
                f"(R² {1 - mse / base:.3f}), {len(tr)} rows"
            )
        table["heldout"].append(line)
    data: dict[str, Any] = json.loads(DATA.read_text("utf-8")) if DATA.exists() else {}
    data.setdefault("about", "Weights of sakura/bots/sakura_value.py, written by scripts/train_value.py")
    data.setdefault("tables", {})[str(args.players)] = table
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", "utf-8")
    print(f"wrote {DATA}")


if __name__ == "__main__":
    main()
