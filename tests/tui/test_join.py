"""``sakura play --join URL``: the terminal app as a seat of a live web server's table.

A real uvicorn serves the app on loopback (a free port, a temporary SQLite file) in a thread;
the table is made through the HTTP API and the app is driven by key presses (Textual pilot).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.live_server import free_port
from tests.tui.screen import create_table, log_text, wait_for
from textual.pilot import Pilot

from sakura.records import GameRecord, replay
from sakura.tui import SakuraApp
from sakura.tui.cards_screens import CardsScreen
from sakura.tui.dialogs import EndScreen
from sakura.tui.remote import JoinError, parse_join_url
from sakura.tui.remote_screens import JoinFailedScreen
from sakura.tui.sakura_screens import SakuraScreen

pytestmark = pytest.mark.anyio


def _remote(app: SakuraApp) -> SakuraScreen:
    screens = [s for s in app.screen_stack if isinstance(s, SakuraScreen)]
    assert screens, f"no game screen: {app.screen_stack}"
    return screens[-1]


_log, _wait = log_text, wait_for


async def _play_to_the_end(
    app: SakuraApp, pilot: Pilot[None], on_turn: Any = None, limit: int = 20000
) -> int:
    """Press '1' (or '2' for a tactical court card) whenever the server's view lists actions."""
    turns = 0
    for _ in range(limit):
        await pilot.pause(0.02)
        if isinstance(app.screen, EndScreen):
            return turns
        if isinstance(app.screen, JoinFailedScreen):
            raise AssertionError(str(app.screen.reason))
        game = _remote(app)
        if game.mode not in ("select", "court", "choice"):
            continue
        turns += 1
        if on_turn is not None:
            await on_turn(game, turns)
        await pilot.press("2" if game.mode == "court" else "1")
    raise AssertionError("the game did not end")


def test_table_links_are_read() -> None:
    target = parse_join_url("https://example.org/sakura/t/abc123#token=s3cr-et_")
    assert (target.base, target.table, target.token) == ("https://example.org/sakura", "abc123", "s3cr-et_")
    assert target.ws_url == "wss://example.org/sakura/ws/abc123"
    assert parse_join_url("http://h:1/t/abc/").token is None
    for bad in ("", "http://h:1/", "http://h:1/replay/abc", "ftp://h/t/abc", "not a url"):
        with pytest.raises(JoinError):
            parse_join_url(bad)


async def test_a_whole_web_game_by_key_presses_with_a_dropped_connection(
    server: str, shots: Path, tmp_path: Path
) -> None:
    created = create_table(server, ["human", "easy", "medium"])
    table = created["table"]["id"]
    url = f"{server}/t/{table}#token={created['token']}"
    app = SakuraApp(join=url, delay=0, save_dir=tmp_path)
    dropped: list[int] = []

    async def drop_once(game: SakuraScreen, turn: int) -> None:
        if turn == 3 and not dropped:  # the line goes down mid-game: the app connects again
            dropped.append(game.play.link.seq)
            await game.play.link.drop()
            await _wait(pilot, lambda: "Connected again." in _log(game))

    async with app.run_test(size=(80, 24)) as pilot:
        await _wait(pilot, lambda: any(isinstance(s, SakuraScreen) for s in app.screen_stack))
        game = _remote(app)
        assert game.play.link.seat == 0
        app.save_screenshot(str(shots / "join-board-80x24.svg"))
        turns = await _play_to_the_end(app, pilot, drop_once)
        app.save_screenshot(str(shots / "join-final.svg"))
        assert dropped and turns > 5
        view = game.play.link.view(0)
        assert view.terminal and view.outcome is not None
        assert "Connected again." in _log(game) and "The game is over." in _log(game)
        await pilot.press("s")  # the server's record of the finished game
        await _wait(pilot, lambda: app.last_saved is not None)
        assert app.last_saved is not None
        record = GameRecord.loads(app.last_saved.read_text(encoding="utf-8"))
        assert replay(record).is_terminal()
        await pilot.press("n")  # a rematch: the server's new table, the same seat, by its token
        await _wait(
            pilot,
            lambda: any(
                isinstance(s, SakuraScreen) and s.play.link.target.table != table for s in app.screen_stack
            ),
        )
        again = _remote(app)
        assert again.play.link.seat == 0 and again.play.link.token != created["token"]
        await _wait(pilot, lambda: again.mode == "select")
    info = httpx.get(f"{server}/api/tables/{table}", timeout=60).json()
    assert info["status"] == "finished" and info["rematch"] == again.play.link.target.table


async def test_the_tactical_variant_two_cards_then_the_end(server: str, shots: Path) -> None:
    created = create_table(server, ["human", "medium"], variant="tactical")
    app = SakuraApp(join=f"{server}/t/{created['table']['id']}#token={created['token']}", delay=0.01)
    courts: list[int] = []

    async def note(game: SakuraScreen, turn: int) -> None:
        if game.mode == "court":
            courts.append(turn)
            if len(courts) == 1:
                app.save_screenshot(str(shots / "join-tactical-court.svg"))

    async with app.run_test(size=(100, 30)) as pilot:
        await _wait(pilot, lambda: any(isinstance(s, SakuraScreen) for s in app.screen_stack))
        await _play_to_the_end(app, pilot, note)
        game = _remote(app)
        assert courts  # this seat played a card for the court painter too
        assert game.play.link.view(0).outcome is not None
        assert "The game is over." in _log(game)


