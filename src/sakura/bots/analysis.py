"""Post-game analysis: every decision of one seat scored, and everyone's win chance by round.

Analysis as data (lichess's analysis board): for one seat, each of its decisions is replayed
**from that seat's view** at that moment and judged (:mod:`sakura.bots.judge`); the loss of
a decision is how many win-chance points the played action gave up against the best one, and
the decisions that surely lost most are named by thresholds (:data:`THRESHOLDS`).
Beside it, each player's estimated win chance at the start of every round, from the **public**
information only, makes the graph of the game.

The work is split into independent **jobs** (:func:`jobs`: one a decision, one a round start),
each plain JSON, so that a server can run them in a worker process one by one and report
progress as they finish, and a command line can run them in a loop (:func:`analyse`); the
result is plain JSON too (:meth:`Analysis.to_json`). It speaks only the game protocol and
takes the game's initial state and its moves (``(seat, action text)``), not a record file, so
it sits in the bots layer and the outer layers feed it.

A decision is judged by :func:`~sakura.bots.judge.judge`: every legal action is played out on
the same determinizations, so the loss of the played card against the best one is a paired
difference with its own margin of error, and a decision is named only by what the lower end
of that interval clears (:func:`label`, :meth:`~sakura.bots.judge.Loss.low`): a card that
may be as good as the best within the noise is not called a mistake. The default number of
determinizations (:data:`JUDGE_SAMPLES`) was chosen by ``benchmarks/analysis_trust.py``: the
labels it gives keep their severity when judged again with ten times as many.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sakura.bots.advice import ANALYSIS_SPEC, resolve_spec, search_bot
from sakura.bots.judge import Judgement, judge
from sakura.bots.mcts import _Node
from sakura.engine import Game, State

# Win-chance points (0..100) a decision gave up against the best one: at least this is ...
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 20.0), ("mistake", 10.0), ("inaccuracy", 5.0))
# Determinizations a decision is judged on (each played out once per action judged): measured by
# benchmarks/analysis_trust.py (docs/bots.md), within 20 s for a whole 4-player game. The card
# game's playouts cost thirty times Sakura's (no compiled loop, twenty cards a hand): it gets
# fewer, and only the played card and the heuristic's best few are judged (CANDIDATES).
JUDGE_SAMPLES = 600
GAME_SAMPLES = {"sakura-cards": 20}
CANDIDATES = 6
GIBBS_SWEEPS = 2  # rounds of re-sampling every seat's hidden part for a public determinization

Job = dict[str, Any]
Progress = Callable[[int, int], None]  # (jobs done, jobs in all)


def label(loss: float) -> str | None:
    """The name of a loss of ``loss`` win-chance points, or None below every threshold (a
    decision's label names its loss's lower bound, :meth:`~sakura.bots.judge.Loss.low`).

    >>> label(25.0), label(12.5), label(6.0), label(4.9)
    ('blunder', 'mistake', 'inaccuracy', None)
    """
    for name, points in THRESHOLDS:
        if loss >= points:
            return name
    return None


def _round_of(state: State[Any]) -> int | None:
    value = state.view(None).to_json().get("round")
    return value if isinstance(value, int) else None


def jobs(
    game: Game[Any], initial: State[Any], moves: Sequence[tuple[int, str]], seat: int, *, graph: bool = True
) -> list[Job]:
    """The analysis of ``seat`` as independent jobs, in game order: a ``decision`` job before
    each of its moves that had an alternative, a ``round`` job at each round's start (if
    ``graph``). Each carries the state before the move as saved JSON; only the worker reads it,
    and it searches from ``seat``'s view (decisions) or from public information (rounds)."""
    if not 0 <= seat < game.num_players:
        raise ValueError(f"there is no seat {seat + 1} in a game of {game.num_players}")
    state = initial.clone()
    out: list[Job] = []
    last_round: int | None = None
    for index, (player, text) in enumerate(moves):
        rnd = _round_of(state)
        if graph and rnd is not None and rnd != last_round:
            out.append({"kind": "round", "index": index, "round": rnd, "state": state.to_json()})
            last_round = rnd
        if player == seat and len(state.legal_actions(seat)) > 1:
            out.append(
                {
                    "kind": "decision",
                    "index": index,
                    "round": rnd,
                    "seat": seat,
                    "played": text,
                    "state": state.to_json(),
                }
            )
        state.apply_action(player, game.parse_action(text))
    if graph and (outcome := state.outcome()) is not None:
        out.append(
            {"kind": "end", "index": len(moves), "round": _round_of(state), "wins": list(outcome.returns())}
        )
    return out


def default_samples(game: Game[Any]) -> int:
    """The determinizations a decision of ``game`` is judged on by default."""
    return GAME_SAMPLES.get(game.name, JUDGE_SAMPLES)


