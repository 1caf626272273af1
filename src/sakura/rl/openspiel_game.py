"""OpenSpiel: ``python_sakura`` and ``python_sakura_cards`` through pyspiel's Python game API.

Importing this module registers both games::

    import sakura.rl.openspiel_game  # noqa: F401
    game = pyspiel.load_game("python_sakura", {"players": 4})

* **Sakura deals card by card.** Every card drawn is an explicit chance node whose outcomes
  are the cards it may be (uniform): the deal (five rounds of one card to each player), the
  court painter's card, each card refilling a hand, and after the deck ran out, the cards of
  the discard pile that became the deck. So no chance node has more than 60 outcomes. The
  engine stays the source of truth: it is driven with a *dealer* (``SakuraState.set_dealer``)
  naming the cards chance chose. A move that draws waits for its cards: the player acts, the
  chance nodes follow, then the engine applies the move with those cards (a probe on a clone
  tells which deck each next card comes from: the court painter's card decides whether the
  round ends in that step).
* **The card game** deals once: its root chance node chooses one of ``deals`` deals
  uniformly (parameter, default 4096); outcome ``k`` is the engine's game seeded with
  ``seed * 2**32 + k`` (its rounds reshuffle from that seed).
* **Simultaneous moves**: Sakura's card selection is a simultaneous node; a choice asked
  mid-resolution is an ordinary node of the deciding player. ``turn_based=True`` plays the
  selection one player at a time instead, each choice hidden until all are in (the engine's
  own way): that form is sequential, so ISMCTS and external-sampling MCCFR run on it.
  ``python_sakura_cards`` is sequential by nature.
* **Observations** come from ``state.view(player)`` only (``sakura.rl.encoding``); the
  information-state tensor adds what a view forgets (every card each painter revealed in
  earlier rounds); the information-state string is a digest of every view the player has
  had (perfect recall). ``resample_from_infostate`` is ``Game.sample_state(view, seed)``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pyspiel

from sakura.engine import Game, make_game
from sakura.engine.games.sakura import SakuraGame, default_layout
from sakura.rl.core import new_state
from sakura.rl.encoding import OBS_DTYPE, Encoder, encoder_for

DEFAULT_DEALS = 4096
SAKURA = "python_sakura"
CARDS = "python_sakura_cards"
SAKURA_PARAMS: dict[str, Any] = {"players": 4, "variant": "", "garden": "", "turn_based": False}
CARDS_PARAMS: dict[str, Any] = {"deals": DEFAULT_DEALS, "seed": 0}
MAX_LENGTH = {SAKURA: 1000, CARDS: 3 * 40 + 1}  # Sakura: random games take at most ~150 moves
HAND = 5
_T = pyspiel.GameType


def _game_type(short_name: str, long_name: str, sequential: bool, params: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=_T.Dynamics.SEQUENTIAL if sequential else _T.Dynamics.SIMULTANEOUS,
        chance_mode=_T.ChanceMode.EXPLICIT_STOCHASTIC,
        information=_T.Information.IMPERFECT_INFORMATION,
        utility=_T.Utility.CONSTANT_SUM,
        reward_model=_T.RewardModel.TERMINAL,
        max_num_players=6 if short_name == SAKURA else 2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


_SAKURA_TYPE = _game_type(SAKURA, "Sakura (Reiner Knizia)", False, SAKURA_PARAMS)
_SAKURA_TURNS_TYPE = _game_type(SAKURA, "Sakura (Reiner Knizia), selection turn by turn", True, SAKURA_PARAMS)
_CARDS_TYPE = _game_type(CARDS, "Sakura, the three-area card game", True, CARDS_PARAMS)


class _Shared:
    """What every state of one game shares; a clone (``copy.deepcopy``) keeps it as is."""

    def __init__(self, spiel_game: Any, game: Game[Any], params: dict[str, Any], turn_based: bool) -> None:
        self.spiel_game = spiel_game
        self.game = game
        self.encoder: Encoder = encoder_for(game)
        self.players = game.num_players
        self.turn_based = turn_based
        self.deals = int(params.get("deals", 0))
        self.salt = int(params.get("seed", 0))
        self.chance = [(k, 1.0 / self.deals) for k in range(self.deals)] if self.deals else []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


def _no_draw(deck: Sequence[int]) -> int:
    """The dealer of every engine state here between moves: each draw is a chance node, so
    a draw the probe did not foresee is a bug, never a silent top card."""
    raise RuntimeError("the engine drew a card outside OpenSpiel's chance nodes")


class _Named:
    """A dealer naming the cards chance chose, in order. Past them it notes the deck the next
    card would come from (``asked``) and draws any card: a probe on a clone, thrown away."""

    def __init__(self, cards: list[int]) -> None:
        self.cards = cards
        self.used = 0
        self.asked: tuple[int, ...] | None = None

    def __call__(self, deck: Sequence[int]) -> int:
        if self.used < len(self.cards):
            self.used += 1
            return self.cards[self.used - 1]
        if self.asked is None:
            self.asked = tuple(sorted(deck))
        return deck[0]


class _Live:
    """Everything a state changes: the engine state and each player's record, and for Sakura
    the cards dealt so far and a move waiting for its draws. pyspiel clones a Python state
    with ``copy.deepcopy``; this copies it at the engine's ``clone()`` speed."""

    def __init__(self, players: int, history_size: int) -> None:
        self.engine: Any = None
        self.digests = [b""] * players  # a chain over every view each player has had
        self.seen = [0] * players  # how many views are in that chain
        self.history = [np.zeros(history_size, dtype=OBS_DTYPE) for _ in range(players)]
        self.dealt: list[int] = []  # the deal so far, one card a chance node
        self.pending: list[tuple[int, Any]] | None = None  # a move waiting for its draws
        self.draws: list[int] = []  # the cards chance chose for it so far
        self.deck: tuple[int, ...] = ()  # the cards the next draw may be (a chance node's)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Live:
        c = _Live.__new__(_Live)
        c.engine = None
        if self.engine is not None:
            c.engine = self.engine.clone()
            if self.dealt:  # a Sakura engine: its draws stay chance nodes
                c.engine.set_dealer(_no_draw)
        c.digests = self.digests[:]
        c.seen = self.seen[:]
        c.history = [h.copy() for h in self.history]
        c.dealt = self.dealt[:]
        c.pending = None if self.pending is None else self.pending[:]
        c.draws = self.draws[:]
        c.deck = self.deck
        return c


