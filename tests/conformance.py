"""The conformance suite every game of the platform passes (pgx's ``api_test``, in spirit).

It speaks only the protocol of :mod:`sakura.engine.protocol`, so it knows nothing of any one
game: give it a game and some seeds and it plays random games (a seeded :class:`random.Random`
picks a current player and one of their legal actions), checking at every step that

* ``current_players()`` is empty exactly at the end, and every current player has a legal
  action while everyone else has none;
* ``outcome()`` is ``None`` during the game and a well-formed :class:`Outcome` at the end;
* acting out of turn, as a seat that does not exist, or after the end raises
  :class:`IllegalActionError` and changes nothing (``to_json()`` and ``text()`` are compared);
* when several players act at once, none may take an action that only another may take;
* every legal action reads back from its text form (``parse_action(str(a)) == a``);
* views say whose they are, show the current players, the end and the viewer's legal actions
  (as text), and are plain JSON, as are events and their ``seen_by`` forms and saved states;
* every view and the state agree on the :class:`Progress` (round, decision, whose), and views
  and events read back from their JSON equal (``Game.view_from_json``, ``Game.event_from_json``);

and after each game that

* the same seed and the same actions replay the same events and the same final state, with or
  without a step hook;
* a state saved with ``to_json`` at step 0 and at random steps further and further apart loads
  with ``state_from_json``, saves back to the same JSON, shows the same views, and plays on
  exactly as the original did;
* a clone taken at those steps is independent of the original and plays on identically;
* a state sampled from a player's view there (``Game.sample_state``, determinization) shows that
  player the same view, has the same current players, and plays on to an end;
* for a game that declares the fast path (:class:`~sakura.engine.protocol.FastGame`), a fast
  state stepped with ``apply_fast`` through the same actions has the same current players and
  legal actions at every step, saves the same JSON at the saved steps and at the end, has the
  same outcome, and answers ``apply_action`` with no events; a sample stepped with
  ``apply_fast`` ends as the same sample stepped with ``apply_action`` does.

What a view must hide is the game's own business; each game tests that itself.

>>> from sakura.engine import make_game
>>> stats = check_game(make_game("sakura", {"players": 3}), seeds=range(2))
>>> stats.games
2
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sakura.engine.errors import IllegalActionError
from sakura.engine.protocol import Event, Game, Outcome, Progress, State, fast_path

Step = tuple[int, Any]  # (player, action)


@dataclass
class ConformanceStats:
    """What a run covered: games, actions, and how many actions each kind of check saw."""

    games: int = 0
    actions: int = 0
    out_of_turn_checks: int = 0
    reloads: int = 0
    clones: int = 0
    samples: int = 0
    fast_replays: int = 0  # games replayed on the declared fast path
    simultaneous_steps: int = 0  # steps with more than one current player


@dataclass
class Playout:
    """One random game: its seed, the actions taken, the events each caused (as dicts)."""

    seed: int
    steps: list[Step] = field(default_factory=list)
    events: list[list[dict[str, Any]]] = field(default_factory=list)
    saved: dict[int, dict[str, Any]] = field(default_factory=dict)  # step -> to_json there
    clones: dict[int, State[Any]] = field(default_factory=dict)  # step -> clone there
    views: dict[int, list[Any]] = field(default_factory=dict)  # step -> every view's JSON there
    final_json: dict[str, Any] = field(default_factory=dict)
    final_text: str = ""


def check_game(game: Game[Any], seeds: Iterable[int], *, max_actions: int = 20_000) -> ConformanceStats:
    """Play one random game per seed and run every check; raise ``AssertionError`` on failure.

    ``max_actions`` bounds a game's length: a game still going after that many actions fails."""
    stats = ConformanceStats()
    for seed in seeds:
        playout = play_checked(game, seed, stats, max_actions=max_actions)
        check_replay(game, playout)
        check_reloads(game, playout, stats)
        check_clones(playout, stats)
        stats.samples += check_samples(game, playout)
        stats.fast_replays += check_fast_path(game, playout)
        stats.games += 1
        stats.actions += len(playout.steps)
    return stats


