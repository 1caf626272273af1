"""The observation layouts and action ids of every game: fixed, complete, in bounds, and
meaning what ``docs/rl.md`` says."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from tests.rl.helpers import IDS, PARAMS, game_of, random_states

from sakura.engine import make_game
from sakura.engine.games.sakura import SakuraGame
from sakura.rl.encoding import OBS_DTYPE, encoder_for, relative_rewards
from sakura.rl.sakura_encoding import SakuraEncoder


@pytest.mark.parametrize(("name", "config"), PARAMS, ids=IDS)
def test_the_slots_tile_the_vector_and_every_action_id_reads_back(name: str, config: dict[str, Any]) -> None:
    game = game_of(name, config)
    enc = encoder_for(game)
    offset = 0
    for slot in enc.layout:
        assert slot.start == offset and slot.size > 0, slot
        assert slot.meaning and slot.source, slot
        offset = slot.stop
    assert offset == enc.size == enc.layout.size
    for i, text in enumerate(enc.action_texts):
        action = game.parse_action(text)
        assert str(action) == text and enc.action_id(text) == i and enc.actions[i] == action


@pytest.mark.parametrize(("name", "config"), PARAMS, ids=IDS)
def test_observations_are_fixed_in_bounds_and_every_legal_action_has_an_id(
    name: str, config: dict[str, Any]
) -> None:
    game = game_of(name, config)
    enc = encoder_for(game)
    count = 0
    for seed in range(6):
        for state in random_states(game, seed):
            for seat in range(game.num_players):
                view = state.view(seat)
                obs = enc.encode(view)
                assert obs.shape == (enc.size,) and obs.dtype == OBS_DTYPE
                assert np.isfinite(obs).all() and obs.min() >= 0.0 and obs.max() <= 1.0
                ids = enc.legal_ids(view)
                assert [enc.action_text(i) for i in ids] == sorted(view.legal_actions, key=enc.action_id)
                assert len(ids) == len(view.legal_actions)
                mask = enc.mask(view)
                assert mask.sum() == len(ids) and set(np.flatnonzero(mask)) == set(ids)
                count += 1
    assert count > 100


def _slot(enc: Any, obs: np.ndarray, name: str) -> np.ndarray:
    slot = enc.layout[name]
    return obs[slot.start : slot.stop]


def test_sakura_slots_mean_what_the_layout_says() -> None:
    game = SakuraGame(4)
    enc = SakuraEncoder(game)
    for state in random_states(game, 11, every=3):
        for seat in range(4):
            view = state.view(seat)
            obs = enc.encode(view)
            assert np.flatnonzero(_slot(enc, obs, "emperor")).tolist() == [view.emperor]
            spaces = enc.spaces
            painters = _slot(enc, obs, "painters").reshape(enc.painters, spaces)
            for other in range(4):  # me first, then the next seats in turn
                assert painters[(other - seat) % 4].argmax() == view.painters[other]
            hand = [game.numbers[i] for i in np.flatnonzero(_slot(enc, obs, "hand"))]
            assert hand == sorted(view.hand or ())
            discard = [game.numbers[i] for i in np.flatnonzero(_slot(enc, obs, "discard"))]
            assert discard == sorted(view.discard)
            tokens = _slot(enc, obs, "tokens") * game.deck.total_tokens
            assert np.allclose(tokens, [view.tokens[(seat + r) % 4] for r in range(4)])
            phase = np.flatnonzero(_slot(enc, obs, "phase")).tolist()
            assert phase == [2 if view.terminal else 1 if view.pending else 0]


def test_the_tactical_layout_has_the_court_card_and_pair_actions() -> None:
    enc = encoder_for(make_game("sakura", {"players": 2, "variant": "tactical"}))
    assert "my_court_card" in enc.layout and "double" in enc.layout
    assert enc.num_actions == 60 + 60 * 60 + 2
    assert enc.action_text(60 + 16 * 60 + 41) == "play 17 court 42"
    assert "my_court_card" not in encoder_for(make_game("sakura", {"players": 2})).layout


def test_cards_slots_mean_what_the_layout_says() -> None:
    game = make_game("sakura-cards")
    enc = encoder_for(game)
    for state in random_states(game, 5, every=4):
        for seat in (0, 1):
            view = state.view(seat)
            obs = enc.encode(view)
            counts = _slot(enc, obs, "hand") * 2
            hand = [name for name, k in zip(enc.names, counts, strict=True) for _ in range(round(k))]
            assert sorted(hand) == sorted(view.hand or ())
            mine = _slot(enc, obs, "areas")[: 3 * len(enc.names)].reshape(3, len(enc.names)) * 2
            for area, cards in enumerate(view.areas[seat]):
                assert mine[area].sum() == len(cards)


def test_rewards_are_relative_gains_plus_the_win_share() -> None:
    from sakura.engine import Outcome

    assert relative_rewards([5, 5], [8, 5], None, 10.0, 1.0) == [0.3, -0.3]
    end = relative_rewards([8, 5], [8, 5], Outcome((0,), (8, 5)), 10.0, 1.0)
    assert end == [1.0, 0.0]
    shared = relative_rewards([1, 1, 1], [1, 1, 1], Outcome((0, 2), (1, 1, 1)), 10.0, 0.0)
    assert shared == [0.5, 0.0, 0.5]
    assert relative_rewards([5, 5], [8, 5], None, 10.0, 0.0) == [0.0, 0.0]


def test_an_unknown_game_or_a_spectator_has_no_encoding() -> None:
    class Other:
        name = "chess"

    with pytest.raises(ValueError, match="no RL encoding"):
        encoder_for(Other())  # type: ignore[arg-type]
    game = make_game("sakura", {"players": 3})
    with pytest.raises(ValueError, match="spectator"):
        encoder_for(game).encode(game.new_initial_state(1).view(None))


@pytest.mark.parametrize(("name", "config"), PARAMS, ids=IDS)
def test_the_memoised_public_part_changes_nothing(name: str, config: dict[str, Any]) -> None:
    """Encoding the public board once per board and rotating it per player gives exactly what
    encoding each view from scratch gives, whatever order the players are encoded in."""
    game = game_of(name, config)
    enc = encoder_for(game)
    rng = np.random.default_rng(0)
    for state in random_states(game, 9):
        for seat in rng.permutation(game.num_players):
            view = state.view(int(seat))
            memoised = enc.encode(view)
            enc.forget()
            assert np.array_equal(memoised, enc.encode(view))


@pytest.mark.parametrize(("name", "config"), PARAMS, ids=IDS)
def test_encoding_every_seat_at_once_gives_each_seats_own_encoding(name: str, config: dict[str, Any]) -> None:
    """What the ParallelEnv does after every step (``encoder.views`` made at once, then
    ``encode_all``) gives, row by row, exactly ``encode(state.view(seat))``: the views made at
    once equal the engine's views one by one (the preview of a pending choice left out, which
    no slot reads), and each row is a function of that seat's view alone."""
    game = game_of(name, config)
    enc = encoder_for(game)
    pending = 0
    for seed in (5, 6):
        for state in random_states(game, seed):
            if state.is_terminal():
                continue
            views = enc.views(state)
            assert len(views) == game.num_players
            for seat, view in enumerate(views):
                full = state.view(seat)
                preview = getattr(full, "preview", ())
                pending += bool(preview)
                if preview:
                    assert dataclasses.replace(view, preview=preview) == full and view.preview == ()
                else:
                    assert view == full
            rows = enc.encode_all(views)
            assert rows.shape == (game.num_players, enc.size) and rows.dtype == OBS_DTYPE
            for seat in range(game.num_players):
                enc.forget()
                assert np.array_equal(rows[seat], enc.encode(state.view(seat)))
            assert np.array_equal(enc.encode_all(views), rows)  # the memoised public part again
    if name == "sakura":
        assert pending > 0, "some of these states should wait for a forward/back choice"
    with pytest.raises(ValueError, match="seat order"):
        enc.encode_all(list(reversed(views)))