def _chain(digest: bytes, view: Any) -> bytes:
    return hashlib.blake2b(digest + repr(view).encode(), digest_size=16).digest()


class _SpielState(pyspiel.State):  # type: ignore[misc]
    """What both games' states share: players' records, observations, returns."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        shared: _Shared = game.shared
        self._shared = shared
        self._live = _Live(shared.players, shared.encoder.history.size)

    @property
    def engine(self) -> Any:
        """The engine state (``None`` before the deal). It holds every hand: algorithms must
        look at it through ``observation_*`` and ``information_state_*`` only."""
        return self._live.engine

    def _dealing(self) -> bool:
        return self._live.engine is None

    def current_player(self) -> int:
        if self._dealing():
            return int(pyspiel.PlayerId.CHANCE)
        current = self._live.engine.current_players()
        if not current:
            return int(pyspiel.PlayerId.TERMINAL)
        if len(current) > 1 and not self._shared.turn_based:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return int(current[0])

    def _legal_actions(self, player: int) -> list[int]:
        if self._dealing():
            return []
        ids = self._shared.encoder.ids
        return sorted(ids[str(a)] for a in self._live.engine.legal_actions(player))

    def _record(self) -> None:
        """Every player sees the new situation: chain its view, fold it into its history."""
        live, encoder = self._live, self._shared.encoder
        engine = live.engine
        for p in range(self._shared.players):
            view = engine.view(p)
            live.digests[p] = _chain(live.digests[p], view)
            live.seen[p] += 1
            encoder.update_history(live.history[p], view)

    def is_terminal(self) -> bool:
        return not self._dealing() and bool(self._live.engine.is_terminal())

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._shared.players
        return list(self._live.engine.outcome().returns())

    def _resampled(self, player_id: int, sample: Any) -> Any:
        """A state holding ``sample``: the player's own record kept; the others', which the
        player does not know, restart from their views of the sample."""
        live, shared = self._live, self._shared
        new = type(self)(shared.spiel_game)
        new._live.engine = sample
        new._live.history = [h.copy() for h in live.history]  # public: every player saw those cards
        new._live.seen = live.seen[:]
        new._live.dealt = live.dealt[:]
        mine = live.digests[player_id]
        new._live.digests = [
            mine if p == player_id else _chain(b"resampled" + mine, sample.view(p))
            for p in range(shared.players)
        ]
        return new

    def __str__(self) -> str:
        engine = self._live.engine
        return "deal pending" if engine is None else str(engine.text())


class SakuraSpielState(_SpielState):
    """A game of Sakura in progress, dealt card by card. Build with ``game.new_initial_state()``."""

    @property
    def _sakura(self) -> SakuraGame:
        return cast("SakuraGame", self._shared.game)

    def _dealing(self) -> bool:
        live = self._live
        return live.engine is None or live.pending is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        live = self._live
        if live.engine is None:
            dealt = set(live.dealt)
            deck = [c for c in self._sakura.numbers if c not in dealt]
        elif live.pending is not None:
            deck = list(live.deck)
        else:
            return []
        p = 1.0 / len(deck)
        return [(card - 1, p) for card in deck]

    def _apply_action(self, action: int) -> None:
        live, shared = self._live, self._shared
        if live.engine is None:  # the deal: one card, round the table
            live.dealt.append(action + 1)
            if len(live.dealt) == HAND * shared.players:
                live.engine = self._sakura.new_initial_state(0, events=False, dealer=_Named(live.dealt))
                live.engine.set_dealer(_no_draw)
                self._record()
        elif live.pending is not None:  # a card the waiting move draws
            live.draws.append(action + 1)
            self._settle()
        else:
            seat = live.engine.current_players()[0]
            self._move([(seat, shared.encoder.actions[action])])

    def _apply_actions(self, actions: list[int]) -> None:
        actions_of = self._shared.encoder.actions
        self._move([(seat, actions_of[actions[seat]]) for seat in self._live.engine.current_players()])

    def _move(self, moves: list[tuple[int, Any]]) -> None:
        live = self._live
        live.pending, live.draws = moves, []
        self._settle()

    def _settle(self) -> None:
        """Play the waiting move on a clone with the cards chance chose; if it draws one more,
        wait for it (a chance node over the deck it comes from), else the clone is the game."""
        live = self._live
        assert live.pending is not None
        dealer = _Named(live.draws)
        engine = live.engine.clone()
        engine.set_dealer(dealer)
        for seat, action in live.pending:
            engine.apply_action(seat, action)
        if dealer.asked is not None:
            live.deck = dealer.asked
            return
        engine.set_dealer(_no_draw)
        live.engine, live.pending, live.draws, live.deck = engine, None, [], ()
        self._record()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'deal' if self._live.engine is None else 'draw'} {action + 1}"
        return self._shared.encoder.action_text(action)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SakuraSpielState:
        """A state ``player_id`` cannot tell from this one: the other hands and the secret
        cards drawn by ``Game.sample_state`` from that player's view (a seed from
        ``probability_sampler``); the cards still to draw stay chance nodes. Only where a
        player acts or at the end: a clone mid-deal would show the cards dealt to the others."""
        live = self._live
        if self._dealing():
            raise ValueError("resample_from_infostate where a player acts, not at a chance node")
        if live.engine.is_terminal():
            return self.clone()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * 2**53)
        sample = self._sakura.sample_state(live.engine.view(player_id), seed)
        sample.set_dealer(_no_draw)
        return self._resampled(player_id, sample)  # type: ignore[no-any-return]


class CardsSpielState(_SpielState):
    """A game of the card game in progress, dealt by its root chance node."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._shared.chance if self._live.engine is None else []

    def _apply_action(self, action: int) -> None:
        live, shared = self._live, self._shared
        if live.engine is None:
            live.engine = new_state(shared.game, shared.salt * 2**32 + int(action))
        else:
            seat = live.engine.current_players()[0]
            live.engine.apply_action(seat, shared.encoder.actions[action])
        self._record()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self._shared.encoder.action_text(action)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardsSpielState:
        """A state ``player_id`` cannot tell from this one: the hidden part (other hand,
        deck order, generator) drawn by ``Game.sample_state`` from that player's view."""
        live = self._live
        if live.engine is None or live.engine.is_terminal():
            return self.clone()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * 2**53)
        sample = self._shared.game.sample_state(live.engine.view(player_id), seed)
        return self._resampled(player_id, sample)  # type: ignore[no-any-return]


