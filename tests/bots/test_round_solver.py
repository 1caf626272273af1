"""The round solver (``rm``): regret matching on small games whose equilibrium is known, and
the bot built on it deciding from its view only, reproducibly, legally at every table.

The strength measurement is ``benchmarks/ladder.py --hero rm:16 --against greedy``
(docs/bots.md)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.bots.test_bots import _states_differing_in_hidden_parts, play

from sakura.bots import BotError, make_bot
from sakura.bots.regret import Table, solve
from sakura.bots.round_solver import RoundSolverBot
from sakura.engine import make_game
from sakura.engine.games.sakura import SakuraGame

# Rock, paper, scissors: row player's reward first; the column player's is its negative.
RPS = [[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]


def zero_sum(matrix: list[list[float]]) -> Table:
    rows, cols = len(matrix), len(matrix[0])
    return Table((rows, cols), [[matrix[r][c], -matrix[r][c]] for r in range(rows) for c in range(cols)])


def test_rock_paper_scissors_converges_to_the_uniform_mix() -> None:
    solution = solve([zero_sum(RPS)], 300)
    assert max(abs(x - 1 / 3) for x in solution.mine) < 0.01
    assert max(abs(x - 1 / 3) for x in solution.others[0][1]) < 0.01
    assert max(abs(v) for v in solution.values) < 0.02  # every pure answer earns the game's value, 0


def test_a_skewed_game_converges_to_its_known_mixed_equilibrium() -> None:
    """Row earns 3 for (top, left), 1 for (bottom, right), else 0; zero-sum. The column player
    is indifferent only when row plays top a quarter of the time, and row only when column
    plays left a quarter of the time."""
    solution = solve([zero_sum([[3.0, 0.0], [0.0, 1.0]])], 300)
    assert solution.mine[0] == pytest.approx(0.25, abs=0.01)
    assert solution.others[0][1][0] == pytest.approx(0.25, abs=0.01)


def test_a_dominated_action_gets_next_to_no_weight() -> None:
    """Rock-paper-scissors with a fourth card that loses to everything."""
    matrix = [[*row, 1.0] for row in RPS] + [[-1.0, -1.0, -1.0, 0.0]]
    solution = solve([zero_sum(matrix)], 300)
    assert solution.mine[3] < 0.01
    assert solution.others[0][1][3] < 0.01
    assert solution.most_weighted() != 3 and solution.best_response() != 3


def test_the_bot_has_one_strategy_over_the_deals_it_cannot_tell_apart() -> None:
    """Two equally likely deals: in one the top row wins 1 whatever the opponent does, in the
    other the bottom row wins 3. A player who knew the deal would switch; the bot, one mix over
    both, must play the bottom row (expected 1.5 against 0.5)."""
    a = Table((2, 2), [[1.0, 0.0], [1.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
    b = Table((2, 2), [[0.0, 0.0], [0.0, 0.0], [3.0, 0.0], [3.0, 0.0]])
    solution = solve([a, b], 200)
    assert solution.mine[1] > 0.99
    assert solution.values == pytest.approx((0.5, 1.5))


def test_a_table_must_hold_every_joint_action() -> None:
    with pytest.raises(ValueError, match="needs 4 payoffs"):
        Table((2, 2), [[0.0, 0.0]] * 3)
    with pytest.raises(ValueError, match="same actions"):
        solve([Table((2,), [[0.0], [1.0]]), Table((3,), [[0.0], [1.0], [2.0]])], 10)


# ---------------------------------------------------------------------------- the bot


@pytest.mark.parametrize("moves", [0, 2, 9, 23])
def test_the_round_solver_cannot_see_hidden_information(moves: int) -> None:
    """The same view and seed give the same card, however the unseen part differs."""
    a, b, me = _states_differing_in_hidden_parts(seed=moves + 3, moves=moves)
    assert a.view(me) == b.view(me)
    game = a.game
    assert make_bot("rm:3,iters=16", game, seed=42).act(a.view(me)) == make_bot(
        "rm:3,iters=16", game, seed=42
    ).act(b.view(me))


def test_the_round_solver_is_reproducible_under_a_seed() -> None:
    game = SakuraGame(4)
    specs = ["rm:2,iters=8", "greedy", "greedy", "greedy"]
    first = play(game, specs, seed=3)[1]
    assert first == play(game, specs, seed=3)[1]


@pytest.mark.parametrize(
    ("players", "variant"), [(2, "court"), (2, "tactical"), (3, "standard"), (6, "standard")]
)
def test_the_round_solver_plays_whole_games_legally(players: int, variant: str) -> None:
    """Tables without a shipped value estimate play the leaves out by the rollout rule; a
    choice the bot makes alone goes to its inner search."""
    game = SakuraGame(players, variant)
    specs = ["rm:1,iters=4,width=1,fallback=4"] + ["greedy"] * (players - 1)
    state, moves = play(game, specs, seed=players)
    assert state.is_terminal() and state.outcome() is not None
    assert len(moves) > 10


def test_the_round_solver_plays_the_card_game() -> None:
    game = make_game("sakura-cards")
    state, _ = play(game, ["rm:1,iters=4,width=1,fallback=4", "greedy"], seed=2)
    assert state.is_terminal()


def test_a_table_stays_within_its_joint_size() -> None:
    """Each other player's choices shrink until the table fits ``joint`` entries; each entry
    is every player's reward, judged after the round resolves."""
    game = SakuraGame(4)
    state = game.new_initial_state(11)
    me = 0
    bot = RoundSolverBot(game, 1, limit=make_bot("rm:1", game, 1).limit, width=3, joint=40)  # type: ignore[attr-defined]
    sample = game.sample_state(state.view(me), 5)
    mine = [game.parse_action(t) for t in state.view(me).legal_actions]
    table = bot._table(sample, me, mine)
    joint = 1
    for s in table.sizes:
        joint *= s
    assert table.sizes[0] == len(mine) == 5
    assert joint <= 40 and len(table.payoffs) == joint
    assert all(len(u) == 4 and all(0.0 <= x <= 1.0 for x in u) for u in table.payoffs)
    assert len({tuple(u) for u in table.payoffs}) > 1  # the cards change the outcome


def test_rollout_leaves_judge_the_same_table_shape_by_play() -> None:
    """``leaf=rollout`` plays each entry out instead of asking the learned value: the same
    table, other rewards, each the end of a game (a share and a squashed margin)."""
    game = SakuraGame(4)
    view = game.new_initial_state(11).view(0)
    sample = game.sample_state(view, 5)
    mine = [game.parse_action(t) for t in view.legal_actions]
    limit = make_bot("rm:1", game, 1).limit  # type: ignore[attr-defined]
    by_value = RoundSolverBot(game, 1, limit)._table(sample, 0, mine)
    by_play = RoundSolverBot(game, 1, limit, leaf="rollout")._table(sample, 0, mine)
    assert by_value.sizes == by_play.sizes
    assert by_value.payoffs != by_play.payoffs
    assert all(0.0 <= x <= 1.0 for u in by_play.payoffs for x in u)
    assert str(make_bot("rm:2,leaf=rollout", game, 3).act(view)) in view.legal_actions


def test_bad_options_are_refused() -> None:
    game: Any = SakuraGame(4)
    for spec in ("rm:4,play=maybe", "rm:4,width=0", "rm:4,depth=2", "rm:4,w=x", "rm:4,leaf=net"):
        with pytest.raises(BotError, match=r"rm option|is a number"):
            make_bot(spec, game, 1)
