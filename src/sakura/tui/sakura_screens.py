"""Sakura's screens: the game (garden, painters, hand of five, choices) and its replay.

The turn on screen, hot-seat's hand-over, the help and the end are
:class:`~sakura.tui.game_screen.GameScreen`'s, and the play session it is given decides who
acts; this module adds the garden and the keys: a card by ←/→ and Enter or 1-5 (tactical:
one's own card, then the court painter's), a pending choice by 1/F or 2/B with its
consequence previewed by the engine on a clone (where the game is played here).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum
from typing import Any

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.widgets import Footer, Static

from sakura.engine import Event
from sakura.engine.games.sakura import SakuraGame, SakuraView, score_sheet
from sakura.records import game_events
from sakura.tui.dialogs import make_log, styled_lines
from sakura.tui.game_screen import GameScreen
from sakura.tui.i18n import lt, tr
from sakura.tui.log import sentence
from sakura.tui.pace import STEPS
from sakura.tui.play import EventData, Play, Settings
from sakura.tui.render import emperor_from_events, ghost_from_events
from sakura.tui.replay_screen import ReplayScreen
from sakura.tui.score_sheet import sheet_table, view_table
from sakura.tui.widgets import GardenWidget, HandWidget, StatusWidget


def one_line(text: str) -> str:
    r"""A log entry of several lines as one sentence for the prompt: lines that are not
    sentences (a sakura's awards) are joined by commas and end with a full stop.

    >>> one_line("Sakura 1 on space 13 is scored!\n  1. Bot 2: 3 tokens\n  2. Bot 3: 2 tokens")
    'Sakura 1 on space 13 is scored! 1. Bot 2: 3 tokens, 2. Bot 3: 2 tokens.'
    """
    parts = [line.strip() for line in text.split("\n") if line.strip()]
    out = parts[0] if parts else ""
    for part in parts[1:]:
        out += (" " if out[-1] in ".!?…:" else tr(", ")) + part
    return out if not out or out[-1] in ".!?…" else out + "."


def choice_letters() -> tuple[str, str]:
    """The letter keys for forward and back in the app's language (F and B in English; the
    Spanish A and R): shown in the prompt and the help, and taken besides F and B."""
    forward, _, back = tr("F/B").lower().partition("/")
    return (forward or "f")[:1], (back or "b")[:1]


def rules_text() -> RenderableType:
    return styled_lines(
        [
            (lt("Sakura — the rules in short"), "bold magenta"),
            (lt("Be close to the Emperor whenever he stops at a sakura, but never walk into him."), ""),
            (
                lt(
                    "Each round everyone picks one card in secret; the cards are revealed together and "
                    "take effect from the lowest order number up: garden action first, painter action second."
                ),
                "",
            ),
            (
                lt("A painter that reaches the Emperor falls from grace: one token lost, three spaces back."),
                "",
            ),
            (lt("Moving painters count only free spaces. Only the gate may hold several painters."), ""),
            (lt("At a sakura the closest painters earn tokens (3, 2, 1); the rest line up behind."), ""),
            (
                lt(
                    "With five or six players the fourth closest earns a token too; at the last sakura "
                    "the closest earns 4 instead of 3, and nobody lines up."
                ),
                "",
            ),
            (lt("After the last sakura the most tokens wins."), ""),
            (
                lt(
                    "The Emperor starts on the torii (⛩). A bridge (=) is one space with two to four "
                    "players and three spaces with five or six."
                ),
                "",
            ),
            ("", ""),
            (lt("Two players"), "bold green"),
            (
                lt(
                    "The court painter (K) plays too: each round the deck's top card is its card; it always "
                    "moves forward and takes tokens like a player, but it never wins."
                ),
                "",
            ),
            (
                lt(
                    "Tactical variant: the player further from the Emperor plays two cards, one for their "
                    "painter and one for the court painter (if both stand on the gate, the deck's card "
                    "is the court painter's); they draw two at the end of the round."
                ),
                "",
            ),
            ("", ""),
            (lt("Garden actions"), "bold cyan"),
            (lt("E+1, E+2: the Emperor moves forward · E-1: he moves back · E±1: you choose"), ""),
            (
                lt("C-2: the painter closest to the Emperor goes back 2 · F+2: the furthest goes forward 2"),
                "",
            ),
            ("", ""),
            (lt("Painter actions"), "bold yellow"),
            (lt("P+n: your painter moves forward n · P±n: you choose forward or back"), ""),
            (lt("JUMP: to the first free space beyond the next painter ahead"), ""),
            (lt("COUNT: forward one space per painter between you and the Emperor"), ""),
            ("", ""),
            (lt("Keys"), "bold"),
            (
                lt(
                    "←/→ and Enter, or 1-5: play a card · 1/{f} forward, 2/{b} back · S save · ? help · Ctrl+Q quit",  # noqa: E501 (a catalog message, whole)
                    f=choice_letters()[0].upper(),
                    b=choice_letters()[1].upper(),
                ),
                "",
            ),
            (
                lt(
                    "H: a hint (each card's estimated chance of winning) · PageUp/PageDown: "
                    "page through the log"
                ),
                "",
            ),
            (lt("P: the pace of a round (normal, slow, step by step, fast) · Space: its next step"), ""),
            (
                lt(
                    "Garden: ⌂ gate · = bridge · ⛩/T torii · ✿ sakura (✓ scored) · ♔ Emperor · A-F painters, K court"  # noqa: E501 (a catalog message, whole)
                ),
                "",
            ),
            (
                lt(
                    "Beside each painter: sp space, ♦ tokens, #n the card played this round (or last round), "
                    "✓ chosen"
                ),
                "",
            ),
        ]
    )


class Pick(StrEnum):
    """A Sakura turn's steps: a card, the court painter's card (tactical), forward or back."""

    SELECT = "select"
    COURT = "court"
    CHOICE = "choice"


class SakuraScreen(GameScreen[SakuraView, Pick]):
    """Sakura's game screen; in a turn ``mode`` is a :class:`Pick`."""

    def __init__(self, play: Play[SakuraView], settings: Settings) -> None:
        super().__init__(play, settings)
        self.cursor = 0
        self.picked: int | None = None
        self.choice_forward = True

    def compose(self) -> ComposeResult:
        yield GardenWidget(id="garden")
        yield StatusWidget(id="status")
        yield Static("", id="prompt")
        yield HandWidget(id="hand")
        yield make_log(wrap=True, markup=False, auto_scroll=True)
        yield Footer()

    # ------------------------------------------------------------------ showing

    def board_view(self) -> SakuraView:
        seat = self.actor if self.actor is not None else self.log_viewer
        return self.play.view(seat)

    def refresh_board(
        self, view: SakuraView | None = None, ghost: dict[int, int] | None = None, emperor: int | None = None
    ) -> None:
        """Draw the board (``view``, else the current one); a pending choice's consequence:
        ``ghost`` painters' and the ``emperor``'s landing spaces."""
        view = view or self.board_view()
        self.query_one(GardenWidget).show(view, ghost, emperor_ghost=emperor)
        self.query_one(StatusWidget).show(view, self.names, self.away())
        hand = self.query_one(HandWidget)
        own = self.play.view(self.actor) if self.actor is not None else None
        if own is not None and own.hand is not None:
            hand.show(own.hand, self.cursor, self.picked, active=self.mode in (Pick.SELECT, Pick.COURT))
        elif self.play.hot_seat or self.log_viewer is None:
            hand.show(None, caption=self.hidden_caption())
        else:
            hand.show(self.play.view(self.log_viewer).hand, active=False)

    def who(self, seat: int) -> str:
        if seat == self.play.view(None).court:
            return tr("court painter")
        return self.names[seat]

    def sentence(self, event: dict[str, Any], you: int | None) -> str | None:
        return sentence(event, self.who, you=you)

    def start(self) -> None:
        """The round under way (the engine starts the first one before the screen opens)."""
        view = self.play.view(None)
        self.write(self.sentence({"type": "round_started", "round": view.round, "double": view.double}, None))

    def rules(self) -> RenderableType:
        return rules_text()

    def standings(self) -> tuple[RenderableType, str]:
        """The engine's score sheet of a game played here; a web table's game (whose record
        the server keeps) shows the final standings of its view."""
        view = self.play.view(None)
        assert view.outcome is not None
        record = self.play.record()
        if record is None:
            return view_table(view, self.who, self.log_viewer)
        sheet = score_sheet(game_events(record), view.players)
        return sheet_table(sheet, view, self.who, self.log_viewer)

    # ------------------------------------------------------------------ flow

    async def tell(
        self, events: Sequence[EventData], snapshots: list[SakuraView] | None, *, others: bool
    ) -> None:
        """The log line by line; the garden follows card by card: the step hook's views of a
        game played here, the pieces moved to the places the events name at a web table."""
        if snapshots is None:
            await self.tell_moves(events)
            return
        resolving = 0
        for event in events:
            self.write(self.sentence(dict(event), self.log_viewer))
            if event["type"] == "card_resolving":
                resolving += 1
                if resolving >= 2 and snapshots:
                    self.refresh_board(snapshots[min(resolving - 2, len(snapshots) - 1)])
            if event["type"] in STEPS:
                await self.beat()
        self.refresh_board()

    async def tell_moves(self, events: Sequence[EventData]) -> None:
        """A web table's update: each event in the log; unless fast, the pieces move to the
        places the events name (the update's own view is drawn after)."""
        board = self.play.view(None)
        for event in events:
            self.write(self.sentence(dict(event), self.log_viewer))
            kind = event.get("type")
            if kind == "emperor_moved":
                board = replace(board, emperor=int(event["end"]))
            elif kind in ("painter_moved", "bumped") and isinstance(event.get("seat"), int):
                painters = list(board.painters)
                painters[event["seat"]] = int(event["end"])
                board = replace(board, painters=tuple(painters))
            if kind in STEPS and self.settings.pace.name != "fast":
                self.refresh_board(board)
                await self.beat()

    def stale_turn(self, view: SakuraView) -> bool:
        return (self.mode == Pick.CHOICE) != (view.pending is not None)

    def begin_turn(self, seat: int) -> None:
        self.actor, self.shown = seat, seat
        view = self.play.view(seat)
        self.cursor, self.picked = 0, None
        if view.pending is not None:
            self.mode, self.choice_forward = Pick.CHOICE, True
            self.show_choice()
            return
        self.mode = Pick.SELECT
        self.refresh_board()
        if view.double == seat:
            self.prompt(
                lt(
                    "{name}: choose the card for your own painter (then one for the court painter).",
                    name=self.who(seat),
                )
            )
        else:
            self.prompt(lt("{name}: choose a card (←/→ and Enter, or 1-5).", name=self.who(seat)))

    def show_choice(self) -> None:
        assert self.actor is not None
        view = self.play.view(self.actor)
        assert view.pending is not None
        _, card, part = view.pending
        word = "forward" if self.choice_forward else "back"
        preview = self.play.preview(self.actor, word)
        if preview is None:  # the engine is at the server: the choice as its view states it
            self.refresh_board(view)
            self.prompt(self.choice_head(card, part))
            return
        ghost = ghost_from_events(preview)
        self.refresh_board(view, ghost, emperor_from_events(preview))
        consequence = " ".join(self.consequence(preview))
        self.prompt(self.choice_head(card, part) + "\n" + (consequence or lt("Nothing moves.")))

    def consequence(self, preview: list[Event]) -> list[str]:
        """The previewed events as whole sentences, each with its full stop, in logical order:
        joined, then shaped once as one line (a right-to-left reader meets the first first)."""
        assert self.actor is not None
        said = (sentence(e.to_dict(), self.who, you=self.actor) for e in preview)
        return [one_line(s) for s in said if s is not None]

    def choice_head(self, card: int, part: str) -> str:
        """The question of a pending choice, with its keys (1 or the letter, in this language)."""
        forward, back = choice_letters()
        return lt(
            "Card {card}: move {what} [1/{f}] forward or [2/{b}] back? Now: {now}.",
            card=card,
            what=tr("the Emperor") if part == "garden" else tr("your painter"),
            f=forward.upper(),
            b=back.upper(),
            now=tr("forward") if self.choice_forward else tr("back"),
        )

    # ------------------------------------------------------------------ keys

    async def game_key(self, key: str, char: str | None) -> None:
        assert self.actor is not None
        view = self.play.view(self.actor)
        if self.mode == Pick.CHOICE:
            await self.choice_key(key)
            return
        hand = view.hand or ()
        if key == "left":
            self.cursor = (self.cursor - 1) % max(1, len(hand))
        elif key == "right":
            self.cursor = (self.cursor + 1) % max(1, len(hand))
        elif key == "escape" and self.mode == Pick.COURT:
            self.mode, self.picked = Pick.SELECT, None
            self.begin_turn(self.actor)
            return
        elif key == "enter" or (char is not None and char.isdigit() and 1 <= int(char) <= len(hand)):
            if key != "enter" and char is not None:
                self.cursor = int(char) - 1
            if not hand:
                return
            card = hand[self.cursor]
            if view.double == self.actor:
                if self.mode == Pick.SELECT:
                    self.mode, self.picked = Pick.COURT, card
                    # the cursor leaves the card just chosen: Enter then plays another one
                    self.cursor = next((i for i, c in enumerate(hand) if c != card), self.cursor)
                    self.prompt(lt("Now the card for the court painter (Esc: choose again)."))
                    self.refresh_board()
                    return
                if card == self.picked:  # said, and the cursor goes to another card
                    self.cursor = next((i for i, c in enumerate(hand) if c != card), self.cursor)
                    self.refresh_board()
                    self.prompt(
                        lt(
                            "Card {card} is for your own painter: choose another card for the court painter "
                            "(Esc: choose again).",
                            card=card,
                        )
                    )
                    return
                await self.submit(f"play {self.picked} court {card}")
                return
            await self.submit(f"play {card}")
            return
        else:
            return
        self.refresh_board()

    async def choice_key(self, key: str) -> None:
        forward, back = choice_letters()
        answer = {"1": True, "f": True, forward: True, "2": False, "b": False, back: False}.get(key)
        if answer is not None:  # a key that answers: 1/2, F/B, or this language's letters
            self.choice_forward = answer
            await self.submit("forward" if answer else "back")
            return
        if key == "up":
            self.choice_forward = True
        elif key == "down":
            self.choice_forward = False
        elif key in ("left", "right", "tab"):
            self.choice_forward = not self.choice_forward
        elif key == "enter":
            await self.submit("forward" if self.choice_forward else "back")
            return
        else:
            return
        self.show_choice()


class SakuraReplayScreen(ReplayScreen):
    """A Sakura record: the garden and the painters after each move."""

    def compose_board(self) -> ComposeResult:
        yield GardenWidget(id="garden")
        yield StatusWidget(id="status")

    def who(self, seat: int) -> str:
        if isinstance(self.game, SakuraGame) and seat == self.game.court:
            return tr("court painter")
        return super().who(seat)

    def show_board(self, view: Any) -> None:
        assert isinstance(view, SakuraView)
        self.query_one(GardenWidget).show(view)
        self.query_one(StatusWidget).show(view, self.names)

    def sentence(self, event: dict[str, Any]) -> str | None:
        return sentence(event, self.who)

    def rules(self) -> RenderableType:
        return rules_text()
