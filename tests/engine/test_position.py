"""Positions: text and JSON forms that round-trip exactly, and states set up from positions
that go on as the original game would (python-chess's FEN, in spirit)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from sakura.engine.games.sakura import Position, SakuraAction, SakuraGame, SakuraState, state_from_position
from sakura.engine.protocol import Event

TABLES = [(2, "court"), (2, "tactical"), (3, "standard"), (4, "standard"), (5, "standard"), (6, "standard")]
TABLE_IDS = [f"{p}-{v}" for p, v in TABLES]
GAMES_PER_TABLE = 10


def random_states(game: SakuraGame, seed: int, hook: bool = False) -> Iterator[SakuraState]:
    """Every state of a random game, after each action (and, with ``hook``, after each step
    inside an action too). The states yielded are the game's own: look, don't touch."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    inner: list[SakuraState] = []
    if hook:
        state.set_step_hook(lambda s: inner.append(s.clone()))  # type: ignore[arg-type]
    yield state
    while not state.is_terminal():
        player = rng.choice(state.current_players())
        state.apply_action(player, rng.choice(state.legal_actions(player)))
        yield from inner
        inner.clear()
        yield state


def kinds(position: Position) -> set[str]:
    """What kind of situation a position is, for the coverage checks."""
    out = set()
    if position.chosen:
        out.add("secret picks")
        if any(len(c) == 2 for c in position.chosen):
            out.add("tactical double pick")
    if position.stage in (1, 3):
        out.add("pending choice")
    if position.stage in (0, 2) and position.queue:
        out.add("between two cards")
    if position.scoring:
        out.add("scoring")
    if position.scored == 3:
        out.add("game over")
    return out


# ------------------------------------------------------------------------------ round trips


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_text_and_json_forms_round_trip_at_every_step(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    seen: Counter[str] = Counter()
    for seed in range(GAMES_PER_TABLE):
        for state in random_states(game, seed, hook=True):
            p = state.position()
            text = p.text()
            assert Position.from_text(text) == p, text
            assert Position.from_text(text).text() == text
            assert str(p) == text and "\n" not in text
            data = json.loads(json.dumps(p.to_json()))
            assert Position.from_json(data) == p, data
            assert Position.from_json(data).to_json() == data
            assert state.text() == text
            seen.update(kinds(p))
    expected = {"secret picks", "pending choice", "between two cards", "scoring", "game over"}
    if variant == "tactical":
        expected.add("tactical double pick")
    assert expected <= set(seen), f"not covered: {expected - set(seen)}"


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_every_position_of_a_real_game_is_valid(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    for seed in range(GAMES_PER_TABLE):
        for state in random_states(game, seed):
            state.position().validate(game)


def test_the_text_form_by_example() -> None:
    p = Position.from_text("4 e14 s1 p11,9,0,0 t5,7,5,3 q34 r5")
    assert (p.players, p.variant, p.emperor, p.scored) == (4, "standard", 14, 1)
    assert (p.painters, p.tokens, p.supply, p.round) == ((11, 9, 0, 0), (5, 7, 5, 3), 34, 5)
    assert p.hands is None and p.deck is None and p.discard is None and p.chosen is None
    assert p.text() == "4 e14 s1 p11,9,0,0 t5,7,5,3 q34 r5"
    # Fields may come in any order; the round defaults to 1; text() writes them in order.
    q = Position.from_text("2t q39 t5,5,5 p0,0,0 s0 e4")
    assert (q.players, q.variant, q.round) == (2, "tactical", 1)
    assert q.text() == "2t e4 s0 p0,0,0 t5,5,5 q39 r1"
    assert Position.from_text("2c e4 s0 p0,0,0 t5,5,5 q39").variant == "court"


def test_the_text_form_of_a_round_in_progress() -> None:
    text = "3 e9 s0 p3,2,1 t5,5,5 q39 r2 h1.2.3.4/5.6.7.8/9.10.11.12 d13.14 x15 k16@0.18@2:p"
    p = Position.from_text(text)
    assert p.hands == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))
    assert p.deck == (13, 14) and p.discard == (15,)
    assert p.queue == ((16, 0), (18, 2)) and p.stage == 3 and not p.scoring
    assert p.text() == text
    picks = Position.from_text("3 e9 s0 p3,2,1 t5,5,5 q39 h1.2.3.4/5.6.7.8.9/10.11.12.13 c14//15")
    assert picks.chosen == ((14,), (), (15,))
    scoring = Position.from_text("4 e11 s0 p3,2,1,0 t5,5,5,5 q34 k3@0:p!")
    assert scoring.scoring and scoring.stage == 3 and scoring.text().endswith("k3@0:p!")


