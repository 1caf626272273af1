"""The rollout best response (``br``): every action on the same deals against a model of the
others, from the bot's view only, reproducible under a seed, legal at every table."""

from __future__ import annotations

from typing import Any

import pytest
from tests.bots.test_bots import _states_differing_in_hidden_parts, play

from sakura.bots import BotError, Limit, make_bot
from sakura.bots.rollouts import RolloutBot, _better_half
from sakura.engine import make_game
from sakura.engine.games.sakura import SakuraGame


@pytest.mark.parametrize("spec", ["br:40", "br:40,halve=1,model=0.5", "br:30,lookahead=0"])
@pytest.mark.parametrize("moves", [0, 2, 9, 23])
def test_the_rollout_bot_cannot_see_hidden_information(spec: str, moves: int) -> None:
    """The same view and seed give the same action, however the unseen part differs (other
    hands, secret picks, deck order, generator)."""
    a, b, me = _states_differing_in_hidden_parts(seed=moves + 3, moves=moves)
    assert a.view(me) == b.view(me)
    game = a.game
    assert make_bot(spec, game, seed=42).act(a.view(me)) == make_bot(spec, game, seed=42).act(b.view(me))


def test_the_rollout_bot_is_reproducible_under_a_seed() -> None:
    game = SakuraGame(4)
    specs = ["br:20,halve=1", "greedy", "greedy", "greedy"]
    first = play(game, specs, seed=3)[1]
    assert first == play(game, specs, seed=3)[1]


@pytest.mark.parametrize(
    ("players", "variant"), [(2, "court"), (2, "tactical"), (4, "standard"), (6, "standard")]
)
def test_the_rollout_bot_plays_whole_games_legally(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    specs = ["br:12,lookahead=4"] + ["greedy"] * (players - 1)
    state, moves = play(game, specs, seed=players)
    assert state.is_terminal() and state.outcome() is not None
    assert len(moves) > 10


def test_the_rollout_bot_plays_the_card_game() -> None:
    game = make_game("sakura-cards")
    state, _ = play(game, ["br:6,lookahead=2", "greedy"], seed=2)
    assert state.is_terminal()


def test_every_action_is_played_on_the_same_deals() -> None:
    """A budget that ends within a deal still compares only actions that finished the same
    deals; each deal costs one playout an action."""
    game = SakuraGame(4)
    view = game.new_initial_state(11).view(0)
    actions = len(view.legal_actions)
    bot = RolloutBot(game, 1, Limit(iterations=3 * actions + 2), lookahead=2)
    assert str(bot.act(view)) in view.legal_actions
    assert bot.last_deals == 4  # three whole deals and a partial one


def test_halving_keeps_the_better_half_and_at_least_two() -> None:
    totals, counts = [1.0, 5.0, 3.0, 4.0, 0.0], [2, 2, 2, 2, 2]
    assert _better_half([0, 1, 2, 3, 4], totals, counts) == [1, 2, 3]
    assert _better_half([1, 2, 3], totals, counts) == [1, 3]
    assert _better_half([1, 3], totals, counts) == [1, 3]


def test_bad_options_are_refused() -> None:
    game: Any = SakuraGame(4)
    for spec in ("br:4,halve=2", "br:4,depth=2", "br:4,w=x", "br:4,lookahead=-1"):
        with pytest.raises(BotError, match=r"br option|is a number"):
            make_bot(spec, game, 1)


def test_given_models_play_every_playout_to_its_end() -> None:
    """With ``me`` and ``others`` given, the bot's own later decisions go to ``me`` and every
    other seat's (now and later) to ``others``, each with a state of the playout, until the
    game ends: no heuristic look-ahead, no cheap rule."""
    game = SakuraGame(4)
    state = game.new_initial_state(5)
    moves = 0
    while moves < 12 or 2 not in state.current_players() or len(state.legal_actions(2)) < 2:
        for p in state.current_players():  # a few rounds in, so that the playouts are short
            state.apply_action(p, state.legal_actions(p)[0])
            moves += 1
    view = state.view(2)
    calls: dict[str, set[int]] = {"me": set(), "others": set()}
    ended: list[bool] = []

    def model(name: str) -> Any:
        def decide(s: Any, seat: int, rng: Any) -> Any:
            calls[name].add(seat)
            return s.legal_actions(seat)[-1]

        return decide

    bot = RolloutBot(game, 1, Limit(iterations=12), me=model("me"), others=model("others"))
    reward = bot._reward

    def checked(s: Any, seat: int) -> float:
        ended.append(s.is_terminal())
        return reward(s, seat)

    bot._reward = checked  # type: ignore[method-assign]
    assert str(bot.act(view)) in view.legal_actions
    assert calls == {"me": {2}, "others": {0, 1, 3}}
    assert ended and all(ended)
