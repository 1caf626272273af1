"""The JAX path of the batched engine (``sakura.rl.batch.jax_env.SakuraJax``) and the batched
card game, measured as ``benchmarks/rl.py`` measures ``SakuraBatchEnv`` (imported by it; run
``python benchmarks/rl.py --batched-only``).

JAX on one core: run the benchmark under ``taskset -c 0`` with
``XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"``; the time
counted is the process's CPU time (every thread's), so a figure is per core either way.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from sakura.rl.batch import CardsBatchEnv

_JAX: dict[tuple[int, int], Any] = {}  # (N, players) -> (env, policy, state): compiled once a run


def agent_steps_jax(seconds: float, num_envs: int, players: int) -> float:
    """Agent actions a second of ``SakuraJax(num_envs, players)``'s compiled ``step`` (every
    seat's observation, mask and reward each step, as ``SakuraBatchEnv``): random legal
    actions drawn on the device, untimed; compiling is done before the clock starts."""
    import jax
    import jax.numpy as jnp

    from sakura.rl.batch.jax_env import SakuraJax

    env = SakuraJax(num_envs, players)
    state = env.init(np.arange(num_envs))
    pool = jnp.asarray(
        np.random.default_rng(0).integers(1, 127, size=(4, num_envs, players, env.num_actions))
    )

    @jax.jit
    def policy(mask: jax.Array, k: jax.Array) -> tuple[jax.Array, jax.Array]:
        acting = (~mask[:, :, env.wait]).sum()
        return jnp.argmax(mask * pool[k % 4], axis=2), acting

    actions, acting = policy(state.legal_action_mask, 0)
    state = env.step(state, actions)  # compiled here
    jax.block_until_ready(state)
    acted, spent, k = 0, 0.0, 0
    while spent < seconds:
        actions, acting = policy(state.legal_action_mask, k)
        acted += int(acting)
        k += 1
        start = time.process_time()
        state = jax.block_until_ready(env.step(state, actions))
        spent += time.process_time() - start
    _JAX[num_envs, players] = env, policy, state
    return acted / spent


def agent_steps_cards(seconds: float, num_envs: int, backend: str = "numpy") -> float:
    """Agent actions a second of ``CardsBatchEnv(num_envs, backend=backend)`` (one player
    acts a step)."""
    env = CardsBatchEnv(num_envs, backend=backend)
    rng = np.random.default_rng(0)
    _, mask = env.reset(seed=0)
    pool = rng.integers(1, 127, size=(4, *mask.shape), dtype=np.int8)
    spent, k, acted = 0.0, 0, 0
    while spent < seconds:
        acted += int(2 * num_envs - np.count_nonzero(mask[:, :, env.wait]))
        actions = np.argmax(mask * pool[k % 4], axis=2)
        k += 1
        start = time.process_time()
        _, mask, _, _ = env.step(actions)
        spent += time.process_time() - start
    return acted / spent


def jax_breakdown(num_envs: int, players: int = 4, repeats: int = 5) -> dict[str, float]:
    """Where a ``SakuraJax`` step goes: microseconds a table (CPU time) of the whole step and
    of its parts compiled alone (each over every table, as the step runs them): the rules of
    the decision (``act``: a round's cards resolved under ``vmap``), the observations and
    masks, a new deal (autoreset), a reshuffle, a round's refill. Measured 30 steps into the
    games, random legal actions."""
    import jax
    import jax.numpy as jnp

    from sakura.rl.batch.jax_env import SakuraJax

    env = SakuraJax(num_envs, players)
    r = env.rules
    state = env.init(np.arange(num_envs))
    rng = np.random.default_rng(0)

    def random_actions() -> jax.Array:
        mask = np.asarray(state.legal_action_mask)
        return jnp.asarray(np.argmax(np.where(mask, rng.random(mask.shape), -1), axis=2))

    for _ in range(30):
        state = env.step(state, random_actions())
    actions, g = random_actions(), state.game
    cards = actions[:, :players].clip(0, env.tables.cards - 1)
    parts: dict[str, tuple[Any, tuple[Any, ...]]] = {
        "step": (env.step, (state, actions)),
        "act": (
            jax.jit(jax.vmap(r.act)),
            (g, g.qlen == 0, cards, jnp.full(num_envs, -1), actions[:, 0] == 0),
        ),
        "observe": (env.observe, (g,)),
        "deal": (jax.jit(jax.vmap(r.deal)), (g.seed,)),
        "reshuffle": (jax.jit(jax.vmap(r.reshuffled)), (g,)),
        "refill": (jax.jit(jax.vmap(r.refill)), (g, (g.rng, g.deck, g.deck_len), g.terminal)),
    }
    out = {}
    for name, (fn, args) in parts.items():
        jax.block_until_ready(fn(*args))  # compiled here
        start = time.process_time()
        for _ in range(repeats):
            jax.block_until_ready(fn(*args))
        out[name] = (time.process_time() - start) / repeats / num_envs * 1e6
    return out
