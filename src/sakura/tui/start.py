"""The start screen: the game, the table (Sakura: players and variant), every seat, a seed."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from sakura.tui.dialogs import level_name
from sakura.tui.i18n import N_, shape, t, translate_bindings
from sakura.tui.navigation import OpenGame, OpenTutorial
from sakura.tui.session import (
    BOT_KINDS,
    CARDS,
    DEFAULT_LEVEL,
    GAMES,
    HUMAN,
    LEVELS,
    SAKURA,
    SeatSpec,
    Setup,
    level_of,
)

MAX_SEATS = 6


def game_title(game: str) -> str:
    return t("Sakura: the Emperor's garden") if game == SAKURA else t("Sakura: the card game (two players)")


class StartScreen(Screen[None]):
    """F2 opens the tutorial ("Learn to play"). Choosing the card game fixes two seats and
    hides Sakura's table options. A seat is ``human`` or a strength (a level of the ladder,
    ``beginner`` to ``master``), which becomes that game's bot at the start;
    a bot spec of no strength (from the command line) is offered as itself."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", N_("Start"), show=True),
        Binding("f2", "learn", N_("Learn to play"), show=True),
    ]

    def __init__(self, setup: Setup | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.setup = setup or Setup()

    def compose(self) -> ComposeResult:
        s = self.setup
        with VerticalScroll(id="start", can_focus=False):  # Tab goes to the fields, never here
            yield Static(t("Sakura — a new game"), id="start-title")
            yield Static(
                t("Tab: the next field · Enter: open a list or start · Ctrl+Q: quit"), id="start-keys"
            )
            with Horizontal(classes="row"):
                yield Label(t("Game"))
                yield Select([(game_title(g), g) for g in GAMES], value=s.game, allow_blank=False, id="game")
            with Horizontal(classes="row", id="players-row"):
                yield Label(t("Players"))
                yield Select(
                    [(str(n), n) for n in range(2, MAX_SEATS + 1)],
                    value=s.players,
                    allow_blank=False,
                    id="players",
                )
            with Horizontal(classes="row", id="variant-row"):
                yield Label(t("Two players"))
                yield Select(
                    [(t("court painter"), "court"), (t("tactical"), "tactical")],
                    value=s.variant if s.variant in ("court", "tactical") else "court",
                    allow_blank=False,
                    id="variant",
                )
            levels = [level_of(sp.kind, s.game) or sp.kind for sp in s.seats]
            levels += [DEFAULT_LEVEL] * (MAX_SEATS - len(levels))
            known = [HUMAN, *LEVELS]
            for i in range(MAX_SEATS):
                extra = [levels[i]] if levels[i] not in known else []
                options = [(shape(level_name(k)), k) for k in (*known, *extra)]
                with Horizontal(classes="row seat", id=f"seat-row-{i}"):
                    yield Label(t("Seat {n}", n=i + 1))
                    yield Select(options, value=levels[i], allow_blank=False, id=f"seat-{i}")
            with Horizontal(classes="row"):
                yield Label(t("Seed"))
                yield Input(value="" if s.seed is None else str(s.seed), placeholder=t("random"), id="seed")
            yield Static("", id="start-error")
            yield Button(t("Start the game"), id="go", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self._sync()
        self.query_one("#go", Button).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._mark_focused_row()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._mark_focused_row()

    def _mark_focused_row(self) -> None:
        """The row holding the focus gets ``-focused`` (its label bold, in the accent colour).
        A class, not ``:focus-within`` in the CSS: Textual restyles a label beside the focused
        field only when its row's classes change, so "Game" stayed lit wherever the focus went."""
        focused = self.app.focused
        for row in self.query(".row"):
            row.set_class(focused is not None and row in focused.ancestors, "-focused")

    def on_select_changed(self, event: Select.Changed) -> None:
        self._sync()

    def _sync(self) -> None:
        cards = self._game() == CARDS
        players = self._players()
        for i in range(MAX_SEATS):
            self.query_one(f"#seat-row-{i}").display = i < players
        self.query_one("#players-row").display = not cards
        self.query_one("#variant-row").display = not cards
        self.query_one("#variant", Select).disabled = players != 2

    def _game(self) -> str:
        value = self.query_one("#game", Select).value
        return value if isinstance(value, str) and value in GAMES else SAKURA

    def _players(self) -> int:
        if self._game() == CARDS:
            return 2
        value = self.query_one("#players", Select).value
        return value if isinstance(value, int) else 3

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_start()

    def action_learn(self) -> None:
        """The tutorial: the same script as the web's "Learn to play"."""
        self.post_message(OpenTutorial())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        game, players = self._game(), self._players()
        levels = [str(self.query_one(f"#seat-{i}", Select).value) for i in range(players)]
        seats = tuple(SeatSpec(BOT_KINDS[game].get(level, level)) for level in levels)
        variant = str(self.query_one("#variant", Select).value) if players == 2 and game == SAKURA else None
        text = self.query_one("#seed", Input).value.strip()
        error = self.query_one("#start-error", Static)
        if text and not text.isdigit():
            error.update(t("The seed is a whole number (or empty for a random deal)."))
            return
        try:
            setup = Setup(players, variant, seats, int(text) if text else None, game)
        except ValueError:
            error.update(t("At least one seat must be a human's."))
            return
        self.post_message(OpenGame(setup))
