"""The API's OpenAPI contract: every refusal each operation can answer with, and the rules of a
new table that a JSON Schema can state, added to what FastAPI derives from the routes.

FastAPI documents a route's success and its 422 (a body or a parameter of the wrong shape);
the refusals come from :class:`~sakura.server.errors.TableError` (one handler, its code's
status), from the front door (:mod:`sakura.server.guard`: 413 for a body too large) and from
the CSRF check (:mod:`sakura.server.csrf`: 403). :data:`ERRORS` lists them per operation, in one
place: ``tests/server/test_openapi_contract.py`` checks that every operation is listed here and
runs schemathesis against the app, so a status the schema does not state fails the suite.

A new table's rules depend on each other (the game decides the player counts and variants, the
player count the number of seats, a rated table takes players' seats only): the body's schema is
the union of the combinations the lobby accepts (:func:`new_table_schema`), built from the
engine's registry, and the rules are also said in words in its description.

A method a path does not take is answered 405 with an ``Allow`` header naming every method of
that path (:func:`method_not_allowed`): Starlette named only the first route's (``GET`` for
``/api/tables``, which also takes ``POST``).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match

from sakura.bots import LEGACY, LEVEL_NAMES
from sakura.server.names import NAME_RULES
from sakura.server.turns.pace import Pace

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "detail": {"type": "string", "description": "what was refused and why, in words"},
        "code": {"type": "string", "description": "the refusal's kind (docs/protocol.md)"},
    },
    "required": ["detail"],
}
WHY = {
    400: "a value the server does not take (bad_table, bad_name, bad_password, bad_seat, bad_email, "
    "bad_subscription), or a body "
    "that is not JSON",
    401: "login_required, or bad_login (wrong username or password)",
    403: "csrf: a page of another site, or a logged-in request without its X-CSRF-Token",
    404: "no_table (or no such player), or push_off (this server sends no Web Push)",
    409: "the table's state refuses it: no_seat, name_taken, taken, not_finished, damaged; or "
    "too_many_games: as many turn-based games in progress as one person may have",
    413: "too_large: a request body over the server's limit",
    429: "rate_limited: too many tries from your address (Retry-After says when to try again)",
    503: "storage (the database did not answer in time), full or busy: try again",
}
_POST = (403, 413, 503)
# Every operation of the API and the refusals it can answer with (besides its success and 422).
ERRORS: dict[tuple[str, str], tuple[int, ...]] = {
    ("get", "/api/tutorial"): (),
    ("get", "/api/cards"): (),
    ("get", "/api/tables"): (503,),
    ("post", "/api/tables"): (400, 401, 409, 429, *_POST),
    ("get", "/api/finished"): (503,),
    ("get", "/api/tables/{table_id}"): (404, 503),
    ("post", "/api/tables/{table_id}/join"): (400, 401, 404, 409, *_POST),
    ("get", "/api/archive"): (503,),
    ("get", "/api/archive/{table_id}"): (404, 503),
    ("get", "/api/tables/{table_id}/record"): (404, 409, 503),
    ("get", "/api/tables/{table_id}/replay"): (404, 409, 503),
    ("get", "/api/tables/{table_id}/score-sheet"): (404, 409, 503),
    ("get", "/api/tables/{table_id}/ratings"): (404, 503),
    ("get", "/api/tables/{table_id}/analysis/{seat}"): (400, 404, 409, 503),
    ("post", "/api/tables/{table_id}/analysis/{seat}"): (400, 404, 409, 429, *_POST),
    ("get", "/api/players/{username}"): (404, 503),
    ("get", "/api/leaderboard"): (400, 503),
    ("post", "/api/signup"): (400, 409, 429, *_POST),
    ("post", "/api/login"): (400, 401, 429, *_POST),
    ("post", "/api/logout"): _POST,
    ("get", "/api/me"): (503,),
    ("get", "/api/admin"): (403, 503),
    ("post", "/api/admin/ban"): (400, 404, *_POST),
    ("post", "/api/admin/unban"): (400, 404, *_POST),
    ("post", "/api/admin/hide"): (400, 404, *_POST),
    ("post", "/api/admin/close"): (400, 404, *_POST),
    ("post", "/api/chat/{chat_id}/report"): (400, 401, 404, 429, *_POST),
    ("post", "/api/moves"): (400, *_POST),
    ("post", "/api/tables/{table_id}/since"): (400, 404, *_POST),
    ("post", "/api/account/delete"): (400, 401, 429, *_POST),
    ("get", "/api/notifications"): (401, 503),
    ("post", "/api/notifications"): (400, 401, *_POST),
    ("get", "/api/push/key"): (404,),
    ("post", "/api/push/subscriptions"): (400, 401, 404, *_POST),
    ("delete", "/api/push/subscriptions"): (400, 401, *_POST),
}

# What each game takes: its player counts and, by player count, its variants (None: none).
GAMES: dict[str, dict[int, tuple[str | None, ...]]] = {
    "sakura": {2: (None, "court", "tactical"), 3: (None,), 4: (None,), 5: (None,), 6: (None,)},
    "sakura-cards": {2: (None,)},
}
NEW_TABLE_RULES = """A new table. The rules that depend on each other, which the schema's
combinations state:

