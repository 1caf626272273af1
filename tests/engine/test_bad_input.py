"""Every mistake a caller can make raises a narrow error that names the problem, and changes
nothing (STYLE.md, habit 10): illegal actions, malformed action text, malformed or impossible
positions, malformed saved states."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from sakura.engine import (
    GameError,
    IllegalActionError,
    InvalidPositionError,
    InvalidStateError,
    NotYourTurnError,
    make_game,
)
from sakura.engine.games.sakura import (
    BACK,
    FORWARD,
    Play,
    Position,
    SakuraGame,
    SakuraState,
    parse_action,
    state_from_json,
    state_from_position,
)

# ------------------------------------------------------------------------------ situations


def play_until(game: SakuraGame, predicate: Callable[[SakuraState], bool], seed: int = 0) -> SakuraState:
    """The first state of a random game (seeded, from ``seed`` on) where ``predicate`` holds."""
    for s in range(seed, seed + 200):
        state = game.new_initial_state(s)
        rng = random.Random(s)
        while True:
            if predicate(state):
                return state
            if state.is_terminal():
                break
            player = rng.choice(state.current_players())
            state.apply_action(player, rng.choice(state.legal_actions(player)))
    raise AssertionError("no random game reached the situation")


def pending(state: SakuraState) -> bool:
    return state.pending_choice() is not None


def double_player(state: SakuraState) -> bool:
    double = state.double_player
    return state.in_selection and double is not None and state.picks[double] is None


def rejects(state: SakuraState, player: Any, action: Any, error: type[GameError], *words: str) -> GameError:
    """``player`` doing ``action`` raises exactly ``error``, whose message has ``words``, and
    leaves the state exactly as it was."""
    before_json, before_text = state.to_json(), state.text()
    before_views = [state.view(v).to_json() for v in (None, *range(state.num_players))]
    with pytest.raises(error) as info:
        state.apply_action(player, action)
    assert type(info.value) is error, f"expected {error.__name__}, got {type(info.value).__name__}"
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert state.to_json() == before_json
    assert state.text() == before_text
    assert [state.view(v).to_json() for v in (None, *range(state.num_players))] == before_views
    # The state still works: a legal action goes through.
    clone = state.clone()
    if not clone.is_terminal():
        p = clone.current_players()[0]
        clone.apply_action(p, clone.legal_actions(p)[0])
    return info.value


def not_in(state: SakuraState, seat: int) -> int:
    """A card that is somewhere, but not in ``seat``'s hand."""
    others = [c for p, h in enumerate(state.hands) if p != seat for c in h]
    return others[0]


# ------------------------------------------------------------------------------ actions


def test_a_card_not_in_your_hand() -> None:
    state = SakuraGame(4).new_initial_state(1)
    card = not_in(state, 0)
    rejects(state, 0, Play(card), IllegalActionError, f"card {card}", "not in player 1's hand")
    rejects(state, 0, Play(61), IllegalActionError, "card 61", "not in player 1's hand")
    rejects(state, 0, Play(0), IllegalActionError, "card 0")
    rejects(state, 0, Play(-3), IllegalActionError, "card -3")


def test_a_card_already_played_is_no_longer_in_hand() -> None:
    state = SakuraGame(3).new_initial_state(2)
    card = state.hands[1][0]
    state.apply_action(1, Play(card))
    state.apply_action(0, state.legal_actions(0)[0])
    rejects(state, 2, Play(card), IllegalActionError, f"card {card}", "not in player 3's hand")


def test_choosing_twice_in_one_round() -> None:
    state = SakuraGame(4).new_initial_state(3)
    first, second = state.hands[2][:2]
    state.apply_action(2, Play(first))
    error = rejects(state, 2, Play(second), NotYourTurnError, "player 3", "already chosen")
    assert isinstance(error, IllegalActionError)  # the narrow error is also the broad one
    rejects(state, 2, Play(first), NotYourTurnError, "already chosen")


def test_a_choice_when_none_is_pending() -> None:
    state = SakuraGame(4).new_initial_state(4)
    rejects(state, 0, FORWARD, IllegalActionError, "no choice is pending")
    rejects(state, 3, BACK, IllegalActionError, "no choice is pending")