def play_checked(
    game: Game[Any],
    seed: int,
    stats: ConformanceStats | None = None,
    *,
    max_actions: int = 20_000,
) -> Playout:
    """Play a random game from ``seed``, checking the protocol at every step.

    The state is saved and cloned at step 0 and at random steps further and further apart
    (about ``log2`` of the game's length of them), early and late alike."""
    stats = stats if stats is not None else ConformanceStats()
    chooser = random.Random(f"conformance:{seed}")
    state = game.new_initial_state(seed)
    n = game.num_players
    assert state.num_players == n, "the state and its game disagree on the number of players"
    playout = Playout(seed)
    mark = 0
    last: Step | None = None
    while True:
        step = len(playout.steps)
        assert step <= max_actions, f"seed {seed}: the game did not end within {max_actions} actions"
        current = check_turn(game, state, seed, step)
        check_views(state, n, game)
        if step == mark:
            playout.saved[step] = _json_round_trip(state.to_json())
            playout.clones[step] = state.clone()
            playout.views[step] = _views(state, n)
            mark = step + 1 + chooser.randrange(2 * step + 2)
        if not current:
            break
        if len(current) > 1:
            stats.simultaneous_steps += 1
        legal = {p: list(state.legal_actions(p)) for p in current}
        player = chooser.choice(current)
        action = chooser.choice(legal[player])
        if check_out_of_turn(game, state, current, action):
            stats.out_of_turn_checks += 1
        check_others_actions(state, legal)
        events = state.apply_action(player, action)
        assert isinstance(events, list), "apply_action returns a list of events"
        playout.steps.append((player, action))
        playout.events.append([check_event(e, n, game) for e in events])
        last = (player, action)
    check_end(state, n, last)
    playout.final_json = _json_round_trip(state.to_json())
    playout.final_text = state.text()
    return playout


# ---------------------------------------------------------------------------- per-step checks


def check_turn(game: Game[Any], state: State[Any], seed: int, step: int) -> tuple[int, ...]:
    """Who acts now, and does each seat have actions exactly when it must act?"""
    n = game.num_players
    current = state.current_players()
    where = f"seed {seed}, step {step}"
    assert isinstance(current, tuple), f"{where}: current_players() returns a tuple"
    assert len(set(current)) == len(current), f"{where}: a player is listed twice in {current}"
    assert all(isinstance(p, int) and 0 <= p < n for p in current), f"{where}: bad seats {current}"
    assert state.is_terminal() == (not current), (
        f"{where}: current_players() is {current} but is_terminal() is {state.is_terminal()}"
    )
    if current:
        assert state.outcome() is None, f"{where}: an outcome before the end"
    for p in range(n):
        legal = state.legal_actions(p)
        if p in current:
            assert legal, f"{where}: current player {p} has no legal action"
        else:
            assert not legal, f"{where}: player {p} is not current but has actions {legal}"
        for action in legal:
            hash(action)
            text = str(action)
            assert game.parse_action(text) == action, f"{where}: {text!r} does not read back"
    return current


def check_views(state: State[Any], n: int, game: Game[Any] | None = None) -> None:
    """Every seat's view and the spectator's are plain JSON and say whose they are; with the
    ``game``, each reads back from its JSON equal."""
    current = state.current_players()
    progress = state.progress()
    check_progress(progress, state)
    for viewer in (None, *range(n)):
        view = state.view(viewer)
        assert view.progress == progress, f"view({viewer}) shows {view.progress}, the state {progress}"
        if game is not None:
            assert game.view_from_json(_json_round_trip(view.to_json())) == view, (
                f"view({viewer}) does not read back from its JSON"
            )
        assert view.player == viewer, f"view({viewer}) says it is player {view.player}'s"
        assert view.current_players == current, f"view({viewer}) shows other current players"
        assert view.terminal == state.is_terminal(), f"view({viewer}) is wrong about the end"
        legal = tuple(str(a) for a in state.legal_actions(viewer)) if viewer is not None else ()
        assert tuple(view.legal_actions) == legal, f"view({viewer}) shows other legal actions"
        json.dumps(view.to_json())
    assert isinstance(state.text(), str) and "\n" not in state.text(), "text() is one line"


