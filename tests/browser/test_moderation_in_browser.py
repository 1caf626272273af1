"""Moderation in Chromium (issue #30, deliverable 3): a player reports a message with the chat's
button, a moderator (made by ``sakura admin grant``) sees the report on the admin page and hides
the message, and it disappears from the player's page at once and after a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import page_errors
from tests.browser.test_accessibility import violations
from typer.testing import CliRunner

from sakura.cli.main import app as cli


def test_a_moderator_hides_a_reported_message_from_the_players_page(
    server: str, browser: Any, tmp_path: Path, output: Path
) -> None:
    host = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    errors = page_errors(host)
    host.goto(f"{server}/?speed=0")
    host.fill("#name", "Ada")
    host.select_option("#players", "2")
    host.select_option("#seat-1", "friend")
    host.click("#start")
    host.wait_for_url("**/t/**")
    host.wait_for_selector("#chat-input")
    for words in ("something rude", "something kind"):
        host.fill("#chat-input", words)
        host.press("#chat-input", "Enter")
        host.wait_for_selector(f"#chat .chat-line:has-text('{words}')")
    host.click("#chat .chat-line:has-text('something rude') button.chat-report")
    host.wait_for_selector("#chat-note:has-text('Reported')")

    moderator = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    moderator.goto(f"{server}/admin")
    moderator.wait_for_selector("#error:has-text('moderators')")  # not logged in: no page for them
    moderator.goto(f"{server}/login?next=/admin")
    moderator.fill("#signup-username", "Mod")
    moderator.fill("#signup-password", "a good long password")
    moderator.click("#signup:not([disabled])")
    moderator.wait_for_selector("#error:has-text('moderators')")  # an account, but not an admin yet
    granted = CliRunner().invoke(
        cli, ["admin", "grant", "mod", "--database-url", f"sqlite:///{tmp_path / 'sakura.db'}"]
    )
    assert granted.exit_code == 0, granted.output
    moderator.goto(f"{server}/")
    moderator.click("#admin-link")  # a moderator's header links the moderation page
    moderator.wait_for_url("**/admin")
    report = moderator.locator("#reports li.admin-report:has-text('something rude')")
    report.wait_for()
    report.locator("button[data-hide]").click()
    moderator.wait_for_selector("#done:has-text('hidden')")
    moderator.wait_for_selector("#audit tbody tr:has-text('hid a message'):has-text('Mod')")
    assert moderator.locator("#reports li.admin-report").count() == 0
    moderator.screenshot(path=str(output / "admin-en-1366.png"), full_page=True)
    assert violations(moderator) == []  # axe-core: no serious or critical violation
    moderator.goto(f"{server}/u/Mod?lang=fa")  # one's own page offers the account's deletion
    moderator.wait_for_selector("#delete-form button#delete-account")
    assert violations(moderator) == []

    host.wait_for_selector("#chat .chat-line:has-text('something rude')", state="detached")  # live
    assert host.locator("#chat .chat-line:has-text('something kind')").count() == 1
    host.reload()
    host.wait_for_selector("#chat .chat-line:has-text('something kind')")
    assert host.locator("#chat .chat-line:has-text('something rude')").count() == 0  # and on reload
    assert not errors, errors
