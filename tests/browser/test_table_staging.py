"""The table you can watch (issue 13), in real Chromium: one screen, the round staged on the
board, choice previews from the engine, history on reload, and the bugs the issue lists."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.browser.conftest import await_turn, box, frame_done, page_errors
from websockets.sync.client import connect

Box = dict[str, float]


def start(
    page: Any, server: str, players: int = 4, query: str = "speed=0", variant: str | None = None
) -> None:
    page.goto(f"{server}/?{query}")
    page.select_option("#players", str(players))
    if variant:
        page.select_option("#variant", variant)
    for seat in range(1, players):
        page.select_option(f"#seat-{seat}", "beginner")
    page.click("#start")
    page.wait_for_url("**/t/**")
    if query not in page.url:
        page.goto(page.url.split("#")[0].split("?")[0] + f"?{query}")
    page.wait_for_selector("#hand button.card:not([disabled])")


def inside(rect: Box | None, width: int, height: int) -> bool:
    return (
        rect is not None
        and rect["x"] >= 0
        and rect["y"] >= 0
        and rect["x"] + rect["width"] <= width + 0.5
        and rect["y"] + rect["height"] <= height + 0.5
    )


def settled(page: Any) -> None:
    # a function, not a string: the page's content security policy forbids eval
    page.wait_for_function("() => window.sakuraTable && !window.sakuraTable.animating()")


def answered(page: Any, *, my_turn: bool = False) -> None:
    """This page's last action has been answered and staged (and, with ``my_turn``, the bots
    have played until this player must act again). Right after a click the page still shows
    the view from before it, which ``settled`` alone accepts."""
    turn = " && window.sakuraTable.view().legal_actions.length > 0" if my_turn else ""
    page.wait_for_function(
        f"() => window.sakuraTable.lastEvents().length > 0{turn} && !window.sakuraTable.animating()"
    )


def step(page: Any) -> str:
    """One decision by clicking (a direction, else the first playable card); what was done."""
    choice = page.locator("#choice:not([hidden]) button[data-choice]:not([disabled])")
    card = page.locator("#hand button.card:not([disabled])")
    if choice.count():
        choice.first.click()
        return "choice"
    if card.count():
        card.first.click()
        return "card"
    await_turn(page)
    return ""


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1920, 1080)])
def test_one_screen_holds_everything_after_every_step(
    server: str, browser: Any, output: Path, width: int, height: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = page_errors(page)
    start(page, server)
    steps = 0
    while not page.locator("#result:not([hidden])").count():
        done = step(page)
        if not done:
            continue
        steps += 1
        answered(page)
        for selector in ("#hand", "#prompt", "#board svg.garden", "#seats", "#log"):
            assert inside(box(page, selector), width, height), (selector, steps)
        choice = page.locator("#choice:not([hidden])")
        if choice.count():
            assert inside(choice.bounding_box(), width, height)
        # never a scroll to act
        assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
        if steps == 4:
            page.screenshot(path=str(output / f"one-screen-{width}x{height}.png"))
    assert inside(page.locator("#result").bounding_box(), width, height)
    page.screenshot(path=str(output / f"one-screen-{width}x{height}-end.png"))
    assert not errors, errors


SAMPLE = """async (ms) => {
  const seen = {};
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    for (const p of document.querySelectorAll('svg.garden [data-painter], svg.garden .emperor')) {
      const r = p.getBoundingClientRect();
      const key = p.dataset.painter ?? 'emperor';
      (seen[key] ??= new Set()).add(`${Math.round(r.x)},${Math.round(r.y)}`);
    }
    await new Promise((r) => requestAnimationFrame(r));
  }
  return Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, v.size]));
}"""

CENTRES = """() => {
  const centre = (n) => {
    const r = n.getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2];
  };
  const space = (i) => centre(document.querySelector(
    `svg.garden [data-space="${i}"] ellipse, svg.garden [data-space="${i}"] rect`));
  const view = window.sakuraTable.view();
  return { view: { painters: view.painters, tokens: view.tokens, emperor: view.emperor },
    painters: [...document.querySelectorAll('svg.garden [data-painter]')]
      .map((p) => [Number(p.dataset.painter), centre(p)]),
    spaces: view.painters.map(space), emperorSpace: space(view.emperor),
    emperor: centre(document.querySelector('svg.garden .emperor')),
    tokens: [...document.querySelectorAll('#seats .seat-tokens')]
      .map((n) => Number(n.textContent.match(/\\d+/)[0])) };
}"""


def test_the_round_is_staged_on_the_board(server: str, browser: Any, output: Path) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    start(page, server, players=4, query="speed=300")
    moved = dimmed = 0
    for _ in range(4):  # four rounds: cards revealed, pieces sliding, the facts in step
        while not page.locator("#hand button.card:not([disabled])").count():
            if page.locator("#choice:not([hidden]) button:not([disabled])").count():
                page.locator("#choice button").first.click()
            await_turn(page)
        page.locator("#hand button.card:not([disabled])").first.click()
        page.wait_for_selector("#seats .seat-tile", timeout=15000)
        assert page.locator("#seats .seat-tile").count() == 4  # a card tile beside every player
        assert page.locator("svg.garden .tile-flag").count() == 4  # and by every painter
        counts = page.evaluate(SAMPLE, 1500)
        moved += max(counts.values()) > 2  # intermediate positions, frame by frame
        if page.locator("#seats .tile-current").count():
            page.screenshot(path=str(output / "staged-mid-resolution.png"))
        settled(page)
        facts = page.evaluate(CENTRES)
        for seat, (x, y) in facts["painters"]:
            sx, sy = facts["spaces"][seat]
            near = 50 if facts["view"]["painters"][seat] == 0 else 30  # the gate holds several
            assert abs(x - sx) < near and abs(y - sy) < near, (seat, facts)  # on the view's space
        ex, ey = facts["emperor"]
        assert abs(ex - facts["emperorSpace"][0]) < 30 and abs(ey - facts["emperorSpace"][1]) < 40
        assert facts["tokens"] == facts["view"]["tokens"]
        dimmed += page.locator("#seats .tile-done, #seats .tile-discarded").count()  # resolved ones dim
    assert moved >= 2 and dimmed >= 1
    assert not errors, errors


def test_a_choice_is_previewed_on_its_landing_spaces(server: str, browser: Any, output: Path) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    start(page, server, players=5)
    checked = bumps = 0
    deadline = time.time() + 240
    while not page.locator("#result:not([hidden])").count() and time.time() < deadline:
        settled(page)
        if page.locator("#choice:not([hidden]) button:not([disabled])").count():
            view = page.evaluate("window.sakuraTable.view()")
            previews = {p["choice"]: p for p in view["preview"]}
            for choice, preview in previews.items():
                marker = page.locator(f"svg.garden .choice-arrow[data-choice='{choice}']")
                assert marker.get_attribute("data-end") == str(preview["end"])
                # bug 2: the marker sits on the landing space, on top of whatever stands there
                ring = marker.locator(".ghost-ring").bounding_box()
                top = page.evaluate(
                    "([x, y]) => !!document.elementFromPoint(x, y).closest('.choice-arrow')",
                    [ring["x"] + ring["width"] / 2, ring["y"] + ring["height"] / 2],
                )
                assert top, choice
                button = page.locator(f"#choice button[data-choice='{choice}']").inner_text()
                assert re.search(r"\d+", button) and str(preview["end"]) in button
                if preview["bumps"]:
                    assert marker.locator(".bump-warning").count() == len(preview["bumps"])
                    assert "bump" in button
                    bumps += 1
            if checked == 0:
                page.screenshot(path=str(output / "choice-preview.png"))
            answer = "forward" if previews["forward"]["bumps"] or checked % 2 == 0 else "back"
            chosen = previews[answer]
            # answered on the board, on the ghost at the landing space
            page.locator(f"svg.garden .choice-arrow[data-choice='{answer}'] .ghost-ring").click()
            page.wait_for_function(
                "() => window.sakuraTable.lastEvents().some((e) => e.type === 'choice_made')"
            )
            settled(page)
            # the engine's own result: the first move of the answer in the log's events
            after = page.evaluate("window.sakuraTable.lastEvents()")
            first = next(e for e in after if e["type"] in ("emperor_moved", "painter_moved", "bumped"))
            assert first["end"] == chosen["end"] or (first["type"] == "emperor_moved" and chosen["bumps"]), (
                first,
                chosen,
            )
            if chosen["bumps"]:
                bump = next(e for e in after if e["type"] == "bumped")
                expected = chosen["bumps"][0]
                assert [bump["seat"], bump["at"], bump["end"]] == [expected[k] for k in ("seat", "at", "end")]
            checked += 1
        else:
            step(page)
    assert checked >= 1
    print(f"checked {checked} choices, {bumps} with a bump")
    assert not errors, errors


def test_the_log_survives_a_reload_and_a_spectator_sees_the_same_past(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    start(page, server, players=3)
    plays = 0
    while plays < 4:
        plays += step(page) == "card"
    # the bots play until it is this player's turn again: then the table waits (CI read the log
    # from the view before the click, which still listed the cards)
    answered(page, my_turn=True)
    before = page.locator("#log li").all_inner_texts()
    rounds = page.locator("#log .log-round h3").all_inner_texts()
    assert rounds[0].startswith("Round") and len(rounds) >= 3  # grouped, the current round on top
    page.reload()
    page.wait_for_selector("#log li")
    settled(page)
    assert page.locator("#log li").all_inner_texts() == before
    watcher = browser.new_context().new_page()
    watcher.goto(page.url.split("#")[0])
    watcher.wait_for_selector("#log li")
    card_lines = [line for line in before if re.match(r".+'s card \d+", line)]
    assert card_lines
    watched = watcher.locator("#log li").all_inner_texts()
    assert [line for line in watched if re.match(r".+'s card \d+", line)] == card_lines
    assert not errors, errors


def test_the_seats_show_the_last_rounds_cards_after_a_reload(server: str, browser: Any) -> None:
    """While a new round's cards are being chosen, each seat shows the card it played in the
    round just over (its tile, "done" or "discarded"); a reload shows the same tiles, rebuilt
    from the welcome's history, not an empty seat list."""
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    start(page, server, players=3)
    tiles = (
        "() => [...document.querySelectorAll('#seats .seat')]"
        ".map((s) => s.querySelector('.seat-tile > .sr-only')?.textContent ?? '')"
    )
    while True:
        if step(page) != "card":
            continue
        # this card's round (and any choice it asks of us) is over once the next round's cards
        # are ours to choose again
        answered(page, my_turn=True)
        view = page.evaluate("window.sakuraTable.view()")
        if view["legal_actions"][0].startswith("play") and view["last_round"]:
            break
    before = page.evaluate(tiles)
    played = {seat: card for seat, card in view["last_round"]}
    assert [line.startswith(f"Card {played[seat]}:") for seat, line in enumerate(before)] == [True] * 3, (
        before
    )
    page.reload()
    page.wait_for_selector("#log li")
    settled(page)
    assert page.evaluate(tiles) == before
    assert not errors, errors


