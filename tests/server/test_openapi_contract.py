"""The API keeps its OpenAPI contract (issue 30, item 7): schemathesis generates requests from
the schema (a few hundred, seeded, against the app in-process) and checks every answer against
it: no server error, no status the schema does not state, no schema-valid request refused, every
body as documented. Before, 873 cases gave 18 failures: undocumented 404/400/401, ``game`` and
``class`` free strings, the seats' rule unstated, and wrong ``Allow`` headers on 405."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.generation import GenerationMode

from sakura.server import contract, create_app

# per operation: schema-valid requests (about 400 in all), and schema-invalid ones, which must be
# refused (4xx) with a documented status (about 100: fewer operations have constraints to break)
EXAMPLES = {GenerationMode.POSITIVE: 20, GenerationMode.NEGATIVE: 8}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return create_app(f"sqlite:///{Path(tmp_path_factory.mktemp('contract')) / 'sakura.db'}")


def test_every_operation_states_its_refusals(app: Any) -> None:
    paths = app.app.app.openapi()["paths"]
    operations = {(method, path) for path, ops in paths.items() for method in ops}
    assert operations == set(contract.ERRORS), "contract.ERRORS must list every operation, and only those"
    new_table = paths["/api/tables"]["post"]
    assert {"400", "401", "403", "409", "429"} <= set(new_table["responses"])
    body = new_table["requestBody"]["content"]["application/json"]["schema"]
    games = {branch["properties"]["game"]["const"] for branch in body["anyOf"]}
    assert games == {"sakura", "sakura-cards"} and "exactly ``players`` entries" in body["description"]
    board = next(p for p in paths["/api/leaderboard"]["get"]["parameters"] if p["name"] == "class")
    assert board["schema"]["enum"] == ["sakura-2-court", "sakura-2-tactical", "sakura-3-6", "sakura-cards"]


@pytest.mark.parametrize("mode", list(EXAMPLES), ids=lambda m: m.value)
def test_schemathesis_finds_no_failure(app: Any, mode: GenerationMode) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    # ASCII strings: a name's rules that no JSON Schema states (one script a word) stay in words
    schema.config.generation.update(codec="ascii")
    failures: list[str] = []
    cases = 0
    for operation in schema.get_all_operations():
        api = operation.ok()
        if mode is GenerationMode.NEGATIVE and not (list(api.body) or list(api.query)):
            continue  # only free strings in its path: no request breaks its schema

        @given(api.as_strategy(mode))
        @settings(
            max_examples=EXAMPLES[mode],
            deadline=None,
            derandomize=True,  # the same cases on every run
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def check(case: Any) -> None:
            nonlocal cases
            cases += 1
            case.call_and_validate()

        try:
            check()
        except BaseException as exc:  # schemathesis's FailureGroup: keep going, report them all
            failures.append(f"{api.label}: {exc}"[:2000])
    assert not failures, "\n\n".join(failures)
    assert cases >= 8 * EXAMPLES[mode], cases


def test_a_method_a_path_does_not_take_names_all_it_takes(app: Any) -> None:
    with TestClient(app) as client:
        for method, path, allow in (
            ("PUT", "/api/tables", "GET, POST"),
            ("PUT", "/api/tables/abc/analysis/0", "GET, POST"),
            ("GET", "/api/signup", "POST"),
            ("DELETE", "/api/me", "GET"),
        ):
            response = client.request(method, path)
            assert response.status_code == 405 and response.headers["allow"] == allow, (method, path)


def test_a_name_over_24_characters_is_the_documented_400(app: Any) -> None:
    long = "A" * 30
    with TestClient(app, client=("192.0.2.40", 50000)) as client:
        for path, body in (
            ("/api/tables", {"players": 2, "name": long}),
            ("/api/tables", {"players": 2, "seats": [{"kind": "human", "name": long}, {"kind": "bot"}]}),
            ("/api/signup", {"username": long, "password": "a good long password"}),
        ):
            response = client.post(path, json=body)
            assert response.status_code == 400 and response.json()["code"] == "bad_name", (
                path,
                response.text,
            )
        table = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "human"}] * 2}).json()
        joined = client.post(f"/api/tables/{table['table']['id']}/join", json={"name": long})
        assert joined.status_code == 400 and joined.json()["code"] == "bad_name"
