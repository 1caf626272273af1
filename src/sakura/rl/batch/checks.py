"""What every batched env does alike: checking a batch of actions against the masks, and
handing out its buffers read-only."""

from __future__ import annotations

import numpy as np

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
