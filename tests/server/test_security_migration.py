"""Revision 0006 on a database of revision 0005 that already holds look-alike accounts (made
before names were folded): both keep working, the older one keeps the folded name, and no new
account may take a name like either."""

from __future__ import annotations

from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import DateTime, String, column, create_engine, insert, select, table
from tests.server.test_migrations import _differences

from sakura.server import create_app, migrations
from sakura.server.db import now
from sakura.server.names import fold, name_key

PASSWORD = "a good long password"


def test_look_alike_accounts_of_0005_keep_working_and_block_a_third(database_url: str) -> None:
    engine = create_engine(database_url)
    migrations.upgrade(engine, "0005")
    accounts = table(
        "sakura_accounts",
        column("key", String),
        column("username", String),
        column("password_hash", String),
        column("created", DateTime(timezone=True)),
    )
    hashed = PasswordHasher().hash(PASSWORD)
    with engine.begin() as conn:  # "Ada", then a Cyrillic "Аda" made before 0006
        for username in ("Ada", "\u0410da"):
            conn.execute(
                insert(accounts),
                {"key": name_key(username), "username": username, "password_hash": hashed, "created": now()},
            )
    engine.dispose()
    with TestClient(create_app(database_url)) as client:
        for username in ("Ada", "\u0410da"):
            login = TestClient(client.app).post(
                "/api/login", json={"username": username, "password": PASSWORD}
            )
            assert login.status_code == 200 and login.json()["username"] == username
        third = client.post("/api/signup", json={"username": "ADA", "password": PASSWORD})
        assert third.status_code == 409 and third.json()["code"] == "taken"
    engine = create_engine(database_url)
    try:
        assert migrations.current(engine) == migrations.head()
        folds = table("sakura_accounts", column("username", String), column("fold", String))
        with engine.connect() as conn:
            rows = dict(conn.execute(select(folds.c.username, folds.c.fold)).all())
        assert rows == {"Ada": fold("Ada"), "\u0410da": None}
    finally:
        engine.dispose()
    assert _differences(database_url) == []
