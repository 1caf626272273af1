"""Sakura's facts: player count, variant, deck and garden; the factory of states.

>>> game = SakuraGame(players=2, variant="tactical")
>>> game.num_painters, game.court
(3, 2)
>>> state = game.new_initial_state(seed=1)
>>> state.current_players()
(0, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from sakura.engine.errors import InvalidConfigError, InvalidStateError
from sakura.engine.games.sakura.actions import Play, SakuraAction, parse_action
from sakura.engine.games.sakura.cards import Deck, default_deck, parse_deck
from sakura.engine.games.sakura.events import event_from_json
from sakura.engine.games.sakura.garden import Garden, GardenLayout, default_layout, parse_layout
from sakura.engine.games.sakura.sample import Sampler
from sakura.engine.games.sakura.serialize import load_state, saved_config
from sakura.engine.games.sakura.state import Dealer, SakuraState
from sakura.engine.games.sakura.view import SakuraView, make_view
from sakura.engine.protocol import Event

STANDARD, COURT, TACTICAL = "standard", "court", "tactical"
VARIANTS = (STANDARD, COURT, TACTICAL)
HAND_SIZE = 5


class SakuraGame:
    """One configuration of Sakura. Immutable; share it between states freely."""

    name: ClassVar[str] = "sakura"

    def __init__(
        self,
        players: int = 4,
        variant: str | None = None,
        deck: Deck | None = None,
        layout: GardenLayout | None = None,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
            raise InvalidConfigError(f"Sakura is for 2 to 6 players, not {players!r}")
        if variant is None:
            variant = COURT if players == 2 else STANDARD
        if variant not in VARIANTS:
            raise InvalidConfigError(f"unknown variant {variant!r}; variants: {', '.join(VARIANTS)}")
        if (players == 2) != (variant in (COURT, TACTICAL)):
            raise InvalidConfigError(
                "two players play with the court painter ('court' or 'tactical'); "
                "three to six play 'standard'"
            )
        self.players = players
        self.variant = variant
        self.deck = deck or default_deck()
        self.layout = layout or default_layout()
        self.garden: Garden = self.layout.for_players(players)
        self.court = players if variant != STANDARD else -1
        self.num_painters = players + (1 if self.court >= 0 else 0)
        needed = HAND_SIZE * players + 2 * self.num_painters
        if len(self.deck.cards) < needed:
            raise InvalidConfigError(f"the deck needs at least {needed} cards for {players} players")
        if self.deck.total_tokens < self.deck.start_tokens * self.num_painters:
            raise InvalidConfigError("the box has fewer tokens than the painters start with")
        # Flat tables indexed by order number: the hot path avoids attribute lookups.
        self.numbers: tuple[int, ...] = self.deck.numbers  # built once: samples read it often
        size = max(self.numbers) + 1
        self.g_kind: list[str] = [""] * size
        self.g_amount: list[int] = [0] * size
        self.p_kind: list[str] = [""] * size
        self.p_amount: list[int] = [0] * size
        for card in self.deck.cards:
            self.g_kind[card.number] = card.garden.kind
            self.g_amount[card.number] = card.garden.amount
            self.p_kind[card.number] = card.painter.kind
            self.p_amount[card.number] = card.painter.amount
        # (garden kind, garden amount, painter kind, painter amount) by order number.
        self.ops: list[tuple[str, int, str, int]] = [
            (self.g_kind[n], self.g_amount[n], self.p_kind[n], self.p_amount[n]) for n in range(size)
        ]
        self.plays: list[Play] = [Play(n) for n in range(size)]  # shared, immutable values
        # The tactical variant's two-card plays, built once (pair_plays[card][court]).
        self.pair_plays: list[list[Play]] = (
            [[Play(a, b) for b in range(size)] for a in range(size)] if variant == TACTICAL else []
        )
        # Their texts, as views carry them (state.legal_texts).
        self.play_texts: list[str] = [str(p) for p in self.plays]
        self.pair_texts: list[list[str]] = [[str(p) for p in row] for row in self.pair_plays]
        self.seats = tuple(range(players))
        self.sakuras = self.garden.sakuras
        self.torii = self.garden.torii

    def __repr__(self) -> str:
        return f"SakuraGame(players={self.players}, variant={self.variant!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SakuraGame) and self.config_json() == other.config_json()

    def __hash__(self) -> int:
        return hash((self.players, self.variant, self.deck, self.layout))

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def is_default_data(self) -> bool:
        return self.deck == default_deck() and self.layout == default_layout()

    def config_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "variant": self.variant}
        if self.deck != default_deck():
            out["deck"] = self.deck.text()
        if self.layout != default_layout():
            out["garden"] = self.layout.text()
        return out

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SakuraGame:
        unknown = set(config) - {"players", "variant", "deck", "garden"}
        if unknown:
            raise InvalidConfigError(f"unknown Sakura config keys: {sorted(unknown)}")
        deck = parse_deck(config["deck"]) if "deck" in config else None
        layout = parse_layout(config["garden"]) if "garden" in config else None
        players = config.get("players", 4)
        try:
            players = int(players)
        except (TypeError, ValueError):
            raise InvalidConfigError(f"Sakura is for 2 to 6 players, not {players!r}") from None
        return cls(players, config.get("variant"), deck, layout)

    def new_initial_state(
        self, seed: int | str = 0, *, events: bool = True, dealer: Dealer | None = None
    ) -> SakuraState:
        """Shuffle (seeded), deal five cards to each player, Emperor on the torii, painters on
        the gate. ``events=False`` skips building event values (for fast simulation).
        ``dealer`` names every card dealt instead (one at a time, round the table, five
        times) and every later draw: see :meth:`SakuraState.set_dealer`."""
        return SakuraState.new(self, seed, events=events, dealer=dealer)

    def new_fast_state(self, seed: int | str = 0) -> SakuraState:
        """The fast path (:class:`~sakura.engine.protocol.FastGame`): a new game without
        event values, to step with ``apply_fast``."""
        return SakuraState.new(self, seed, events=False)

    def view_of(self, state: SakuraState, player: int | None) -> SakuraView:
        """``state.view(player)``. Views are made here, above the state's module, so that
        the modules import one way: values, then the state, then views and loading."""
        return make_view(state, player)

    def parse_action(self, text: str) -> SakuraAction:
        return parse_action(text)

    def view_from_json(self, data: Mapping[str, Any]) -> SakuraView:
        """``SakuraView.from_json``: the view whose ``to_json`` is ``data``."""
        return SakuraView.from_json(data)

    def event_from_json(self, data: Mapping[str, Any]) -> Event:
        """The event whose ``to_json`` is ``data`` (see :mod:`.events`)."""
        return event_from_json(data)

    def sample_state(
        self,
        view: SakuraView,
        seed: int | str,
        *,
        events: bool = False,
        likely: Mapping[int, Mapping[int, float]] | None = None,
    ) -> SakuraState:
        """A full state consistent with ``view``, its hidden part (other hands and secret
        cards, deck order, generator) drawn from ``seed``: the determinization search bots
        use, so that they decide from their own view only. ``likely`` weighs the cards of
        other seats' hands (see :class:`.sample.Sampler`)."""
        return Sampler(self, view, events=events, likely=likely)(seed)

    def sampler(
        self,
        view: SakuraView,
        *,
        events: bool = False,
        likely: Mapping[int, Mapping[int, float]] | None = None,
    ) -> Sampler:
        """``sample_state`` for many seeds of one view: ``sampler(view)(seed)`` is
        ``sample_state(view, seed)``, the view's unseen cards and set-up worked out once
        (see :class:`.sample.Sampler`)."""
        return Sampler(self, view, events=events, likely=likely)

    def state_from_json(self, data: Mapping[str, Any]) -> SakuraState:
        state = state_from_json(data)
        if state.game != self:
            raise InvalidStateError("the saved state belongs to another game config")
        return state


def state_from_json(data: Mapping[str, Any], *, events: bool = True) -> SakuraState:
    """A state saved with ``SakuraState.to_json``, its game rebuilt from the saved config.
    Raises :class:`InvalidStateError` for anything that is not such a state."""
    config = saved_config(data)
    try:
        game = SakuraGame.from_config(config)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, InvalidStateError):
            raise
        raise InvalidStateError(f"bad saved state: {exc}") from None
    return load_state(game, data, events=events)
