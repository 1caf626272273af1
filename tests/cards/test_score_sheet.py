"""The card game's score sheet (issue #28, deliverable 2): read off the engine's events, each
round's areas, discards and gifts, and totals that are the outcome's scores."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.cards.scenarios import situation

from sakura.engine.games.cards import (
    CardsGame,
    CardsScoreSheet,
    IncompleteCardsGameError,
    score_sheet,
)
from sakura.engine.protocol import Event


def _played(seed: int) -> tuple[list[Event], object]:
    state = CardsGame().new_initial_state(seed=seed)
    rng, events = random.Random(seed), []
    while not state.is_terminal():
        seat = state.current_players()[0]
        events += state.apply_action(seat, rng.choice(state.legal_actions(seat)))
    return events, state


def test_the_last_round_with_a_gift_each_way_and_a_discard() -> None:
    """Rules: "if no card of their hand fits anywhere, they discard one face down", then
    "give a card face down to the opponent"; the areas are scored at the round's end."""
    state = situation(
        (["b3", "g2"], ["y1"]),
        ([["r1", "r2"], [], []], [["r4", "r5"], ["b4", "b5"], ["g4", "g5"]]),
        round=3,
        scores=([10, 12], [8, 9]),
    )
    events: list[Event] = []
    for seat, text in [
        (0, "place b3 garden"),
        (0, "give g2"),
        (1, "discard y1"),
        (1, "give g2"),
        (0, "place g2 palace"),
    ]:
        events += state.apply_action(seat, state.game.parse_action(text))
    assert state.is_terminal()
    sheet = score_sheet(events)
    (last,) = sheet.rounds
    assert last.round == 3
    assert last.given == (("g2",), ("g2",)) and last.discarded == ((), ("y1",))
    assert last.cards[0] == (("r1", "r2", "b3"), ("g2",), ())
    assert last.areas[0] == tuple(state.game.explain_area(a).points for a in last.cards[0])
    assert last.detail[0][0].best == ("r1", "r2", "b3") and last.detail[0][0].run
    assert sheet.totals == state.outcome().scores == (22 + last.points(0), 17 + last.points(1))
    assert sheet.order()[0] == sheet.winners[0]


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_the_totals_are_the_outcomes_and_every_card_is_accounted_for(seed: int) -> None:
    events, state = _played(seed)
    sheet = score_sheet(events)
    outcome = state.outcome()  # type: ignore[attr-defined]
    assert sheet.totals == outcome.scores and sheet.winners == outcome.winners
    assert sheet.reason == outcome.reason
    assert [r.round for r in sheet.rounds] == [1, 2, 3]
    running = [0, 0]
    for r in sheet.rounds:
        for seat in (0, 1):
            running[seat] += r.points(seat)
            # Every card dealt to a seat is placed or discarded: ten a round, gifts included.
            placed = sum(len(area) for area in r.cards[seat])
            assert placed + len(r.discarded[seat]) == 10
        assert tuple(running) == r.totals
    assert set(sheet.order()) == {0, 1} and sheet.order()[0] in sheet.winners
    data = sheet.to_json()
    assert CardsScoreSheet.from_json(data) == sheet
    assert [r["points"] for r in data["rounds"]] == [[r.points(0), r.points(1)] for r in sheet.rounds]


def test_no_sheet_before_the_end() -> None:
    events, _ = _played(3)
    with pytest.raises(IncompleteCardsGameError):
        score_sheet(events[:-3])


def test_a_spectators_events_hide_the_cards_the_sheet_needs() -> None:
    events, _ = _played(4)
    with pytest.raises(ValueError, match="hidden card"):
        score_sheet([e.seen_by(None) for e in events])
