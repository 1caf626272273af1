"""The self-play loop: rollouts on the batched env against the league, PPO updates, snapshots,
evaluations written as CSV, checkpoints that resume exactly, and the numpy export.

One **update** is: play every table ``steps`` steps (:meth:`~.rollout.Tables.play`), then the
PPO epochs on the learner's decisions. Every ``snapshot_every`` updates the actor joins the
league; every ``eval_every`` updates it is measured against ``eval_bot`` (and every
``expert_every``-th evaluation against ``expert``), a row of ``curve.csv`` each, and the run is
checkpointed. A checkpoint holds everything the next update depends on (the network, the
optimizer, the league, the tables mid-game with their bots and reference games, the numpy and
torch generators), so ``resume`` gives the very update an uninterrupted run would.
"""

from __future__ import annotations

import csv
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch

from sakura.rl.batch import CardsBatchEnv, SakuraBatchEnv
from sakura.rl.encoding import LAYOUT_VERSION
from sakura.rl.policy import PolicyNet, table_key
from sakura.rl.selfplay.evaluate import Share, win_share
from sakura.rl.selfplay.league import League
from sakura.rl.selfplay.net import ActorCritic, TorchLearner, load_policy, to_numpy
from sakura.rl.selfplay.ppo import PPOSettings, advantages, update
from sakura.rl.selfplay.rollout import Rollout, Tables
from sakura.rl.selfplay.seating import BOT, BotTables, Seating

CURVE_FIELDS = (
    "update",
    "decisions",
    "minutes",
    "opponent",
    "ratio",
    "ratio_low",
    "ratio_high",
    "share",
    "games",
)


@dataclass
class Config:
    """A run's settings (``examples/selfplay.py`` names each option)."""

    game: str = "sakura"  # or "sakura-cards"
    players: int = 4
    variant: str | None = None
    seed: int = 0
    tables: int = 128
    steps: int = 32  # steps of every table per update
    hidden: tuple[int, ...] = (256, 256)
    snapshot_every: int = 10
    league_size: int = 20
    bots: tuple[str, ...] = ("greedy",)
    bot_share: float = 0.25
    past_share: float = 0.5
    imitate: int = 0  # games of the first bot at every seat to warm-start on (0: none)
    init: str | None = None  # a policy file (.npz with a value head) to start the network from
    imitate_epochs: int = 4
    eval_every: int = 10
    eval_games: int = 200
    eval_bot: str = "greedy"
    expert: str = "mcts:200"
    expert_every: int = 0  # every how many evaluations the expert is met too (0: never)
    expert_games: int = 12
    ppo: PPOSettings = field(default_factory=PPOSettings)

    def make_env(self, n: int) -> Any:
        if self.game == "sakura-cards":
            return CardsBatchEnv(n)
        return SakuraBatchEnv(n, self.players, self.variant or None)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values["ppo"] = PPOSettings(**values.get("ppo", {}))
        for key in ("hidden", "bots"):
            values[key] = tuple(values[key])
        return cls(**values)


