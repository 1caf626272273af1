"""The fixed-size numeric face of a game: observation slots, action ids, scores for rewards.

Every RL adapter (PettingZoo, Gymnasium, OpenSpiel) is generic; what is particular to a game
lives in one small module per game (``sakura_encoding``, ``cards_encoding``) that subclasses
:class:`Encoder`. An encoder reads **only a player's view** (``state.view(seat)``), never a
state: what a view hides, an observation cannot show. ``tests/rl/test_hidden_information.py``
checks that by drawing other full states consistent with a view (``Game.sample_state``).

The layout of an observation is data (:class:`Layout`, a list of named :class:`Slot`), so that
``docs/rl.md`` and the tests can say what each number means and which view field it reads.

Speed: every player's view shows the same public board, only from another seat. The public
part is encoded once per board (memoised on a key made of the public fields the view shows)
in seat order, as lists of indices and values, and each player's observation gets it moved
to that player's places, then its own private slots. It stays a function of the player's own
view: the key is read from it. The ParallelEnv encodes every seat at once
(:meth:`Encoder.views`, :meth:`Encoder.encode_all`, one array for all), and the numbers are
written one at a time through memoryviews, which ``encoding.pxd`` types for the compiled
build (a C loop, where numpy's fancy indexing costs a microsecond or more a call).

>>> from sakura.engine import make_game
>>> encoder = encoder_for(make_game("sakura", {"players": 3}))
>>> encoder.layout["hand"].size, encoder.num_actions
(60, 62)
>>> encoder.action_id("play 17"), encoder.action_text(61)
(16, 'back')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sakura.engine import Action, Game, Outcome

# The version of every game's observation layout and action ids. Bump it on any change to
# an encoder (a slot added, moved or rescaled; an id renumbered): environments publish it in
# their metadata (``observation_layout_version``), papers cite it, and a shipped policy
# trained on another version refuses to load (``sakura.rl.policy``).
LAYOUT_VERSION = 1

OBS_DTYPE = np.float32
MASK_DTYPE = np.int8  # what gymnasium's Discrete.sample(mask=...) expects


@dataclass(frozen=True, slots=True)
class Slot:
    """A named run of ``size`` numbers from ``start``: what they mean, which view field(s)
    they are read from."""

    name: str
    start: int
    size: int
    meaning: str
    source: str
    seats: int = 0  # > 0: ``seats`` equal blocks, one a seat, rotated so the viewer comes first
    private: bool = False  # read from the viewer's own hand or choice (not the public board)

    @property
    def stop(self) -> int:
        return self.start + self.size


class Layout:
    """The slots of a vector, in order; ``size`` is the vector's length."""

    def __init__(self) -> None:
        self._slots: dict[str, Slot] = {}
        self.size = 0

    def add(
        self, name: str, size: int, meaning: str, source: str, *, seats: int = 0, private: bool = False
    ) -> int:
        """Append a slot; returns its start (the offset the encoder writes at)."""
        if name in self._slots:
            raise ValueError(f"slot {name!r} is declared twice")
        if seats and size % seats:
            raise ValueError(f"slot {name!r}: {size} numbers do not split into {seats} seats")
        slot = Slot(name, self.size, size, meaning, source, seats, private)
        self._slots[name] = slot
        self.size += size
        return slot.start

    def __getitem__(self, name: str) -> Slot:
        return self._slots[name]

    def __contains__(self, name: object) -> bool:
        return name in self._slots

    def __iter__(self) -> Iterator[Slot]:
        return iter(self._slots.values())

    def __len__(self) -> int:
        return len(self._slots)

    def markdown(self) -> str:
        """The layout as a Markdown table (``docs/rl.md`` shows these)."""
        rows = ["| slot | offset | size | meaning | view field |", "|---|---:|---:|---|---|"]
        rows += [f"| `{s.name}` | {s.start} | {s.size} | {s.meaning} | `{s.source}` |" for s in self]
        return "\n".join(rows)


Writes = tuple[list[int], list[int], list[float]]  # indices set to 1; indices and their values
Cells = Any  # a flat memoryview of an array's numbers (``encoding.pxd`` types it for the compiler)