def check_progress(progress: Progress, state: State[Any]) -> None:
    """The progress names whose decision it is (the current players), ``None`` at the end,
    and reads back from its JSON."""
    assert isinstance(progress, Progress), f"progress() is {progress!r}"
    assert progress.players == state.current_players(), f"{progress} names other players"
    assert (progress.decision is None) == state.is_terminal(), f"{progress} is wrong about the end"
    assert isinstance(progress.round, int) and progress.round >= 1, f"{progress}: rounds count from 1"
    assert Progress.from_json(_json_round_trip(progress.to_json())) == progress


def check_out_of_turn(game: Game[Any], state: State[Any], current: tuple[int, ...], action: Any) -> bool:
    """Acting out of turn or as a missing seat raises and changes nothing.

    Returns whether a seat out of turn existed to try it with."""
    n = game.num_players
    before, text = state.to_json(), state.text()
    waiting = [p for p in range(n) if p not in current]
    for seat in (*waiting[:1], n, -1):
        assert_refused(state, seat, action)
    assert_unchanged(state, before, text, f"refused {action}")
    return bool(waiting)


def check_others_actions(state: State[Any], legal: dict[int, list[Any]]) -> None:
    """When several players act at once, one may not take an action only another may take."""
    if len(legal) < 2:
        return
    before, text = state.to_json(), state.text()
    seats = sorted(legal)
    for p, q in zip(seats, seats[1:] + seats[:1], strict=True):
        mine = set(legal[p])
        theirs = [a for a in legal[q] if a not in mine]
        if theirs:
            assert_refused(state, p, theirs[0])
    assert_unchanged(state, before, text, "refused actions of other players")


def assert_refused(state: State[Any], player: int, action: Any) -> None:
    try:
        state.apply_action(player, action)
    except IllegalActionError:
        return
    raise AssertionError(f"player {player} could play {action}, which is not theirs to play now")


def assert_unchanged(state: State[Any], before: Any, text: str, what: str) -> None:
    assert state.to_json() == before, f"{what}: the state changed"
    assert state.text() == text, f"{what}: text() changed"


def check_event(event: Event, n: int, game: Game[Any] | None = None) -> dict[str, Any]:
    """An event is an :class:`Event` whose dict (and every viewer's version) is plain JSON;
    with the ``game``, each reads back from its JSON equal."""
    assert isinstance(event, Event), f"{event!r} is not an Event"
    data = event.to_dict()
    assert data.get("type") == event.kind, f"{data} lacks its type {event.kind!r}"
    assert json.loads(json.dumps(data)) == data, f"{data} is not plain JSON"
    assert event.to_json() == data, f"{event!r}: to_json is not to_dict"
    for viewer in (None, *range(n)):
        seen = event.seen_by(viewer)
        assert isinstance(seen, Event) and seen.kind == event.kind, f"seen_by changed {event!r}"
        json.dumps(seen.to_dict())
        if game is not None:
            back = game.event_from_json(_json_round_trip(seen.to_json()))
            assert back == seen, f"{seen!r} reads back from its JSON as {back!r}"
    return data


def check_round_trips(game: Game[Any], seed: int, *, steps: int | None = None) -> int:
    """Play a random game from ``seed`` (the first ``steps`` actions of it, or all), and at
    every step print and parse back every value the protocol carries: each viewer's view,
    the progress, each legal action, each event and its redacted forms, and the whole state
    (``state_from_json`` of its ``to_json`` saves the same JSON, shows the same views and
    text). Returns how many steps were checked. The property test runs it over seeded games
    of every registered game."""
    chooser = random.Random(f"round trips:{seed}")
    state = game.new_initial_state(seed)
    n = game.num_players
    done = 0
    while steps is None or done < steps:
        check_views(state, n, game)
        saved = _json_round_trip(state.to_json())
        loaded = game.state_from_json(saved)
        assert _json_round_trip(loaded.to_json()) == saved, (
            f"seed {seed}, step {done}: state reloads differently"
        )
        assert loaded.text() == state.text() and loaded.progress() == state.progress()
        assert _views(loaded, n) == _views(state, n), (
            f"seed {seed}, step {done}: a reloaded state shows other views"
        )
        current = state.current_players()
        if not current:
            break
        for p in current:
            for action in state.legal_actions(p):
                assert game.parse_action(str(action)) == action, f"{action!r} does not read back"
        player = chooser.choice(current)
        for event in state.apply_action(player, chooser.choice(list(state.legal_actions(player)))):
            check_event(event, n, game)
        done += 1
    return done