class Trainer:
    def __init__(self, config: Config, folder: Path | None = None) -> None:
        torch.set_num_threads(1)
        torch.manual_seed(config.seed)
        self.config = config
        self.folder = folder
        self.rng = np.random.default_rng(config.seed)
        players = 2 if config.game == "sakura-cards" else config.players
        self.league = League(players, config.bots, config.bot_share, config.past_share, config.league_size)
        self.tables = Tables(config.make_env, config.tables, self.league, self.rng, (config.seed + 1) * 10**9)
        env = self.tables.env
        self.game = env.game
        self.obs_size = int(env.obs.shape[-1])
        self.num_actions = int(env.wait)
        self.model = ActorCritic(self.obs_size, self.num_actions, list(config.hidden))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.ppo.lr, eps=1e-5)
        self.update = 0
        self.decisions = 0
        self.minutes = 0.0
        self.curve: list[dict[str, Any]] = []
        self.best: tuple[float, int] = (-1.0, -1)  # (ratio against eval_bot, update)
        self.last_stats: dict[str, float] = {}
        self.init_trained: dict[str, Any] | None = None
        if config.init:
            self.start_from(Path(config.init))

    def start_from(self, path: Path) -> None:
        """Warm start from an exported policy file of this table (its actor and value head);
        it also joins the league as update 0, the first past version to beat."""
        c = self.config
        if c.imitate:
            raise ValueError("--init and --imitate both warm-start the network: choose one")
        net = PolicyNet.load(path)
        facts = {
            "table": table_key(self.game),
            "layout_version": LAYOUT_VERSION,
            "obs_size": self.obs_size,
            "num_actions": self.num_actions,
        }
        for key, want in facts.items():
            if net.meta.get(key) != want:
                raise ValueError(f"{path} has {key} {net.meta.get(key)!r}, this run needs {want!r}")
        load_policy(self.model, net)
        self.init_trained = {"file": path.name, "trained": net.meta.get("trained")}
        self.league.add(self.policy(value=False), 0)

    # -- the loop ------------------------------------------------------------------------

    def warm_start(self) -> None:
        """Fit the network to ``imitate`` games of the first bot at every seat (cross-entropy on
        its choices, the critic on the discounted returns they got)."""
        c = self.config
        if not c.imitate:
            return
        r = demonstrations(c, c.bots[0], c.imitate, self.rng)
        _, returns = advantages(r, c.ppo.gamma, 1.0)
        obs, mask = torch.from_numpy(r.obs), torch.from_numpy(r.mask)
        actions, target = torch.from_numpy(r.actions.astype(np.int64)), torch.from_numpy(returns)
        optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        for epoch in range(c.imitate_epochs):
            order = torch.from_numpy(self.rng.permutation(len(actions)))
            total = 0.0
            for start in range(0, len(order), 256):
                b = order[start : start + 256]
                logp = torch.log_softmax(self.model.masked_logits(obs[b], mask[b]), dim=-1)
                loss = -logp.gather(1, actions[b, None]).mean()
                loss = loss + 0.5 * (self.model.value(obs[b]) - target[b]).pow(2).mean()
                optimizer.zero_grad()
                torch.autograd.backward(loss)
                optimizer.step()
                total += loss.item() * len(b)
            print(
                f"imitation epoch {epoch + 1}: loss {total / len(order):.3f} ({len(order)} decisions)",
                flush=True,
            )

    def train_once(self) -> dict[str, float]:
        """One update (see the module)."""
        c = self.config
        start = time.perf_counter()
        rollout = self.tables.play(TorchLearner(self.model), c.steps, self.rng)
        stats = update(self.model, self.optimizer, rollout, c.ppo, self.rng)
        self.league.recent.clear()  # (local tables record into this league directly)
        self.update += 1
        self.decisions += len(rollout.actions)
        self.minutes += (time.perf_counter() - start) / 60
        if self.update % c.snapshot_every == 0:
            self.league.add(self.policy(value=False), self.update)
        self.last_stats = {**stats, "decisions": float(len(rollout.actions)), "games": float(rollout.games)}
        return self.last_stats

    def evaluate(self) -> list[Share]:
        """Measure against ``eval_bot`` (and the expert when due); rows of the curve."""
        c = self.config
        net = self.policy(value=False)
        measured = [(c.eval_bot, win_share(net, c.make_env, c.eval_bot, c.eval_games))]
        evaluations = self.update // c.eval_every if c.eval_every else 0
        if c.expert_every and evaluations % c.expert_every == 0:
            measured.append((c.expert, win_share(net, c.make_env, c.expert, c.expert_games)))
        for spec, s in measured:
            self.curve.append(
                {
                    "update": self.update,
                    "decisions": self.decisions,
                    "minutes": round(self.minutes, 3),
                    "opponent": spec,
                    "ratio": round(s.ratio, 4),
                    "ratio_low": round(s.low * s.players, 4),
                    "ratio_high": round(s.high * s.players, 4),
                    "share": round(s.share, 4),
                    "games": s.games,
                }
            )
        ratio = measured[0][1].ratio
        if ratio > self.best[0]:
            self.best = (ratio, self.update)
            if self.folder is not None:
                self.export(self.folder / "best.npz")
        return [s for _, s in measured]

    def run(self, updates: int, minutes: float | None = None, log: Any = print) -> None:
        """Train until ``updates`` updates in all (or ``minutes`` of this call's wall time)."""
        c = self.config
        began = time.perf_counter()
        if self.update == 0 and not self.curve:
            self.warm_start()
            if c.eval_every:
                self._evaluate_and_save(log)
        while self.update < updates:
            if minutes is not None and time.perf_counter() - began > minutes * 60:
                break
            s = self.train_once()
            log(
                f"update {self.update}: {int(s['decisions'])} decisions, {int(s['games'])} games, "
                f"kl {s['kl']:.4f}, clipped {s['clipped']:.3f}, entropy {s['entropy']:.3f}, "
                f"value loss {s['value']:.4f}, {self.minutes:.1f} min"
            )
            if c.eval_every and self.update % c.eval_every == 0:
                self._evaluate_and_save(log)
        if self.folder is not None:
            self.save(self.folder / "checkpoint.pt")

    def _evaluate_and_save(self, log: Any) -> None:
        shares = self.evaluate()
        for row, share in zip(self.curve[len(self.curve) - len(shares) :], shares, strict=True):
            log(f"  eval at update {self.update} vs {row['opponent']}: {share}")
        log(f"  league: {self.league.summary()}")
        if self.folder is not None:
            self.save(self.folder / "checkpoint.pt")
            write_curve(self.curve, self.folder / "curve.csv")

    # -- export, checkpoints -------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        c = self.config
        config: dict[str, Any] = {} if c.game == "sakura-cards" else {"players": c.players}
        if c.variant:
            config["variant"] = c.variant
        return {
            "table": table_key(self.game),
            "game": c.game,
            "config": config,
            "layout_version": LAYOUT_VERSION,
            "obs_size": self.obs_size,
            "num_actions": self.num_actions,
            "hidden": list(c.hidden),
            "trained": {
                "method": "self-play PPO against a league (examples/selfplay.py)",
                "seed": c.seed,
                "updates": self.update,
                "decisions": self.decisions,
                "minutes": round(self.minutes, 2),
                "league": {"bots": list(c.bots), "bot_share": c.bot_share, "past_share": c.past_share},
                "imitate_games": c.imitate,
                **({"init": self.init_trained} if self.init_trained else {}),
                "ppo": {"lr": c.ppo.lr, "ent_coef": c.ppo.ent_coef, "epochs": c.ppo.epochs},
                "tables": c.tables,
                "steps": c.steps,
            },
        }

    def policy(self, *, value: bool = True) -> PolicyNet:
        return to_numpy(self.model, self.meta(), value=value)

    def export(self, path: Path) -> None:
        self.policy().save(path)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        state = {
            "config": asdict(self.config),
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "tables": self.tables,  # the league, the env mid-game, the bots and their games
            "rng": self.rng,
            "torch_rng": torch.get_rng_state(),
            "counters": (self.update, self.decisions, self.minutes, self.best),
            "curve": self.curve,
            "init_trained": self.init_trained,
        }
        tmp = path.with_suffix(".tmp")
        torch.save(state, tmp)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, folder: Path | None = None) -> Trainer:
        state = torch.load(path, weights_only=False)
        trainer = cls.__new__(cls)
        torch.set_num_threads(1)
        trainer.config = Config.from_dict(state["config"])
        trainer.folder = folder
        trainer.tables = state["tables"]
        trainer.league = trainer.tables.league
        c = trainer.config
        env = c.make_env(1)  # the table's facts (the tables themselves may be on workers)
        trainer.game = env.game
        trainer.rng = state["rng"]
        trainer.obs_size = int(env.obs.shape[-1])
        trainer.num_actions = int(env.wait)
        trainer.model = ActorCritic(trainer.obs_size, trainer.num_actions, list(c.hidden))
        trainer.model.load_state_dict(state["model"])
        trainer.optimizer = torch.optim.Adam(trainer.model.parameters(), lr=c.ppo.lr, eps=1e-5)
        trainer.optimizer.load_state_dict(state["optimizer"])
        torch.set_rng_state(state["torch_rng"])
        trainer.update, trainer.decisions, trainer.minutes, trainer.best = state["counters"]
        trainer.curve = state["curve"]
        trainer.last_stats = {}
        trainer.init_trained = state.get("init_trained")  # (checkpoints from before --init)
        return trainer


