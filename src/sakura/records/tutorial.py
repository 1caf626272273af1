"""The guided first game ("Learn to play"): a fixed deal, scripted bots, and steps that teach.

The script is data (``data/tutorial.json``): the game and its seed (the engine deals from the
seed, so the deal is fixed), the bots' moves in order, and the steps. A step says something
(in every language of the apps), names what the board should highlight while it is shown, and
either waits for *Next* or expects one action of the learner (``play 49``, ``forward``); it may
promise events that action causes (a bump, a scoring, the line-up), which the tests check
against the engine. Both the web app and the terminal app play the same script through
:class:`Tutorial`; neither holds a rule: what happens is the engine's answer to the script.

A wrong move is explained and changes nothing: :meth:`Tutorial.attempt` compares it with the
step's expected action before anything is applied.

>>> tutorial = Tutorial(load_script())
>>> tutorial.step.id, tutorial.step.expect
('welcome', None)
>>> while tutorial.step.expect is None:
...     tutorial.next()
>>> tutorial.step.expect, tutorial.view.hand
('play 49', (10, 41, 49, 55, 60))
>>> before = tutorial.state.to_json()
>>> tutorial.attempt("play 10").ok, tutorial.state.to_json() == before
(False, True)
>>> [e.kind for e in tutorial.attempt("play 49").events][:2]
['card_chosen', 'cards_revealed']
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from sakura.engine import Event, State, View, make_game
from sakura.engine.errors import InvalidDataError

FORMAT = "sakura-tutorial/1"
LANGUAGES = ("en", "es", "fa")
# What a step may ask the board to highlight.
HIGHLIGHTS = {"spaces", "painters", "emperor", "hand", "cards", "choice", "tiles", "seats", "log"}


@dataclass(frozen=True, slots=True)
class Highlight:
    """What the board shows highlighted during a step: spaces and painters by number, the
    Emperor, the hand or some of its cards, the pending choice's answers, the round's revealed
    cards (``tiles``), the seats with their tokens, the log."""

    spaces: tuple[int, ...] = ()
    painters: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()
    emperor: bool = False
    hand: bool = False
    choice: bool = False
    tiles: bool = False
    seats: bool = False
    log: bool = False

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Highlight:
        unknown = set(data) - HIGHLIGHTS
        if unknown:
            raise InvalidDataError(f"unknown highlight {sorted(unknown)} (known: {sorted(HIGHLIGHTS)})")
        return cls(
            spaces=tuple(int(x) for x in data.get("spaces", ())),
            painters=tuple(int(x) for x in data.get("painters", ())),
            cards=tuple(int(x) for x in data.get("cards", ())),
            **{k: bool(data.get(k, False)) for k in ("emperor", "hand", "choice", "tiles", "seats", "log")},
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in ("spaces", "painters", "cards"):
            if getattr(self, name):
                out[name] = list(getattr(self, name))
        for name in ("emperor", "hand", "choice", "tiles", "seats", "log"):
            if getattr(self, name):
                out[name] = True
        return out


@dataclass(frozen=True, slots=True)
class Step:
    """One step: what it says, what it highlights, and the learner's expected action
    (``None``: the learner reads and presses *Next*). ``promise``: events (as dicts, matched
    by the fields they give) the expected action causes; ``instead``: for another answer, the
    events it would have caused (what ``wrong`` warns of)."""

    id: str
    text: Mapping[str, str]
    highlight: Highlight = Highlight()
    expect: str | None = None
    wrong: Mapping[str, str] | None = None
    promise: tuple[Mapping[str, Any], ...] = ()
    instead: Mapping[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)

    def says(self, lang: str) -> str:
        return self.text.get(lang) or self.text["en"]

    def explains(self, lang: str) -> str:
        """The gentle word for a wrong move."""
        words = self.wrong or {}
        return words.get(lang) or words.get("en") or ""


@dataclass(frozen=True, slots=True)
class Script:
    """The whole tutorial: the game (name, config, seed), the learner's seat, the bots' moves
    in the order each bot makes them, and the steps."""

    game: str
    config: Mapping[str, Any]
    seed: int
    you: int
    bots: Mapping[int, tuple[str, ...]]
    steps: tuple[Step, ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Script:
        if data.get("format") != FORMAT:
            raise InvalidDataError(f"a tutorial script must say format {FORMAT!r}")
        steps = []
        for raw in data["steps"]:
            text = dict(raw["text"])
            wrong = dict(raw["wrong"]) if "wrong" in raw else None
            for lang in LANGUAGES:
                if not text.get(lang) or (raw.get("expect") and not (wrong or {}).get(lang)):
                    raise InvalidDataError(f"tutorial step {raw['id']!r} has no {lang} text")
            steps.append(
                Step(
                    id=str(raw["id"]),
                    text=text,
                    highlight=Highlight.from_json(raw.get("highlight", {})),
                    expect=raw.get("expect"),
                    wrong=wrong,
                    promise=tuple(dict(p) for p in raw.get("promise", ())),
                    instead={k: tuple(dict(p) for p in v) for k, v in raw.get("instead", {}).items()},
                )
            )
        return cls(
            game=str(data["game"]),
            config=dict(data["config"]),
            seed=int(data["seed"]),
            you=int(data["you"]),
            bots={int(k): tuple(v) for k, v in data["bots"].items()},
            steps=tuple(steps),
        )


@cache
def load_script() -> Script:
    """The tutorial shipped with the package (``sakura/records/data/tutorial.json``)."""
    text = resources.files("sakura.records").joinpath("data/tutorial.json").read_text(encoding="utf-8")
    return Script.from_json(json.loads(text))


def matches(event: Event, wanted: Mapping[str, Any]) -> bool:
    """Does the event (its dict form) carry every field ``wanted`` gives?"""
    data = event.to_dict()
    return all(data.get(k) == v for k, v in wanted.items())


def missing(events: Sequence[Event], promise: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The promised events that ``events`` does not hold (in any order)."""
    return [p for p in promise if not any(matches(e, p) for e in events)]


