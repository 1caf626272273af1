"""The views' preview of a forward/back choice: each answer's landing space and bumps, from
public facts only, equal to what the engine then does when that answer is given."""

from __future__ import annotations

import random

import pytest
from tests.engine.scenarios import choose, play, setup
from tests.engine.test_views import TABLE_IDS, TABLES, hidden_twin, random_states

from sakura.engine.games.sakura import BACK, FORWARD, Choose, SakuraGame, SakuraState
from sakura.engine.games.sakura.events import Bumped, ChoiceMade, EmperorMoved, PainterMoved
from sakura.engine.games.sakura.preview import Bump, ChoicePreview
from sakura.engine.protocol import Event


def test_a_painter_choice_previews_a_bump_forward_and_a_plain_move_back() -> None:
    """Rulebook: "If a painter would move onto or past the Emperor, they fall from grace: they
    lose a token and move back three empty spaces from the Emperor." Card 11 is E-1 P±3: the
    Emperor backs to 13; forward from 10 over 11 and 12 reaches him, back counts 9 and 7 out."""
    state = setup("3 e14 s1 p10,9,7", hands=(11, 50, 57))
    play(state, 11, 50, 57)
    view = state.view(0)
    assert view.preview == (
        ChoicePreview("forward", "painter", 0, 10, 10, (Bump(0, 13, 10, True),), False),
        ChoicePreview("back", "painter", 0, 10, 5, (), False),
    )
    assert state.view(None).preview == view.preview  # public: the spectators see it too
    assert view.to_json()["preview"][0]["bumps"] == [{"seat": 0, "at": 13, "end": 10, "token_lost": True}]
    choose(state, BACK)
    assert state.pos[0] == 5


def test_no_preview_while_players_choose_cards() -> None:
    state = SakuraGame(4).new_initial_state(3)
    assert state.view(0).preview == () and state.view(0).to_json()["preview"] == []


def _direct(events: list[Event], preview: ChoicePreview) -> tuple[int, tuple[Bump, ...]]:
    """From the events of the answer, the moving piece's end and the bumps of that move alone."""
    after = events[next(i for i, e in enumerate(events) if isinstance(e, ChoiceMade)) + 1 :]
    if preview.piece == "emperor":
        run = []
        for e in after:
            if not isinstance(e, EmperorMoved | Bumped) or (isinstance(e, Bumped) and e.by != "emperor"):
                break
            run.append(e)
        end = [e.end for e in run if isinstance(e, EmperorMoved)][-1] if run else preview.start
        return end, tuple(Bump(e.seat, e.at, e.end, e.token_lost) for e in run if isinstance(e, Bumped))
    first = after[0]
    assert isinstance(first, PainterMoved | Bumped) and first.seat == preview.seat
    if isinstance(first, Bumped):
        return first.end, (Bump(first.seat, first.at, first.end, first.token_lost),)
    return first.end, ()


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_every_preview_matches_what_the_answer_does(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    checked = bumps = 0
    for seed in range(8):
        for state in random_states(game, seed):
            previews = state.view(None).preview
            if not previews:
                continue
            assert [p.choice for p in previews] == ["forward", "back"]
            for preview, answer in zip(previews, (FORWARD, BACK), strict=True):
                twin: SakuraState = state.clone()
                seat = twin.current_players()[0]
                assert isinstance(answer, Choose)
                events = twin.apply_action(seat, answer)
                assert _direct(events, preview) == (preview.end, preview.bumps)
                checked += 1
                bumps += bool(preview.bumps)
    assert checked > 20 and (bumps > 0 or players == 2)


def test_a_preview_does_not_depend_on_hidden_cards() -> None:
    game = SakuraGame(4)
    rng = random.Random(5)
    seen = 0
    for seed in range(6):
        for state in random_states(game, seed):
            if state.view(None).preview:
                for viewer in (None, 0, 1):
                    assert hidden_twin(state, viewer, rng).view(viewer).preview == state.view(viewer).preview
                seen += 1
    assert seen > 5