def test_bug3_number_keys_do_nothing_while_the_language_menu_has_focus(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    start(page, server, players=3)
    # the bots have chosen and the page is still: a key would act at once
    page.wait_for_function(
        "() => window.sakuraTable.view().chosen.filter(Boolean).length === 2"
        " && !window.sakuraTable.animating()"
    )
    page.focus("#lang")
    for key in "123":
        page.keyboard.press(key)
    frame_done(page)  # the keys' handlers have run (a card played disables the hand at once)
    assert page.locator("#hand button.card[aria-pressed='true']").count() == 0
    assert page.locator("#hand button.card:not([disabled])").count() == 5  # nothing was played
    page.focus("#hand button.card >> nth=0")
    page.locator("#hand button.card >> nth=0").blur()
    page.keyboard.press("1")
    page.wait_for_selector("#prompt:has-text('You have chosen'), #log li:has-text('You chose')")


def test_bug1_the_tactical_variant_never_dead_ends(server: str, browser: Any) -> None:
    """Two rounds in a row of playing two cards (one for the court painter) left every card
    greyed out: the remembered first pick was not cleared when it left the hand."""
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    start(page, server, players=2, variant="tactical")
    doubles = 0
    stuck_since = time.time()
    while not page.locator("#result:not([hidden])").count():
        prompt = page.locator("#prompt").inner_text()
        if step(page):
            stuck_since = time.time()
            doubles += "court painter" in prompt
        settled(page)
        asking = "court painter" in page.locator("#prompt").inner_text()
        if asking and not page.locator("#choice:not([hidden])").count():
            assert page.locator("#hand button.card:not([disabled])").count() > 0, "all cards greyed out"
        assert time.time() - stuck_since < 20, page.locator("#prompt").inner_text()
    assert doubles >= 2
    assert not errors, errors


def test_bug5_names_log_capitals_and_favicon(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    start(page, server, players=2, variant="court")
    plays = 0
    while plays < 3:
        plays += step(page) == "card"
    settled(page)
    status = page.locator("#status").inner_text()
    assert re.fullmatch(r"You are \w+\.", status), status
    lines = page.locator("#log li").all_inner_texts()
    assert lines and all(line[0].isupper() or not line[0].isalpha() for line in lines), lines
    assert not any("(you)" in line for line in lines)
    assert any(line.startswith("The court painter's card") for line in lines), lines
    assert page.request.get(f"{server}/favicon.ico").status == 200


def test_bug4_an_untaken_invited_seat_is_waiting_for_a_player(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{server}/?speed=0")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "friend")
    page.select_option("#timer", index=1)
    page.click("#start")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#hand button.card:not([disabled])")
    assert "waiting for a player to join" in page.locator(".seat[data-seat='1']").inner_text()
    assert page.locator("#timer").is_hidden()  # no clock while the seat is empty


def finish_a_game(server: str, game: str = "sakura") -> str:
    """A two-seat game (of ``game``) against an easy bot, played to its end by a client over the
    socket; its id."""
    created = httpx.post(
        f"{server}/api/tables",
        json={"game": game, "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]},
        timeout=30,
    ).json()
    url = server.replace("http://", "ws://") + "/ws/" + created["table"]["id"]
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"]}))
        acted = None
        while True:
            message = json.loads(ws.recv(timeout=30))
            view = message.get("view")
            if message["type"] == "error":
                acted = None
            if view is None:
                continue
            if view["terminal"]:
                return str(created["table"]["id"])
            if view["legal_actions"] and acted != message.get("seq"):
                ws.send(json.dumps({"type": "act", "action": view["legal_actions"][0]}))
                acted = message.get("seq")


def test_bug6_the_lobby_lists_your_table_to_resume_and_finished_games_with_a_winner(
    server: str, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    finish_a_game(server)  # a table needs a player: one played to its end over a socket
    start(page, server, players=3)
    table_id = page.url.split("/t/")[1].split("?")[0]
    page.goto(f"{server}/")
    mine = page.locator(f"#yours li[data-table='{table_id}']")
    mine.wait_for()
    assert mine.locator("a").inner_text() == "Resume"  # not "Watch"
    listed = f"#playing li[data-table='{table_id}'], #open li[data-table='{table_id}']"
    assert page.locator(listed).count() == 0
    game = page.locator("#finished li[data-table]").first
    game.wait_for(timeout=30000)
    assert re.search(r"won by \w+", game.inner_text()), game.inner_text()
    assert game.locator("time").count() == 1
    assert not errors, errors


def test_the_replay_has_a_move_list_and_a_slider_and_an_unfinished_game_says_so(
    server: str, browser: Any, output: Path
) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    table_id = finish_a_game(server)
    page.goto(f"{server}/replay/{table_id}")
    page.wait_for_selector("#moves li")
    moves = page.locator("#moves li").count()
    assert int(page.get_attribute("#slider", "max")) == moves
    page.locator("#moves li >> nth=9 >> button").click()
    assert page.locator("#position").inner_text() == f"Move 10 of {moves}"
    page.locator("#slider").fill(str(moves))
    assert page.locator("#position").inner_text() == f"Move {moves} of {moves}"
    assert page.locator("#log li").filter(has_text="wins").count() >= 1
    # issue 28, deliverable 3: the finished game's moves name their cards, the end shows the
    # engine's score sheet, steps go by round, and a link opens at a round
    assert re.fullmatch(r".+ plays \d+", page.locator("#moves li >> nth=0").inner_text())
    page.wait_for_selector("#sheet-box:not([hidden]) .score-sheet tbody tr")
    page.screenshot(path=str(output / "replay.png"))
    page.click("#first")
    page.click("#next-round")
    step = int(page.locator("#slider").input_value())
    assert step > 0 and page.locator("#sheet-box").is_hidden()
    page.keyboard.press("PageDown")
    later = int(page.locator("#slider").input_value())
    assert later > step
    page.keyboard.press("PageUp")
    assert int(page.locator("#slider").input_value()) == step
    page.goto(f"{server}/replay/{table_id}?round=3")
    page.wait_for_selector("#moves li")
    page.wait_for_function("document.querySelector('#facts')?.textContent.includes('Round 3')")
    start(page, server, players=2, variant="court")  # a game in play: no replay yet
    live = page.url.split("/t/")[1].split("?")[0]
    page.goto(f"{server}/replay/{live}")
    page.wait_for_selector("#error:not([hidden])")
    assert "not finished" in page.locator("#error").inner_text()
    assert page.locator("#watch").get_attribute("href") == f"/t/{live}"
    assert page.locator("#next").is_hidden() and page.locator("#slider").is_hidden()
    assert not errors, errors


def test_the_speed_and_the_sound_are_remembered_by_the_browser(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    start(page, server, players=3, query="lang=en")
    assert page.locator("#speed").input_value() == "normal"
    assert page.locator("#sound").get_attribute("aria-pressed") == "false"  # off by default
    page.select_option("#speed", "fast")
    page.click("#sound")
    page.reload()
    page.wait_for_selector("#hand button.card")
    assert page.locator("#speed").input_value() == "fast"
    assert page.locator("#sound").get_attribute("aria-pressed") == "true"
    page.locator("#hand button.card:not([disabled])").first.click()  # cues play without an error
    page.wait_for_selector("#log li:has-text('You chose')")
    assert not errors, errors