* ``game`` is one of the engine's games; it decides ``players`` (Sakura: 2 to 6; the card game: 2)
  and ``variant`` (Sakura for two: ``court`` or ``tactical``; otherwise none);
* ``seats``, when given, has exactly ``players`` entries, at least one of them ``human``; without
  it the creator plays the first seat against bots;
* a ``rated`` table is for accounts (401 when not logged in) and has players' seats only
  (so ``seats`` is given, every one ``human``);
* names (``name``, each seat's ``name``) are 1 to 24 characters after trimming, one script a word,
  no control, direction or zero-width character where no script needs it, and no two at a table
  alike (409 ``name_taken``): 400 ``bad_name`` otherwise;
* a turn-based table has a ``pace`` (the time a move may take) and ``timeouts`` (how many moves a
  bot plays for a late seat before it takes the seat for good), and no ``timer``: a table is
  real-time or turn-based, never both (422).
"""
NAME_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "string", "maxLength": NAME_RULES["maxLength"], "pattern": NAME_RULES["pattern"]},
        {"type": "null"},
    ],
    "description": NAME_RULES["description"],
}


def new_table_schema() -> dict[str, Any]:
    """The body of ``POST /api/tables``: one branch per game, player count and rated or not."""
    seat_kinds: dict[str, dict[str, Any]] = {
        "human": {"kind": {"const": "human"}},
        "bot": {"kind": {"const": "bot"}, "level": {"enum": [*LEVEL_NAMES, *LEGACY, None]}},
    }

    def seat(kinds: tuple[str, ...]) -> dict[str, Any]:
        return {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {**seat_kinds[k], "name": NAME_SCHEMA},
                    "required": ["kind"],
                    "additionalProperties": False,
                }
                for k in kinds
            ]
        }

    human_seat = {"type": "object", "properties": {"kind": {"const": "human"}}, "required": ["kind"]}
    branches = []
    for game, counts in GAMES.items():
        for players, variants in counts.items():
            for rated in (False, True):
                seats: dict[str, Any] = {
                    "type": "array",
                    "minItems": players,
                    "maxItems": players,
                    "items": seat(("human",) if rated else ("human", "bot")),
                }
                if not rated:
                    seats["contains"] = human_seat
                    seats = {"anyOf": [seats, {"type": "null"}]}
                branch: dict[str, Any] = {
                    "type": "object",
                    "properties": {
                        "game": {"const": game},
                        "players": {"const": players},
                        "variant": {"enum": list(variants)},
                        "seats": seats,
                        "rated": {"const": rated},
                        "timer": {
                            "anyOf": [{"type": "number", "minimum": 1, "maximum": 3600}, {"type": "null"}]
                        },
                        "name": NAME_SCHEMA,
                        "spectator_chat": {"type": "boolean"},
                        "hints": {"type": "boolean"},
                        "pace": {"anyOf": [{"enum": [p.value for p in Pace]}, {"type": "null"}]},
                        "timeouts": {"type": "integer", "minimum": 1, "maximum": 10},
                    },
                    # turn-based or real-time: a pace and a timer together are refused (422)
                    "not": {
                        "properties": {"timer": {"type": "number"}, "pace": {"type": "string"}},
                        "required": ["timer", "pace"],
                    },
                    "required": [
                        *(["game"] if game != "sakura" else []),  # the default game
                        "players",
                        *(["rated", "seats"] if rated else []),
                    ],
                    "additionalProperties": False,
                }
                branches.append(branch)
    return {"description": NEW_TABLE_RULES, "anyOf": branches}


def install(app: FastAPI) -> None:
    """Make ``app.openapi()`` the contract: FastAPI's schema, the refusals of :data:`ERRORS`,
    and the new table's rules."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, routes=app.routes)
        schema.setdefault("components", {}).setdefault("schemas", {})["Refusal"] = ERROR_SCHEMA
        for path, operations in schema["paths"].items():
            for method, operation in operations.items():
                for status in ERRORS.get((method, path), ()):
                    operation["responses"].setdefault(
                        str(status),
                        {
                            "description": WHY[status],
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/Refusal"}}
                            },
                        },
                    )
        body = schema["paths"]["/api/tables"]["post"]["requestBody"]
        body["content"]["application/json"]["schema"] = new_table_schema()
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_exception_handler(405, method_not_allowed)  # type: ignore[arg-type]


async def method_not_allowed(request: Request, exc: HTTPException) -> JSONResponse:
    """405 with the methods of every route that matches the path, not only the first one's."""
    allowed: set[str] = set()
    for route in _routes(request.app.router.routes):
        methods = getattr(route, "methods", None)
        if methods and route.matches(request.scope)[0] in (Match.PARTIAL, Match.FULL):
            allowed |= set(methods)
    headers = {"Allow": ", ".join(sorted(allowed))} if allowed else dict(exc.headers or {})
    return JSONResponse(
        {"detail": f"{request.method} is not a method of this path", "code": "method"},
        status_code=405,
        headers=headers,
    )


def _routes(routes: list[Any]) -> list[Any]:
    """Every route, those of included routers too (FastAPI keeps them in their router)."""
    found = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        found.extend(_routes(inner.routes) if inner is not None else [route])
    return found