class Encoder(ABC):
    """A game's fixed observation layout and action ids, read from views only.

    Subclasses fill ``layout`` (and ``history``, the extra slots of OpenSpiel's
    information-state tensor, if the view forgets something a player saw earlier),
    ``action_texts`` (id -> the action's text form; ids are dense ``0..num_actions-1``),
    ``score_scale``, ``players`` and ``painters``, call :meth:`_finish`, and implement
    :meth:`public_key`, :meth:`encode_public`, :meth:`encode_private`, :meth:`scores` and
    :meth:`describe`.
    """

    game: Game[Any]
    layout: Layout
    history: Layout
    action_texts: tuple[str, ...]
    score_scale: float
    players: int
    painters: int

    def _finish(self) -> None:
        """Build the reverse tables once the subclass has set its actions and layout."""
        self.ids = {text: i for i, text in enumerate(self.action_texts)}
        if len(self.ids) != len(self.action_texts):
            raise ValueError("two action ids share a text form")
        self.actions: tuple[Action, ...] = tuple(self.game.parse_action(t) for t in self.action_texts)
        self._perm = [self._rotated_order(seat) for seat in range(self.players)]
        # Where number ``i`` of the seat-ordered public part goes in ``seat``'s observation:
        # ``_to_seat[seat * size + i]`` (the inverse of ``_perm[seat]``), as int32, since the
        # writes go through typed memoryviews in the compiled build (``_fill``).
        self._to_seat = np.concatenate([np.argsort(p) for p in self._perm]).astype(np.int32)
        self._key: Any = None
        self._writes: Writes = ([], [], [])

    def _rotated_order(self, seat: int) -> np.ndarray:
        """Where each number of ``seat``'s observation is in the seat-ordered public vector."""
        order = np.arange(self.layout.size)
        for slot in self.layout:
            if not slot.seats:
                continue
            block = slot.size // slot.seats
            for r in range(slot.seats):
                absolute = (r + seat) % self.players if r < self.players else r
                order[slot.start + r * block : slot.start + (r + 1) * block] = (
                    slot.start + absolute * block + np.arange(block)
                )
        return order

    @property
    def num_actions(self) -> int:
        return len(self.action_texts)

    @property
    def size(self) -> int:
        return self.layout.size

    def action_id(self, text: str) -> int:
        return self.ids[text]

    def action_text(self, action_id: int) -> str:
        return self.action_texts[action_id]

    def legal_ids(self, view: Any) -> list[int]:
        """The ids of ``view.legal_actions`` (the viewer's own), ascending."""
        ids = self.ids
        out = [ids[t] for t in view.legal_actions]
        out.sort()
        return out

    def mask(self, view: Any, size: int | None = None) -> np.ndarray:
        """0/1 over the action ids (``size`` pads with zeros, e.g. for an extra wait id)."""
        out = np.zeros(size or self.num_actions, dtype=MASK_DTYPE)
        out[self.legal_ids(view)] = 1
        return out

    def encode(self, view: Any) -> np.ndarray:
        """The observation of ``view.player``: ``float32`` of shape ``(layout.size,)``, every
        number in [0, 1]. Raises ``ValueError`` for a spectator's view."""
        me = check_player_view(view)
        size = self.layout.size
        out = np.zeros(size, dtype=OBS_DTYPE)
        _fill(
            out.data, size, self._to_seat.data, [me], [self._public_writes(view)], [self.encode_private(view)]
        )
        return out

    def views(self, state: Any) -> Sequence[Any]:
        """Every seat's view of ``state``, in seat order, as the engine makes them
        (``state.view(seat)``; a game module may offer a faster way to make them all at once,
        which its encoder then uses). The encoder reads nothing else of the state."""
        return [state.view(seat) for seat in range(self.players)]

    def encode_all(self, views: Sequence[Any]) -> np.ndarray:
        """Every seat's observation at once: row ``seat`` of the ``(len(views), size)`` result
        is ``encode(views[seat])`` (``views`` in seat order, as :meth:`views` gives them)."""
        seats = [check_player_view(view) for view in views]
        if seats != list(range(len(views))):
            raise ValueError(f"give the views in seat order, not those of seats {seats}")
        size = self.layout.size
        out = np.zeros((len(views), size), dtype=OBS_DTYPE)
        _fill(
            out.reshape(-1).data,
            size,
            self._to_seat.data,
            seats,
            [self._public_writes(view) for view in views],
            [self.encode_private(view) for view in views],
        )
        return out

    def _public_writes(self, view: Any) -> Writes:
        """The public part's writes, seats in seat order (memoised on the view's public key)."""
        key = self.public_key(view)
        if key != self._key:
            self._key, self._writes = key, self.encode_public(view)
        return self._writes

    def forget(self) -> None:
        """Drop the memoised public part (the tests compare with and without it)."""
        self._key = None

    @abstractmethod
    def public_key(self, view: Any) -> Any:
        """Every public field of the view that :meth:`encode_public` reads, as a hashable value."""

    @abstractmethod
    def encode_public(self, view: Any) -> Writes:
        """The public slots, seats in seat order (seat 0 first, the court painter last)."""

    @abstractmethod
    def encode_private(self, view: Any) -> Writes:
        """The viewer's private slots (its hand, its choices)."""

    @abstractmethod
    def scores(self, view: Any) -> Sequence[float]:
        """The public scores by seat that rewards follow (tokens, points)."""

    @abstractmethod
    def describe(self, view: Any) -> str:
        """A few lines of text of a (spectator's) view: the ``ansi`` render."""

    def update_history(self, history: np.ndarray, view: Any) -> None:  # noqa: B027 (optional hook)
        """Fold ``view`` into the player's running history slots (``self.history``). The
        default has none: the view itself holds everything the player has seen that matters."""


