"""The self-play trainer (``sakura.rl.selfplay``, ``examples/selfplay.py``): a few hundred
steps, an exact resume, and an export the ``policy`` bot plays. The long runs are benchmarks
(docs/rl.md, "Self-play"), not tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the self-play trainer needs PyTorch (the train extra)")

from sakura.bots import make_bot  # noqa: E402
from sakura.engine import make_game  # noqa: E402
from sakura.rl.policy import PolicyNet  # noqa: E402
from sakura.rl.selfplay.league import League  # noqa: E402
from sakura.rl.selfplay.ppo import PPOSettings, advantages  # noqa: E402
from sakura.rl.selfplay.rollout import Rollout  # noqa: E402
from sakura.rl.selfplay.trainer import Config, Trainer  # noqa: E402


def small(**changes: object) -> Config:
    """A run small enough for the suite: bots, past versions and self-play tables all met."""
    settings: dict[str, object] = {
        "players": 4,
        "tables": 8,
        "steps": 12,
        "hidden": (32,),
        "snapshot_every": 1,
        "bot_share": 0.4,
        "past_share": 0.4,
        "eval_every": 0,
        "seed": 3,
        "ppo": PPOSettings(epochs=2, minibatch=128),
    }
    settings.update(changes)
    return Config(**settings)  # type: ignore[arg-type]


def parameters(trainer: Trainer) -> list[torch.Tensor]:
    return [p.detach().clone() for p in trainer.model.parameters()]


def test_a_few_hundred_steps_train_against_the_whole_league(tmp_path: Path) -> None:
    trainer = Trainer(small(eval_every=3, eval_games=8, steps=16, league_size=4), tmp_path)
    before = parameters(trainer)
    trainer.run(updates=6)
    assert trainer.decisions > 300
    assert [m.update for m in trainer.league.members] == [3, 4, 5, 6]  # the newest four
    assert trainer.league.bot_results["greedy"][0] > 0  # games against the bot ended and counted
    assert any(m.games for m in trainer.league.members)  # and against past versions
    assert any(not torch.equal(a, b) for a, b in zip(before, trainer.model.parameters(), strict=True))
    rows = (tmp_path / "curve.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("update,decisions,minutes,opponent,ratio")
    assert [r.split(",")[0] for r in rows[1:]] == ["0", "3", "6"]
    assert (tmp_path / "best.npz").is_file() and (tmp_path / "checkpoint.pt").is_file()


@pytest.mark.parametrize("game", ["sakura", "sakura-cards"])
def test_resuming_a_checkpoint_gives_the_same_next_update(tmp_path: Path, game: str) -> None:
    """Stopped mid-game (tables, bots' reference games, league, optimizer, generators all in
    the checkpoint), the resumed run's next update equals the uninterrupted run's."""
    config = small(game=game, players=2 if game == "sakura-cards" else 4)
    trainer = Trainer(config)
    trainer.run(updates=2)
    trainer.save(tmp_path / "checkpoint.pt")
    trainer.run(updates=3)
    resumed = Trainer.load(tmp_path / "checkpoint.pt")
    assert resumed.update == 2
    resumed.run(updates=3)
    for a, b in zip(trainer.model.parameters(), resumed.model.parameters(), strict=True):
        assert torch.equal(a, b)
    assert trainer.decisions == resumed.decisions
    np.testing.assert_array_equal(trainer.tables.obs, resumed.tables.obs)
    other = Trainer.load(tmp_path / "checkpoint.pt")  # and it differs from a step not taken
    assert any(
        not torch.equal(a, b)
        for a, b in zip(trainer.model.parameters(), other.model.parameters(), strict=True)
    )


@pytest.mark.parametrize(("game", "config"), [("sakura", {"players": 4}), ("sakura-cards", {})])
def test_the_export_plays_legal_whole_games_as_a_bot(
    tmp_path: Path, game: str, config: dict[str, int]
) -> None:
    trainer = Trainer(small(game=game, players=config.get("players", 2)))
    trainer.run(updates=1)
    path = tmp_path / "policy.npz"
    trainer.export(path)
    net = PolicyNet.load(path)
    assert net.meta["trained"]["updates"] == 1 and len(net.value_weights) == 2
    g = make_game(game, config)
    bot = make_bot(f"policy,file={path}", g, seed=0)
    for seed in range(3):
        state = g.new_initial_state(seed)
        others = [make_bot("greedy", g, seed * 10 + p) for p in range(state.num_players)]
        while not state.is_terminal():
            for p in state.current_players():
                view = state.view(p)
                action = bot.act(view) if p == seed % state.num_players else others[p].act(view)
                assert str(action) in view.legal_actions
                state.apply_action(p, action)
        obs = bot.encoder.encode(state.view(0))
        assert np.isfinite(net.value(obs))


def test_a_policy_file_of_another_table_is_refused(tmp_path: Path) -> None:
    trainer = Trainer(small())
    path = tmp_path / "p.npz"
    trainer.export(path)
    with pytest.raises(Exception, match="not 'sakura-6p'"):
        make_bot(f"policy,file={path}", make_game("sakura", {"players": 6}), seed=0)


def masked_probabilities(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    scores = np.where(mask, logits, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return np.asarray(e / e.sum(axis=-1, keepdims=True))


@pytest.mark.parametrize("table", ["sakura-2p-court", "trained here"])
def test_init_starts_the_network_from_a_policy_file(tmp_path: Path, table: str) -> None:
    """``--init FILE``: the actor plays the file's action probabilities, the critic is its value
    head, and the file joins the league as the first past version."""
    if table == "trained here":
        source = Trainer(small(seed=5))
        source.run(updates=1)
        path, config = tmp_path / "p.npz", small()
        source.export(path)
    else:
        path = Path(__file__).resolve().parents[2] / "src/sakura/rl/policies" / f"{table}.npz"
        config = small(players=2, hidden=(256, 256))
    net = PolicyNet.load(path)
    trainer = Trainer(Config(**{**config.__dict__, "init": str(path)}))
    env = trainer.tables.env
    obs = env.obs.reshape(-1, trainer.obs_size)
    mask = env.mask.reshape(len(obs), -1)[:, : trainer.num_actions] != 0
    assert mask.sum(axis=1).max() >= 2  # some observations with a choice to make
    with torch.no_grad():
        logits = trainer.model.masked_logits(torch.from_numpy(obs), torch.from_numpy(mask))
        ours = torch.softmax(logits, dim=-1).numpy()
        values = trainer.model.value(torch.from_numpy(obs)).numpy()
    np.testing.assert_allclose(ours, masked_probabilities(net.logits(obs), mask), atol=1e-5)
    np.testing.assert_allclose(values, net.value(obs), atol=1e-5)
    assert [m.update for m in trainer.league.members] == [0]
    trainer.run(updates=1)
    trained = trainer.policy().meta["trained"]
    assert trained["init"] == {"file": path.name, "trained": net.meta["trained"]}


def test_init_refuses_a_file_that_does_not_fit(tmp_path: Path) -> None:
    source = Trainer(small())
    path = tmp_path / "p.npz"
    source.export(path)
    with pytest.raises(ValueError, match="table 'sakura-4p', this run needs 'sakura-6p'"):
        Trainer(small(players=6, init=str(path)))
    with pytest.raises(
        ValueError, match=r"actor layers are \[\(627, 32\), \(32, 62\)\], this network's are \[\(627, 64\)"
    ):
        Trainer(small(hidden=(64,), init=str(path)))
    bare = tmp_path / "bare.npz"
    PolicyNet(source.policy().weights, source.policy().biases, source.meta()).save(bare)
    with pytest.raises(ValueError, match="no value head"):
        Trainer(small(init=str(bare)))
    with pytest.raises(ValueError, match="choose one"):
        Trainer(small(imitate=2, init=str(path)))


def test_rewards_while_waiting_belong_to_the_previous_decision_and_a_game_end_cuts() -> None:
    """One table, one seat: decisions at steps 0 and 2 (it waits at step 1), the game ends at
    step 2, a new one begins with a decision at step 3."""
    where = np.full((4, 1, 1), -1)
    where[0, 0, 0], where[2, 0, 0], where[3, 0, 0] = 0, 1, 2
    rewards = np.array([1.0, 2.0, 4.0, 8.0], dtype=np.float32).reshape(4, 1, 1)
    ended = np.array([False, False, True, False]).reshape(4, 1)
    values = np.array([0.5, 0.25, 0.0], dtype=np.float32)
    no = np.zeros(3)
    r = Rollout(no[:, None], no[:, None] == 0, no, no, values, where, rewards, ended, np.array([[16.0]]), 1)
    gamma = 0.5
    adv, target = advantages(r, gamma, lam=1.0)
    assert target[1] == pytest.approx(4.0)  # the game's last decision: its own reward only
    assert target[0] == pytest.approx(1.0 + 2.0 + gamma * 4.0)  # the wait's reward is its own
    assert target[2] == pytest.approx(8.0 + gamma * 16.0)  # the next game bootstraps on
    assert adv[0] == pytest.approx(target[0] - 0.5)


def test_pfsp_meets_the_versions_the_learner_loses_to_most() -> None:
    league = League(players=4, bots=(), bot_share=0.0, past_share=1.0)
    nets = [PolicyNet((np.zeros((1, 1)),), (np.zeros(1),), {}) for _ in range(3)]
    for k, net in enumerate(nets):
        league.add(net, k)
    for _ in range(30):
        league.record("past", league.members[0], 0.0)  # always lost to
        league.record("past", league.members[1], 0.5)  # beaten: twice the fair share
    rng = np.random.default_rng(0)
    drawn = [league.members.index(league.draw(rng)[1]) for _ in range(2000)]
    counts = np.bincount(drawn, minlength=3)
    assert counts[0] > counts[2] > counts[1] > 0  # never met counts as even; beaten keeps the floor


def test_workers_play_side_by_side_and_their_checkpoint_resumes_exactly(tmp_path: Path) -> None:
    """``--ray``'s workers, called in-process: two workers' tables merged into one update, the
    league fed with their results, and a checkpoint (the workers' tables fetched) that resumes."""
    from sakura.rl.selfplay.distributed import parallel_tables

    trainer = Trainer(small())
    trainer.tables = parallel_tables(trainer, 2, ray=False)  # type: ignore[assignment]
    trainer.run(updates=3)
    assert trainer.last_stats["decisions"] > 2 * 8 * 4  # both workers' tables
    assert sum(m.games for m in trainer.league.members) + trainer.league.bot_results["greedy"][0] > 0
    trainer.save(tmp_path / "checkpoint.pt")
    trainer.run(updates=4)
    resumed = Trainer.load(tmp_path / "checkpoint.pt")
    resumed.run(updates=4)
    for a, b in zip(trainer.model.parameters(), resumed.model.parameters(), strict=True):
        assert torch.equal(a, b)


def test_ray_actors_train_exactly_as_the_workers_in_process() -> None:
    """``--ray``: the same workers as Ray actors on a local cluster of 2 CPUs give the very same
    network after a few updates as the in-process ones (skipped where Ray is not installed)."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'sakura[cluster]')")
    from sakura.rl.selfplay.distributed import parallel_tables

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        trained = []
        for on_ray in (False, True):
            trainer = Trainer(small())
            trainer.tables = parallel_tables(trainer, 2, ray=on_ray)  # type: ignore[assignment]
            trainer.run(updates=2)
            assert trainer.last_stats["decisions"] > 2 * 8 * 4
            trained.append(trainer)
    finally:
        ray.shutdown()
    local, remote = trained
    for a, b in zip(local.model.parameters(), remote.model.parameters(), strict=True):
        assert torch.equal(a, b)


def test_the_value_head_guides_the_search(tmp_path: Path) -> None:
    """``mcts:N,value=FILE``: the search stops its rollouts at once and asks the value head."""
    trainer = Trainer(small())
    path = tmp_path / "p.npz"
    trainer.export(path)
    game = make_game("sakura", {"players": 4})
    bot = make_bot(f"mcts:30,value={path}", game, seed=1)
    state = game.new_initial_state(4)
    shares, margins = bot.evaluator.value(state)
    assert sum(shares) == pytest.approx(1.0) and all(0.0 <= m <= 1.0 for m in margins)
    view = state.view(2)
    assert str(bot.act(view)) in view.legal_actions
    bare = tmp_path / "bare.npz"
    PolicyNet(trainer.policy().weights, trainer.policy().biases, trainer.meta()).save(bare)
    with pytest.raises(Exception, match="no value head"):
        make_bot(f"mcts:30,value={bare}", game, seed=1)  # an actor alone cannot judge
    assert make_bot("mcts:30,value=policy", game, seed=1).evaluator is not None  # the shipped one


def test_a_minibatch_of_one_decision_keeps_the_network_finite() -> None:
    """Three decisions in minibatches of two: the last has one row (no standard deviation of
    its own), which once turned the whole network into NaN."""
    from sakura.rl.selfplay.net import ActorCritic
    from sakura.rl.selfplay.ppo import update

    model = ActorCritic(4, 3, [8])
    where = np.arange(3).reshape(1, 1, 3)
    rewards = np.array([[[1.0, 0.0, -1.0]]], dtype=np.float32)
    obs = np.eye(3, 4, dtype=np.float32)
    r = Rollout(obs, np.ones((3, 3), bool), np.array([0, 1, 2]), np.log(np.full(3, 1 / 3, np.float32)),
                np.zeros(3, np.float32), where, rewards, np.array([[True]]), np.zeros((1, 3)), 1)  # fmt: skip
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    update(model, optimizer, r, PPOSettings(epochs=2, minibatch=2), np.random.default_rng(0))
    assert all(torch.isfinite(p).all() for p in model.parameters())