def test_make_views_is_make_view_for_every_seat_and_its_preview_can_be_left_out() -> None:
    from sakura.engine.games.sakura.view import make_view, make_views

    game = SakuraGame(4)
    previews = 0
    for state in random_states(game, 11):
        views = make_views(state)
        assert views == tuple(make_view(state, seat) for seat in range(4))
        bare = make_views(state, preview=False)
        previews += bool(views[0].preview)
        for full, view in zip(views, bare, strict=True):
            assert view.preview == () and dataclasses.replace(view, preview=full.preview) == full
    assert previews > 0


@pytest.mark.parametrize(("name", "config"), PARAMS, ids=IDS)
def test_only_the_private_slots_differ_between_seats_once_rotated_back(
    name: str, config: dict[str, Any]
) -> None:
    """Every seat sees the same public board: undoing each seat's rotation, the observations
    agree everywhere but in the slots marked private (hand, own choices)."""
    game = game_of(name, config)
    enc = encoder_for(game)
    public = np.ones(enc.size, dtype=bool)
    for slot in enc.layout:
        if slot.private:
            public[slot.start : slot.stop] = False
    differ = np.zeros(enc.size, dtype=bool)
    for state in random_states(game, 4, every=2):
        boards = []
        for seat in range(game.num_players):
            board = np.empty(enc.size, dtype=np.float32)
            board[enc._perm[seat]] = enc.encode(state.view(seat))
            boards.append(board)
        for board in boards[1:]:
            assert np.array_equal(board[public], boards[0][public])
            differ |= board != boards[0]
    assert differ[~public].any() and not differ[public].any()


# The fingerprint of every table's observation layout and action ids at LAYOUT_VERSION. A change
# to an encoder fails this test: bump LAYOUT_VERSION (sakura/rl/encoding.py), put the new
# fingerprint here, and retrain the shipped policies (they refuse another version).
LAYOUT_FINGERPRINTS = {1: "48e4bc982e8dfa08"}


def test_the_layout_version_is_bumped_on_any_change_of_a_layout() -> None:
    import hashlib

    from tests.rl.helpers import TABLES

    from sakura.rl import LAYOUT_VERSION
    from sakura.rl.pettingzoo_env import SakuraParallelEnv

    digest = hashlib.sha256()
    for name, config, _ in TABLES:
        enc = encoder_for(make_game(name, config))
        digest.update(enc.layout.markdown().encode())
        digest.update(enc.history.markdown().encode())
        digest.update("\n".join(enc.action_texts).encode())
    assert digest.hexdigest()[:16] == LAYOUT_FINGERPRINTS.get(LAYOUT_VERSION), (
        "the observation layout changed: bump LAYOUT_VERSION and record the new fingerprint"
    )
    assert SakuraParallelEnv.metadata["observation_layout_version"] == LAYOUT_VERSION
