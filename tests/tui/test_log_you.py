"""The log speaks to its reader (issue #31, deliverable 2): what the viewer's own painter does
is told with "you", in a sentence of its own in every language; the others keep their names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sakura.engine import make_game
from sakura.records import random_playout
from sakura.tui import i18n
from sakura.tui.log import sentence


@pytest.fixture(params=["en", "es", "fa"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def _names(seat: int) -> str:
    return f"Player {seat + 1}"


def _events(players: int, seeds: range) -> Iterator[dict[str, Any]]:
    game = make_game("sakura", {"players": players})
    for seed in seeds:
        record = random_playout(game, seed=seed)
        state = game.state_from_json(record.initial)
        for move in record.moves:
            for event in state.apply_action(move.player, game.parse_action(move.action)):
                yield event.seen_by(0).to_dict()


# Spanish says "you" by the verb's ending ("Avanzas", "Eliges"): its sentences are checked by
# differing from the named one and naming nobody.
YOU = {"en": ("You", "you"), "es": ("",), "fa": ("شما",)}


def test_your_own_moves_are_told_with_you_and_the_others_by_name(lang: str) -> None:
    told_you = told_others = 0
    for event in _events(3, range(3)):
        seat = event.get("seat", event.get("player"))
        if event["type"] not in ("painter_moved", "choice_made", "bumped", "card_resolving") or seat is None:
            continue
        mine = sentence(event, _names, you=0)
        assert mine is not None
        if seat == 0:
            assert "Player 1" not in mine and mine != sentence(event, _names, you=None), mine
            assert any(word in mine for word in YOU[lang]), mine
            told_you += 1
        else:
            assert _names(seat) in mine, mine
            told_others += 1
        assert sentence(event, _names, you=None) is not None
    assert told_you > 10 and told_others > 10


def test_a_log_without_a_reader_names_everyone() -> None:
    """Hot-seat and replays have no single reader: every painter is named."""
    for event in _events(2, range(2)):
        line = sentence(event, _names, you=None)
        assert line is None or "You " not in line


def test_your_place_in_a_list_reads_you() -> None:
    revealed = {"type": "cards_revealed", "plays": [[0, 13], [1, 40]]}
    assert sentence(revealed, _names, you=0) == "Cards revealed: 13 (you), 40 (Player 2)."
    scored = {"type": "sakura_scored", "sakura": 0, "space": 9, "awards": [[0, 1, 3], [1, 2, 2]]}
    assert "1. You: 3 tokens" in (sentence(scored, _names, you=0) or "")
    bumped = {"type": "bumped", "seat": 0, "by": "painter", "at": 8, "end": 5, "token_lost": True}
    assert sentence(bumped, _names, you=0) == (
        "You reach the Emperor on space 8 and fall from grace: back to space 5.\n"
        "You give a token back to the supply."
    )
