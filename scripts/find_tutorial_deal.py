"""Find the tutorial's fixed deal: a seed and scripted plays where everything the tutorial
teaches happens early.

The tutorial (``src/sakura/records/data/tutorial.json``) walks a first game through choosing a
card, order numbers, a card's garden action then its painter action, a forward/back choice of
your own, a bump, a scoring and the line-up. This script samples, for each seed, random card
plays for every seat (you are seat 0 of three) until the first sakura is scored, and keeps
the plays where:

- round 1 is plain for you (your card asks no choice), and a forward/back choice is yours
  in round 2;
- a bot falls from grace (a bump) before the scoring, and you never do: your choice's other
  answer would have bumped you (the choice's preview shows it);
- the first sakura is scored within ``--rounds`` rounds, you closest (3 tokens), and the
  line-up moves somebody.

It prints the best few (fewest rounds, then fewest choices for the bots) as JSON lines: the
``seed`` and ``bots`` of the tutorial script, and your moves (each step's ``expect``).
Usage: ``python scripts/find_tutorial_deal.py --seeds 200 --tries 300 --rounds 3``.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from sakura.engine import make_game
from sakura.engine.games.sakura import FORWARD


def attempt(game: Any, seed: int, rng: random.Random, rounds: int) -> dict[str, Any] | None:
    state = game.new_initial_state(seed)
    moves: list[tuple[int, str]] = []
    facts: dict[str, Any] = {
        "choice_round": None,
        "bump": None,
        "scored": None,
        "lineup": False,
        "you_bumped": False,
        "bot_choices": 0,
        "warned": False,
    }
    while not state.is_terminal():
        seats = state.current_players()
        round_ = state.round
        if round_ > rounds:
            return None
        seat = seats[-1] if state.pending_choice() is None else seats[0]
        # the bots (1, 2) choose before you, so that your card reveals the round
        if state.pending_choice() is None:
            seat = next((s for s in seats if s != 0), 0)
        actions = state.legal_actions(seat)
        action = rng.choice(actions)
        if seat == 0 and state.pending_choice() is not None:
            # the other answer would have walked into the Emperor: the preview teaches it
            other = state.choice_effects(action != FORWARD)
            facts["warned"] = any(e.kind == "bumped" for e in other)
        elif seat != 0 and state.pending_choice() is not None:
            facts["bot_choices"] += 1
        events = state.apply_action(seat, action)
        moves.append((seat, str(action)))
        for e in events:
            if e.kind == "choice_asked" and e.seat == 0 and facts["choice_round"] is None:
                facts["choice_round"] = round_
            if e.kind == "bumped" and facts["bump"] is None and facts["scored"] is None:
                facts["bump"] = (round_, e.seat)
            if e.kind == "bumped" and e.seat == 0:
                facts["you_bumped"] = True
            if e.kind == "sakura_scored":
                facts["scored"] = (round_, e.awards)
            if e.kind == "painter_moved" and e.cause == "lineup":
                facts["lineup"] = True
        if facts["scored"] is not None:
            break
    if facts["scored"] is None or facts["bump"] is None or facts["choice_round"] != 2 or not facts["lineup"]:
        return None
    if facts["you_bumped"] or not facts["warned"]:
        return None
    round_, awards = facts["scored"]
    if not awards or awards[0][0] != 0:
        return None
    return {
        "seed": seed,
        "rounds": round_,
        "bump": facts["bump"],
        "bot_choices": facts["bot_choices"],
        "moves": moves,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--tries", type=int, default=300, help="random plays tried a seed")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    game = make_game("sakura", {"players": 3})
    found = []
    for seed in range(args.seeds):
        rng = random.Random(seed)
        for _ in range(args.tries):
            hit = attempt(game, seed, rng, args.rounds)
            if hit is not None:
                found.append(hit)
    found.sort(key=lambda h: (h["rounds"], h["bot_choices"], len(h["moves"])))
    print(f"{len(found)} scripts found")
    for hit in found[:5]:
        bots: dict[str, list[str]] = {}
        for seat, action in hit["moves"]:
            if seat != 0:
                bots.setdefault(str(seat), []).append(action)
        yours = [action for seat, action in hit["moves"] if seat == 0]
        print(
            json.dumps(
                {
                    "seed": hit["seed"],
                    "rounds": hit["rounds"],
                    "bump": hit["bump"],
                    "bots": bots,
                    "you": yours,
                }
            )
        )


if __name__ == "__main__":
    main()
