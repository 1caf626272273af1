"""A rematch is offered to the other players, who accept or decline (issue 28, deliverable 8):
the offer names who asked; a decline is told to the whole table; nothing to decline is refused."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from tests.server.conftest import create_table, receive, socket, two_players_and_a_watcher


def test_the_other_player_is_offered_the_rematch_and_a_decline_is_told(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "human"])
    table_id = created["table"]["id"]
    _, tokens = two_players_and_a_watcher(client, table_id, created["token"], (3, 4))
    with socket(client, table_id, tokens[0]) as (ada, _), socket(client, table_id, tokens[1]) as (bo, _):
        bo.send_text(json.dumps({"type": "rematch", "decline": True}))  # nothing offered yet
        assert receive(bo, "error")["code"] == "no_rematch"
        ada.send_text(json.dumps({"type": "rematch"}))
        mine, offered = receive(ada, "rematch"), receive(bo, "rematch")
        assert mine["by"] == offered["by"] == 0 and mine["table"] == offered["table"]
        assert offered["token"]  # Bob's seat there, should he accept
        bo.send_text(json.dumps({"type": "rematch", "decline": True}))
        assert receive(ada, "rematch_declined")["seat"] == 1
        assert receive(bo, "rematch_declined")["seat"] == 1