def test_a_choice_by_someone_else_than_the_card_owner() -> None:
    state = play_until(SakuraGame(4), pending)
    seat = (state.pending_choice() or (0, 0, ""))[0]
    other = (seat + 1) % 4
    rejects(
        state, other, FORWARD, NotYourTurnError, f"player {seat + 1} chooses now", f"not player {other + 1}"
    )
    rejects(state, other, BACK, NotYourTurnError, f"player {seat + 1} chooses now")


def test_playing_a_card_while_a_choice_is_pending() -> None:
    state = play_until(SakuraGame(5), pending)
    seat, _, _ = state.pending_choice() or (0, 0, "")
    for player in range(5):
        hand = state.hands[player]
        rejects(
            state, player, Play(hand[0]), NotYourTurnError, "cards are resolving", f"player {seat + 1} must"
        )


def test_the_tactical_double_player_must_play_two_cards() -> None:
    state = play_until(SakuraGame(2, "tactical"), double_player)
    me = state.double
    a, b = state.hands[me][:2]
    rejects(state, me, Play(a), IllegalActionError, f"player {me + 1} plays two cards", "court")
    rejects(state, me, Play(a, a), IllegalActionError, "court painter's card must be another card")
    foreign = not_in(state, me)
    rejects(state, me, Play(a, foreign), IllegalActionError, f"card {foreign}", "not in player")
    rejects(state, me, Play(foreign, b), IllegalActionError, f"card {foreign}", "not in player")
    assert Play(a, b) in state.legal_actions(me)


def test_the_other_tactical_player_plays_one_card() -> None:
    state = play_until(SakuraGame(2, "tactical"), double_player)
    other = 1 - state.double
    a, b = state.hands[other][:2]
    rejects(state, other, Play(a, b), IllegalActionError, f"player {other + 1} does not play for the court")


def test_nobody_plays_two_cards_while_both_tactical_painters_share_the_gate() -> None:
    state = SakuraGame(2, "tactical").new_initial_state(5)
    assert state.double_player is None
    a, b = state.hands[0][:2]
    rejects(state, 0, Play(a, b), IllegalActionError, "does not play for the court painter")


def test_the_court_variant_never_plays_two_cards() -> None:
    state = SakuraGame(2, "court").new_initial_state(6)
    a, b = state.hands[1][:2]
    rejects(state, 1, Play(a, b), IllegalActionError, "does not play for the court painter")


@pytest.mark.parametrize("seat", [4, 5, -1, 99])
def test_a_seat_that_does_not_exist(seat: int) -> None:
    state = SakuraGame(4).new_initial_state(7)
    rejects(state, seat, Play(state.hands[0][0]), IllegalActionError, f"no player index {seat}", "4-player")


def test_the_court_painter_is_not_a_player() -> None:
    state = SakuraGame(2, "court").new_initial_state(8)
    rejects(state, 2, Play(state.hands[0][0]), IllegalActionError, "no player index 2", "2-player game")
    choosing = play_until(SakuraGame(2, "court"), pending)
    rejects(choosing, 2, FORWARD, IllegalActionError, "no player index 2")


@pytest.mark.parametrize("player", ["0", None, 1.0, True, (0,)])
def test_a_player_that_is_not_a_seat_number(player: Any) -> None:
    state = SakuraGame(3).new_initial_state(9)
    rejects(state, player, Play(state.hands[0][0]), IllegalActionError, "a player is a seat number")


@pytest.mark.parametrize("action", ["play 3", 3, None, object(), ("play", 3), {"card": 3}])
def test_something_that_is_not_an_action(action: Any) -> None:
    state = SakuraGame(3).new_initial_state(10)
    rejects(state, 0, action, IllegalActionError, "not a Sakura action")


@pytest.mark.parametrize("card", [True, 1.0])
def test_a_card_that_is_not_an_order_number(card: Any) -> None:
    state = next(s for s in map(SakuraGame(3).new_initial_state, range(100)) if 1 in s.hands[0])
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="order number"):
        state.apply_action(0, Play(card))
    assert state.to_json() == before


