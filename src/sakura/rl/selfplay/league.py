"""The league: the learner's past versions, and the rule that picks who a new game is against.

Every ``snapshot_every`` updates the learner's actor is copied into the league as numpy arrays
(:class:`~sakura.rl.policy.PolicyNet`, the exported format: a past version plays exactly as its
exported file would, sampling from its masked softmax). The league keeps the newest
``max_size`` versions.

Each new game of a table draws its opponents (:meth:`League.draw`):

* with probability ``bot_share`` a bot spec (uniformly among ``bots``; ``greedy`` by default),
  so the learner keeps meeting play that is not its own;
* else, with probability ``past_share`` (and a league not empty), a past version chosen by
  **prioritized fictitious self-play** (PFSP, AlphaStar's "hard" weighting): version ``k`` has
  weight ``(1 - p_k)**2 + 0.05``, where ``p_k`` is the learner's normalised result against it,
  ``p = share * players / 2`` clipped to [0, 1] (0.5 at the fair share, 1 at twice it; a
  version never met counts ``p = 0.5``), and ``share`` the learner's win share over its last
  games against that version (an exponential average, weight ``1/20`` a game). The versions
  the learner still loses to are met most, those it beats are not forgotten (the floor);
* else pure self-play: every seat is the learner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sakura.rl.policy import PolicyNet

FLOOR = 0.05  # every past version keeps this much weight
AVERAGE = 1 / 20  # the weight of one game in a version's running win share


@dataclass
class Member:
    """A past version: its network, the update it was taken at, the learner's results against it."""

    net: PolicyNet
    update: int
    games: int = 0
    share: float = 0.0  # the learner's running win share against it (valid once games > 0)


@dataclass
class League:
    players: int
    bots: tuple[str, ...] = ("greedy",)
    bot_share: float = 0.25
    past_share: float = 0.5
    max_size: int = 20
    members: list[Member] = field(default_factory=list)
    bot_results: dict[str, list[float]] = field(default_factory=dict)  # spec -> [games, share sum]
    # Results recorded since the last ``take_recent`` (a rollout worker's copy of the league
    # sends them back to the learner's league: ``(kind, member update or bot spec, share)``).
    recent: list[tuple[str, Any, float]] = field(default_factory=list)

    def __setstate__(self, state: dict[str, Any]) -> None:
        state.setdefault("recent", [])  # checkpoints written before ``recent`` existed
        self.__dict__.update(state)

    def add(self, net: PolicyNet, update: int) -> None:
        self.members.append(Member(net, update))
        if len(self.members) > self.max_size:
            self.members.pop(0)

    def weights(self) -> np.ndarray:
        """The PFSP weight of each member (the module's rule)."""
        p = np.array(
            [min(1.0, m.share * self.players / 2) if m.games else 0.5 for m in self.members],
            dtype=np.float64,
        )
        return (1.0 - p) ** 2 + FLOOR

    def draw(self, rng: np.random.Generator) -> tuple[str, Any]:
        """``("bot", spec)``, ``("past", member)`` or ``("self", None)`` for a new game."""
        u = rng.random()
        if self.bots and u < self.bot_share:
            return "bot", self.bots[int(rng.integers(len(self.bots)))]
        if self.members and u < self.bot_share + self.past_share:
            w = self.weights()
            return "past", self.members[int(rng.choice(len(w), p=w / w.sum()))]
        return "self", None

    def record(self, kind: str, opponent: Any, share: float) -> None:
        """The learner's win share in a finished game against ``opponent``."""
        self.recent.append((kind, opponent.update if kind == "past" else opponent, share))
        if kind == "past":
            m = opponent
            m.share = share if m.games == 0 else (1 - AVERAGE) * m.share + AVERAGE * share
            m.games += 1
        elif kind == "bot":
            games, total = self.bot_results.get(opponent, [0.0, 0.0])
            self.bot_results[opponent] = [games + 1, total + share]

    def take_recent(self) -> list[tuple[str, Any, float]]:
        recent, self.recent = self.recent, []
        return recent

    def apply(self, results: list[tuple[str, Any, float]]) -> None:
        """Record results a worker's copy of the league saw (members by their update)."""
        by_update = {m.update: m for m in self.members}
        for kind, key, share in results:
            if kind == "bot":
                self.record(kind, key, share)
            elif key in by_update:
                self.record(kind, by_update[key], share)
        self.recent.clear()

    def summary(self) -> str:
        parts = [f"{len(self.members)} past versions"]
        if self.members:
            w = self.weights()
            top = int(np.argmax(w))
            parts.append(f"hardest: update {self.members[top].update} (share {self.members[top].share:.2f})")
        for spec, (games, total) in sorted(self.bot_results.items()):
            parts.append(f"vs {spec} in training: {total / max(games, 1):.3f} over {int(games)} games")
        return "; ".join(parts)
