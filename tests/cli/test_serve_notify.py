"""``sakura serve``'s notification options: Web Push's VAPID key and the unsubscribe links'
secret made once in the data folder (owner-only) and kept across starts; e-mail off unless both
``--smtp-url`` and ``--mail-from`` are given; a wrong option is one line and exit code 2."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from sakura.cli.main import app

from .test_serve import _free_port, _one_error_line, served

runner = CliRunner()
__all__ = ["served"]  # the fixture, shared with test_serve.py


def test_the_push_key_is_made_once_and_kept(served: list[Any], tmp_path: Path) -> None:
    result = runner.invoke(app, ["serve", "--port", str(_free_port()), "--no-open"])
    assert result.exit_code == 0, result.output
    assert "Notifications: Web Push on, e-mail off (--smtp-url, --mail-from)" in result.output
    folder = tmp_path / "data" / "sakura"
    key, secret = folder / "vapid-private.pem", folder / "notify-secret.key"
    assert key.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    for path in (key, secret):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600  # the owner's only
    first = key.read_bytes(), secret.read_bytes()
    again = runner.invoke(
        app,
        [
            "serve",
            "--port",
            str(_free_port()),
            "--no-open",
            "--smtp-url",
            "smtp://u:p@127.0.0.1:2525",
            "--mail-from",
            "sakura@example.org",
            "--site-url",
            "https://sakura.example.org",
        ],
    )
    assert again.exit_code == 0, again.output
    assert "e-mail on; links to https://sakura.example.org" in again.output
    assert "u:p" not in again.output  # the SMTP password is never printed
    assert (key.read_bytes(), secret.read_bytes()) == first  # kept: browsers' subscriptions stay valid


def test_a_wrong_notification_option_is_one_line(served: list[Any], tmp_path: Path) -> None:
    for options, words in (
        (["--smtp-url", "smtp://127.0.0.1:2525"], "e-mail needs both --smtp-url and --mail-from"),
        (["--smtp-url", "http://x", "--mail-from", "a@b.c"], "an SMTP URL is smtp://"),
        (["--vapid-subject", "ada@example.org"], "--vapid-subject is a mailto: or https: URL"),
    ):
        result = runner.invoke(app, ["serve", "--port", str(_free_port()), "--no-open", *options])
        assert result.exit_code == 2, result.output
        assert words in _one_error_line(result.output)
    assert served == []