def test_acting_after_the_game_is_over() -> None:
    state = play_until(SakuraGame(3), SakuraState.is_terminal)
    for player in range(3):
        rejects(state, player, Play(1), IllegalActionError, "the game is over")
        rejects(state, player, FORWARD, IllegalActionError, "the game is over")
    assert state.legal_actions(0) == [] and state.current_players() == ()


def test_game_apply_action_through_make_game_is_the_same() -> None:
    """The generic entry point (make_game) raises the same narrow errors."""
    state = make_game("sakura", {"players": 6}).new_initial_state(12)
    assert isinstance(state, SakuraState)
    rejects(state, 0, Play(not_in(state, 0)), IllegalActionError, "not in player 1's hand")


# ------------------------------------------------------------------------------ action text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "play",
        "play x",
        "play 3.0",
        "play 1 2",
        "play 1 court",
        "play 1 court x",
        "play 1 with 2",
        "play 1 court 2 3",
        "jump",
        "forward now",
        "fwd",
        "forward back",
        "3",
    ],
)
def test_malformed_action_text(text: str) -> None:
    with pytest.raises(IllegalActionError, match="not an action") as info:
        parse_action(text)
    assert repr(text) in str(info.value)
    with pytest.raises(IllegalActionError):
        SakuraGame(3).parse_action(text)


@pytest.mark.parametrize("text", [None, 3, b"play 3", ["play", "3"]])
def test_action_text_that_is_not_text(text: Any) -> None:
    with pytest.raises(IllegalActionError, match="an action is text"):
        parse_action(text)


def test_action_text_is_read_leniently_where_harmless() -> None:
    assert parse_action("  PLAY 7 ") == Play(7)
    assert parse_action("Play 7 Court 9") == Play(7, 9)
    assert parse_action("backward") == BACK and parse_action("Forward") == FORWARD


# ------------------------------------------------------------------------------ positions: text