def check_end(state: State[Any], n: int, last: Step | None) -> None:
    """At the end: an outcome, no actions, and acting again is refused."""
    assert state.is_terminal() and state.current_players() == ()
    outcome = state.outcome()
    assert isinstance(outcome, Outcome), "a finished game has an outcome"
    assert len(outcome.scores) == n, f"scores for {len(outcome.scores)} seats, not {n}"
    assert outcome.winners, "a finished game has at least one winner"
    assert all(0 <= w < n for w in outcome.winners), f"bad winners {outcome.winners}"
    assert len(set(outcome.winners)) == len(outcome.winners), "a winner listed twice"
    returns = outcome.returns()
    assert len(returns) == n and abs(sum(returns) - 1.0) < 1e-9, f"returns {returns} do not sum to 1"
    assert Outcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome
    assert all(not state.legal_actions(p) for p in range(n)), "legal actions after the end"
    if last is not None:
        before, text = state.to_json(), state.text()
        for p in range(n):
            assert_refused(state, p, last[1])
        assert_unchanged(state, before, text, "acting after the end")


# ---------------------------------------------------------------------------- after the game


def replay(
    state: State[Any], steps: Iterable[Step], hook: Callable[[Any], None] | None = None
) -> list[list[dict[str, Any]]]:
    """Apply ``steps`` to ``state``; return the events of each, as dicts."""
    state.set_step_hook(hook)
    out = [[e.to_dict() for e in state.apply_action(p, a)] for p, a in steps]
    state.set_step_hook(None)
    return out


def check_replay(game: Game[Any], playout: Playout) -> None:
    """The same seed and actions give the same events and final state, hook or no hook."""
    state = game.new_initial_state(playout.seed)
    calls: list[int] = []

    def hook(s: Any) -> None:
        assert s is state, "the step hook gets the state that is stepping"
        calls.append(1)

    assert replay(state, playout.steps, hook) == playout.events, (
        f"seed {playout.seed}: a replay gave other events"
    )
    assert _json_round_trip(state.to_json()) == playout.final_json, (
        f"seed {playout.seed}: replay ended elsewhere"
    )
    assert state.text() == playout.final_text
    assert state.outcome() is not None


def check_reloads(game: Game[Any], playout: Playout, stats: ConformanceStats) -> None:
    """Saved states load, save back identically and play on as the original did."""
    for step, saved in playout.saved.items():
        loaded = game.state_from_json(saved)
        assert _json_round_trip(loaded.to_json()) == saved, (
            f"seed {playout.seed}: step {step} reloads differently"
        )
        assert loaded.current_players() == _current_after(game, playout, step)
        assert _views(loaded, game.num_players) == playout.views[step], (
            f"seed {playout.seed}: a state reloaded at step {step} shows other views"
        )
        events = replay(loaded, playout.steps[step:])
        assert events == playout.events[step:], f"seed {playout.seed}: reloaded at step {step}, other events"
        assert _json_round_trip(loaded.to_json()) == playout.final_json
        stats.reloads += 1


def check_clones(playout: Playout, stats: ConformanceStats) -> None:
    """A clone taken mid-game was not touched by the original playing on, and plays on alike."""
    for step, clone in playout.clones.items():
        assert _json_round_trip(clone.to_json()) == playout.saved[step], (
            f"seed {playout.seed}: the original's later moves changed a clone taken at step {step}"
        )
        assert _views(clone, clone.num_players) == playout.views[step], "a clone shows other views"
        twin = clone.clone()
        events = replay(clone, playout.steps[step:])
        assert events == playout.events[step:], f"seed {playout.seed}: a clone from step {step} diverged"
        assert _json_round_trip(clone.to_json()) == playout.final_json
        assert _json_round_trip(twin.to_json()) == playout.saved[step], "playing a clone changed its clone"
        stats.clones += 1


