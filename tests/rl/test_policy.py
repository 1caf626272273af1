"""The shipped policy: a bot spec (``policy``) that plays without torch, deterministically, from
its own view only; the same decisions as a PettingZoo agent from observations alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tests.bots.test_bots import _states_differing_in_hidden_parts, play

from sakura.bots import BotError, make_bot
from sakura.engine import make_game
from sakura.rl.agents import PolicyAgent
from sakura.rl.encoding import LAYOUT_VERSION
from sakura.rl.pettingzoo_env import SakuraParallelEnv
from sakura.rl.policy import POLICY_DIR, PolicyBot, PolicyNet, available_policies, table_key

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = {"sakura-2p-court": {"players": 2}, "sakura-4p": {"players": 4}, "sakura-6p": {"players": 6}}


def test_policies_ship_for_two_four_and_six_players_and_are_small() -> None:
    assert set(SHIPPED) <= set(available_policies())
    for key, config in SHIPPED.items():
        path = POLICY_DIR / f"{key}.npz"
        # Small enough to ship in the wheel: the self-played ones (two layers of 256 and a value
        # head, float16) are up to about 1.1 MB (six players), the earlier ones 170-260 kB.
        assert path.stat().st_size < 1_500_000
        net = PolicyNet.load(path)
        assert net.meta["table"] == key == table_key(make_game("sakura", config))
        assert net.meta["layout_version"] == LAYOUT_VERSION
        assert net.weights[0].shape[0] == net.meta["obs_size"] and net.weights[-1].shape[1] == 62


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False, timeout=300
    )


BLOCK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ImportError(f"No module named {{name!r}} (blocked by the test)")
sys.meta_path.insert(0, Block())
"""


def test_the_policy_plays_a_whole_game_without_torch() -> None:
    code = (
        BLOCK.format(blocked={"torch", "stable_baselines3", "sb3_contrib"})
        + """
from sakura.engine import make_game
from sakura.bots import make_bot
game = make_game("sakura", {"players": 4})
state = game.new_initial_state(7)
bots = [make_bot(spec, game, seat) for seat, spec in enumerate(["policy", "greedy", "random", "policy"])]
while not state.is_terminal():
    for p in state.current_players():
        state.apply_action(p, bots[p].act(state.view(p)))
assert "torch" not in sys.modules
print("ok", state.outcome().winners)
"""
    )
    result = _run(code)
    assert result.returncode == 0 and result.stdout.startswith("ok"), result.stdout + result.stderr


def test_without_numpy_the_spec_fails_with_a_clear_message() -> None:
    code = (
        BLOCK.format(blocked={"numpy"})
        + """
from sakura.engine import make_game
from sakura.bots import BotError, make_bot
try:
    make_bot("policy", make_game("sakura", {"players": 4}), 0)
except BotError as exc:
    print("refused:", exc)
"""
    )
    result = _run(code)
    assert "refused: the 'policy' bot cannot load" in result.stdout, result.stdout + result.stderr
    assert "pip install 'sakura[rl]'" in result.stdout


def test_the_spec_refuses_tables_without_a_policy_and_any_limit() -> None:
    with pytest.raises(
        BotError,
        match=r"no trained policy for the table 'sakura-5p'; policies ship for: "
        r".*sakura-4p.*sakura-cards",
    ):
        make_bot("policy", make_game("sakura", {"players": 5}), 0)
    with pytest.raises(BotError, match="no option but file=PATH"):
        make_bot("policy,t=1", make_game("sakura", {"players": 4}), 0)
    with pytest.raises(BotError, match=r"no policy file 'nowhere\.npz'"):
        make_bot("policy,file=nowhere.npz", make_game("sakura", {"players": 4}), 0)
    assert make_bot(" Policy ", make_game("sakura", {"players": 4}), 0).spec == "policy"


def test_a_policy_of_another_layout_version_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sakura.rl import policy

    net = PolicyNet.load(POLICY_DIR / "sakura-4p.npz")
    PolicyNet(net.weights, net.biases, {**net.meta, "layout_version": LAYOUT_VERSION + 1}).save(
        tmp_path / "sakura-4p.npz"
    )
    monkeypatch.setattr(policy, "POLICY_DIR", tmp_path)
    monkeypatch.setattr(policy, "_CACHE", {})
    with pytest.raises(BotError, match="retrain"):
        PolicyBot(make_game("sakura", {"players": 4}), 0)