class _Observer:
    """OpenSpiel's observer: the player's observation (``perfect_recall=False``) or
    information state (``True``), as a tensor and a string, from that player's view."""

    def __init__(self, shared: _Shared, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"the Sakura observers take no parameters, not {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("Sakura observes for one player: public information and that player's own")
        self.encoder = encoder = shared.encoder
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        extra = encoder.history if self.perfect_recall else None
        self.tensor = np.zeros(encoder.size + (extra.size if extra else 0), dtype=OBS_DTYPE)
        self.dict = {slot.name: self.tensor[slot.start : slot.stop] for slot in encoder.layout}
        if extra:
            base = encoder.size
            self.dict.update({s.name: self.tensor[base + s.start : base + s.stop] for s in extra})

    def set_from(self, state: _SpielState, player: int) -> None:
        live = state._live
        if live.engine is None:
            self.tensor.fill(0.0)
            return
        size = self.encoder.size
        self.tensor[:size] = self.encoder.encode(live.engine.view(player))
        if self.perfect_recall:
            self.tensor[size:] = live.history[player]

    def string_from(self, state: _SpielState, player: int) -> str:
        live = state._live
        if self.perfect_recall:
            return f"p{player} seen {live.seen[player]} {live.digests[player].hex()}"
        if live.engine is None:
            return "deal pending"
        return repr(live.engine.view(player))


class _SpielGame(pyspiel.Game):  # type: ignore[misc]
    """Shared by both games: the engine game from the parameters, the game's facts."""

    short_name = ""
    defaults: dict[str, Any] = {}  # noqa: RUF012

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**self.defaults, **(params or {})}
        game, game_type, turn_based = self._engine_game(params)
        encoder = encoder_for(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoder.num_actions,
            max_chance_outcomes=self._chance_outcomes(game, params),
            num_players=game.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_LENGTH[self.short_name],
        )
        super().__init__(game_type, info, params)
        self.shared = _Shared(self, game, params, turn_based)

    def _engine_game(self, params: dict[str, Any]) -> tuple[Game[Any], Any, bool]:
        raise NotImplementedError

    def _chance_outcomes(self, game: Game[Any], params: dict[str, Any]) -> int:
        raise NotImplementedError

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.shared, iig_obs_type, params)


