"""OpenSpiel: ``python_sakura`` and ``python_sakura_cards`` through pyspiel's Python game API.

Importing this module registers both games::

    import sakura.rl.openspiel_game  # noqa: F401
    game = pyspiel.load_game("python_sakura", {"players": 4})

* **Chance is explicit, once**: the root is a chance node choosing one of ``deals`` deals
  uniformly (parameter, default 4096); outcome ``k`` is the engine's game seeded with
  ``seed * 2**32 + k`` (so with ``seed=0`` it is the engine's game ``k``). The deck order,
  the court painter's draws and every reshuffle follow from that seed (the engine's
  SplitMix64 generator lives in the state). See ``docs/rl.md`` for what that means.
* **Simultaneous moves**: Sakura's card selection is a simultaneous node; a choice asked
  mid-resolution is an ordinary node of the deciding player. ``turn_based=True`` plays the
  selection one player at a time instead, each choice hidden until all are in (the engine's
  own way): that form is sequential, so OpenSpiel's ISMCTS can run on it (OpenSpiel's own
  ``load_game_as_turn_based`` wrapper cannot resample an information state).
  ``python_sakura_cards`` is sequential by nature.
* **Observations** come from ``state.view(player)`` only (``sakura.rl.encoding``); the
  information-state tensor adds what a view forgets (every card each painter revealed in
  earlier rounds); the information-state string is a digest of every view the player has
  had (perfect recall). ``resample_from_infostate`` is ``Game.sample_state(view, seed)``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pyspiel

from sakura.engine import Game, make_game
from sakura.rl.core import new_state
from sakura.rl.encoding import OBS_DTYPE, Encoder, encoder_for

DEFAULT_DEALS = 4096
SAKURA = "python_sakura"
CARDS = "python_sakura_cards"
SAKURA_PARAMS: dict[str, Any] = {
    "players": 4,
    "variant": "",
    "deals": DEFAULT_DEALS,
    "seed": 0,
    "turn_based": False,
}
CARDS_PARAMS: dict[str, Any] = {"deals": DEFAULT_DEALS, "seed": 0}
MAX_LENGTH = {SAKURA: 1000, CARDS: 3 * 40 + 1}  # Sakura: random games take at most ~150 moves
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

    def __init__(self, spiel_game: Any, game: Game[Any], deals: int, salt: int, turn_based: bool) -> None:
        self.spiel_game = spiel_game
        self.game = game
        self.encoder: Encoder = encoder_for(game)
        self.players = game.num_players
        self.deals = deals
        self.salt = salt
        self.turn_based = turn_based
        self.chance = [(k, 1.0 / deals) for k in range(deals)]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Live:
    """Everything a state changes: the engine state and each player's record. pyspiel clones
    a Python state with ``copy.deepcopy``; this copies it at the engine's ``clone()`` speed."""

    def __init__(self, players: int, history_size: int) -> None:
        self.engine: Any = None
        self.digests = [b""] * players  # a chain over every view each player has had
        self.seen = [0] * players  # how many views are in that chain
        self.history = [np.zeros(history_size, dtype=OBS_DTYPE) for _ in range(players)]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Live:
        c = _Live.__new__(_Live)
        c.engine = None if self.engine is None else self.engine.clone()
        c.digests = self.digests[:]
        c.seen = self.seen[:]
        c.history = [h.copy() for h in self.history]
        return c


def _chain(digest: bytes, view: Any) -> bytes:
    return hashlib.blake2b(digest + repr(view).encode(), digest_size=16).digest()