@dataclass(frozen=True, slots=True)
class Attempt:
    """The answer to a learner's action: ``ok`` and the events it caused (the bots' scripted
    moves that followed included), or not ``ok``, nothing changed, and why."""

    ok: bool
    events: tuple[Event, ...] = ()
    explanation: str = ""


class Tutorial:
    """The script being played: the engine's state, the current step, the learner's view."""

    def __init__(self, script: Script, lang: str = "en") -> None:
        self.script, self.lang = script, lang
        self.game = make_game(script.game, dict(script.config))
        self.state: State[Any] = self.game.new_initial_state(script.seed)
        self._bot_moves = {seat: list(moves) for seat, moves in script.bots.items()}
        self.index = 0
        self.opening: tuple[Event, ...] = tuple(self._bots())

    @property
    def step(self) -> Step:
        return self.script.steps[min(self.index, len(self.script.steps) - 1)]

    @property
    def finished(self) -> bool:
        return self.index >= len(self.script.steps)

    @property
    def view(self) -> Any:
        """The learner's view (the engine's; own hand only)."""
        view: View = self.state.view(self.script.you)
        return view

    def next(self) -> None:
        """Past a step that only speaks (the last step's *Next* finishes the tutorial)."""
        if self.finished:
            raise ValueError("the tutorial is over")
        if self.step.expect is not None:
            raise ValueError(f"this step waits for {self.step.expect!r}, not for Next")
        self.index += 1

    def attempt(self, action: str) -> Attempt:
        """The learner's action: the expected one is played (and the bots answer from the
        script); any other is explained and changes nothing."""
        step = self.step
        if self.finished or step.expect is None:
            return Attempt(False, explanation="")
        if action != step.expect:
            return Attempt(False, explanation=step.explains(self.lang))
        events = self.state.apply_action(self.script.you, self.game.parse_action(action))
        events += self._bots()
        self.index += 1
        return Attempt(True, tuple(events))

    def go_on(self) -> tuple[Event, ...]:
        """Past the current step as the script goes: *Next*, or its expected move (whose
        events are returned). Raises :class:`InvalidDataError` if the move is not playable."""
        step = self.step
        if step.expect is None:
            self.next()
            return ()
        result = self.attempt(step.expect)
        if not result.ok:
            raise InvalidDataError(f"tutorial step {step.id!r}: {step.expect!r} is not playable")
        return result.events

    def back(self) -> tuple[Event, ...]:
        """To the step before, as it stood there: the engine has no undo, so the script is
        played again from the deal up to it. Returns the events from the opening's end to
        there (what a log drawn anew shows)."""
        if self.index == 0:
            raise ValueError("this is the first step")
        target = min(self.index, len(self.script.steps)) - 1
        fresh = Tutorial(self.script, self.lang)
        events: list[Event] = []
        while fresh.index < target:
            events += fresh.go_on()
        self.state, self._bot_moves, self.index = fresh.state, fresh._bot_moves, fresh.index
        return tuple(events)

    def _bots(self) -> list[Event]:
        """Play the bots' scripted moves for as long as a bot is due and has one."""
        events: list[Event] = []
        while not self.state.is_terminal():
            due = [s for s in self.state.current_players() if s != self.script.you and self._bot_moves.get(s)]
            if not due:
                break
            seat = due[0]
            action = self.game.parse_action(self._bot_moves[seat].pop(0))
            events += self.state.apply_action(seat, action)
        return events


def tutorial_json() -> dict[str, Any]:
    """The whole tutorial played through, for a page that shows it without rules of its own:
    for each step its words, highlight and expected action, the events the previous step's
    action caused and the learner's view when it is shown (all as the learner may see them)."""
    script = load_script()
    tutorial = Tutorial(script)
    you = script.you
    out: list[dict[str, Any]] = []
    events: tuple[Event, ...] = ()
    for step in script.steps:
        out.append(
            {
                "id": step.id,
                "text": dict(step.text),
                "wrong": dict(step.wrong or {}),
                "highlight": step.highlight.to_json(),
                "expect": step.expect,
                "events": [e.seen_by(you).to_dict() for e in events],
                "view": tutorial.view.to_json(),
            }
        )
        events = tutorial.go_on()
    return {"game": script.game, "config": dict(script.config), "you": you, "steps": out}
