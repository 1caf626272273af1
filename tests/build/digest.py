"""Seeded games of one table, digested: one SHA-256 per part, for comparing the two builds.

Run: ``python tests/build/digest.py TABLE GAMES [--checked N] [--records N] [--bot-games N]``.
``TABLE`` is one of :data:`TABLES`; ``GAMES`` random games are played on the fast path
(``fast_path(game)``: ``new_state`` and ``stepper``), ``--checked`` (``GAMES // 20`` unless
given) through ``apply_action`` with everything a server or a client reads, ``--records``
whole game records, and ``--bot-games`` games of each bot of :data:`BOTS`. The first line
names the build that ran (``build compiled ...`` or ``build pure ...``); then one line a part,
``part games steps sha256``. ``test_builds.py`` runs this once compiled and once with
``SAKURA_PURE=1`` and compares the lines: the same seeds must give the same bytes.

What goes into each part (text, one item a line, JSON without sorted keys so that key order
counts too, ``repr`` where a value's types matter beyond its JSON):

* ``fast``: every step's seat, its legal actions as text, the action taken; at the end the
  saved state (``to_json``), its text form and the outcome.
* ``checked``: the deal's saved state and every viewer's view; then every step's events as
  every viewer (each seat and the spectator) sees them, every viewer's view (``to_json`` and
  ``repr``), the saved state and its text, the state loaded back from it and a clone (saved
  again), a determinization drawn from the acting seat's view, and for Sakura the position's
  text and JSON read back and the state set up from it. Now and then the game goes on from the
  clone or from the loaded state instead, so their futures are played too.
* ``records``: whole records of random games (``sakura.records.random_playout``) as their JSON
  text, and the final state of replaying each.
* ``bots``: games where every seat is the same bot, each decision and the final state.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from sakura._build import build_info
from sakura.bots import make_bot
from sakura.engine import Game, fast_path, make_game
from sakura.engine.games.sakura import Position, state_from_position
from sakura.records import GameRecord, random_playout, replay

TABLES: dict[str, tuple[str, dict[str, Any]]] = {
    "2p-court": ("sakura", {"players": 2, "variant": "court"}),
    "2p-tactical": ("sakura", {"players": 2, "variant": "tactical"}),
    "3p": ("sakura", {"players": 3}),
    "4p": ("sakura", {"players": 4}),
    "5p": ("sakura", {"players": 5}),
    "6p": ("sakura", {"players": 6}),
    "cards": ("sakura-cards", {}),
}
BOTS = ("greedy", "softmax:0.3", "mcts:30", "mcts:30,model=0,infer=0.1")
TRIPS = 0.05  # the share of checked steps followed by the round trips
DATE = "2026-12-01T00:00:00+00:00"  # records carry a date: a fixed one, not the clock's


class Digest:
    """A SHA-256 of lines of text, with a count of games and steps for the report."""

    def __init__(self) -> None:
        self.hash = hashlib.sha256()
        self.games = 0
        self.steps = 0

    def add(self, *items: object) -> None:
        self.hash.update("\t".join(map(str, items)).encode("utf-8", "surrogatepass") + b"\n")

    def add_json(self, value: object) -> None:
        self.add(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_not_json))

    def line(self, part: str) -> str:
        return f"{part} {self.games} {self.steps} {self.hash.hexdigest()}"


def _not_json(value: object) -> str:
    raise TypeError(f"not JSON: {value!r} ({type(value).__name__})")


def _turn(state: Any, rng: random.Random) -> tuple[int, Any, list[Any]]:
    """A seat that must act (any of them in a simultaneous choice: the order of submission is
    part of what is tested) and one of its legal actions, both drawn from ``rng``."""
    seats = state.current_players()
    player = seats[int(rng.random() * len(seats))] if len(seats) > 1 else seats[0]
    actions = state.legal_actions(player)
    return player, actions[int(rng.random() * len(actions))], actions


def _end(d: Digest, state: Any) -> None:
    outcome = state.outcome()
    d.add_json(state.to_json())
    d.add(state.text(), repr(outcome))
    d.add_json(outcome.to_dict() if outcome else None)


def fast_games(game: Game[Any], games: int, first: int) -> Digest:
    d = Digest()
    path = fast_path(game)
    assert path.fast, f"{game.name} should declare the fast path"
    for seed in range(first, first + games):
        rng = random.Random(seed)
        state = path.new_state(seed)
        step = path.stepper(state)
        moves: list[object] = []
        while not state.is_terminal():
            player, action, actions = _turn(state, rng)
            moves += (player, len(actions), action)
            step(player, action)
        d.add(*moves)
        d.steps += len(moves) // 3
        _end(d, state)
        d.games += 1
    return d


def _views(state: Any, viewers: list[int | None]) -> list[Any]:
    """Every viewer's view as JSON: the spectator's (the last viewer) whole, then each seat's
    keys in order and the values in which it differs from the spectator's (the same value of
    the same type is written once: most of a view is public; this halves the bytes to hash)."""
    *seats, public = [state.view(viewer).to_json() for viewer in viewers]
    out: list[Any] = [public]
    for view in seats:
        out.append(list(view))
        out.append(
            {
                k: v
                for k, v in view.items()
                if k not in public or type(v) is not type(public[k]) or v != public[k]
            }
        )
    return out


def _round_trips(d: Digest, game: Game[Any], state: Any, view: Any, rng: random.Random, *, seed: int) -> Any:
    """The saved state, loaded back and cloned; the acting seat's view (taken before the step)
    in full and a determinization drawn from it; for Sakura the position read back from its
    text and JSON and the state set up from it. Returns the state to go on with: now and then
    the clone or the loaded state, so that their futures are played too."""
    saved = state.to_json()
    d.add_json(saved)
    loaded = game.state_from_json(saved)
    clone = state.clone()
    d.add(loaded.to_json() == saved, clone.to_json() == saved, loaded.text(), clone.text())
    d.add(repr(view))
    sample = game.sample_state(view, rng.randrange(1 << 30), events=rng.random() < 0.5)
    d.add_json(sample.to_json())
    if game.name == "sakura":
        position = state.position()
        text = position.text()
        d.add(text, Position.from_text(text) == position)
        d.add(Position.from_json(position.to_json()) == position, repr(position))
        d.add(state_from_position(game, position, seed).text())  # type: ignore[arg-type]
    pick = rng.random()
    return clone if pick < 0.3 else loaded if pick < 0.6 else state


def checked_games(game: Game[Any], games: int, first: int) -> Digest:
    d = Digest()
    viewers: list[int | None] = [*range(game.num_players), None]
    for seed in range(first, first + games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        d.add_json([state.to_json(), _views(state, viewers)])
        while not state.is_terminal():
            player, action, _ = _turn(state, rng)
            view = state.view(player)
            events = state.apply_action(player, action)
            d.steps += 1
            step: list[Any] = [player, str(action), repr(action)]
            for event in events:  # as each viewer sees it (the same object: the same event)
                step.append(repr(event))
                step.append(event.to_dict())
                for viewer in viewers:
                    seen = event.seen_by(viewer)
                    step.append(viewer if seen is event else [repr(seen), seen.to_dict()])
            step.append(_views(state, viewers))
            step.append(state.text())
            d.add_json(step)
            if rng.random() < TRIPS:
                state = _round_trips(d, game, state, view, rng, seed=seed)
        _end(d, state)
        d.games += 1
    return d


def records(game: Game[Any], games: int, first: int) -> Digest:
    d = Digest()
    names = [f"Player {seat + 1}" for seat in range(game.num_players)]
    for seed in range(first, first + games):
        record = random_playout(game, seed, players=names, date=DATE)
        text = record.dumps()
        d.add(text)
        again = GameRecord.loads(text)
        d.add(again == record)
        _end(d, replay(again))
        d.games += 1
        d.steps += len(record.moves)
    return d


def bot_games(game: Game[Any], games: int, first: int, every: int = 12) -> Digest:
    """Games of each bot of :data:`BOTS` at every seat. A search bot decides one decision in
    ``every`` (spread over the whole game, its own memory of earlier views kept), the greedy
    bot the others, so that the search's decisions stay few enough to keep the test quick."""
    d = Digest()
    for spec in BOTS:
        gap = every if spec.startswith("mcts") else 1
        for seed in range(first, first + games):
            bots = [make_bot(spec, game, seed=1000 * seed + seat) for seat in range(game.num_players)]
            greedy = [make_bot("greedy", game, seed=1000 * seed + seat) for seat in range(game.num_players)]
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                player = state.current_players()[0]
                bot = bots[player] if d.steps % gap == 0 else greedy[player]
                action = bot.act(state.view(player))
                d.add(spec, player, bot.spec, action)
                state.apply_action(player, game.parse_action(str(action)))
                d.steps += 1
            d.add(spec)
            _end(d, state)
            d.games += 1
    return d


PARTS: dict[str, Callable[[Game[Any], int, int], Digest]] = {
    "fast": fast_games,
    "checked": checked_games,
    "records": records,
    "bots": bot_games,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", choices=sorted(TABLES))
    parser.add_argument("games", type=int, help="random games on the fast path")
    parser.add_argument("--checked", type=int, help="fully checked games (default: GAMES // 20)")
    parser.add_argument("--records", type=int, default=5, help="whole game records")
    parser.add_argument("--bot-games", type=int, default=1, help="games of each bot")
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    args = parser.parse_args(argv)
    name, config = TABLES[args.table]
    game = make_game(name, config)
    counts = {
        "fast": args.games,
        "checked": args.games // 20 if args.checked is None else args.checked,
        "records": args.records,
        "bots": args.bot_games,
    }
    info = build_info()
    print(f"build {info.kind} {info.describe()}", flush=True)
    for part, play in PARTS.items():
        start = time.process_time()
        print(play(game, counts[part], args.first).line(part), flush=True)
        print(f"{part}: {time.process_time() - start:.2f} s of CPU", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
