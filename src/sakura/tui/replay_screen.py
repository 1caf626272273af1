"""``sakura replay FILE --tui``: step through a record, as a spectator saw the game.

The engine replays the record's moves from its initial state; the board is the spectator's
view after the chosen move and the log is every move's events as a spectator may see them
(``seen_by(None)``), so a saved hot-seat game shows no hand. Each game's subclass draws its
own board and sentences.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

from sakura.records import GameRecord
from sakura.tui.dialogs import HelpScreen, LogScreen, make_log, names_of_seats
from sakura.tui.i18n import N_, t, tr, translate_bindings


class ReplayScreen(LogScreen):
    """Step through a record: ←/→ one move, Home/End, the log of every move so far."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space", "step(1)", N_("Next")),
        Binding("left", "step(-1)", N_("Back")),
        Binding("home", "jump(0)", N_("Start")),
        Binding("end", "jump(-1)", N_("End")),
        Binding("question_mark", "help", N_("Help")),
        Binding("q,ctrl+q", "app.quit", N_("Quit")),
    ]

    def __init__(self, record: GameRecord) -> None:
        super().__init__()
        translate_bindings(self)
        self.record = record
        self.game = record.make_game()
        self.index = 0
        kinds = (record.extra.get("tui") or {}).get("seats")
        # A game of this app names its seats as it did while it was played ("Player 1",
        # "Bot 2", in the app's language); another record (the web server's) by its players.
        self.names = (
            names_of_seats([k == "human" for k in kinds])
            if kinds
            else [p or tr("Player {n}").format(n=i + 1) for i, p in enumerate(record.players)]
        )

    # ------------------------------------------------------------------ what a game adds

    def compose_board(self) -> ComposeResult:
        """The board's widgets (between the prompt and the log)."""
        raise NotImplementedError

    def show_board(self, view: Any) -> None:
        """Draw the spectator's view after the chosen move."""
        raise NotImplementedError

    def sentence(self, event: dict[str, Any]) -> str | None:
        raise NotImplementedError

    def rules(self) -> RenderableType:
        raise NotImplementedError

    # ------------------------------------------------------------------ shared

    def compose(self) -> ComposeResult:
        yield Static("", id="prompt")
        yield from self.compose_board()
        yield make_log(wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def who(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else str(seat + 1)

    def show(self) -> None:
        state = self.game.state_from_json(self.record.initial)
        log = self.log_widget
        log.clear()
        log.follow = True
        for move in self.record.moves[: self.index]:
            for event in state.apply_action(move.player, self.game.parse_action(move.action)):
                log.say(self.sentence(event.seen_by(None).to_dict()))
        self.show_board(state.view(None))
        self.query_one("#prompt", Static).update(
            Text(
                t("Replay: move {i} of {n} (←/→, Home/End, Q quits)", i=self.index, n=len(self.record.moves)),
                style="bold",
            )
        )

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.record.moves), self.index + delta))
        self.show()

    def action_jump(self, where: int) -> None:
        self.index = len(self.record.moves) if where < 0 else 0
        self.show()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.rules()))
