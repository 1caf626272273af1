"""What every batched env does alike: checking a batch of actions against the masks, handing
out its buffers read-only, and dealing every table a new game from its seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

_U64 = 1 << 64

ILLEGAL_MODES = ("raise", "replace")


def check_illegal(illegal: str) -> str:
    if illegal not in ILLEGAL_MODES:
        raise ValueError(f"illegal= must be one of {ILLEGAL_MODES}, not {illegal!r}")
    return illegal


def check_num_envs(num_envs: int) -> int:
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs is a positive whole number, not {num_envs!r}")
    return num_envs


def checked_actions(
    mask: np.ndarray, actions: np.ndarray, ended: np.ndarray, wait: int, illegal: str
) -> np.ndarray:
    """The actions of the seats that act (their mask is not ``wait`` alone, their table not
    just ended), checked against their masks: ``raise``, a ``ValueError`` naming the first
    bad one before any table moves; ``replace``, the lowest legal id instead."""
    acting = (mask[:, :, wait] == 0) & ~ended[:, None]
    ids = np.clip(actions, 0, wait)
    legal = np.take_along_axis(mask, ids[..., None], axis=2)[..., 0] == 1
    legal &= actions == ids
    bad = acting & ~legal
    if not bad.any():
        return actions
    if illegal == "raise":
        game, seat = (int(x) for x in np.argwhere(bad)[0])
        legal_ids = np.flatnonzero(mask[game, seat]).tolist()
        raise ValueError(
            f"table {game}, seat {seat}: action {int(actions[game, seat])} is not legal now; "
            f"legal: {legal_ids[:20]}{'...' if len(legal_ids) > 20 else ''}"
        )
    return np.where(bad, mask.argmax(axis=2), actions)


def read_only(array: np.ndarray) -> np.ndarray:
    """A view of ``array`` that cannot be written through."""
    view = array.view()
    view.flags.writeable = False
    return view


class Batched:
    """The seeds and the reset every batched env shares (its ``games`` deal, its ``observe``
    reads): table ``i`` plays the game of one seed, so the reference engine can replay it."""

    num_envs: int
    games: Any
    rewards: np.ndarray
    _all: np.ndarray
    _ended: np.ndarray

    @property
    def seeds(self) -> list[int]:
        """The seed of the game each table plays now (``new_initial_state(seed)`` replays it)."""
        return [int(s) for s in self.games.seed]

    def reset(self, seed: int | Sequence[int] = 0) -> tuple[np.ndarray, np.ndarray]:
        """New games on every table: table ``i`` from ``seed + i`` (or ``seed[i]``)."""
        if isinstance(seed, (int, np.integer)):
            seeds = [(int(seed) + i) % _U64 for i in range(self.num_envs)]
        else:
            seeds = [int(s) % _U64 for s in seed]
            if len(seeds) != self.num_envs:
                raise ValueError(f"{self.num_envs} seeds needed, got {len(seeds)}")
        self.games.deal(self._all, seeds)
        self._ended[:] = False
        self.rewards[:] = 0.0
        return self.observe()

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError  # each env's own