async def test_an_invite_link_takes_the_free_seat_and_plays(server: str) -> None:
    created = create_table(server, ["human", "human", "easy"])  # the creator keeps seat 1
    table = created["table"]["id"]
    app = SakuraApp(join=f"{server}/t/{table}", delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await _wait(pilot, lambda: any(isinstance(s, SakuraScreen) for s in app.screen_stack))
        game = _remote(app)
        assert game.play.link.seat == 1 and game.play.link.token
        await _wait(pilot, lambda: f"/t/{table}#token=" in _log(game))  # the personal link
        await _wait(pilot, lambda: game.mode == "select")
        await pilot.press("1")
        await _wait(pilot, lambda: game.play.link.view(1).chosen[1])
        assert game.mode == "wait" and not game.play.link.view(1).legal_actions
        await pilot.press("1", "2", "enter")  # not this seat's turn: nothing is sent, nothing breaks
        await pilot.pause()
        assert game.play.link.view(1).chosen[1]
    seats = httpx.get(f"{server}/api/tables/{table}", timeout=60).json()["seats"]
    assert seats[1]["claimed"]


async def test_the_move_timer_counts_down_and_a_bot_plays_when_it_runs_out(server: str) -> None:
    created = create_table(server, ["human", "easy"], timer=2)
    app = SakuraApp(join=f"{server}/t/{created['table']['id']}#token={created['token']}", delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait(pilot, lambda: any(isinstance(s, SakuraScreen) for s in app.screen_stack))
        game = _remote(app)
        await _wait(pilot, lambda: "left to decide" in str(game.query_one("#prompt").render()))
        await _wait(pilot, lambda: "Time is up: a bot played for you." in _log(game))  # no key pressed


async def test_a_whole_card_game_at_a_web_table_by_key_presses(
    server: str, shots: Path, tmp_path: Path
) -> None:
    created = create_table(server, ["human", "medium"], game="sakura-cards")
    table = created["table"]["id"]
    app = SakuraApp(join=f"{server}/t/{table}#token={created['token']}", delay=0, save_dir=tmp_path)
    turns = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait(pilot, lambda: any(isinstance(s, CardsScreen) for s in app.screen_stack))
        game = next(s for s in app.screen_stack if isinstance(s, CardsScreen))
        assert game.play.link.game == "sakura-cards" and game.play.link.seat == 0
        await _wait(pilot, lambda: game.acting or game.play.link.view(0).turn == 1)
        app.save_screenshot(str(shots / "join-cards-80x24.svg"))
        for _ in range(20000):
            await pilot.pause(0.02)
            if isinstance(app.screen, EndScreen):
                break
            if game.busy or not game.acting:
                if turns and not game.play.link.view(0).legal_actions:
                    await pilot.press("1", "enter")  # not this seat's turn: nothing is sent
                continue
            view = game.play.link.view(0)
            assert view.legal_actions and view.hand is not None
            turns += 1
            await pilot.press("enter")
        else:
            raise AssertionError("the game did not end")
        app.save_screenshot(str(shots / "join-cards-final.svg"))
        view = game.play.link.view(0)
        assert view.terminal and view.outcome is not None and [len(r) for r in view.round_scores] == [3, 3]
        log = _log(game)
        assert "Round 3 is scored." in log and "The game is over." in log
        assert "You receive" in log and "You give" in log
        assert "The server says" not in log  # no key sent an action the server refused
        await pilot.press("s")  # the server's record of the finished game
        await _wait(pilot, lambda: app.last_saved is not None)
        assert app.last_saved is not None and app.last_saved.name == f"sakura-cards-{table}.json"
        record = GameRecord.loads(app.last_saved.read_text(encoding="utf-8"))
        assert record.game == "sakura-cards" and replay(record).outcome() == view.outcome
    assert turns >= 3 * 9 * 2  # every place and give of three rounds, by Enter
    assert httpx.get(f"{server}/api/tables/{table}", timeout=60).json()["status"] == "finished"


@pytest.mark.parametrize(
    ("link", "words"),
    [
        ("{server}/t/{table}#token=not-a-token", "token opens no seat"),
        ("{server}/t/nosuchtable", "no table"),
        ("http://127.0.0.1:{port}/t/{table}", "Cannot reach the server"),
        ("http://127.0.0.1:1/nothing-here", "not a table link"),
    ],
)
async def test_a_bad_link_or_token_gives_a_clear_error_screen(
    server: str, shots: Path, link: str, words: str
) -> None:
    table = create_table(server, ["human", "easy"])["table"]["id"]
    url = link.format(server=server, table=table, port=free_port())
    app = SakuraApp(join=url, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, JoinFailedScreen))
        assert isinstance(app.screen, JoinFailedScreen)
        assert words in app.screen.reason
        if "token" in link:
            app.save_screenshot(str(shots / "join-bad-token.svg"))
        reason = app.screen.reason
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_code == 1  # a failed join is a failure: ``sakura play --join`` exits 1
    assert app.join_error == reason


async def test_the_hint_key_at_a_web_table_asks_the_server(server: str, tmp_path: Path) -> None:
    created = create_table(server, ["human", "medium"])
    app = SakuraApp(
        join=f"{server}/t/{created['table']['id']}#token={created['token']}", delay=0, save_dir=tmp_path
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await _wait(pilot, lambda: any(isinstance(s, SakuraScreen) for s in app.screen_stack))
        game = _remote(app)
        await _wait(pilot, lambda: game.mode == "select")
        legal = set(game.play.link.view(0).legal_actions)
        await pilot.press("h")
        await _wait(pilot, lambda: game.hinter.last is not None)
        assert game.hinter.last is not None
        assert {a.action for a in game.hinter.last.actions} == legal
        assert "Hint (estimated chance of winning)" in _log(game)
        assert game.mode == "select"  # still this seat's turn: the keys go on
        await pilot.press("1")
        await _wait(pilot, lambda: game.play.link.seq > 0)