def test_empty_lists_round_trip() -> None:
    """An empty deck, discard pile or hand is written as a bare label and read back."""
    p = Position.from_text("3 e9 s0 p3,2,1 t5,5,5 q39 h/1/2 d x")
    assert p.hands == ((), (1,), (2,)) and p.deck == () and p.discard == ()
    assert Position.from_text(p.text()) == p
    assert Position.from_json(p.to_json()) == p


def test_nobody_having_chosen_is_the_same_as_no_chosen_field() -> None:
    base = Position.from_text("3 e9 s0 p3,2,1 t5,5,5 q39")
    assert Position.from_text("3 e9 s0 p3,2,1 t5,5,5 q39 c//") == base
    assert Position.from_json({**base.to_json(), "chosen": [[], [], []]}) == base


def test_the_json_form_by_example() -> None:
    p = Position.from_text("2t e9 s1 p3,2,1 t6,5,4 q39 r4 h1/2 d3 x4 k5@2:G!")
    assert p.to_json() == {
        "players": 2,
        "variant": "tactical",
        "emperor": 9,
        "scored": 1,
        "painters": [3, 2, 1],
        "tokens": [6, 5, 4],
        "supply": 39,
        "round": 4,
        "hands": [[1], [2]],
        "deck": [3],
        "discard": [4],
        "queue": [[5, 2]],
        "stage": "G",
        "scoring": True,
    }
    assert Position.from_json(p.to_json()) == p


# ------------------------------------------------------------------------------ states from positions


