"""Who plays whom, in which seat, on which deal: the tournament's schedule, as data.

Luck is cut two ways. *Seat rotation*: every line-up is played once with each rotation of its
seats. *Duplicate deals*: those rotations replay the same deal seed, so each bot is dealt
each seat's cards once. A block (every line-up, every rotation) is the unit, and the number of
games is rounded up to whole blocks. In a gauntlet the block's line-ups share one deal (the
hero meets each opponent on the same cards); in a round-robin, whose line-ups are many, each
line-up gets a deal of its own, so that the games asked are spread over enough deals (the
deal, not the game, is what the intervals count: see :mod:`sakura.tournament.intervals`).

Every game's seeds derive from the master seed and the game's place in the schedule alone,
so a game plays the same whoever plays it, in whatever order, in however many processes.

>>> plan = TournamentPlan("sakura", {"players": 3}, ("greedy", "random"), games=10, seed=1)
>>> plan.lineups()
[('greedy', 'random', 'random')]
>>> [s.seats for s in plan.setups()[:3]]
[('greedy', 'random', 'random'), ('random', 'greedy', 'random'), ('random', 'random', 'greedy')]
>>> len(plan.setups()), plan.setups()[0].seed == plan.setups()[2].seed
(12, True)
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field
from typing import Any

from sakura.tournament.play import GameSetup

ROUND_ROBIN, GAUNTLET = "round-robin", "gauntlet"
MODES = (ROUND_ROBIN, GAUNTLET)
MIN_DEALS = 30  # fewer deals than this, and the schedule says its intervals will be wide


def derive_seed(master: int, *parts: object) -> int:
    """A 63-bit seed from the master seed and a path of names and numbers (stable everywhere).

    >>> derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
    True
    """
    text = ":".join(str(p) for p in (master, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class TournamentPlan:
    """``specs`` are bot specs. ``gauntlet``: the first spec against each of the others in
    turn (one of it, the rest of the table the other spec). ``round-robin``: every table of
    distinct specs (or, with fewer specs than seats, every mix of them)."""

    game: str
    config: dict[str, Any]
    specs: tuple[str, ...]
    games: int
    seed: int = 0
    mode: str = GAUNTLET
    players: int = field(init=False)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r}; modes: {', '.join(MODES)}")
        if len(self.specs) < 2:
            raise ValueError("a tournament needs at least two bot specs")
        if len(set(self.specs)) != len(self.specs):
            raise ValueError("each bot spec may be listed once")
        if self.games < 1:
            raise ValueError("a tournament plays at least one game")
        from sakura.engine import make_game

        object.__setattr__(self, "players", make_game(self.game, self.config).num_players)

    def lineups(self) -> list[tuple[str, ...]]:
        """The tables, each as the specs of seats 0, 1, ... before rotation."""
        n = self.players
        if self.mode == GAUNTLET:
            hero, *others = self.specs
            return [(hero, *([other] * (n - 1))) for other in others]
        if len(self.specs) >= n:
            return list(itertools.combinations(self.specs, n))
        mixes = itertools.combinations_with_replacement(self.specs, n)
        return [m for m in mixes if len(set(m)) > 1]

    @property
    def block(self) -> int:
        """Games per deal: every line-up in every seat rotation."""
        return len(self.lineups()) * self.players

    @property
    def deals(self) -> int:
        """How many different deals the schedule plays."""
        blocks = self.total_games // self.block
        return blocks if self.mode == GAUNTLET else blocks * len(self.lineups())

    def warning(self, enough: int = MIN_DEALS) -> str | None:
        """What a person should know before trusting the intervals, or None."""
        if self.deals >= enough:
            return None
        per_deal = self.total_games // self.deals
        return (
            f"{self.total_games} games from only {self.deals} deals ({per_deal} games a deal: "
            f"{self.block} games make one block of every line-up in every seat); the intervals "
            f"count deals and will be wide: ask for -n {enough * per_deal} or more for {enough} deals"
        )

    @property
    def total_games(self) -> int:
        """``games`` rounded up to whole blocks."""
        return math.ceil(self.games / self.block) * self.block

    def setups(self) -> list[GameSetup]:
        config = json.dumps(self.config, sort_keys=True)
        lineups = self.lineups()
        n = self.players
        out: list[GameSetup] = []
        for block in range(self.total_games // self.block):
            for number, lineup in enumerate(lineups):
                deal = block if self.mode == GAUNTLET else block * len(lineups) + number
                deal_seed = derive_seed(self.seed, "deal", deal)
                for shift in range(n):
                    index = len(out)
                    seats = tuple(lineup[(s - shift) % n] for s in range(n))
                    bot_seeds = tuple(derive_seed(self.seed, "bot", index, s) for s in range(n))
                    out.append(GameSetup(index, deal, self.game, config, seats, deal_seed, bot_seeds))
        return out
