"""Bots: built from specs, acting from views only, legal in every phase, reproducible."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.bots.toy_game import PrizeBidsGame

from sakura.bots import Bot, BotError, Limit, MctsBot, heuristic_for, make_bot, parse_spec
from sakura.engine import Game, State, make_game
from sakura.engine.games.sakura import SakuraGame, SakuraState

SPECS = ("random", "greedy", "mcts:12")
TABLES = ((2, "court"), (2, "tactical"), (3, "standard"), (4, "standard"), (5, "standard"), (6, "standard"))


def play(game: Game[Any], specs: list[str], seed: int) -> tuple[State[Any], list[str]]:
    """Play one game, each seat's bot seeing only its view; return the end and the moves."""
    state = game.new_initial_state(seed)
    bots = [make_bot(spec, game, seed * 10 + seat) for seat, spec in enumerate(specs)]
    moves: list[str] = []
    while not state.is_terminal():
        acting = state.current_players()
        views = {p: state.view(p) for p in acting}
        for p in acting:
            action = bots[p].act(views[p])
            assert str(action) in views[p].legal_actions
            state.apply_action(p, action)  # checked: raises on anything illegal
            moves.append(f"{p}:{action}")
    return state, moves


# ---------------------------------------------------------------------------- specs and limits


def test_limits_read_and_print_back() -> None:
    assert Limit.parse("200") == Limit(iterations=200)
    assert Limit.parse("0.25s") == Limit(seconds=0.25) == Limit.parse("250ms")
    assert Limit.parse(str(Limit(seconds=1.5))) == Limit(seconds=1.5)
    for bad in ("", "zero", "-3", "0s"):
        with pytest.raises(BotError):
            Limit.parse(bad)


def test_specs_name_bots_and_their_limits() -> None:
    game = SakuraGame(3)
    assert parse_spec("mcts:300,c=0.7") == ("mcts", Limit(iterations=300), {"c": "0.7"})
    bot = make_bot("mcts:0.1s", game, seed=1)
    assert isinstance(bot, MctsBot) and bot.limit == Limit(seconds=0.1)
    assert isinstance(bot, Bot) and bot.spec == "mcts:0.1s"
    for bad in ("minimax", "greedy:100", "mcts:fast", "mcts:10,depth=3", "mcts:10,c=x"):
        with pytest.raises(BotError):
            make_bot(bad, game, seed=1)


# ---------------------------------------------------------------------------- views only


@pytest.mark.parametrize("spec", SPECS)
def test_a_bot_refuses_a_state(spec: str) -> None:
    """Bots decide from a player's view: handing one the full state is an error, not a leak."""
    game = SakuraGame(4)
    state = game.new_initial_state(1)
    bot = make_bot(spec, game, seed=1)
    with pytest.raises(TypeError, match="View"):
        bot.act(state)  # type: ignore[arg-type]
    with pytest.raises(BotError, match="spectator"):
        bot.act(state.view(None))


def _states_differing_in_hidden_parts(seed: int, moves: int) -> tuple[SakuraState, SakuraState, int]:
    """Two states identical to one player but for what it cannot see: other hands, the
    other players' secret picks, the deck order and the generator."""
    game = SakuraGame(4)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        p = state.current_players()[0]
        state.apply_action(p, rng.choice(state.legal_actions(p)))
    me = state.current_players()[-1]
    other = game.sample_state(state.view(me), seed=seed + 1000)
    other.rng.state ^= 0xDEADBEEF
    return state, other, me


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("moves", [0, 2, 9, 23])
def test_bots_cannot_see_hidden_information(spec: str, moves: int) -> None:
    """The same view and the same seed give the same decision, however the unseen part of the
    state differs (other hands, secret picks, deck order, generator)."""
    a, b, me = _states_differing_in_hidden_parts(seed=moves + 3, moves=moves)
    assert a.view(me) == b.view(me)
    others = [s for s in range(a.game.players) if s != me]
    assert [a.hands[s] for s in others] != [b.hands[s] for s in others] or a.deck != b.deck
    game = a.game
    first = make_bot(spec, game, seed=42).act(a.view(me))
    second = make_bot(spec, game, seed=42).act(b.view(me))
    assert first == second


def test_the_hidden_information_test_covers_a_pending_choice() -> None:
    """Some of the states above wait for a forward/back answer mid-resolution."""
    game = SakuraGame(3)
    for seed in range(40):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.pending_choice() is None:
            p = state.current_players()[0]
            state.apply_action(p, rng.choice(state.legal_actions(p)))
        if state.pending_choice() is None:
            continue
        me = state.current_players()[0]
        twin = game.sample_state(state.view(me), seed=seed + 1)
        assert twin.view(me) == state.view(me)
        for spec in SPECS:
            assert make_bot(spec, game, 7).act(state.view(me)) == make_bot(spec, game, 7).act(twin.view(me))
        return
    pytest.fail("no pending choice found")


