"""Views show a player their own hand and the public board, never another player's hand or
secret card, the deck order or the generator; events seen by a player hide the same things."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from sakura.engine.games.sakura import SakuraGame, SakuraState
from sakura.engine.games.sakura import events as ev
from sakura.engine.protocol import Event

TABLES = [(2, "court"), (2, "tactical"), (3, "standard"), (4, "standard"), (5, "standard"), (6, "standard")]
TABLE_IDS = [f"{p}-{v}" for p, v in TABLES]


def random_states(game: SakuraGame, seed: int) -> Iterator[SakuraState]:
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    yield state
    while not state.is_terminal():
        player = rng.choice(state.current_players())
        state.apply_action(player, rng.choice(state.legal_actions(player)))
        yield state


def hidden_twin(state: SakuraState, viewer: int | None, rng: random.Random) -> SakuraState:
    """A copy of ``state`` that differs only in what ``viewer`` cannot see: the other players'
    hands and secret picks are dealt anew from those cards and the deck, the deck is
    reshuffled, and the generator is in another state."""
    twin = state.clone()
    others = [p for p in range(state.num_players) if p != viewer]
    pool = list(twin.deck)
    for p in others:
        pool += twin.hands[p]
        pool += twin.picks[p] or ()
    rng.shuffle(pool)
    for p in others:
        twin.hands[p] = sorted(pool.pop() for _ in twin.hands[p])
        pick = twin.picks[p]
        if pick is not None:
            twin.picks[p] = tuple(pool.pop() for _ in pick)
    twin.deck = pool
    twin.rng.state = rng.getrandbits(64)
    return twin


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_a_view_does_not_change_with_what_its_player_cannot_see(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    rng = random.Random(players)
    differed = 0
    for seed in range(6):
        for state in random_states(game, seed):
            for viewer in (None, *range(players)):
                twin = hidden_twin(state, viewer, rng)
                assert twin.view(viewer).to_json() == state.view(viewer).to_json()
                assert twin.view(viewer) == state.view(viewer)
                differed += twin.to_json() != state.to_json()
    assert differed > 100  # the twins really did differ in their hidden parts


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_a_view_shows_its_player_their_own_hand_and_secret_pick(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    for seed in range(6):
        for state in random_states(game, seed):
            for p in range(players):
                view = state.view(p)
                assert view.player == p and view.hand == tuple(state.hands[p])
                assert view.my_choice == state.picks[p]
                assert view.chosen == tuple(pick is not None for pick in state.picks)
                assert view.hand_sizes == tuple(len(h) for h in state.hands)
                assert view.deck_size == len(state.deck)
                assert view.legal_actions == tuple(str(a) for a in state.legal_actions(p))
                assert state.legal_texts(p) == [str(a) for a in state.legal_actions(p)]
                # each field from its own source (views set their slots by index)
                assert (view.players, view.emperor, view.painters, view.tokens) == (
                    players,
                    state.emperor,
                    tuple(state.pos),
                    tuple(state.tokens),
                )
                assert (view.supply, view.scored, view.round, view.terminal) == (
                    state.supply,
                    state.scored,
                    state.round,
                    state.terminal,
                )
                assert view.discard == tuple(state.discard)
                assert view.current_players == state.current_players()
                assert view.pending == state.pending_choice()
                json.dumps(view.to_json())
            spectator = state.view(None)
            assert spectator.hand is None and spectator.my_choice is None and spectator.legal_actions == ()


def test_a_view_changes_with_its_own_hand() -> None:
    """The other side of the twin test: what the viewer can see does show."""
    state = SakuraGame(3).new_initial_state(1)
    twin = state.clone()
    twin.hands[0], twin.deck[-1] = sorted([*twin.hands[0][1:], twin.deck[-1]]), twin.hands[0][0]
    assert twin.view(0) != state.view(0)
    assert twin.view(1) == state.view(1) and twin.view(None) == state.view(None)


def test_a_view_holds_no_hidden_fields() -> None:
    state = SakuraGame(4).new_initial_state(2)
    data = state.view(1).to_json()
    assert not {"hands", "deck", "rng", "picks", "position"} & set(data)
    assert data["hand"] == state.hands[1] and data["deck_size"] == len(state.deck)
    for other in (0, 2, 3):
        assert not set(state.hands[other]) & set(data["hand"])
    text = json.dumps(data)
    assert str(state.rng.state) not in text


def test_a_view_for_a_seat_that_does_not_exist() -> None:
    state = SakuraGame(3).new_initial_state(1)
    for seat in (3, -1):
        with pytest.raises(ValueError, match=f"no player {seat}"):
            state.view(seat)


# ------------------------------------------------------------------------------ events


def check_seen_by(event: Event, players: int) -> None:
    for viewer in (None, *range(players)):
        seen = event.seen_by(viewer)
        json.dumps(seen.to_dict())
        if isinstance(event, ev.CardChosen):
            assert isinstance(seen, ev.CardChosen) and seen.player == event.player
            assert seen.cards == (event.cards if viewer == event.player else None)
        elif isinstance(event, ev.HandsRefilled):
            assert isinstance(seen, ev.HandsRefilled) and seen.counts == event.counts
            assert seen.draws == tuple(d if s == viewer else None for s, d in enumerate(event.draws))
        elif isinstance(event, ev.DeckReshuffled):
            assert seen == ev.DeckReshuffled(event.size, None)
        else:  # everything else is public
            assert seen == event


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_events_hide_other_players_draws_and_picks_and_the_deck_order(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    counts: dict[str, int] = {}
    for seed in range(10):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            player = rng.choice(state.current_players())
            for event in state.apply_action(player, rng.choice(state.legal_actions(player))):
                check_seen_by(event, players)
                counts[event.kind] = counts.get(event.kind, 0) + 1
    assert counts["card_chosen"] and counts["hands_refilled"] and counts["deck_reshuffled"]


def test_hidden_events_by_example() -> None:
    chosen = ev.CardChosen(1, (17,))
    assert chosen.seen_by(1) == chosen
    assert chosen.seen_by(0).to_dict() == {"type": "card_chosen", "player": 1, "cards": None}
    assert chosen.seen_by(None).to_dict()["cards"] is None
    drawn = ev.HandsRefilled((1, 2), ((4,), (5, 6)))
    assert drawn.seen_by(1).to_dict() == {"type": "hands_refilled", "counts": [1, 2], "draws": [None, [5, 6]]}
    assert drawn.seen_by(None).to_dict()["draws"] == [None, None]
    shuffled = ev.DeckReshuffled(3, (9, 8, 7))
    assert shuffled.seen_by(0).to_dict() == {"type": "deck_reshuffled", "size": 3, "order": None}
    assert shuffled.seen_by(None).to_dict()["order"] is None


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_a_view_says_who_played_which_card_last_round(players: int, variant: str) -> None:
    """The round's cards are revealed face up in front of their players, so who played which
    is public; the discard pile alone does not say it, so the next round's views do."""
    game = SakuraGame(players, variant)
    rounds = 0
    for seed in range(4):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        assert state.view(0).last_round == ()
        revealed: tuple[tuple[int, int], ...] = ()
        while not state.is_terminal():
            player = rng.choice(state.current_players())
            for event in state.apply_action(player, rng.choice(state.legal_actions(player))):
                if isinstance(event, ev.CardsRevealed):
                    revealed = tuple(sorted(event.plays, key=lambda play: play[1]))
                if isinstance(event, ev.RoundStarted | ev.GameEnded):
                    rounds += 1
                    for viewer in (None, *range(players)):
                        assert state.view(viewer).last_round == revealed
                    loaded = game.state_from_json(json.loads(json.dumps(state.to_json())))
                    assert loaded.view(0).last_round == revealed
    assert rounds > 20