def run_job(
    game: Game[Any], job: Job, spec: str = ANALYSIS_SPEC, seed: int = 0, samples: int = 0
) -> dict[str, Any]:
    """One job's result (JSON). Deterministic for the job, ``spec`` (an iteration limit: the
    round graph's search), ``seed`` and ``samples`` (the determinizations a decision is judged
    on; 0: :func:`default_samples`)."""
    kind = job["kind"]
    if kind == "end":
        return {"kind": "end", "index": job["index"], "round": job["round"], "wins": job["wins"]}
    state = game.state_from_json(job["state"])
    if kind == "round":
        return {
            "kind": "round",
            "index": job["index"],
            "round": job["round"],
            "wins": public_wins(game, state, spec, seed),
        }
    judged = judge(
        game,
        state.view(job["seat"]),
        samples or default_samples(game),
        seed=seed + job["index"],
        keep=(job["played"],),
        candidates=CANDIDATES,
    )
    return decision(job, judged)


def decision(job: Job, judged: Judgement) -> dict[str, Any]:
    """A decision job's result from its judgement: the loss against the best action with its
    margin (win-chance points), and the label that the loss's lower bound clears."""
    loss = judged.loss(job["played"])
    return {
        "kind": "decision",
        "index": job["index"],
        "round": job["round"],
        "seat": job["seat"],
        "played": job["played"],
        "best": loss.best,
        "win_played": round(100.0 * judged.win(loss.played), 1),
        "win_best": round(100.0 * judged.win(loss.best), 1),
        "loss": round(max(0.0, loss.value), 1),
        "margin": round(loss.margin, 1),
        "loss_low": round(loss.low, 1),
        "label": label(loss.low),
        "sure": judged.sure(),
        "samples": judged.samples,
        "actions": [
            {"action": a, "win": round(100.0 * judged.win(a), 1), "margin": round(judged.margin(a), 1)}
            for a in judged.actions
        ],
    }


def public_wins(game: Game[Any], state: State[Any], spec: str = ANALYSIS_SPEC, seed: int = 0) -> list[float]:
    """Each player's estimated win chance (0..1) from what everyone could see of ``state``.

    The engine samples hidden parts from a player's view, so a public determinization is drawn
    by a short Gibbs chain: starting from ``state``, each seat in turn keeps only its own
    hidden part and every other is re-drawn (``sample_state(sample.view(seat))``), every seat
    twice over, so what was really hidden is forgotten. The analysis bot then searches from
    there, every player choosing for itself by its own statistics (the bot's decoupled tree),
    and each player's share of the win is averaged over the playouts.
    """
    bot = search_bot(game, spec, seed)
    players = game.num_players
    root = _Node()
    totals = [0.0] * players
    budget = bot.limit.start()
    rng = bot.rng
    while True:
        sample = state
        for _ in range(GIBBS_SWEEPS):
            for seat in range(players):
                sample = game.sample_state(sample.view(seat), rng.getrandbits(63))
        bot._iterate(root, sample)
        outcome = sample.outcome()
        if outcome is not None:
            for p, share in enumerate(outcome.returns()):
                totals[p] += share
        if not budget.spend():
            break
    return [round(t / budget.done, 4) for t in totals]


@dataclass(frozen=True, slots=True)
class Analysis:
    """A finished analysis: the seat's decisions and the round-by-round win chances."""

    game: str
    seat: int
    spec: str
    players: tuple[str, ...]
    decisions: tuple[dict[str, Any], ...]
    rounds: tuple[dict[str, Any], ...]  # each {"index", "round", "wins": [share by seat]}

    def to_json(self) -> dict[str, Any]:
        counts = {name: sum(1 for d in self.decisions if d["label"] == name) for name, _ in THRESHOLDS}
        return {
            "game": self.game,
            "seat": self.seat,
            "spec": self.spec,
            "players": list(self.players),
            "thresholds": dict(THRESHOLDS),
            "labels_by": "the loss's lower bound (one-sided 95%, paired over the samples)",
            "counts": counts,
            "decisions": list(self.decisions),
            "rounds": list(self.rounds),
        }

    @classmethod
    def assemble(
        cls, game: Game[Any], seat: int, spec: str, players: Sequence[str], results: Sequence[dict[str, Any]]
    ) -> Analysis:
        return cls(
            game.name,
            seat,
            spec,
            tuple(players),
            tuple(r for r in results if r["kind"] == "decision"),
            tuple({k: r[k] for k in ("index", "round", "wins")} for r in results if r["kind"] != "decision"),
        )


def analyse(
    game: Game[Any],
    initial: State[Any],
    moves: Sequence[tuple[int, str]],
    seat: int,
    spec: str = ANALYSIS_SPEC,
    *,
    seed: int = 0,
    samples: int = 0,
    players: Sequence[str] | None = None,
    graph: bool = True,
    progress: Progress | None = None,
) -> Analysis:
    """Run every job of :func:`jobs` here, one after another (``progress(done, total)`` after each)."""
    todo = jobs(game, initial, moves, seat, graph=graph)
    results = []
    for i, job in enumerate(todo):
        results.append(run_job(game, job, spec, seed, samples))
        if progress is not None:
            progress(i + 1, len(todo))
    names = players or [f"Player {i + 1}" for i in range(game.num_players)]
    return Analysis.assemble(game, seat, resolve_spec(spec, game.name), names, results)
