"""Hints and post-game analyses through the real protocol: a ``hint`` message over the
WebSocket, the analysis over HTTP, both searched in the app's worker process."""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import ScriptedPlayer, create_table, receive, socket

from sakura.bots.analysis import jobs
from sakura.records import GameRecord
from sakura.server import create_app
from sakura.server.limits import Limits

LIMITS = Limits(hint_spec="mcts:80", analysis_spec="mcts:20")


def _hint(ws: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Progress messages, then the hint (or the error)."""
    progress = []
    while True:
        message = ws.receive_json()
        if message["type"] == "hint_progress":
            progress.append(message)
        elif message["type"] in ("hint", "error"):
            return progress, message


def test_a_hint_gives_each_legal_action_a_win_chance_one_at_a_time(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, LIMITS)) as client:
        created = create_table(client, 3, ["human", "medium", "medium"])
        table_id, token = created["table"]["id"], created["token"]
        assert created["table"]["hints"] is True
        with socket(client, table_id, token) as (ws, welcome):
            legal = welcome["view"]["legal_actions"]
            ws.send_text(json.dumps({"type": "hint"}))
            ws.send_text(json.dumps({"type": "hint"}))  # while the first is worked out
            progress, answer = _hint(ws)
            if answer["type"] == "error":  # the second one's refusal comes first
                assert answer["code"] == "busy" and "already" in answer["message"]
                progress, answer = _hint(ws)
            else:
                _, refusal = _hint(ws)
                assert refusal["type"] == "error" and refusal["code"] == "busy"
            # the bots may have chosen since the welcome (a later seq); seat 0's cards are the same
            assert answer["type"] == "hint" and answer["seat"] == 0 and answer["seq"] >= welcome["seq"]
            assert {a["action"] for a in answer["actions"]} == set(legal)
            assert answer["best"] == answer["actions"][0]["action"]
            assert sum(a["visits"] for a in answer["actions"]) == answer["iterations"] == 80
            assert all(0 <= a["win"] <= 1 and 0 <= a["estimate"] <= 1 for a in answer["actions"])
            assert [p["progress"] for p in progress] == sorted(p["progress"] for p in progress)
            # the same question, the same answer: the bots' choices may come in between (each
            # changes the position, and so the question), so ask until two answers share a seq
            for _ in range(4):
                ws.send_text(json.dumps({"type": "hint"}))
                again = _hint(ws)[1]
                assert again["type"] == "hint" and again["seq"] >= answer["seq"]
                if again["seq"] == answer["seq"]:
                    break
                answer = again
            assert again["seq"] == answer["seq"] and again["actions"] == answer["actions"]
        with socket(client, table_id, None) as (ws, _):
            ws.send_text(json.dumps({"type": "hint"}))
            assert receive(ws, "error")["code"] == "not_seated"


def test_no_hints_at_a_table_that_has_them_off(sqlite_url: str) -> None:
    """The creator may turn "Suggest" off (``hints: false``); the table says so, refuses a
    hint, keeps the choice across a restart of the server, and its rematch keeps it too."""
    with TestClient(create_app(sqlite_url, LIMITS)) as client:
        created = create_table(client, 2, ["human", "medium"], hints=False)
        table_id = created["table"]["id"]
        assert created["table"]["hints"] is False
        assert client.get(f"/api/tables/{table_id}").json()["hints"] is False
        assert create_table(client, 2, ["human", "medium"])["table"]["hints"] is True  # the default
        with socket(client, table_id, created["token"]) as (ws, _):
            ws.send_text(json.dumps({"type": "hint"}))
            error = receive(ws, "error")
            assert error["code"] == "no_hints" and "off at this table" in error["message"]
    with TestClient(create_app(sqlite_url, LIMITS)) as client:  # the server restarted
        assert client.get(f"/api/tables/{table_id}").json()["hints"] is False
        ScriptedPlayer(client, table_id, created["token"]).start().join()  # to the end
        with socket(client, table_id, created["token"]) as (ws, welcome):
            assert welcome["view"]["terminal"]
            ws.send_text(json.dumps({"type": "rematch"}))
            rematch = receive(ws, "rematch")
        assert client.get(f"/api/tables/{rematch['table']}").json()["hints"] is False


def _analysis(client: TestClient, table_id: str, seat: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    seen = []
    while True:
        status = client.get(f"/api/tables/{table_id}/analysis/{seat}").json()
        seen.append(status)
        if status["status"] != "running":
            return seen, status
        time.sleep(0.1)


def test_analysis_is_refused_in_play_then_runs_with_progress_and_is_kept_across_a_restart(
    sqlite_url: str,
) -> None:
    with TestClient(create_app(sqlite_url, LIMITS)) as client:
        created = create_table(client, 3, ["human", "medium", "medium"])
        table_id = created["table"]["id"]
        refused = client.post(f"/api/tables/{table_id}/analysis/0")
        assert refused.status_code == 409
        assert refused.json()["code"] == "not_finished" and "still being played" in refused.json()["detail"]
        assert client.get(f"/api/tables/{table_id}/analysis/0").json()["status"] == "none"
        ScriptedPlayer(client, table_id, created["token"], seed=3).start().join()
        assert client.post(f"/api/tables/{table_id}/analysis/7").status_code == 400
        started = client.post(f"/api/tables/{table_id}/analysis/0")
        assert started.status_code == 202 and started.json()["status"] == "running"
        seen, final = _analysis(client, table_id, 0)
        assert final["status"] == "done", final
        running = [s for s in seen if s["status"] == "running"]
        assert [s["done"] for s in running] == sorted(s["done"] for s in running)
        analysis = final["analysis"]
        record = GameRecord.loads(client.get(f"/api/tables/{table_id}/record").text)
        game = record.make_game()
        moves = [(m.player, m.action) for m in record.moves]
        todo = jobs(game, game.state_from_json(record.initial), moves, 0)
        assert len(analysis["decisions"]) == sum(j["kind"] == "decision" for j in todo)
        assert len(analysis["rounds"]) == sum(j["kind"] != "decision" for j in todo)
        assert analysis["spec"] == "mcts:20" and analysis["seat"] == 0
        assert {d["played"] for d in analysis["decisions"]} <= {a for p, a in moves if p == 0}
        again = client.post(f"/api/tables/{table_id}/analysis/0")
        assert again.json() == final  # done: given, not run again
    with TestClient(create_app(sqlite_url, LIMITS)) as client:
        kept = client.get(f"/api/tables/{table_id}/analysis/0").json()
        assert kept == final
        assert client.get(f"/api/tables/{table_id}/analysis/1").json()["status"] == "none"
