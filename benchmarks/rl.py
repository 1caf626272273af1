"""How fast are the RL environments, beside the raw engine? Steps per second on one core.

Run: ``python benchmarks/rl.py [--seconds 3]``. Every figure plays random games: the raw
engine as ``benchmarks/engine.py`` does (*fast*: ``events=False`` and ``apply_fast``; *checked*:
``apply_action`` with events), the PettingZoo ParallelEnv with a random policy over each
agent's action mask, OpenSpiel's ``python_sakura`` through pyspiel (random legal actions,
simultaneous nodes with ``apply_actions``), and Gymnasium's ``SakuraSolo-v0`` against random bots.
Last, the batched envs in agent steps a second: ``SakuraVectorEnv`` (N games against bots,
looping over Python games) at N = 1, 16 and 256, and ``sakura.rl.batch.SakuraBatchEnv`` (N
games as arrays, every seat at once, with observations and masks) at N = 1, 64, 1,024 and
16,384, with both its backends (``numpy``, and ``compiled``: the C kernel, where it is built;
the pure build's child prints its rows as ``-``), its JAX path ``SakuraJax`` (``jit``/``vmap``,
where JAX is installed) and the batched card game ``CardsBatchEnv`` at the same N
(``rl_jax.py``), beside PettingZoo's own ``rps_v2`` and OpenSpiel's C++ ``goofspiel`` in the
same run (``--batched-only`` prints just that table; PettingZoo's rps needs ``pygame``).
Every figure is the CPU time of this one process; run it under ``taskset -c 1`` to keep it on
one core (numpy and the kernel use one thread either way).

An engine step is one action (a card chosen or a choice answered). A ParallelEnv step is one
decision point: in card selection it carries every player's card (several engine actions),
at a choice one. So the ParallelEnv is compared with the engine on *engine actions per
second*, the figure both count the same way; its own steps per second are printed too.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import sakura.rl.openspiel_game  # noqa: F401  (registers the games with pyspiel)
from sakura.engine import make_game
from sakura.rl import SakuraSoloEnv, SakuraVectorEnv
from sakura.rl.batch import SakuraBatchEnv, backends
from sakura.rl.pettingzoo_env import SakuraParallelEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))
from builds import compare_builds
from engine import measure, play_checked, play_fast  # the engine benchmark's own loops (after the path)
from rl_jax import agent_steps_cards, agent_steps_jax, jax_breakdown

TABLES: list[tuple[str, str, dict[str, Any]]] = [
    ("2p court", "sakura", {"players": 2, "variant": "court"}),
    ("4p", "sakura", {"players": 4}),
    ("6p", "sakura", {"players": 6}),
    ("cards", "sakura-cards", {}),
]


def timed(seconds: float, play: Callable[[int], tuple[int, int]]) -> tuple[float, float]:
    """Play games ``play(seed) -> (steps, engine actions)`` for ``seconds``; per second."""
    steps = actions = games = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        s, a = play(games)
        steps, actions, games = steps + s, actions + a, games + 1
    return steps / elapsed, actions / elapsed


def parallel_env_player(name: str, config: dict[str, Any]) -> Callable[[int], tuple[int, int]]:
    env = SakuraParallelEnv(name, config)
    rng = random.Random(0)

    def play(seed: int) -> tuple[int, int]:
        observations, _ = env.reset(seed=seed)
        steps = actions = 0
        while env.agents:
            actions += len(env._state.current_players())
            picks = {
                a: rng.choice(np.flatnonzero(o["action_mask"]).tolist()) for a, o in observations.items()
            }
            observations = env.step(picks)[0]
            steps += 1
        return steps, actions

    return play


def openspiel_player(name: str, config: dict[str, Any]) -> Callable[[int], tuple[int, int]]:
    import pyspiel

    if name == "sakura":
        game = pyspiel.load_game("python_sakura", {k: v for k, v in config.items()})
    else:
        game = pyspiel.load_game("python_sakura_cards")
    n = game.num_players()
    rng = random.Random(0)
    simultaneous = pyspiel.PlayerId.SIMULTANEOUS

    def play(seed: int) -> tuple[int, int]:
        state = game.new_initial_state()
        chance = random.Random(seed)
        steps = actions = 0
        while not state.is_terminal():
            if state.is_chance_node():  # Sakura deals card by card: its draws are not steps
                state.apply_action(chance.choice(state.chance_outcomes())[0])
                continue
            if state.current_player() == simultaneous:
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(n)])
                actions += n
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
            steps += 1
        return steps, actions

    return play


def solo_player(name: str, config: dict[str, Any]) -> Callable[[int], tuple[int, int]]:
    env = SakuraSoloEnv(name, config, opponents="random")
    rng = random.Random(0)

    def play(seed: int) -> tuple[int, int]:
        _, info = env.reset(seed=seed)
        steps, done = 0, False
        while not done:
            _, _, done, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
            steps += 1
        return steps, steps

    return play


def breakdown(name: str, config: dict[str, Any], games: int) -> dict[str, float]:
    """Microseconds per ParallelEnv step: the whole step, and (done again right after each
    step, on the state it left, as the step does it) building every agent's view (the engine's
    views, ``encoder.views``) and encoding them (observations, legal ids and masks). The rest
    is the engine's own work and the env's."""
    env = SakuraParallelEnv(name, config)
    enc = env.encoder
    rng = random.Random(1)
    stepping = viewing = encoding = 0.0
    steps = 0
    clock = time.process_time
    for seed in range(games):
        observations, _ = env.reset(seed=seed)
        while env.agents:
            picks = {
                a: rng.choice(np.flatnonzero(o["action_mask"]).tolist()) for a, o in observations.items()
            }
            t0 = clock()
            observations = env.step(picks)[0]
            t1 = clock()
            views = enc.views(env._state)
            t2 = clock()
            enc.forget()
            env._encode(views)
            t3 = clock()
            stepping, viewing, encoding = stepping + t1 - t0, viewing + t2 - t1, encoding + t3 - t2
            steps += 1
    per = 1e6 / steps
    return {"step": stepping * per, "views": viewing * per, "encoding": encoding * per}


def sample_masked(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly drawn legal id per row of ``masks``, without a Python loop."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def agent_steps_batched(seconds: float, num_envs: int, config: dict[str, Any]) -> float:
    """Learner decisions a second of ``SakuraVectorEnv(num_envs)`` (random bots, random masked
    actions sampled for the whole batch at once)."""
    env = SakuraVectorEnv(num_envs=num_envs, config=config, opponents="random")
    rng = np.random.default_rng(0)
    _, infos = env.reset(seed=0)
    steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        _, _, _, _, infos = env.step(sample_masked(rng, infos["action_mask"]))
        steps += num_envs
    return steps / elapsed


def agent_steps_batch_env(seconds: float, num_envs: int, players: int, backend: str = "numpy") -> float:
    """Agent actions a second of ``SakuraBatchEnv(num_envs, players, backend=backend)``: the
    actions of the seats that act at each step (every player in card selection, one at a
    choice; the seats that wait are not counted), each step returning every seat's observation,
    mask and reward. Random legal actions; only ``step`` is timed (drawing the actions is the
    policy's cost)."""
    env = SakuraBatchEnv(num_envs, players, backend=backend)
    rng = np.random.default_rng(0)
    _, mask = env.reset(seed=0)
    pool = rng.integers(1, 127, size=(4, *mask.shape), dtype=np.int8)  # random priorities
    acted = k = 0
    spent = 0.0
    while spent < seconds:
        acted += int(num_envs * players - np.count_nonzero(mask[:, :, env.wait]))
        actions = np.argmax(mask * pool[k % 4], axis=2)
        k += 1
        start = time.process_time()
        _, mask, _, _ = env.step(actions)
        spent += time.process_time() - start
    return acted / spent


def batch_breakdown(seconds: float, num_envs: int, players: int) -> tuple[float, float, float]:
    """Where a numpy ``SakuraBatchEnv`` step goes: microseconds a table-step in all, in the
    rules (the step less its observation), in the observations and masks (``observe``). (The
    compiled kernel observes each table inside its one loop: ``perf`` tells its parts apart,
    docs/rl.md.)"""
    env = SakuraBatchEnv(num_envs, players, backend="numpy")
    rng = np.random.default_rng(1)
    _, mask = env.reset(seed=1)
    pool = rng.integers(1, 127, size=(4, *mask.shape), dtype=np.int8)
    observe = env.observe
    spent = {"observe": 0.0}

    def timed_observe() -> tuple[np.ndarray, np.ndarray]:
        start = time.process_time()
        out = observe()
        spent["observe"] += time.process_time() - start
        return out

    env.observe = timed_observe  # type: ignore[method-assign]
    steps, total = 0, 0.0
    while total < seconds:
        actions = np.argmax(mask * pool[steps % 4], axis=2)
        start = time.process_time()
        _, mask, _, _ = env.step(actions)
        total += time.process_time() - start
        steps += 1
    per = 1e6 / (steps * num_envs)
    return total * per, (total - spent["observe"]) * per, spent["observe"] * per


def agent_steps_rps(seconds: float) -> float:
    """PettingZoo's own ``rps_v2`` ParallelEnv, random actions: agent actions a second."""
    from pettingzoo.classic import rps_v2

    env = rps_v2.parallel_env()
    rng = random.Random(0)
    env.reset(seed=0)
    steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        if not env.agents:
            env.reset()
        env.step({a: rng.randrange(3) for a in env.agents})
        steps += 2
    return steps / elapsed


def agent_steps_goofspiel(seconds: float) -> float:
    """OpenSpiel's C++ ``goofspiel`` (13 cards, 2 players, simultaneous), random legal actions
    through pyspiel: agent actions a second."""
    import pyspiel

    game = pyspiel.load_game("goofspiel")
    rng = random.Random(0)
    steps = 0
    state = game.new_initial_state()
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
            steps += 2
    return steps / elapsed


def batched_table(seconds: float, rounds: int = 3) -> None:
    """Every figure is measured ``rounds`` times, the rounds interleaved, and the best kept (the
    machine is shared: the best round is the one least disturbed)."""
    print(
        "\nbatched env: agent steps a second (one learner decision = one agent step; one core; "
        f"best of {rounds} interleaved rounds of {seconds / rounds:.2g} s)"
    )
    rows: dict[str, Callable[[float], float] | None] = {}
    for label, config in (("2p court", {"players": 2}), ("4p", {"players": 4})):
        for n in (1, 16, 256):
            rows[f"SakuraVectorEnv {label}, N={n}"] = lambda t, n=n, config=config: agent_steps_batched(
                t, n, config
            )
    kernel = backends.kernel() is not None
    if not kernel:
        print(f"(SakuraBatchEnv compiled: {backends.unavailable()})")
    for players in (2, 4):
        for backend in ("numpy", "compiled"):
            for n in (1, 64, 1024, 16384):
                rows[f"SakuraBatchEnv {backend} {players}p, N={n}"] = (
                    (lambda t, n=n, p=players, b=backend: agent_steps_batch_env(t, n, p, b))
                    if backend == "numpy" or kernel
                    else None
                )
    import importlib.util

    if importlib.util.find_spec("jax") is not None:  # 4 players: the target's table (compiling is slow)
        for players in (4,):
            for n in (1, 64, 1024, 16384):
                rows[f"SakuraJax (JAX on the CPU) {players}p, N={n}"] = lambda t, n=n, p=players: (
                    agent_steps_jax(t, n, p)
                )
    else:
        print("(SakuraJax left out: it needs JAX, pip install -e '.[jax]')")
    cards_kernel = backends.kernel("sakura-cards") is not None
    for backend in ("numpy", "compiled"):
        for n in (1, 64, 1024, 16384):
            rows[f"CardsBatchEnv {backend}, N={n}"] = (
                (lambda t, n=n, b=backend: agent_steps_cards(t, n, b))
                if backend == "numpy" or cards_kernel
                else None
            )
    if importlib.util.find_spec("pygame") is not None:  # PettingZoo's classic envs import it
        rows["PettingZoo rps_v2 (ParallelEnv, 2 agents)"] = agent_steps_rps
    else:
        print("(PettingZoo rps_v2 left out: it needs pygame, pip install pygame)")
    rows["OpenSpiel goofspiel (C++, 13 cards, 2 players)"] = agent_steps_goofspiel
    best = dict.fromkeys(rows, 0.0)
    for _ in range(rounds):
        for name, measure_one in rows.items():
            if measure_one is not None:
                best[name] = max(best[name], measure_one(seconds / rounds))
    goofspiel = best["OpenSpiel goofspiel (C++, 13 cards, 2 players)"]
    print(f"{'environment':<48}{'agent steps/s':>14}{'vs goofspiel':>14}")
    for name, rate in best.items():
        if rows[name] is None:  # the same lines in both builds' tables, for their ratios
            print(f"{name:<48}{'-':>14}{'-':>14}")
        else:
            print(f"{name:<48}{rate:>14,.0f}{rate / goofspiel:>13.2f}x")
    for players in (2, 4):
        label = "2p court" if players == 2 else f"{players}p"
        vector = max(v for k, v in best.items() if k.startswith(f"SakuraVectorEnv {label}"))
        for backend in ("numpy", "compiled"):
            batch = max(v for k, v in best.items() if k.startswith(f"SakuraBatchEnv {backend} {players}p"))
            if batch:
                print(
                    f"best SakuraBatchEnv {backend} {players}p / best SakuraVectorEnv {label}: "
                    f"{batch / vector:.1f}x"
                )
        batch = max(v for k, v in best.items() if k.startswith(f"SakuraBatchEnv numpy {players}p"))
        jax_rows = [v for k, v in best.items() if k.startswith(f"SakuraJax (JAX on the CPU) {players}p")]
        if jax_rows:
            print(
                f"best SakuraJax {players}p / best SakuraBatchEnv numpy {players}p: "
                f"{max(jax_rows) / batch:.2f}x"
            )
    print("\nwhere a numpy SakuraBatchEnv step goes (microseconds a table-step, 4 players)")
    print(f"{'N':>8}{'step':>8}{'rules':>8}{'observations and masks':>24}")
    for n in (64, 1024, 16384):
        step, rules, observe = batch_breakdown(seconds / rounds, n, 4)
        print(f"{n:>8,}{step:>8.2f}{rules:>8.2f}{observe:>24.2f}")
    if importlib.util.find_spec("jax") is not None:
        print("\nwhere a SakuraJax step goes (microseconds a table-step, 4 players; parts compiled alone)")
        names = ("step", "act", "observe", "deal", "reshuffle", "refill")
        print(f"{'N':>8}" + "".join(f"{name:>11}" for name in names))
        for n in (1024, 16384):
            b = jax_breakdown(n)
            print(f"{n:>8,}" + "".join(f"{b[name]:>11.2f}" for name in names))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--batched-only", action="store_true", help="only the batched-env table")
    if not compare_builds(__file__):
        return
    args = parser.parse_args()
    t = args.seconds
    if args.batched_only:
        print(f"Python {platform.python_version()} on {platform.machine()}, one core, {t:g} s per figure")
        batched_table(t)
        return
    print(f"Python {platform.python_version()} on {platform.machine()}, one core, {t:g} s per figure")
    print("engine actions per second (and environment steps per second)")
    print(
        f"{'table':<10}{'engine fast':>13}{'checked':>10}{'ParallelEnv':>13}{'(steps/s)':>11}"
        f"{'vs fast':>9}{'vs checked':>12}{'OpenSpiel':>11}{'(steps/s)':>11}{'Solo-v0 steps/s':>17}"
    )
    for label, name, config in TABLES:
        game = make_game(name, config)
        fast = measure(game, t, play_fast)[1]  # type: ignore[arg-type]
        checked = measure(game, t, play_checked)[1]  # type: ignore[arg-type]
        env_steps, env_actions = timed(t, parallel_env_player(name, config))
        spiel_steps, spiel_actions = timed(t, openspiel_player(name, config))
        solo_steps, _ = timed(t, solo_player(name, config))
        print(
            f"{label:<10}{fast:>13,.0f}{checked:>10,.0f}{env_actions:>13,.0f}{env_steps:>11,.0f}"
            f"{env_actions / fast:>9.0%}{env_actions / checked:>12.0%}{spiel_actions:>11,.0f}"
            f"{spiel_steps:>11,.0f}{solo_steps:>17,.0f}",
            flush=True,
        )
    print("\nwhere a ParallelEnv step goes (microseconds a step, 200 random games)")
    print(f"{'table':<10}{'step':>8}{'views':>8}{'encoding':>10}{'engine and env':>16}")
    for label, name, config in TABLES:
        b = breakdown(name, config, 200)
        rest = b["step"] - b["views"] - b["encoding"]
        print(f"{label:<10}{b['step']:>8.1f}{b['views']:>8.1f}{b['encoding']:>10.1f}{rest:>16.1f}")
    batched_table(t)


if __name__ == "__main__":
    main()