def _fill(  # noqa: PLR0917
    out: Cells,
    size: int,
    to_seat: Cells,
    seats: list[int],
    public: list[Writes],
    private: list[Writes],
) -> None:
    """Write the observations (``size`` numbers each) into ``out``, which holds zeros: the
    ``r``-th is seat ``seats[r]``'s, its public writes (``public[r]``, in the seat-ordered
    layout) moved to that seat's places (``to_seat[seat * size + i]``), its private writes
    (``private[r]``) as they are. One element at a time: in the compiled build a typed loop,
    a few nanoseconds an element, where numpy's fancy indexing costs a microsecond a call."""
    for row in range(len(seats)):
        base = row * size
        order = seats[row] * size
        ones, idx, val = public[row]
        for i in ones:
            out[base + to_seat[order + i]] = 1.0
        for k in range(len(idx)):
            out[base + to_seat[order + idx[k]]] = val[k]
        ones, idx, val = private[row]
        for i in ones:
            out[base + i] = 1.0
        for k in range(len(idx)):
            out[base + idx[k]] = val[k]


def mark(out: Cells, size: int, ids: list[list[int]]) -> None:
    """``out[r * size + i] = 1`` for every ``i`` of ``ids[r]`` (rows of action masks)."""
    for row in range(len(ids)):
        base = row * size
        for i in ids[row]:
            out[base + i] = 1


def check_player_view(view: Any) -> int:
    """The viewer's seat; a spectator's view has no observation."""
    player = view.player
    if player is None:
        raise ValueError("an observation is a player's: encode a seat's view, not a spectator's")
    return int(player)


def rotation(seat: int, players: int, painters: int) -> tuple[int, ...]:
    """Where each painter goes in an observation for ``seat``: itself first, then the next
    seats in order, the court painter (if any) last. Seats are relative so that one policy
    can play any seat.

    >>> rotation(2, 3, 3), rotation(1, 2, 3)
    ((1, 2, 0), (1, 0, 2))
    """
    return tuple((p - seat) % players if p < players else p for p in range(painters))


def relative_rewards(
    before: Sequence[float], after: Sequence[float], outcome: Outcome | None, scale: float, weight: float
) -> list[float]:
    """Each player's reward for one step (see ``docs/rl.md``): ``weight`` times the change of
    its score less the mean change of the others' scores, divided by ``scale``; plus, at the
    end, its share of the win (``Outcome.returns``).

    >>> relative_rewards([5, 5, 5], [8, 6, 5], None, 10, 1.0)
    [0.25, -0.05, -0.2]
    """
    n = len(after)
    gains = [a - b for a, b in zip(after, before, strict=True)]
    total = sum(gains)
    if n > 1:
        rewards = [weight * (g - (total - g) / (n - 1)) / scale for g in gains]
    else:
        rewards = [weight * g / scale for g in gains]
    if outcome is not None:
        rewards = [r + w for r, w in zip(rewards, outcome.returns(), strict=True)]
    return rewards


def encoder_for(game: Game[Any]) -> Encoder:
    """The encoder of ``game`` (one module per game of the platform)."""
    if game.name == "sakura":
        from sakura.rl.sakura_encoding import SakuraEncoder

        return SakuraEncoder(game)  # type: ignore[arg-type]
    if game.name == "sakura-cards":
        from sakura.rl.cards_encoding import CardsEncoder

        return CardsEncoder(game)  # type: ignore[arg-type]
    raise ValueError(f"no RL encoding for the game {game.name!r} (known: sakura, sakura-cards)")
