"""``sakura serve`` and ``sakura db``: the port taken before anything is said or created, where
the games are kept, and one line with exit code 2 for every database or port that cannot be
used (issue 27: tracebacks of 34 and 125 lines, the address printed before the bind failed).

uvicorn's ``Server.run`` is replaced: it records the sockets it was handed and returns, so no
test serves for real."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from sakura.cli.main import app

runner = CliRunner()


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Any]:
    """What uvicorn was asked to serve on (the sockets, or None), and what the browser opened;
    the default database in a folder of the test's own."""
    calls: list[Any] = []

    def run(self: uvicorn.Server, sockets: list[socket.socket] | None = None) -> None:
        calls.append([s.getsockname()[1] for s in sockets] if sockets is not None else None)
        for sock in sockets or ():
            sock.close()

    class Timer:  # the browser's delayed opening, recorded instead of started
        def __init__(self, _seconds: float, opener: Any) -> None:
            calls.append("browser")

        def start(self) -> None:
            pass

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr("sakura.cli.serve.threading.Timer", Timer)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return calls


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _one_error_line(output: str) -> str:
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), output
    assert "Traceback" not in output
    return lines[0]


def test_serve_binds_then_says_where_it_serves_and_keeps_the_games(served: list[Any], tmp_path: Path) -> None:
    port = _free_port()
    result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert served == ["browser", [port]]  # uvicorn served on the socket the command had bound
    database = tmp_path / "data" / "sakura" / "sakura.db"
    assert f"Sakura is served at http://127.0.0.1:{port}/" in result.output
    assert f"Games are kept in the SQLite file {database} (another database: --database-url)" in result.output
    assert database.is_file()


def test_a_taken_port_is_one_line_and_nothing_is_opened_or_created(served: list[Any], tmp_path: Path) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2, result.output
    line = _one_error_line(result.output)
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in line
    assert served == []  # no browser, no server
    assert not (tmp_path / "data" / "sakura").exists()


def _pg_is_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=1).close()
    except OSError:
        return False
    return True


BAD_URLS = [
    ("not-a-url", "--database-url 'not-a-url' is not a database URL"),
    ("nosuchdb://host/db", "unknown kind of database 'nosuchdb'"),
    ("postgres://u@127.0.0.1/x", "(PostgreSQL is postgresql+psycopg://...)"),
    (
        "sqlite:///{tmp}/no-such-folder/games.db",
        "the folder {tmp}/no-such-folder of the SQLite file does not exist",
    ),
    ("postgresql+psycopg://postgres@127.0.0.1:{closed}/sakura", "Connection refused"),
    pytest.param(
        "postgresql+psycopg://postgres@127.0.0.1:5432/sakura_no_such_database",
        'database "sakura_no_such_database" does not exist',
        marks=pytest.mark.skipif(not _pg_is_up(), reason="no PostgreSQL on 127.0.0.1:5432"),
    ),
]


@pytest.mark.parametrize(("url", "words"), BAD_URLS)
def test_serve_refuses_a_database_it_cannot_use_in_one_line(
    served: list[Any], tmp_path: Path, url: str, words: str
) -> None:
    url, words = (s.format(tmp=tmp_path, closed=_free_port()) for s in (url, words))
    port = _free_port()
    result = runner.invoke(app, ["serve", "--port", str(port), "--database-url", url])
    assert result.exit_code == 2, result.output
    assert words in _one_error_line(result.output)
    assert served == []
    with socket.socket() as again:  # the port was let go
        again.bind(("127.0.0.1", port))


@pytest.mark.parametrize("command", ["current", "upgrade"])
@pytest.mark.parametrize(("url", "words"), BAD_URLS)
def test_db_commands_refuse_a_database_they_cannot_use_in_one_line(
    tmp_path: Path, command: str, url: str, words: str
) -> None:
    url, words = (s.format(tmp=tmp_path, closed=_free_port()) for s in (url, words))
    result = runner.invoke(app, ["db", command, "--database-url", url])
    assert result.exit_code == 2, result.output
    assert words in _one_error_line(result.output)
    assert not (tmp_path / "no-such-folder").exists()


def test_a_password_is_not_printed(served: list[Any]) -> None:
    url = f"postgresql+psycopg://sakura:hunter2@127.0.0.1:{_free_port()}/sakura"
    result = runner.invoke(app, ["serve", "--port", str(_free_port()), "--database-url", url])
    assert result.exit_code == 2
    assert "hunter2" not in result.output and "sakura:***@127.0.0.1" in result.output