def play_on(state: SakuraState, steps: list[tuple[int, SakuraAction]]) -> list[dict[str, object]]:
    out: list[Event] = []
    for p, a in steps:
        out += state.apply_action(p, a)
    return [e.to_dict() for e in out]


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_a_state_set_up_from_a_complete_position_goes_on_identically(players: int, variant: str) -> None:
    """With hands, deck and discard given and the generator carried over, a state set up from
    any position of a game (picks made, a choice pending, ...) plays on exactly as the game."""
    game = SakuraGame(players, variant)
    seen: Counter[str] = Counter()
    for seed in range(GAMES_PER_TABLE // 2):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        steps: list[tuple[int, SakuraAction]] = []
        while not state.is_terminal():
            player = rng.choice(state.current_players())
            action = rng.choice(state.legal_actions(player))
            steps.append((player, action))
            state.apply_action(player, action)
        final = state.position()
        # Replay, and at every step set up a copy from the position and check its future.
        replay = game.new_initial_state(seed)
        for i, (player, action) in enumerate(steps):
            if i % 3 == 0:
                position = replay.position()
                copy = state_from_position(game, position, seed=12345)
                copy.rng.state = replay.rng.state
                assert copy.position() == position
                assert copy.current_players() == replay.current_players()
                for seat in range(players):
                    assert copy.legal_actions(seat) == replay.legal_actions(seat)
                twin = replay.clone()
                assert play_on(copy, steps[i:]) == play_on(twin, steps[i:])
                assert copy.position() == final and copy.outcome() == state.outcome()
                seen.update(kinds(position))
            replay.apply_action(player, action)
    assert seen["pending choice"] and seen["secret picks"]


def test_a_position_caught_between_two_cards_goes_on_resolving() -> None:
    """A position between two cards of a round (as a step hook sees it) resolves on at once,
    up to the next choice or the end of the round, as the game itself did."""
    game = SakuraGame(4)
    checked = 0
    for seed in range(20):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        inner: list[tuple[Position, int]] = []

        def hook(s: SakuraState, inner: list[tuple[Position, int]] = inner) -> None:
            inner.append((s.position(), s.rng.state))

        state.set_step_hook(hook)  # type: ignore[arg-type]
        while not state.is_terminal():
            player = rng.choice(state.current_players())
            inner.clear()
            state.apply_action(player, rng.choice(state.legal_actions(player)))
            for position, rng_state in inner:
                if not position.queue or position.stage in (1, 3) or rng_state != state.rng.state:
                    continue  # not between two cards, or the deck is reshuffled later on
                resumed = state_from_position(game, position, seed=0)
                assert resumed.position() == state.position()
                checked += 1
    assert checked > 100


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_a_public_position_deals_reproducibly_from_a_seed(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    for seed in range(GAMES_PER_TABLE):
        for state in random_states(game, seed):
            if not state.in_selection or any(state.picks):
                continue
            full = state.position()
            for public in (
                dataclasses.replace(full, hands=None, deck=None, discard=None),
                dataclasses.replace(full, hands=None, deck=None),
            ):
                a = state_from_position(game, public, seed=f"deal {seed}")
                b = state_from_position(game, public, seed=f"deal {seed}")
                assert a.to_json() == b.to_json()
                assert (a.emperor, a.pos, a.tokens, a.supply, a.scored, a.round) == (
                    state.emperor, state.pos, state.tokens, state.supply, state.scored, state.round
                )  # fmt: skip
                assert all(len(h) == 5 for h in a.hands)
                assert a.discard == list(public.discard or ())
                dealt = sorted([c for h in a.hands for c in h] + a.deck + a.discard)
                assert dealt == list(game.deck.numbers)
                assert a.current_players() == state.current_players()
            break  # one public position per game is enough


def test_different_seeds_deal_differently() -> None:
    game = SakuraGame(4)
    public = Position.from_text("4 e8 s0 p3,2,1,0 t5,5,5,5 q34 r2 x1.2.3.4")
    deals = {tuple(map(tuple, state_from_position(game, public, seed).hands)) for seed in range(10)}
    assert len(deals) == 10
    for seed in range(10):
        state = state_from_position(game, public, seed)
        assert not {1, 2, 3, 4} & {c for h in state.hands for c in h}
        assert state.discard == [1, 2, 3, 4] and state.round == 2


def test_missing_deck_or_discard_is_filled_in() -> None:
    game = SakuraGame(3)
    hands = ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (11, 12, 13, 14, 15))
    no_deck = Position(3, "standard", 8, 0, (3, 2, 1), (5, 5, 5), 39, hands=hands, discard=(16, 17))
    a, b = (state_from_position(game, no_deck, 7) for _ in range(2))
    assert a.deck == b.deck and sorted(a.deck) == list(range(18, 61)) and a.discard == [16, 17]
    assert state_from_position(game, no_deck, 8).deck != a.deck
    no_discard = dataclasses.replace(no_deck, deck=tuple(range(20, 61)), discard=None)
    c = state_from_position(game, no_discard, 7)
    assert sorted(c.discard) == [16, 17, 18, 19] and c.deck == list(reversed(range(20, 61)))
    assert c.position().deck == tuple(range(20, 61))  # the deck is written top first


def test_a_finished_position_is_a_finished_state() -> None:
    game = SakuraGame(3)
    over = Position.from_text("3 e33 s3 p30,29,0 t12,9,8 q25 r14")
    state = state_from_position(game, over, 1)
    assert state.is_terminal() and state.current_players() == ()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (12, 9, 8)
