"""Determinization: a state sampled from a player's view shows that player the same view."""

from __future__ import annotations

import random

import pytest

from sakura.engine.games.sakura import SakuraGame

TABLES = [(2, "court"), (2, "tactical"), (3, "standard"), (4, "standard"), (5, "standard"), (6, "standard")]


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_a_sampled_state_shows_the_viewer_the_same_view(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    for seed in range(15):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in range(players):
                view = state.view(seat)
                sample = game.sample_state(view, rng.randrange(10**6))
                assert sample.view(seat) == view
                assert sample.current_players() == state.current_players()
                assert [str(a) for a in sample.legal_actions(seat)] == list(view.legal_actions)
            player = state.current_players()[0]
            state.apply_action(player, rng.choice(state.legal_actions(player)))


def test_samples_vary_the_hidden_part_and_play_on_to_the_end() -> None:
    game = SakuraGame(4)
    state = game.new_initial_state(5)
    view = state.view(0)
    samples = [game.sample_state(view, seed) for seed in range(8)]
    assert len({tuple(s.hands[1]) for s in samples}) > 1
    assert len({tuple(s.deck) for s in samples}) > 1
    assert all(s.hands[0] == state.hands[0] for s in samples)
    rng = random.Random(0)
    for sample in samples:
        while not sample.is_terminal():
            player = sample.current_players()[0]
            sample.apply_action(player, rng.choice(sample.legal_actions(player)))


def test_a_sample_draws_only_from_cards_the_viewer_has_not_seen() -> None:
    game = SakuraGame(3)
    state = game.new_initial_state(8)
    rng = random.Random(8)
    for _ in range(12):  # a few rounds in, with a discard pile
        player = state.current_players()[0]
        state.apply_action(player, rng.choice(state.legal_actions(player)))
    view = state.view(2)
    seen = set(view.discard) | set(view.hand or ())
    for seed in range(5):
        sample = game.sample_state(view, seed)
        hidden = set(sample.hands[0]) | set(sample.hands[1]) | set(sample.deck)
        assert not hidden & seen


def test_sampling_needs_a_player_view() -> None:
    game = SakuraGame(3)
    with pytest.raises(ValueError, match="spectator"):
        game.sample_state(game.new_initial_state(1).view(None), 1)


_FIELDS = (
    "emperor",
    "pos",
    "tokens",
    "supply",
    "scored",
    "hands",
    "deck",
    "discard",
    "round",
    "picks",
    "_waiting",
    "queue",
    "qi",
    "stage",
    "scoring",
    "double",
    "terminal",
    "_outcome",
)


def _every_field(state: object) -> tuple[object, ...]:
    return (
        *(getattr(state, f) for f in _FIELDS),
        state.rng.state,  # type: ignore[attr-defined]
        state._log is None,
    )  # type: ignore[attr-defined]


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_the_second_sample_of_a_view_is_the_sample_a_fresh_set_up_makes(players: int, variant: str) -> None:
    """A sampler's draws after its first are dealt into a template (``Sampler._template``):
    every field, the generator's state included, equals what the whole set-up makes (a fresh
    sampler's first draw), and the two play on alike."""
    game = SakuraGame(players, variant)
    templated = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in state.current_players():
                view = state.view(seat)
                for events in (False, True):
                    sampler = game.sampler(view, events=events)
                    sampler(1)  # the first draw: it sets the template up
                    templated += sampler._template is not None
                    for draw in (2, 3, 4):
                        dealt = sampler(draw)
                        fresh = game.sample_state(view, draw, events=events)
                        assert _every_field(dealt) == _every_field(fresh)
                        while not fresh.is_terminal():
                            p = fresh.current_players()[0]
                            action = rng.choice(fresh.legal_actions(p))
                            fresh.apply_action(p, action)
                            dealt.apply_action(p, action)
                        assert _every_field(dealt) == _every_field(fresh)
            player = state.current_players()[0]
            state.apply_action(player, rng.choice(state.legal_actions(player)))
    assert templated > 0  # the template served


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_a_sample_dealt_by_weights_shows_the_same_view_and_follows_them(players: int, variant: str) -> None:
    """``likely`` deals a seat's cards (hand and secret choice) by weight: a card that weighs
    nothing never reaches that seat while others are left, a heavy card nearly always does,
    and the view is the viewer's own as with a uniform draw."""
    game = SakuraGame(players, variant)
    rng = random.Random(players)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            for seat in range(players):
                view = state.view(seat)
                other = (seat + 1) % players
                unseen = sorted(set(state.hands[other]) | set(state.deck))
                never, always = unseen[0], unseen[-1]
                likely = {other: {never: 0.0, always: 1e9}}
                draw = rng.randrange(10**6)
                sample = game.sample_state(view, draw, likely=likely)
                again = game.sample_state(view, draw, likely=likely)
                assert sample.to_json() == again.to_json()  # reproducible by seed
                assert sample.view(seat) == view
                held = set(sample.hands[other]) | set(sample.picks[other] or ())
                assert never not in held
                assert always in held
                checked += 1
            player = state.current_players()[0]
            state.apply_action(player, rng.choice(state.legal_actions(player)))
    assert checked > 50


def test_weights_shift_a_seat_s_hand_towards_the_heavy_cards() -> None:
    game = SakuraGame(4)
    view = game.new_initial_state(2).view(0)
    unseen = [c for c in game.numbers if c not in (view.hand or ())]
    heavy = set(unseen[:10])
    likely = {1: {c: 5.0 for c in heavy}}
    counts = [len(heavy & set(game.sample_state(view, seed, likely=likely).hands[1])) for seed in range(300)]
    uniform = [len(heavy & set(game.sample_state(view, seed).hands[1])) for seed in range(300)]
    # a card of ten heavy ones weighs 5, of the 45 others 1: each draw is heavy 50/95 at first
    assert sum(counts) / 300 > 2.0
    assert sum(uniform) / 300 < 1.2