def garden_text(path: str) -> str:
    """The published garden's data with another ``path`` (its symbols ``G . B T S``, spaces
    optional): bridges and awards as published. A short path makes a short game."""
    layout = default_layout().text().splitlines(keepends=True)
    return "".join(
        "path: " + " ".join(path.replace(" ", "")) + "\n" if line.startswith("path:") else line
        for line in layout
    )


class SakuraSpielGame(_SpielGame):
    """``python_sakura``: parameters ``players`` (2-6), ``variant`` ("" for the default,
    "court", "tactical"), ``garden`` ("" for the published garden, or another path such as
    ``G..BT.S``: a short game for algorithms that walk whole trees), ``turn_based``."""

    short_name = SAKURA
    defaults = SAKURA_PARAMS

    def _engine_game(self, params: dict[str, Any]) -> tuple[Game[Any], Any, bool]:
        config: dict[str, Any] = {"players": int(params["players"])}
        if params["variant"]:
            config["variant"] = str(params["variant"])
        if params["garden"]:
            config["garden"] = garden_text(str(params["garden"]))
        turn_based = bool(params["turn_based"])
        return make_game("sakura", config), _SAKURA_TURNS_TYPE if turn_based else _SAKURA_TYPE, turn_based

    def _chance_outcomes(self, game: Game[Any], params: dict[str, Any]) -> int:
        return max(cast("SakuraGame", game).numbers)  # outcome id: the card less one

    def new_initial_state(self) -> SakuraSpielState:
        return SakuraSpielState(self)


class CardsSpielGame(_SpielGame):
    """``python_sakura_cards``: parameters ``deals`` and ``seed``."""

    short_name = CARDS
    defaults = CARDS_PARAMS

    def _engine_game(self, params: dict[str, Any]) -> tuple[Game[Any], Any, bool]:
        return make_game("sakura-cards"), _CARDS_TYPE, False

    def _chance_outcomes(self, game: Game[Any], params: dict[str, Any]) -> int:
        deals = int(params["deals"])
        if deals < 1:
            raise ValueError(f"deals must be at least 1, not {deals}")
        return deals

    def new_initial_state(self) -> CardsSpielState:
        return CardsSpielState(self)


def register() -> None:
    """Register both games with pyspiel (once)."""
    names = set(pyspiel.registered_names())
    if SAKURA not in names:
        pyspiel.register_game(_SAKURA_TYPE, SakuraSpielGame)
    if CARDS not in names:
        pyspiel.register_game(_CARDS_TYPE, CardsSpielGame)


register()