def write_curve(rows: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CURVE_FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def demonstrations(config: Config, spec: str, games: int, rng: np.random.Generator) -> Rollout:
    """``games`` games of ``spec`` at every seat, as a rollout of their decisions (values 0)."""
    tables = max(1, min(games, 128))
    env = config.make_env(tables)
    bots = BotTables(env)
    obs, mask = env.reset(seed=int(rng.integers(2**40)))
    seatings = []
    for i in range(tables):
        s = Seating(BOT, np.zeros(env.players, dtype=bool), spec)
        bots.sit(s, spec, i, int(rng.integers(2**31)))
        bots.begin(s, i)
        seatings.append(s)
    rows: dict[str, list[np.ndarray]] = {"obs": [], "mask": [], "actions": []}
    where, rewards, ended_steps = [], [], []
    ended = np.zeros(tables, dtype=bool)
    finished, count = 0, 0
    while finished < games:
        legal = mask[:, :, : env.wait] != 0
        actions = mask.argmax(axis=2)
        for i in np.flatnonzero(~ended).tolist():
            bots.act(seatings[i], actions, mask, int(i))
            bots.follow(seatings[i], actions, int(i))
        decides = (legal.sum(axis=2) >= 2) & ~ended[:, None]
        ti, si = np.nonzero(decides)
        rows["obs"].append(obs[ti, si].copy())
        rows["mask"].append(legal[ti, si])
        rows["actions"].append(actions[ti, si])
        w = np.full(decides.shape, -1, dtype=np.int64)
        w[ti, si] = np.arange(count, count + len(ti))
        count += len(ti)
        was_ended = ended
        obs, mask, r, terminated = env.step(actions)
        for i in np.flatnonzero(was_ended).tolist():
            bots.begin(seatings[i], int(i))
        where.append(w)
        rewards.append(r.astype(np.float32))
        ended_steps.append(terminated.copy())
        finished += int(terminated.sum())
        ended = terminated.copy()
    flat = {k: np.concatenate(v) for k, v in rows.items()}
    zeros = np.zeros(count, dtype=np.float32)
    return Rollout(
        flat["obs"], flat["mask"], flat["actions"], zeros, zeros, np.stack(where), np.stack(rewards),
        np.stack(ended_steps), np.zeros((tables, env.players)), finished,
    )  # fmt: skip