@pytest.mark.parametrize("key", sorted(SHIPPED))
def test_the_policy_plays_legally_and_deterministically_whatever_its_seed(key: str) -> None:
    game = make_game("sakura", SHIPPED[key])
    n = game.num_players
    specs = ["policy"] + ["greedy"] * (n - 1)
    state, moves = play(game, specs, seed=3)
    assert state.is_terminal()
    again = game.new_initial_state(3)
    bots = [make_bot(spec, game, 1000 + seat) for seat, spec in enumerate(specs)]  # other seeds
    bots[1:] = [make_bot("greedy", game, 3 * 10 + seat) for seat in range(1, n)]  # play()'s greedy seeds
    replay: list[str] = []
    while not again.is_terminal():
        for p in again.current_players():
            action = bots[p].act(again.view(p))
            again.apply_action(p, action)
            replay.append(f"{p}:{action}")
    assert replay == moves


@pytest.mark.parametrize("moves", [0, 2, 9, 23])
def test_the_policy_cannot_see_hidden_information(moves: int) -> None:
    """The same view gives the same decision, however the unseen part of the state differs."""
    a, b, me = _states_differing_in_hidden_parts(seed=moves + 3, moves=moves)
    assert a.view(me) == b.view(me) and a.to_json() != b.to_json()
    bot = make_bot("policy", a.game, seed=1)
    assert bot.act(a.view(me)) == make_bot("policy", b.game, seed=2).act(b.view(me))
    with pytest.raises(TypeError, match="View"):
        bot.act(a)  # type: ignore[arg-type]


def test_the_pettingzoo_policy_agent_decides_as_the_bot_does() -> None:
    env = SakuraParallelEnv("sakura", {"players": 4})
    agent = PolicyAgent(env)
    bot = PolicyBot(env.game, 0)
    observations, _ = env.reset(seed=12)
    decisions = 0
    while env.agents:
        actions = {}
        for a, o in observations.items():
            actions[a] = agent(a, o)
            if actions[a] != env.wait:
                assert actions[a] == env.encoder.action_id(str(bot.act(env.view(a))))
                decisions += 1
        observations = env.step(actions)[0]
    assert decisions > 20


def test_the_net_is_a_plain_numpy_forward_pass() -> None:
    net = PolicyNet.load(POLICY_DIR / "sakura-4p.npz")
    x = np.random.default_rng(0).random((3, net.meta["obs_size"]), dtype=np.float32)
    h = x
    for w, b in zip(net.weights[:-1], net.biases[:-1], strict=True):
        h = np.tanh(h @ w + b)
    assert np.allclose(net.logits(x), h @ net.weights[-1] + net.biases[-1], atol=1e-5)
    mask = np.zeros((3, 62), dtype=np.int8)
    mask[:, [5, 9]] = 1
    assert set(net.best(x, mask).tolist()) <= {5, 9}
    method = json.loads(json.dumps(net.meta))["trained"]["method"]
    assert method.startswith(("MaskablePPO", "self-play PPO"))


def test_a_tournament_plays_the_policy_by_its_spec(tmp_path: Path) -> None:
    """``sakura tournament policy greedy``: the spec works where every bot spec works."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sakura.cli.main",
            "tournament",
            "policy",
            "greedy",
            "--players",
            "4",
            "--games",
            "4",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    standings = json.loads((tmp_path / "tournament.json").read_text(encoding="utf-8"))
    assert "policy" in json.dumps(standings) and "greedy" in json.dumps(standings)


def test_the_policy_searched_plays_legally_from_its_own_view() -> None:
    """``policy:N``: the policy improved by playouts (its own later decisions by the network,
    the others' by greedy's model or the network), legal, reproducible, blind to hidden parts."""
    game = make_game("sakura", {"players": 4})
    specs = ["policy:12"] + ["greedy"] * 3
    state, moves = play(game, specs, seed=4)
    assert state.is_terminal()
    assert moves == play(game, specs, seed=4)[1]
    a, b, me = _states_differing_in_hidden_parts(seed=5, moves=9)
    assert a.view(me) == b.view(me) and a.to_json() != b.to_json()
    for spec in ("policy:20", "policy:20,opp=policy"):
        assert make_bot(spec, a.game, 7).act(a.view(me)) == make_bot(spec, b.game, 7).act(b.view(me))
    assert make_bot("policy:0.5s,opp=policy,w=0.5", game, 0).spec == "policy:0.5s,opp=policy,w=0.5"


def test_the_policy_searched_refuses_bad_options() -> None:
    game = make_game("sakura", {"players": 4})
    with pytest.raises(BotError, match="unknown policy option 't'"):
        make_bot("policy:100,t=1", game, 0)
    with pytest.raises(BotError, match="opp= is one of greedy, policy"):
        make_bot("policy:100,opp=expert", game, 0)
    with pytest.raises(BotError, match="is a number"):
        make_bot("policy:100,w=much", game, 0)
    with pytest.raises(BotError, match="no trained policy for the table 'sakura-5p'"):
        make_bot("policy:100", make_game("sakura", {"players": 5}), 0)
