"""The score sheet of a game of Sakura: the tokens each painter won at each cherry tree (and
where everyone stood), the tokens lost to the Emperor (when, and by whose card), and how the
winner was decided.

It is read off the game's events, in the order the engine told them, so the web page and the
terminal show the same sheet without recomputing a rule: a page that summed the awards itself
would disagree with the engine the day a rule changes. A finished game's record, replayed,
gives its events; :func:`score_sheet` takes them.

>>> from sakura.engine.games.sakura import SakuraGame
>>> from random import Random
>>> state, rng, events = SakuraGame(players=3).new_initial_state(seed=7), Random(7), []
>>> while not state.is_terminal():
...     for seat in state.current_players():
...         events += state.apply_action(seat, rng.choice(state.legal_actions(seat)))
>>> sheet = score_sheet(events, players=3)
>>> sheet.tokens == state.outcome().scores and len(sheet.trees) == 3
True
>>> [sheet.start(p) for p in range(3)]  # "each player takes five tokens" (setup)
[5, 5, 5]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sakura.engine.games.sakura import events as ev
from sakura.engine.protocol import Event

# How the engine decided the winner (the reason of its GameEnded event and Outcome).
MOST_TOKENS = "most tokens"
CLOSEST = "most tokens, then closest to the Emperor"
SHARED = "most tokens, tied on the gate: shared win"


@dataclass(frozen=True)
class TreeScore:
    """One cherry tree scored: ``sakura`` counts from 0 along the path, ``awards`` are
    ``(seat, rank, tokens)`` as the engine gave them, ``standing`` each painter's space then."""

    sakura: int
    space: int
    round: int
    awards: tuple[tuple[int, int, int], ...]
    standing: tuple[int, ...]

    def tokens(self, seat: int) -> int:
        """The tokens ``seat`` won at this tree (0 when it won none)."""
        return sum(tokens for who, _, tokens in self.awards if who == seat)

    def rank(self, seat: int) -> int | None:
        """``seat``'s rank among the painters this tree rewarded, or ``None``."""
        return next((rank for who, rank, _ in self.awards if who == seat), None)


@dataclass(frozen=True)
class BumpLoss:
    """A painter fell from grace: it reached the Emperor (``by == "painter"``) or the Emperor
    backed onto it (``by == "emperor"``), on ``at``, and went back to ``end``. ``card`` is the
    card that caused it and ``card_of`` the seat that played it (the court painter's card has
    no player: ``None``). ``token_lost`` is false when it had no token to give back."""

    seat: int
    round: int
    at: int
    end: int
    by: str
    card: int
    card_of: int | None
    token_lost: bool