def check_samples(game: Game[Any], playout: Playout) -> int:
    """A state sampled from a player's view (determinization) shows that player the same view,
    has the same current players, and plays on to an end. Returns how many were checked."""
    count = 0
    for step, saved in playout.saved.items():
        state = game.state_from_json(saved)  # the clones have been played on by now
        if state.is_terminal():
            continue
        chooser = random.Random(f"samples:{playout.seed}:{step}")
        for seat in range(game.num_players):
            view = state.view(seat)
            sample = game.sample_state(view, chooser.randrange(2**32))
            where = f"seed {playout.seed}, step {step}, player {seat}"
            assert _json_round_trip(sample.view(seat).to_json()) == playout.views[step][seat + 1], (
                f"{where}: the sample shows another view"
            )
            assert sample.current_players() == state.current_players(), f"{where}: other current players"
            count += 1
        for _ in range(20_000):  # the last sample plays on to an end
            current = sample.current_players()
            if not current:
                break
            player = chooser.choice(current)
            sample.apply_action(player, chooser.choice(list(sample.legal_actions(player))))
        assert sample.is_terminal() and sample.outcome() is not None
    return count


def check_fast_path(game: Game[Any], playout: Playout) -> bool:
    """The declared fast path plays the same game as the checked one (see the module
    docstring). Returns whether the game declares it (and so was checked)."""
    path = fast_path(game)
    if not path.fast:
        return False
    where = f"seed {playout.seed}, fast path"
    fast = path.new_state(playout.seed)
    checked = game.new_initial_state(playout.seed)
    apply = path.stepper(fast)
    n = game.num_players
    for step, (p, a) in enumerate(playout.steps):
        assert fast.current_players() == checked.current_players(), f"{where}, step {step}: other players"
        for seat in range(n):
            assert list(fast.legal_actions(seat)) == list(checked.legal_actions(seat)), (
                f"{where}, step {step}: player {seat} has other legal actions"
            )
        if step in playout.saved:
            saved = _json_round_trip(fast.to_json())
            assert saved == playout.saved[step], f"{where}, step {step}: another state"
            assert _views(fast, n) == playout.views[step], f"{where}, step {step}: other views"
            twin = fast.clone()
            assert all(twin.apply_action(q, b) == [] for q, b in playout.steps[step:]), (
                f"{where}: a fast state made events"
            )
            end = _json_round_trip(twin.to_json())
            assert end == playout.final_json, f"{where}: checked on from step {step}, it ended elsewhere"
        apply(p, a)
        checked.apply_action(p, a)
    assert _json_round_trip(fast.to_json()) == playout.final_json, f"{where}: the game ended elsewhere"
    assert fast.text() == playout.final_text
    assert fast.is_terminal() and fast.current_players() == ()
    assert fast.outcome() == checked.outcome(), f"{where}: another outcome"
    _check_fast_sample(game, playout)
    return True


def _check_fast_sample(game: Game[Any], playout: Playout) -> None:
    """A sample from the middle of the game, played out on the fast path and on the checked
    path with the same choices, ends in the same state."""
    path = fast_path(game)
    middle = max((s for s in playout.saved if s < len(playout.steps)), default=0)
    state = game.state_from_json(playout.saved[middle])
    if state.is_terminal():
        return
    seat = state.current_players()[0]
    seed = random.Random(f"fast:{playout.seed}").randrange(2**32)
    ends = []
    for fast in (True, False):
        sample = game.sample_state(state.view(seat), seed)
        apply = path.stepper(sample) if fast else sample.apply_action
        chooser = random.Random(f"fast sample:{playout.seed}")
        for _ in range(20_000):
            current = sample.current_players()
            if not current:
                break
            player = chooser.choice(current)
            apply(player, chooser.choice(list(sample.legal_actions(player))))
        assert sample.is_terminal()
        ends.append((_json_round_trip(sample.to_json()), sample.outcome()))
    assert ends[0] == ends[1], f"seed {playout.seed}: a sample played on the fast path ended elsewhere"


def _views(state: State[Any], n: int) -> list[Any]:
    """Every view of ``state`` (the spectator's first), as JSON text would carry them."""
    return [_json_round_trip(state.view(viewer).to_json()) for viewer in (None, *range(n))]


def _current_after(game: Game[Any], playout: Playout, step: int) -> tuple[int, ...]:
    state = game.new_initial_state(playout.seed)
    for p, a in playout.steps[:step]:
        state.apply_action(p, a)
    return state.current_players()


def _json_round_trip(data: Any) -> Any:
    """``data`` through JSON text, as a file or a socket would carry it."""
    return json.loads(json.dumps(data))
