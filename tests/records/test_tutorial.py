"""The tutorial's script agrees with the engine: every expected action is legal when asked
for, every promised event (the bump, the forward/back choice, the scoring, the line-up)
happens at its step, what a step highlights exists there, and a wrong move changes nothing."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from sakura.engine import IllegalActionError
from sakura.engine.errors import InvalidDataError
from sakura.records import Script, Tutorial, load_script, tutorial_json
from sakura.records.tutorial import LANGUAGES, missing


def _played_to(script: Script, index: int) -> tuple[Tutorial, list[Any]]:
    """A fresh tutorial played to step ``index``, and the events its moves made."""
    tutorial = Tutorial(script)
    events: list[Any] = []
    while tutorial.index < index:
        expected = tutorial.step.expect
        if expected is None:
            tutorial.next()
        else:
            result = tutorial.attempt(expected)
            assert result.ok
            events += result.events
    return tutorial, events


def _walk() -> list[tuple[int, Tutorial]]:
    """The tutorial at each step (a fresh one replayed up to it)."""
    script = load_script()
    return [(index, _played_to(script, index)[0]) for index in range(len(script.steps))]


STEPS = _walk()


def test_the_script_covers_what_the_issue_asks_for() -> None:
    """Choosing a card, order numbers, garden then painter action, a forward/back choice, a
    bump, a scoring and the line-up: each is promised by some step, so checked below."""
    promised = [p for step in load_script().steps for p in step.promise]
    kinds = {p["type"] for p in promised}
    assert {
        "cards_revealed",
        "emperor_moved",
        "painter_moved",
        "choice_asked",
        "choice_made",
        "bumped",
        "sakura_scored",
    } <= kinds
    assert any(p.get("cause") == "lineup" for p in promised)
    ids = [s.id for s in load_script().steps]
    assert ids.index("order") < ids.index("play-49") < ids.index("choose-forward") < ids.index("scoring")


@pytest.mark.parametrize(("index", "tutorial"), STEPS, ids=[t.step.id for _, t in STEPS])
def test_each_step_is_consistent_with_the_engine(index: int, tutorial: Tutorial) -> None:
    step = tutorial.step
    view = tutorial.view
    for lang in LANGUAGES:
        assert step.says(lang).strip()
    light = step.highlight
    assert all(0 <= s < len(view.garden) for s in light.spaces)
    assert all(0 <= p < len(view.painters) for p in light.painters)
    assert set(light.cards) <= set(view.hand or ())
    assert not light.choice or view.pending is not None
    if step.expect is None:  # a step that speaks takes no move
        before = tutorial.state.to_json()
        for action in view.legal_actions:
            assert not tutorial.attempt(action).ok
        assert tutorial.state.to_json() == before and tutorial.index == index
        return
    # The expected action is the learner's to make now.
    assert step.expect in view.legal_actions, f"{step.id}: {step.expect} not in {view.legal_actions}"
    for lang in LANGUAGES:
        assert step.explains(lang).strip()
    # What another answer would have done, as the wrong move's words say.
    for other, wanted in step.instead.items():
        clone = tutorial.state.clone()
        events = clone.apply_action(tutorial.script.you, tutorial.game.parse_action(other))
        assert not missing(events, wanted), f"{step.id}: {other} would not cause {missing(events, wanted)}"
    result = copy.deepcopy(tutorial).attempt(step.expect)
    assert result.ok
    gone = missing(result.events, step.promise)
    assert not gone, f"{step.id}: promised but missing {gone}"


@pytest.mark.parametrize(
    ("index", "tutorial"),
    [(i, t) for i, t in STEPS if t.step.expect is not None],
    ids=[t.step.id for _, t in STEPS if t.step.expect is not None],
)
def test_a_wrong_move_changes_nothing_and_explains(index: int, tutorial: Tutorial) -> None:
    step = tutorial.step
    others = [a for a in tutorial.view.legal_actions if a != step.expect]
    assert others, "a step with only one possible move teaches nothing about wrong moves"
    for lang in LANGUAGES:
        tutorial.lang = lang
        for action in [*others, "play 99", "nonsense"]:
            before = tutorial.state.to_json()
            result = tutorial.attempt(action)
            assert not result.ok and not result.events
            assert result.explanation == step.explains(lang) and result.explanation
            assert tutorial.state.to_json() == before and tutorial.index == index


def test_next_is_refused_on_a_step_that_waits_for_a_move_and_a_move_on_one_that_speaks() -> None:
    tutorial = Tutorial(load_script())
    assert tutorial.step.expect is None
    refused = tutorial.attempt("play 49")
    assert not refused.ok and tutorial.index == 0
    while tutorial.step.expect is None:
        tutorial.next()
    with pytest.raises(ValueError, match="waits for 'play 49'"):
        tutorial.next()


def test_the_tutorial_plays_to_its_end_using_every_scripted_bot_move() -> None:
    tutorial = Tutorial(load_script())
    while not tutorial.finished:
        if tutorial.step.expect is None:
            tutorial.next()
        else:
            assert tutorial.attempt(tutorial.step.expect).ok
    assert all(not moves for moves in tutorial._bot_moves.values())
    assert tutorial.view.scored == 1 and tutorial.view.tokens[0] == max(tutorial.view.tokens)
    with pytest.raises(ValueError, match="over"):
        tutorial.next()


def test_the_page_form_hides_the_bots_hands_and_replays_the_same_game() -> None:
    data = tutorial_json()
    assert [s["id"] for s in data["steps"]] == [s.id for s in load_script().steps]
    for step in data["steps"]:
        assert step["view"]["player"] == 0 and "hands" not in step["view"]
        for event in step["events"]:
            if event["type"] == "card_chosen" and event["player"] != 0:
                assert event["cards"] is None
    scoring = next(s for s in data["steps"] if s["id"] == "scoring")
    assert any(e["type"] == "sakura_scored" for e in scoring["events"])
    json.dumps(data)  # the page gets it as JSON


def test_a_script_that_breaks_its_own_promise_is_caught() -> None:
    raw = json.loads(resources.files("sakura.records").joinpath("data/tutorial.json").read_text("utf-8"))
    step = next(s for s in raw["steps"] if s["id"] == "play-60")
    step["promise"] = [{"type": "bumped", "seat": 0}]  # it is Blue who bumps, not you
    tutorial = Tutorial(Script.from_json(raw))
    while tutorial.step.id != "play-60":
        tutorial.next() if tutorial.step.expect is None else tutorial.attempt(tutorial.step.expect)
    result = tutorial.attempt("play 60")
    assert missing(result.events, tutorial.script.steps[tutorial.index - 1].promise) == step["promise"]
    with pytest.raises(IllegalActionError):  # an expected card not in hand is the engine's error
        broken = {**raw, "steps": [{**raw["steps"][4], "expect": "play 99"}]}
        Tutorial(Script.from_json(broken)).attempt("play 99")
    del raw["steps"][0]["text"]["fa"]
    with pytest.raises(InvalidDataError, match="no fa text"):
        Script.from_json(raw)
    raw["steps"][0]["text"]["fa"] = "x"
    raw["steps"][0]["highlight"]["sky"] = True
    with pytest.raises(InvalidDataError, match="unknown highlight"):
        Script.from_json(raw)


def test_back_is_the_step_before_as_it_stood_there() -> None:
    """From every step, ``back`` gives the state, the index and the bots' moves left of the
    step before (as the walk made them), and the events from the opening to there."""
    script = load_script()
    for index, _ in STEPS[1:]:
        ahead = _played_to(script, index)[0]
        events = ahead.back()
        before, logged = _played_to(script, index - 1)
        assert ahead.index == index - 1 == before.index
        assert ahead.state.to_json() == before.state.to_json()
        assert ahead._bot_moves == before._bot_moves
        assert [e.to_dict() for e in events] == [e.to_dict() for e in logged]
    with pytest.raises(ValueError, match="first step"):
        Tutorial(script).back()