@dataclass(frozen=True)
class ScoreSheet:
    """Everything a player asks at the end: who won what where, what the Emperor took, and
    why the winner won. ``players`` are the seats that can win; ``tokens`` and ``spaces`` cover
    every painter (the court painter last, at two players)."""

    players: int
    trees: tuple[TreeScore, ...]
    bumps: tuple[BumpLoss, ...]
    tokens: tuple[int, ...]
    spaces: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str

    def earned(self, seat: int) -> int:
        """The tokens ``seat`` won at the cherry trees, before any was given back."""
        return sum(tree.tokens(seat) for tree in self.trees)

    def start(self, seat: int) -> int:
        """The tokens ``seat`` began with: its final tokens less those won, plus those given
        back (the events tell the changes; the setup's five are what remains)."""
        return self.tokens[seat] - self.earned(seat) + self.lost(seat)

    def lost(self, seat: int) -> int:
        """The tokens ``seat`` gave back to the supply when it fell from grace."""
        return sum(1 for bump in self.bumps if bump.seat == seat and bump.token_lost)

    @property
    def tied(self) -> tuple[int, ...]:
        """The players on the most tokens: more than one when the tie-break decided."""
        best = max(self.tokens[: self.players])
        return tuple(p for p in range(self.players) if self.tokens[p] == best)

    @property
    def decided_by_closeness(self) -> bool:
        """Whether tied players were parted by who stands closest to the Emperor."""
        return self.reason == CLOSEST

    def order(self) -> tuple[int, ...]:
        """The players in the engine's order: the winners first, then by tokens and, among
        equals, closest to the Emperor first (the tie-break's own measure)."""
        rest = sorted(
            (p for p in range(self.players) if p not in self.winners),
            key=lambda p: (-self.tokens[p], -self.spaces[p], p),
        )
        return (*self.winners, *rest)

    def to_json(self) -> dict[str, Any]:
        """A plain-JSON form; :meth:`from_json` reads it back equal. It carries the sums a
        page shows too (``order``, ``start``, ``lost``, each tree's ``won`` by seat), so no
        page adds them up or orders the players itself."""
        painters = range(len(self.tokens))
        return {
            "players": self.players,
            "trees": [
                {
                    "sakura": t.sakura,
                    "space": t.space,
                    "round": t.round,
                    "awards": [list(a) for a in t.awards],
                    "standing": list(t.standing),
                    "won": [t.tokens(seat) for seat in painters],
                }
                for t in self.trees
            ],
            "bumps": [
                {
                    "seat": b.seat,
                    "round": b.round,
                    "at": b.at,
                    "end": b.end,
                    "by": b.by,
                    "card": b.card,
                    "card_of": b.card_of,
                    "token_lost": b.token_lost,
                }
                for b in self.bumps
            ],
            "tokens": list(self.tokens),
            "spaces": list(self.spaces),
            "winners": list(self.winners),
            "reason": self.reason,
            "order": list(self.order()),
            "start": [self.start(seat) for seat in painters],
            "lost": [self.lost(seat) for seat in painters],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScoreSheet:
        trees = tuple(
            TreeScore(
                int(t["sakura"]),
                int(t["space"]),
                int(t["round"]),
                tuple((int(s), int(r), int(n)) for s, r, n in t["awards"]),
                tuple(int(x) for x in t["standing"]),
            )
            for t in data["trees"]
        )
        bumps = tuple(
            BumpLoss(
                int(b["seat"]),
                int(b["round"]),
                int(b["at"]),
                int(b["end"]),
                str(b["by"]),
                int(b["card"]),
                None if b["card_of"] is None else int(b["card_of"]),
                bool(b["token_lost"]),
            )
            for b in data["bumps"]
        )
        return cls(
            int(data["players"]),
            trees,
            bumps,
            tuple(int(x) for x in data["tokens"]),
            tuple(int(x) for x in data["spaces"]),
            tuple(int(x) for x in data["winners"]),
            str(data["reason"]),
        )


class IncompleteGameError(ValueError):
    """The events end before the game does: a score sheet is written at the end."""


def score_sheet(events: Iterable[Event], players: int) -> ScoreSheet:
    """The score sheet of a finished game of ``players`` players from all its events, first
    to last (as ``apply_action`` returned them, unfiltered or seen by anyone: no hidden card is
    read). At two players of the court variant the court painter is the last painter."""
    trees: list[tuple[int, int, int, tuple[tuple[int, int, int], ...], dict[int, int]]] = []
    bumps: list[BumpLoss] = []
    spaces: dict[int, int] = {}
    round_, card_of = 1, dict[int, int | None]()  # the first round starts with the deal, untold
    for event in events:
        if isinstance(event, ev.RoundStarted):
            round_ = event.round
        elif isinstance(event, ev.CardsRevealed):
            card_of = {card: seat for seat, card in event.plays}
        elif isinstance(event, ev.PainterMoved):
            spaces[event.seat] = event.end
        elif isinstance(event, ev.Bumped):
            spaces[event.seat] = event.end
            who = card_of.get(event.card)
            bumps.append(
                BumpLoss(event.seat, round_, event.at, event.end, event.by, event.card, who, event.token_lost)
            )
        elif isinstance(event, ev.SakuraScored):
            trees.append((event.sakura, event.space, round_, event.awards, dict(spaces)))
        elif isinstance(event, ev.GameEnded):
            painters = range(len(event.tokens))
            return ScoreSheet(
                players,
                tuple(
                    TreeScore(sakura, space, at, awards, tuple(then.get(p, 0) for p in painters))
                    for sakura, space, at, awards, then in trees
                ),
                tuple(bumps),
                event.tokens,
                tuple(spaces.get(p, 0) for p in painters),
                event.winners,
                event.reason,
            )
    raise IncompleteGameError("the game has not ended: no score sheet yet")