# ---------------------------------------------------------------------------- always legal


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_bots_play_whole_games_legally_at_every_table(players: int, variant: str) -> None:
    """Every phase (selection, the tactical double pick, forward/back choices), every table."""
    game = SakuraGame(players, variant)
    specs = [SPECS[s % len(SPECS)] for s in range(players)]
    state, moves = play(game, specs, seed=players)
    assert state.is_terminal() and state.outcome() is not None
    assert any(m.endswith(("forward", "back")) for m in moves) or players == 2


def test_the_tactical_double_pick_gives_the_court_another_card() -> None:
    game = SakuraGame(2, "tactical")
    _, moves = play(game, ["greedy", "mcts:8"], seed=5)
    assert any(" court " in m for m in moves)


# ---------------------------------------------------------------------------- reproducible


@pytest.mark.parametrize("spec", SPECS)
def test_the_same_seed_plays_the_same_game(spec: str) -> None:
    game = SakuraGame(3)
    specs = [spec, "random", "greedy"]
    assert play(game, specs, seed=8)[1] == play(game, specs, seed=8)[1]


@pytest.mark.parametrize(("players", "variant"), [(2, "tactical"), (4, "standard")])
def test_the_heuristics_own_rollout_loop_plays_as_the_searchs_loop(players: int, variant: str) -> None:
    """Sakura's heuristic plays rollouts itself (``Playout``, compiled in the compiled build);
    the search's generic loop, which it replaces, must give the very same decisions."""
    game = SakuraGame(players, variant)
    own = MctsBot(game, seed=5, limit=Limit(iterations=40), epsilon=0.3)
    generic = MctsBot(game, seed=5, limit=Limit(iterations=40), epsilon=0.3)
    assert own.playout is not None
    generic.playout = None  # the search's own loop
    state = game.new_initial_state(4)
    decisions = 0
    while not state.is_terminal() and decisions < 30:
        for p in state.current_players():
            view = state.view(p)
            action = own.act(view)
            assert generic.act(view) == action
            decisions += len(view.legal_actions) > 1
            state.apply_action(p, action)
    assert decisions >= 10


def test_another_seed_plays_another_game() -> None:
    game = SakuraGame(3)
    assert play(game, ["random"] * 3, seed=1)[1] != play(game, ["random"] * 3, seed=2)[1]


# ---------------------------------------------------------------------------- any game


def test_random_and_mcts_play_a_game_they_were_not_written_for() -> None:
    """The generic bots need only the protocol (and sample_state), not Sakura."""
    game = PrizeBidsGame()
    for spec in ("random", "mcts:30"):
        state, moves = play(game, [spec, "random"], seed=3)  # type: ignore[arg-type]
        assert state.is_terminal() and len(moves) == 8


def test_greedy_needs_a_heuristic_for_its_game() -> None:
    with pytest.raises(BotError, match="no heuristic"):
        make_bot("greedy", PrizeBidsGame(), seed=1)  # type: ignore[arg-type]
    assert heuristic_for(PrizeBidsGame(), required=False) is None  # type: ignore[arg-type]


def test_mcts_reasons_over_the_hidden_hand_of_another_game() -> None:
    """The prize is 12; every card the bot cannot see is below its 11: bid 11 and take it."""
    from tests.bots.toy_game import BidState

    state = BidState([[1, 11], [3, 5]], [4, 12])
    state.played = [(2, 6, 7), (8, 9, 10)]
    state.scores = [2, 8]
    game: Any = PrizeBidsGame()
    assert make_bot("mcts:60", game, seed=3).act(state.view(0)) == game.parse_action("bid 11")


def test_make_game_works_for_bots_built_by_name() -> None:
    game = make_game("sakura", {"players": 5})
    state = game.new_initial_state(2)
    bot = make_bot("mcts:5", game, seed=3)
    assert str(bot.act(state.view(4))) in state.view(4).legal_actions


def test_a_time_limited_search_still_answers_legally() -> None:
    """Time limits depend on the machine: only legality is checked, never the time taken."""
    game = SakuraGame(4)
    view = game.new_initial_state(9).view(1)
    bot = make_bot("mcts:0.05s", game, seed=2)
    assert str(bot.act(view)) in view.legal_actions
    assert isinstance(bot, MctsBot) and bot.last_iterations >= 1