class SakuraSpielState(pyspiel.State):  # type: ignore[misc]
    """A game in progress, for OpenSpiel. Build with ``game.new_initial_state()``."""

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

    def current_player(self) -> int:
        engine = self._live.engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        current = engine.current_players()
        if not current:
            return int(pyspiel.PlayerId.TERMINAL)
        if len(current) > 1 and not self._shared.turn_based:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return int(current[0])

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._live.engine
        if engine is None:
            return []
        ids = self._shared.encoder.ids
        return sorted(ids[str(a)] for a in engine.legal_actions(player))

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

    def _apply_actions(self, actions: list[int]) -> None:
        engine, actions_of = self._live.engine, self._shared.encoder.actions
        for seat in engine.current_players():
            engine.apply_action(seat, actions_of[actions[seat]])
        self._record()

    def _record(self) -> None:
        """Every player sees the new situation: chain its view, fold it into its history."""
        live, encoder = self._live, self._shared.encoder
        engine = live.engine
        for p in range(self._shared.players):
            view = engine.view(p)
            live.digests[p] = _chain(live.digests[p], view)
            live.seen[p] += 1
            encoder.update_history(live.history[p], view)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self._shared.encoder.action_text(action)

    def is_terminal(self) -> bool:
        engine = self._live.engine
        return engine is not None and bool(engine.is_terminal())

    def returns(self) -> list[float]:
        engine = self._live.engine
        if engine is None or not engine.is_terminal():
            return [0.0] * self._shared.players
        return list(engine.outcome().returns())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SakuraSpielState:
        """A state ``player_id`` cannot tell from this one: the hidden part (other hands and
        secret cards, deck order, generator) drawn by ``Game.sample_state`` from that player's
        view, with a seed from ``probability_sampler``. The player's own record is kept; the
        others', which the player does not know, restart from their views of the sample."""
        live, shared = self._live, self._shared
        if live.engine is None or live.engine.is_terminal():
            return self.clone()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * 2**53)
        sample = shared.game.sample_state(live.engine.view(player_id), seed)
        new = SakuraSpielState(shared.spiel_game)
        new._live.engine = sample
        new._live.history = [h.copy() for h in live.history]  # public: every player saw those cards
        new._live.seen = live.seen[:]
        mine = live.digests[player_id]
        new._live.digests = [
            mine if p == player_id else _chain(b"resampled" + mine, sample.view(p))
            for p in range(shared.players)
        ]
        return new

    def __str__(self) -> str:
        engine = self._live.engine
        return "deal pending" if engine is None else str(engine.text())


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

    def set_from(self, state: SakuraSpielState, player: int) -> None:
        live = state._live
        if live.engine is None:
            self.tensor.fill(0.0)
            return
        size = self.encoder.size
        self.tensor[:size] = self.encoder.encode(live.engine.view(player))
        if self.perfect_recall:
            self.tensor[size:] = live.history[player]

    def string_from(self, state: SakuraSpielState, player: int) -> str:
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
        deals = int(params["deals"])
        if deals < 1:
            raise ValueError(f"deals must be at least 1, not {deals}")
        game, game_type, turn_based = self._engine_game(params)
        n = game.num_players
        encoder = encoder_for(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoder.num_actions,
            max_chance_outcomes=deals,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_LENGTH[self.short_name],
        )
        super().__init__(game_type, info, params)
        self.shared = _Shared(self, game, deals, int(params["seed"]), turn_based)

    def _engine_game(self, params: dict[str, Any]) -> tuple[Game[Any], Any, bool]:
        raise NotImplementedError

    def new_initial_state(self) -> SakuraSpielState:
        return SakuraSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.shared, iig_obs_type, params)


class SakuraSpielGame(_SpielGame):
    """``python_sakura``: parameters ``players`` (2-6), ``variant`` ("" for the default,
    "court", "tactical"), ``deals``, ``seed``, ``turn_based``."""

    short_name = SAKURA
    defaults = SAKURA_PARAMS

    def _engine_game(self, params: dict[str, Any]) -> tuple[Game[Any], Any, bool]:
        config: dict[str, Any] = {"players": int(params["players"])}
        if params["variant"]:
            config["variant"] = str(params["variant"])
        turn_based = bool(params["turn_based"])
        return make_game("sakura", config), _SAKURA_TURNS_TYPE if turn_based else _SAKURA_TYPE, turn_based


class CardsSpielGame(_SpielGame):
    """``python_sakura_cards``: parameters ``deals`` and ``seed``."""

    short_name = CARDS
    defaults = CARDS_PARAMS

    def _engine_game(self, params: dict[str, Any]) -> tuple[Game[Any], Any, bool]:
        return make_game("sakura-cards"), _CARDS_TYPE, False


def register() -> None:
    """Register both games with pyspiel (once)."""
    names = set(pyspiel.registered_names())
    if SAKURA not in names:
        pyspiel.register_game(_SAKURA_TYPE, SakuraSpielGame)
    if CARDS not in names:
        pyspiel.register_game(_CARDS_TYPE, CardsSpielGame)


register()
