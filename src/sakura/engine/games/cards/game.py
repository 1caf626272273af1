"""The three-area Sakura card game's facts and the factory of its states.

A game holds its :class:`~.deck.CardsDeck` (the published ``data/cards.txt`` unless another is
given) and the tables the rules read from it. Its config carries a non-published deck as the
data file's text (``{"deck": "colours: ..."}``), so records and the server carry it as they do
Sakura's deck; the published deck's config stays ``{}``.

>>> game = CardsGame()
>>> state = game.new_initial_state(seed=1)
>>> state.current_players(), len(state.hands[0]), len(state.aside)
((1,), 10, 20)
>>> big = CardsGame(parse_cards(default_cards().text().replace("copies: 2", "copies: 3")))
>>> len(big.cards), CardsGame.from_config(big.config_json()) == big, game.config_json()
(60, True, {})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

from sakura.engine.errors import InvalidConfigError, InvalidStateError
from sakura.engine.games.cards.actions import CardsAction, parse_action
from sakura.engine.games.cards.deck import (
    AreaScore,
    CardsDeck,
    card_number,
    deck_explain_area,
    deck_score_area,
    default_cards,
    parse_cards,
)
from sakura.engine.games.cards.events import event_from_json
from sakura.engine.games.cards.sample import sample_state
from sakura.engine.games.cards.serialize import load_state, saved_config
from sakura.engine.games.cards.state import CardsState
from sakura.engine.games.cards.view import CardsView, make_view
from sakura.engine.protocol import Event


class CardsGame:
    """Two players, three areas; the published deck: forty cards, three rounds (config ``{}``).
    ``deck``: another box (config ``{"deck": its text}``). Immutable; share it freely."""

    name: ClassVar[str] = "sakura-cards"

    def __init__(self, deck: CardsDeck | None = None) -> None:
        if deck is not None and not isinstance(deck, CardsDeck):
            raise InvalidConfigError(f"a card game's deck is a CardsDeck, not {type(deck).__name__}")
        self.deck: CardsDeck = deck or default_cards()
        self.cards: tuple[str, ...] = self.deck.cards  # the order a round's shuffle starts from
        self.names: tuple[str, ...] = tuple(sorted(set(self.cards), key=self.deck.rank_key))
        self.rank: dict[str, int] = {name: i for i, name in enumerate(self.names)}  # a hand's order
        self.number: dict[str, int] = {name: card_number(name) for name in self.names}
        self.rules: tuple[int, ...] = self.deck.rules

    def __repr__(self) -> str:
        return "CardsGame()" if self.deck == default_cards() else f"CardsGame({self.deck!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardsGame) and self.deck == other.deck

    def __hash__(self) -> int:
        return hash((self.name, self.deck))

    def score_area(self, cards: Sequence[str]) -> int:
        """An area's score by this deck's scores (see :func:`~.deck.score_area`)."""
        return deck_score_area(self.deck, cards, self.rank, self.rules)

    def explain_area(self, cards: Sequence[str]) -> AreaScore:
        """:meth:`score_area` with the three cards behind it."""
        return deck_explain_area(self.deck, cards, self.rank, self.rules)

    def sort_cards(self, cards: list[str]) -> None:
        """Sort a hand in place: lowest number first, then by colour, plain before blossom."""
        cards.sort(key=self.rank.__getitem__)

    @property
    def num_players(self) -> int:
        return 2

    def config_json(self) -> dict[str, Any]:
        return {} if self.deck == default_cards() else {"deck": self.deck.text()}

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> CardsGame:
        unknown = set(config) - {"players", "deck"}
        if unknown:
            raise InvalidConfigError(
                f"unknown config keys for sakura-cards: {sorted(unknown)} (it has 'deck')"
            )
        if config.get("players", 2) != 2:
            raise InvalidConfigError(f"sakura-cards is for two players, not {config['players']!r}")
        deck = config.get("deck")
        if deck is not None and not isinstance(deck, str):
            raise InvalidConfigError(
                f"the config's deck is a card data file's text, not {type(deck).__name__}"
            )
        return cls(parse_cards(deck, "the config's deck") if deck is not None else None)

    def new_initial_state(self, seed: int | str = 0, *, events: bool = True) -> CardsState:
        """Draw the first player, shuffle (seeded), deal a hand each (ten of the published
        forty cards), set the rest aside."""
        return CardsState.new(self, seed, events=events)

    def new_fast_state(self, seed: int | str = 0) -> CardsState:
        """The fast path (:class:`~sakura.engine.protocol.FastGame`): a new game without
        event values, to step with ``apply_fast``."""
        return CardsState.new(self, seed, events=False)

    def view_of(self, state: CardsState, player: int | None) -> CardsView:
        """``state.view(player)``. Views are made here, above the state's module, so that
        the modules import one way: values, then the state, then views and loading."""
        return make_view(state, player)

    def parse_action(self, text: str) -> CardsAction:
        return parse_action(text, self.rank)

    def view_from_json(self, data: Mapping[str, Any]) -> CardsView:
        """``CardsView.from_json``: the view whose ``to_json`` is ``data``."""
        return CardsView.from_json(data)

    def event_from_json(self, data: Mapping[str, Any]) -> Event:
        """The event whose ``to_json`` is ``data`` (see :mod:`.events`)."""
        return event_from_json(data)

    def sample_state(self, view: CardsView, seed: int | str, *, events: bool = False) -> CardsState:
        """A full state consistent with ``view`` (see :mod:`.sample`): for search bots."""
        return sample_state(self, view, seed, events=events)

    def sampler(self, view: CardsView, *, events: bool = False) -> Callable[[int | str], CardsState]:
        """``sample_state`` for many seeds of one view: ``sampler(view)(seed)`` is
        ``sample_state(view, seed)``."""
        return partial(sample_state, self, view, events=events)

    def state_from_json(self, data: Mapping[str, Any]) -> CardsState:
        state = state_from_json(data)
        if state.game != self:
            raise InvalidStateError("the saved state belongs to another game")
        return state


def state_from_json(data: Mapping[str, Any], *, events: bool = True) -> CardsState:
    """A state saved with ``CardsState.to_json``, its game rebuilt from the saved config.
    Raises :class:`InvalidStateError` for anything that is not such a state."""
    config = saved_config(data)
    try:
        game = CardsGame.from_config(config)
    except ValueError as exc:
        raise InvalidStateError(str(exc)) from None
    return load_state(game, data, events=events)