BASE = "4 e14 s1 p11,9,0,0 t5,7,5,3 q34 r5"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "non-empty"),
        ("   ", "non-empty"),
        ("7 e4 s0 p0,0,0 t5,5,5 q39", "first field is 3-6 or 2c/2t"),
        ("2 e4 s0 p0,0,0 t5,5,5 q39", "first field"),
        ("2x e4 s0 p0,0,0 t5,5,5 q39", "'2x'"),
        ("e4 s0 p0,0,0 t5,5,5 q39", "first field"),
        (BASE + " z3", "unknown position field 'z3'"),
        (BASE + " E4", "unknown position field"),
        (BASE + " e15", "'e' appears twice"),
        (BASE + " p1,2,3,4", "'p' appears twice"),
        ("4 s1 p11,9,0,0 t5,7,5,3 q34", "lacks its 'e' field"),
        ("4 e14 p11,9,0,0 t5,7,5,3 q34", "lacks its 's' field"),
        ("4 e14 s1 t5,7,5,3 q34", "lacks its 'p' field"),
        ("4 e14 s1 p11,9,0,0 q34", "lacks its 't' field"),
        ("4 e14 s1 p11,9,0,0 t5,7,5,3", "lacks its 'q' field"),
        ("4 eX s1 p11,9,0,0 t5,7,5,3 q34", "malformed position"),
        ("4 e s1 p11,9,0,0 t5,7,5,3 q34", "malformed position"),
        ("4 e14 s1 p11,,0,0 t5,7,5,3 q34", "malformed position"),
        ("4 e14 s1 p11;9;0;0 t5,7,5,3 q34", "malformed position"),
        ("4 e14 s1 p11,9,0,0 t5,7,5,3 q34 rX", "malformed position"),
        (BASE + " h1.2.x/3/4/5", "malformed position"),
        (BASE + " k1@0", "bad 'k' field"),
        (BASE + " k1@0:z", "bad 'k' field"),
        (BASE + " k1@0:p!!", "bad 'k' field"),
        (BASE + " k1-0:p", "expected card@seat"),
        (BASE + " k1@x:p", "malformed position"),
    ],
)
def test_malformed_position_text(text: str, words: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        Position.from_text(text)
    assert words in str(info.value)


@pytest.mark.parametrize("text", [None, 4, b"4 e14"])
def test_position_text_that_is_not_text(text: Any) -> None:
    with pytest.raises(InvalidPositionError, match="non-empty line of text"):
        Position.from_text(text)


# ------------------------------------------------------------------------------ positions: JSON

GOOD = Position.from_text(BASE).to_json()


def _with(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is _DROP:
            data.pop(key)
        else:
            data[key] = value
    return data


_DROP = object()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([1, 2, 3], "a JSON position is an object"),
        ("4 e14", "a JSON position is an object"),
        (_with(emperorr=3), "unknown position keys: ['emperorr']"),
        (_with(dealer=0), "unknown position keys"),
        (_with(emperor=_DROP), "lacks 'emperor'"),
        (_with(players=_DROP), "lacks 'players'"),
        (_with(painters=_DROP), "lacks 'painters'"),
        (_with(supply=_DROP), "lacks 'supply'"),
        (_with(emperor="14"), "expected a whole number, got '14'"),
        (_with(emperor=14.0), "whole number"),
        (_with(emperor=True), "whole number"),
        (_with(players=None), "whole number"),
        (_with(painters=5), "expected a list of whole numbers"),
        (_with(painters="11,9,0,0"), "list of whole numbers"),
        (_with(painters=[11, 9, "0", 0]), "whole number"),
        (_with(tokens=[5, 7, 5, None]), "whole number"),
        (_with(hands=5), "malformed JSON position"),
        (_with(hands=[[1, 2], 3]), "list of whole numbers"),
        (_with(deck={"1": 2}), "list of whole numbers"),
        (_with(queue=[[1]]), "malformed JSON position"),
        (_with(queue=[[1, 0, 2]]), "malformed JSON position"),
        (_with(queue=[["1", 0]]), "whole number"),
        (_with(queue=5), "malformed JSON position"),
        (_with(stage="z"), "stage is one of"),
        (_with(stage=1), "stage is one of"),
    ],
)
def test_malformed_position_json(data: Any, words: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        Position.from_json(data)
    assert words in str(info.value)


# ------------------------------------------------------------------------------ impossible positions


def _complete(players: int = 4, variant: str | None = None, seed: int = 0) -> tuple[SakuraGame, Position]:
    """A real, complete position between rounds, a few rounds into a game."""
    game = SakuraGame(players, variant)
    state = play_until(game, lambda s: s.round >= 3 and s.in_selection and not any(s.picks), seed)
    return game, state.position()


def impossible(game: SakuraGame, position: Position, *words: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        position.validate(game)
    for word in words:
        assert word in str(info.value), f"{word!r} not in {str(info.value)!r}"
    with pytest.raises(InvalidPositionError):
        state_from_position(game, position, 1)
    # The text form of an impossible position still reads back as the same (impossible) value.
    if 0 <= position.stage < 4:
        assert Position.from_text(position.text()) == position


def test_the_positions_used_below_are_possible() -> None:
    game, position = _complete()
    position.validate(game)
    state_from_position(game, position, 1)


def test_a_position_of_another_table() -> None:
    _, position = _complete(4)
    impossible(SakuraGame(3), position, "the position is for 4 players", "the game for 3")
    _, tactical = _complete(2, "tactical")
    impossible(SakuraGame(2, "court"), tactical, "for 2 players (tactical), the game for 2 (court)")


def test_the_wrong_number_of_painters_or_token_counts() -> None:
    game, p = _complete(4)
    impossible(game, dataclasses.replace(p, painters=p.painters[:3]), "expected 4 painters")
    impossible(game, dataclasses.replace(p, tokens=(*p.tokens, 0)), "expected 4 painters and 4 token counts")
    court = SakuraGame(2, "court")
    pos = Position(2, "court", emperor=4, scored=0, painters=(0, 0), tokens=(5, 5), supply=44)
    impossible(court, pos, "expected 3 painters")  # the court painter counts


def test_a_painter_on_or_beyond_the_emperor() -> None:
    game = SakuraGame(4)
    base = Position(4, "standard", emperor=8, scored=0, painters=(3, 2, 1, 0), tokens=(5,) * 4, supply=34)
    base.validate(game)
    impossible(game, dataclasses.replace(base, painters=(8, 2, 1, 0)), "painter 0", "behind the Emperor")
    impossible(game, dataclasses.replace(base, painters=(3, 10, 1, 0)), "painter 1", "behind the Emperor")
    impossible(game, dataclasses.replace(base, painters=(3, 2, -1, 0)), "painter 2")


def test_two_painters_on_one_garden_space() -> None:
    game = SakuraGame(5)
    base = Position(5, "standard", emperor=9, scored=0, painters=(3, 2, 1, 0, 0), tokens=(5,) * 5, supply=29)
    base.validate(game)  # the gate may be shared
    impossible(game, dataclasses.replace(base, painters=(3, 3, 1, 0, 0)), "two painters share a space")


def test_the_tokens_must_add_up_to_54() -> None:
    game, p = _complete(3)
    impossible(game, dataclasses.replace(p, supply=p.supply + 1), "add up to 54")
    impossible(game, dataclasses.replace(p, tokens=(p.tokens[0] - 1, *p.tokens[1:])), "add up to 54")
    impossible(
        game,
        dataclasses.replace(p, tokens=(-1, *p.tokens[1:]), supply=p.supply + p.tokens[0] + 1),
        "negative",
    )
    impossible(game, dataclasses.replace(p, supply=-1, tokens=(p.tokens[0] + p.supply + 1, *p.tokens[1:])))


def test_the_emperor_off_the_board_or_past_an_unscored_sakura() -> None:
    game = SakuraGame(4)  # sakuras on spaces 11, 21 and 33
    base = Position(4, "standard", emperor=8, scored=0, painters=(3, 2, 1, 0), tokens=(5,) * 4, supply=34)
    impossible(game, dataclasses.replace(base, emperor=0, painters=(0,) * 4), "space from 1 to 33")
    impossible(game, dataclasses.replace(base, emperor=34), "space from 1 to 33")
    impossible(game, dataclasses.replace(base, emperor=12), "past the unscored sakura on space 11")
    impossible(game, dataclasses.replace(base, emperor=11), "past the unscored sakura on space 11")
    impossible(game, dataclasses.replace(base, emperor=22, scored=1), "sakura on space 21")
    dataclasses.replace(base, emperor=12, scored=1).validate(game)  # past a scored one is fine
    impossible(game, dataclasses.replace(base, scored=4), "scored sakuras must be 0 to 3")
    impossible(game, dataclasses.replace(base, scored=-1), "scored sakuras")


def test_scoring_needs_the_emperor_on_the_next_sakura() -> None:
    game = SakuraGame(4)
    base = Position(
        4, "standard", emperor=8, scored=0, painters=(3, 2, 1, 0), tokens=(5,) * 4, supply=34,
        hands=((6,), (7,), (8,), (9,)), queue=((37, 0),), stage=2, scoring=True,
    )  # fmt: skip
    impossible(game, base, "'!' (scoring) needs the Emperor on the next unscored sakura")


def test_a_round_number_below_one() -> None:
    game, p = _complete(4)
    impossible(game, dataclasses.replace(p, round=0), "rounds are numbered from 1")


def test_unknown_cards_and_cards_in_two_places() -> None:
    game, p = _complete(4)
    assert p.hands is not None and p.deck is not None and p.discard is not None
    hands = list(p.hands)
    hands[0] = (*hands[0][:4], 61)
    impossible(game, dataclasses.replace(p, hands=tuple(hands)), "no such card(s) in the deck: [61]")
    impossible(game, dataclasses.replace(p, deck=(0, *p.deck)), "no such card", "[0]")
    twice = p.hands[1][0]
    impossible(game, dataclasses.replace(p, deck=(twice, *p.deck)), "a card is in two places at once")
    impossible(game, dataclasses.replace(p, discard=(*p.discard, p.deck[0])), "two places at once")
    impossible(game, dataclasses.replace(p, deck=p.deck[1:]), f"missing: [{p.deck[0]}]")


def test_hands_of_the_wrong_count_or_size() -> None:
    game, p = _complete(4)
    assert p.hands is not None and p.deck is not None
    impossible(game, dataclasses.replace(p, hands=p.hands[:3]), "expected 4 hands")
    six = ((*p.hands[0], p.deck[0]), *p.hands[1:])
    impossible(game, dataclasses.replace(p, hands=six, deck=p.deck[1:]), "at most five cards")


def test_a_player_who_must_choose_needs_cards() -> None:
    """Otherwise the game would wait for a player who has no legal action."""
    game, p = _complete(4)
    assert p.hands is not None and p.discard is not None
    empty = ((), *p.hands[1:])
    no_cards = dataclasses.replace(p, hands=empty, discard=(*p.discard, *p.hands[0]))
    impossible(game, no_cards, "player 1 must choose")
    tactical = SakuraGame(2, "tactical")
    one_card = Position(
        2, "tactical", emperor=8, scored=0, painters=(0, 3, 1), tokens=(5, 5, 5), supply=39,
        hands=((7,), (1, 2, 3, 4, 5)),
    )  # fmt: skip
    impossible(tactical, one_card, "player 1 must choose 2 card(s) but holds 1")


def test_chosen_cards_that_cannot_be() -> None:
    game, p = _complete(4)
    assert p.hands is not None
    hands = list(p.hands)
    two = hands[0][:2]
    hands[0] = hands[0][2:]
    bad = dataclasses.replace(p, hands=tuple(hands), chosen=(two, (), (), ()))
    impossible(game, bad, "player 1 chose too many cards")
    hands = list(p.hands)
    hands[0] = hands[0][1:]
    short = dataclasses.replace(p, hands=tuple(hands), chosen=((p.hands[0][0],), ()))
    impossible(game, short, "expected 4 entries")


def test_everyone_having_chosen_is_not_a_position() -> None:
    """The last choice reveals the cards at once, so no state has every card chosen."""
    game, p = _complete(3)
    assert p.hands is not None
    picks = tuple((h[0],) for h in p.hands)
    hands = tuple(h[1:] for h in p.hands)
    with pytest.raises(InvalidPositionError, match="every player has chosen"):
        state_from_position(game, dataclasses.replace(p, hands=hands, chosen=picks), 1)


def test_the_tactical_choices_must_fit_the_double_player() -> None:
    game = SakuraGame(2, "tactical")
    state = play_until(game, double_player)
    p = state.position()
    me = state.double
    assert p.hands is not None
    hands = list(p.hands)
    hands[me] = hands[me][1:]
    chosen: list[tuple[int, ...]] = [(), ()]
    chosen[me] = (p.hands[me][0],)
    with pytest.raises(InvalidPositionError, match=f"player {me + 1} chose 1 card"):
        state_from_position(game, dataclasses.replace(p, hands=tuple(hands), chosen=tuple(chosen)), 1)


def test_a_queue_that_cannot_be() -> None:
    game = SakuraGame(4)
    base = Position(
        4, "standard", emperor=8, scored=0, painters=(3, 2, 1, 0), tokens=(5,) * 4, supply=34,
        hands=((6, 7, 8, 9), (10, 11, 12, 13), (14, 15, 16, 17), (18, 19, 20, 22)),
        queue=((3, 0), (21, 1)), stage=3,
    )  # fmt: skip
    base.validate(game)  # 3 is E+2 P±3: its owner chooses the painter's direction
    impossible(game, dataclasses.replace(base, queue=((21, 1), (3, 0))), "lowest order number first")
    impossible(game, dataclasses.replace(base, queue=((3, 4),)), "card 3 is owned by seat index 4: no such")
    impossible(game, dataclasses.replace(base, queue=(), stage=3), "a stage needs a card resolving")
    impossible(game, dataclasses.replace(base, chosen=((23,), (), (), ())), "cannot be chosen while")


def test_a_choice_the_card_does_not_offer() -> None:
    """A position waiting for a choice its card does not offer (or from the court painter,
    who never chooses) would leave the game waiting for ever."""
    game = SakuraGame(4)
    base = Position(
        4, "standard", emperor=8, scored=0, painters=(3, 2, 1, 0), tokens=(5,) * 4, supply=34,
        hands=((6, 7, 8, 9), (10, 11, 12, 13), (14, 15, 16, 17), (18, 19, 20, 22)),
        queue=((3, 0), (21, 1)), stage=1,
    )  # fmt: skip
    impossible(game, base, "card 3 offers no choice of direction for its garden action")
    impossible(game, dataclasses.replace(base, queue=((2, 0),), stage=3), "card 2 offers no", "painter")
    dataclasses.replace(base, queue=((5, 0),), stage=1).validate(game)  # 5 is E±1 JUMP
    court = SakuraGame(2, "court")
    waiting = Position(
        2, "court", emperor=8, scored=0, painters=(3, 2, 1), tokens=(5, 5, 5), supply=39,
        hands=((6, 7, 8, 9), (10, 11, 12, 13)), queue=((3, 2),), stage=3,
    )  # fmt: skip
    impossible(court, waiting, "the court painter never chooses")


def test_scoring_only_after_the_garden_action() -> None:
    game = SakuraGame(4)
    base = Position(
        4, "standard", emperor=11, scored=0, painters=(3, 2, 1, 0), tokens=(5,) * 4, supply=34,
        hands=((6, 7, 8, 9), (10, 11, 12, 13), (14, 15, 16, 17), (18, 19, 20, 22)),
        queue=((3, 0),), stage=3, scoring=True,
    )  # fmt: skip
    base.validate(game)
    impossible(game, dataclasses.replace(base, stage=0), "'!'", "stage 'G' or 'p'")
    impossible(game, dataclasses.replace(base, queue=((5, 0),), stage=1), "'!'")


def test_nothing_is_chosen_or_resolving_once_the_game_is_over() -> None:
    game = SakuraGame(4)
    over = Position(
        4, "standard", emperor=33, scored=3, painters=(30, 2, 1, 0), tokens=(8, 9, 9, 10), supply=18,
        hands=((6, 7, 8, 9), (10, 11, 12, 13), (14, 15, 16, 17), (18, 19, 20, 22)),
    )  # fmt: skip
    over.validate(game)
    assert state_from_position(game, over, 1).is_terminal()
    impossible(game, dataclasses.replace(over, queue=((23, 0),), stage=3), "the game is over")
    impossible(game, dataclasses.replace(over, chosen=((23,), (), (), ())), "the game is over")


def test_a_public_position_must_be_between_rounds() -> None:
    game = SakuraGame(4)
    public = Position(
        4, "standard", emperor=8, scored=0, painters=(3, 2, 1, 0), tokens=(5,) * 4, supply=34,
        queue=((3, 0),), stage=3,
    )  # fmt: skip
    with pytest.raises(InvalidPositionError, match="without hands must be between rounds"):
        state_from_position(game, public, 1)
    deck_only = dataclasses.replace(public, queue=(), stage=0, deck=(1, 2, 3))
    with pytest.raises(InvalidPositionError, match="with a deck must give the hands too"):
        state_from_position(game, deck_only, 1)


# ------------------------------------------------------------------------------ saved states


def _saved(players: int = 4, variant: str | None = None) -> dict[str, Any]:
    state = play_until(SakuraGame(players, variant), lambda s: s.round >= 2 and pending(s))
    saved: dict[str, Any] = json.loads(json.dumps(state.to_json()))
    return saved


SAVED = _saved()


def _state_with(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(SAVED)
    for key, value in changes.items():
        if value is _DROP:
            data.pop(key)
        else:
            data[key] = value
    return data


def _position_with(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(SAVED)
    for key, value in changes.items():
        if value is _DROP:
            data["position"].pop(key)
        else:
            data["position"][key] = value
    return data


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (None, "not a saved Sakura state"),
        ([SAVED], "not a saved Sakura state"),
        (_state_with(game=_DROP), "not a saved Sakura state"),
        (_state_with(game="chess"), 'expected "game": "sakura"'),
        (_state_with(config=_DROP), "lacks 'config'"),
        (_state_with(position=_DROP), "lacks 'position'"),
        (_state_with(rng=_DROP), "lacks 'rng'"),
        (_state_with(seed=3), "unknown keys in the saved state: ['seed']"),
        (_state_with(config=5), "the saved config is an object"),
        (_state_with(config="players=4"), "the saved config is an object"),
        (_state_with(config={"players": 7}), "Sakura is for 2 to 6 players"),
        (_state_with(config={"players": None}), "bad saved state"),
        (_state_with(config={"players": 4, "speed": 2}), "unknown Sakura config keys"),
        (_state_with(config={"players": 4, "variant": "court"}), "two players play with the court"),
        (_state_with(config={"players": 4, "deck": "1 X+2 P+1"}), "not a garden action"),
        (_state_with(position=[1, 2]), "a JSON position is an object"),
        (_state_with(rng="7"), "the saved generator state is a whole number"),
        (_state_with(rng=True), "whole number"),
        (_state_with(rng=1.5), "whole number"),
        (_state_with(rng=-1), "below 2**64"),
        (_state_with(rng=2**64), "below 2**64"),
        (_position_with(hands=_DROP), "holds the hands, the deck and the discard pile"),
        (_position_with(deck=_DROP), "holds the hands, the deck and the discard pile"),
        (_position_with(discard=_DROP), "holds the hands"),
        (_position_with(stage="-"), "waits for a choice or for the players' cards"),
        (_position_with(supply=0), "impossible saved position: tokens and supply must add up to 54"),
        (_position_with(emperor=40), "impossible saved position"),
        (_position_with(painters=[0, 0, 0, 0], emperor="3"), "whole number"),
        (_state_with(resolved=[[1]]), "bad saved state"),
        (_state_with(resolved=[["1", 0]]), "whole number"),
        (_state_with(resolved=[[61, 0]]), "resolved cards must be in the discard pile"),
        (_state_with(last_round=[[0]]), "bad saved state"),
        (_state_with(last_round=[[0, True]]), "whole number"),
        (_state_with(last_round=[[0, 61]]), "last round's cards are cards of the deck"),
        (_state_with(last_round=[[0, 7], [1, 7]]), "last round's cards are cards of the deck, each once"),
        (_state_with(last_round=[[4, 7]]), "played by the table's players"),
    ],
)
def test_malformed_saved_state(data: Any, words: str) -> None:
    with pytest.raises(InvalidStateError) as info:
        state_from_json(data)
    assert words in str(info.value), str(info.value)
    with pytest.raises(InvalidStateError):
        SakuraGame(4).state_from_json(data)


def test_a_saved_state_of_another_game_config() -> None:
    with pytest.raises(InvalidStateError, match="belongs to another game config"):
        SakuraGame(3).state_from_json(SAVED)
    with pytest.raises(InvalidStateError, match="another game config"):
        SakuraGame(2, "court").state_from_json(_saved(2, "tactical"))
    SakuraGame(4).state_from_json(SAVED)  # the right one loads


def test_the_saved_state_used_above_loads() -> None:
    state = state_from_json(SAVED)
    assert state.to_json() == SAVED and state.pending_choice() is not None


# ------------------------------------------------------------------------------ games


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({"players": 1}, "2 to 6 players"),
        ({"players": 7}, "2 to 6 players"),
        ({"players": 2, "variant": "standard"}, "two players play with the court painter"),
        ({"players": 3, "variant": "tactical"}, "three to six play 'standard'"),
        ({"players": 4, "variant": "fast"}, "unknown variant 'fast'"),
        ({"players": 4, "colour": "red"}, "unknown Sakura config keys: ['colour']"),
        ({"players": 4, "deck": "1 E+1 P+1\n2 E+1 P+1"}, "the deck needs at least"),
    ],
)
def test_a_game_config_that_cannot_be(config: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError) as info:
        make_game("sakura", config)
    assert words in str(info.value)


def test_an_unknown_game() -> None:
    with pytest.raises(GameError, match="unknown game 'chess'; known games: sakura"):
        make_game("chess")


def test_a_seed_that_is_not_a_number_or_text() -> None:
    with pytest.raises(TypeError, match="a seed is an int or a str"):
        SakuraGame(3).new_initial_state(1.5)  # type: ignore[arg-type]
