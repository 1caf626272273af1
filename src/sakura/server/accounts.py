"""Optional accounts: a username and a password, a session cookie, and seats bound to them.

Nobody needs an account to play: a table by invite link works exactly as without them. An
account adds a name that is yours, tables you can resume from any browser once logged in
(your seats carry your username; the table's socket recognises your session cookie), and
rated tables.

* Passwords are hashed with argon2id (``argon2-cffi``, its default cost) in a worker thread,
  and only the hash is stored; no log line, error or response ever holds a password (the
  request bodies are not logged, and the database engine hides statement parameters).
* The session cookie ``sakura_session`` holds a random token (the database keeps its
  SHA-256): HttpOnly, SameSite=Lax, Secure when the page came over https, 30 days.
* Every state-changing request is guarded against cross-site forgery (:mod:`sakura.server.csrf`):
  the token it must carry comes from ``GET /api/me``.
* Logins are rate-limited per (address, username) (``LOGIN_BURST`` tries, then one a
  ``LOGIN_EVERY`` seconds) and per client address in all (``ADDRESS_BURST``, then one a
  ``ADDRESS_EVERY`` seconds), with a clear error and a ``Retry-After``. Per
  username alone there is no refusal, only a slower path: past the same burst every try on that
  name waits ``LOGIN_SLOW`` seconds first. A refusal per name would let anyone lock a user out
  (one wrong try every 12 s from anywhere kept the account shut); a delay costs a guesser
  spread over many addresses time, and costs the real user, from any address, one second.
* A username may not look like another's (:mod:`sakura.server.lookalikes`: 409 ``taken``), and
  one address makes at most ``Limits.signups_per_day`` accounts a day; each session notes its
  address and device for the rating-farm rule (:mod:`sakura.server.farm`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import logging
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, insert, select

from sakura.server import farm, moderation
from sakura.server.csrf import csrf_token
from sakura.server.db import Store, now
from sakura.server.errors import TableError
from sakura.server.limits import KeyedLimiter
from sakura.server.names import clean_username, fold, name_key
from sakura.server.pages import page
from sakura.server.people_models import AccountRow, SessionRow

log = logging.getLogger("sakura.server")

COOKIE = "sakura_session"
SESSION_DAYS = 30
PASSWORD_MIN, PASSWORD_MAX = 8, 200
LOGIN_BURST, LOGIN_EVERY = 5, 12.0  # five tries on a name, then one every 12 s (five a minute)
# an address in all (a school or a family behind one): twenty tries, then one every 3 s
ADDRESS_BURST, ADDRESS_EVERY = 20, 3.0
LOGIN_SLOW = 1.0  # seconds every try on a name waits once that name is past its burst
_hasher = PasswordHasher()
# A hash to verify against when the username does not exist: the answer takes as long.
_DUMMY = _hasher.hash(secrets.token_urlsafe(16))


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=200)  # names.py's rules: 400 bad_name
    password: str = Field(max_length=1024)

    def __repr__(self) -> str:  # never the password, wherever it is printed
        return f"Credentials(username={self.username!r}, password=<hidden>)"

    __str__ = __repr__


class NewAccount(Credentials):
    """A sign-up: the username's and the password's rules as the schema states them (their
    checks are names.py's and :func:`_check_password`, with a 400 and the rule in words)."""

    username: str = Field(
        max_length=200,
        description="3 to 24 letters (one script a word), digits, '_', '.' or '-'; unique as it looks",
        json_schema_extra={"pattern": r"^[\w.\-]{3,24}$", "maxLength": 24},
    )
    password: str = Field(
        max_length=1024,
        description=f"{PASSWORD_MIN} to {PASSWORD_MAX} characters",
        json_schema_extra={"minLength": PASSWORD_MIN, "maxLength": PASSWORD_MAX},
    )


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# ------------------------------------------------------------------ the store's calls (worker threads)


def _create(store: Store, key: str, username: str, password_hash: str, signup_mark: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(
            insert(AccountRow),
            {
                "key": key,
                "username": username,
                "password_hash": password_hash,
                "created": now(),
                "fold": fold(username),
                "signup_mark": signup_mark,
            },
        )


def _look_alike(store: Store, username: str) -> bool:
    """True when an account's username looks like this one (or is it)."""
    with store.engine.connect() as conn:
        found = conn.execute(
            select(AccountRow.key).where(
                (AccountRow.fold == fold(username)) | (AccountRow.key == name_key(username))
            )
        ).first()
    return found is not None


def _hash_of(store: Store, key: str) -> tuple[str, str] | None:
    with store.engine.connect() as conn:
        row = conn.execute(
            select(AccountRow.username, AccountRow.password_hash).where(AccountRow.key == key)
        ).first()
    return None if row is None else (str(row[0]), str(row[1]))


def _open_session(store: Store, token_hash: str, key: str) -> None:
    created = now()
    with store.engine.begin() as conn:
        conn.execute(delete(SessionRow).where(SessionRow.expires < created))  # the expired ones go
        conn.execute(
            insert(SessionRow),
            {
                "token_hash": token_hash,
                "account": key,
                "created": created,
                "expires": created + dt.timedelta(days=SESSION_DAYS),
            },
        )


def _session_user(store: Store, token_hash: str) -> str | None:
    with store.engine.connect() as conn:
        row = conn.execute(
            select(AccountRow.username, SessionRow.expires)
            .join(AccountRow, AccountRow.key == SessionRow.account)
            .where(SessionRow.token_hash == token_hash)
        ).first()
    if row is None:
        return None
    expires = row[1] if row[1].tzinfo else row[1].replace(tzinfo=dt.UTC)
    return str(row[0]) if expires > now() else None


def _close_session(store: Store, token_hash: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))


# ------------------------------------------------------------------ for the app and the other modules


async def user_of(lobby: Any, cookies: Any) -> str | None:
    """The username a request's (or a socket's) session cookie belongs to, or None."""
    token = cookies.get(COOKIE)
    if not token or len(token) > 128:
        return None
    result: str | None = await lobby.db.call(
        _session_user, lobby.store, _digest(token), what="reading a session"
    )
    return result


def _check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise TableError(f"a password needs {PASSWORD_MIN} to {PASSWORD_MAX} characters", "bad_password")


def _set_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


class Accounts:
    """The routes of ``/api/signup``, ``/api/login``, ``/api/logout`` and ``/api/me``."""

    def __init__(self) -> None:
        self.by_address = KeyedLimiter(1 / ADDRESS_EVERY, ADDRESS_BURST)
        self.by_address_and_name = KeyedLimiter(1 / LOGIN_EVERY, LOGIN_BURST)
        self.by_name = KeyedLimiter(1 / LOGIN_EVERY, LOGIN_BURST)  # a delay, never a refusal
        self.router = APIRouter()
        self.router.add_api_route("/api/signup", self.signup, methods=["POST"], status_code=201)
        self.router.add_api_route("/api/login", self.login, methods=["POST"])
        self.router.add_api_route("/api/logout", self.logout, methods=["POST"])
        self.router.add_api_route("/api/me", self.me, methods=["GET"])
        self.router.add_api_route("/login", self.login_page, methods=["GET"], include_in_schema=False)

    @staticmethod
    async def login_page(request: Request) -> Response:
        return page("login.html", request)

    async def _start_session(
        self, lobby: Any, request: Request, response: Response, key: str, username: str
    ) -> dict[str, Any]:
        token = secrets.token_urlsafe(32)
        await lobby.db.call(_open_session, lobby.store, _digest(token), key, what="opening a session")
        _set_cookie(request, response, token)
        marks = [farm.address_mark(request), farm.give_device(request, response)]
        await lobby.db.call(farm.note, lobby.store, key, marks, what="noting an account's address")
        return {"username": username, "csrf": csrf_token(token)}

    async def signup(self, body: NewAccount, request: Request, response: Response) -> dict[str, Any]:
        lobby = request.app.state.lobby
        username = clean_username(body.username)
        _check_password(body.password)
        await self._limit(request, name_key(username))
        await self._signups_left(request)
        if await lobby.db.call(_look_alike, lobby.store, username, what="reading an account"):
            raise TableError("that username is taken, or looks like one that is", "taken")
        password_hash = await asyncio.to_thread(_hasher.hash, body.password)
        made_from = farm.address_mark(request)
        try:
            await lobby.db.call(
                _create,
                lobby.store,
                name_key(username),
                username,
                password_hash,
                made_from,
                what="creating an account",
            )
        except TableError:
            if await lobby.db.call(_look_alike, lobby.store, username, what="reading an account"):
                raise TableError("that username is taken, or looks like one that is", "taken") from None
            raise
        log.info("account %s created", username)
        return await self._start_session(lobby, request, response, name_key(username), username)

    async def login(self, body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        lobby = request.app.state.lobby
        key = name_key(body.username.strip())
        await self._limit(request, key)
        found = await lobby.db.call(_hash_of, lobby.store, key, what="reading an account")
        ok = await asyncio.to_thread(_verify, found[1] if found else _DUMMY, body.password)
        if found is None or not ok:
            log.info("a failed login for %r", body.username[:24])
            raise TableError("wrong username or password", "bad_login")
        if await lobby.db.call(moderation.is_banned, lobby.store, key, what="reading an account"):
            raise TableError("this account is banned", "banned")
        return await self._start_session(lobby, request, response, key, found[0])

    async def logout(self, request: Request, response: Response) -> dict[str, Any]:
        lobby = request.app.state.lobby
        token = request.cookies.get(COOKIE)
        if token:
            await lobby.db.call(_close_session, lobby.store, _digest(token), what="closing a session")
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return {"username": None}

    async def me(self, request: Request, response: Response) -> dict[str, Any]:
        """Who this browser is logged in as (``username``: null when nobody), the token its
        state-changing requests carry, and the seats of its unfinished tables. A cookie whose
        session ended (logged out elsewhere, expired, banned) is cleared: otherwise the CSRF
        check would refuse the browser's next log-in for a token it can no longer get."""
        lobby = request.app.state.lobby
        token = request.cookies.get(COOKIE)
        username = await user_of(lobby, request.cookies)
        if token and username is None:
            response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        tables = []
        if username is not None:
            for table in lobby.tables.values():
                seats = [i for i, s in enumerate(table.seats) if s.account == username]
                if seats and table.status == "playing":
                    tables.append({"table": table.id, "seat": seats[0], "game": table.game.name})
        admin = username is not None and (
            await lobby.db.call(moderation.role_of, lobby.store, username, what="reading a role")
            == moderation.ADMIN
        )
        return {
            "username": username,
            "csrf": csrf_token(token) if username and token else None,
            "tables": tables,
            "admin": admin,  # a moderator: the header links the /admin page
        }

    async def _signups_left(self, request: Request) -> None:
        """Refuse a sign-up past ``Limits.signups_per_day`` accounts from this address today."""
        lobby, most = request.app.state.lobby, request.app.state.limits.signups_per_day
        since = now() - dt.timedelta(days=1)
        made = await lobby.db.call(
            farm.signups_since, lobby.store, farm.address_mark(request), since, what="counting sign-ups"
        )
        if made >= most:
            raise TableError(
                f"this address has made {made} accounts today, the most it may (a day: {most}); "
                "try again tomorrow, or log in to one of them",
                "rate_limited",
                retry_after=3600,
            )

    async def _limit(self, request: Request, key: str) -> None:
        """Refuse a client address past its tries (in all, and on this name); slow every try on
        a name past its tries, from wherever it comes (see the module docstring)."""
        address = request.client.host if request.client else "?"
        waits = [self.by_address.take(address), self.by_address_and_name.take(f"{address}\n{key}")]
        wait = max((w for w in waits if w is not None), default=None)
        if wait is not None:
            raise TableError(f"too many tries; try again in {wait:.0f} s", "rate_limited", retry_after=wait)
        if self.by_name.take(key) is not None:
            await asyncio.sleep(LOGIN_SLOW)


def hash_of(store: Store, username: str) -> tuple[str, str] | None:
    """The account's username and password hash (a store call), or None: for routes that ask
    for the password again (deleting the account)."""
    return _hash_of(store, name_key(username))


def verify(password_hash: str, password: str) -> bool:
    return _verify(password_hash, password)


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
