"""A person's name on a screen is text, never markup: a web table's names are anyone's, and
``[b]`` or ``[/x]`` in one must show as typed, not style the screen or break it (issue 27)."""

from __future__ import annotations

import pytest
from tests.tui.screen import screen_text

from sakura.tui import SakuraApp
from sakura.tui.dialogs import PassScreen

pytestmark = pytest.mark.anyio
NAME = "[b]Ann[/b] [/x]"


async def test_the_hot_seat_screen_shows_a_name_as_typed() -> None:
    app = SakuraApp(delay=0)
    async with app.run_test(size=(100, 24)) as pilot:
        await app.push_screen(PassScreen(NAME))
        await pilot.pause()
        text = screen_text(app)
    assert f"Pass the keyboard to {NAME}." in text
    assert f"Press Enter when {NAME} is ready" in text
