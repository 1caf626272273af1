""" "Learn to play" in the terminal: the tutorial's script (:mod:`sakura.records.tutorial`, the
same one the web page plays) step by step on Sakura's garden.

The lesson panel says the step; the garden reverses what the step talks about (spaces,
painters, the Emperor), the hand marks the card it asks for, and a frame lights the hand, the
players' line or the log. Enter (or N) goes on from a step that only speaks; a step that asks
for a move takes the game's keys (a card by ←/→ and Enter or 1-5; a choice by 1/F or 2/B).
A wrong move is explained in the panel and changes nothing: the script's :class:`Tutorial`
refuses it before the engine sees it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Button, Footer, Static

from sakura.engine.games.sakura import SakuraView
from sakura.records import Tutorial, load_script
from sakura.tui.dialogs import HelpScreen, LogScreen, make_log
from sakura.tui.i18n import N_, language, lines_at, lt, paragraph, rtl, t, tr, translate_bindings
from sakura.tui.log import sentence
from sakura.tui.navigation import OpenStart
from sakura.tui.pace import STEPS
from sakura.tui.play import Settings
from sakura.tui.render import ghost_from_events
from sakura.tui.sakura_screens import choice_letters, rules_text
from sakura.tui.widgets import GardenWidget, HandWidget, StatusWidget

if TYPE_CHECKING:
    from sakura.engine import Event


class LessonWidget(Widget):
    """The step's words, wrapped to the panel's width before each line is shaped (a
    right-to-left line must be put in visual order after it is cut, not before)."""

    DEFAULT_CSS = """
    LessonWidget { height: auto; border: round $accent; padding: 0 1; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.head, self.body, self.note = "", "", ""

    def show(self, head: str, body: str, note: str = "") -> None:
        self.head, self.body, self.note = head, body, note
        self.refresh(layout=True)

    def _lines(self, width: int) -> Text:
        out = Text(justify="right" if rtl() else "left")
        for text, style in ((self.head, "dim"), (self.body, "bold"), (self.note, "bold yellow")):
            if text:
                for line in lines_at(text, max(10, width - 1)):
                    out.append(line + "\n", style=style)
        out.rstrip()
        return out

    def render(self) -> RenderableType:
        return self._lines(self.size.width)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self._lines(width).plain.split("\n"))


class TutorialScreen(LogScreen):
    """The guided first game. ``tutorial`` is the script being played (its state is the
    engine's; the screen only shows it and forwards the learner's keys)."""

    AUTO_FOCUS = None  # the keys are the lesson's until the end's button appears
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", N_("Help")),
        Binding("ctrl+q", "app.quit", N_("Quit")),
    ]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        translate_bindings(self)
        self.settings = settings
        self.tutorial = Tutorial(load_script(), language())
        # The learner is "Player 1" as in any game; the bots by their colour (the lessons'
        # words for them), Blue and Green on the web's board and here alike.
        self.names = [tr("Player {n}").format(n=1), tr("Blue"), tr("Green")]
        self.cursor = 0
        self.note = ""
        self.busy = False
        self.done = False

    def compose(self) -> ComposeResult:
        yield LessonWidget(id="lesson")
        yield GardenWidget(id="garden")
        yield StatusWidget(id="status")
        yield Static("", id="prompt")
        yield HandWidget(id="hand")
        yield make_log(wrap=True, markup=False, auto_scroll=True)
        yield Footer()

    def on_mount(self) -> None:
        self._start_log()
        self.show_step()

    def _start_log(self) -> None:
        self.log_widget.say(lt("Learn to play: a guided first game against two bots."))

    def _log_event(self, event: Event) -> None:
        you = self.tutorial.script.you
        self.log_widget.say(sentence(event.seen_by(you).to_dict(), self.who, you=you))

    # ------------------------------------------------------------------ showing

    def who(self, seat: int) -> str:
        return self.names[seat]

    def show_step(self) -> None:
        tutorial = self.tutorial
        step = tutorial.step
        view: SakuraView = tutorial.view
        light = step.highlight
        ghost = None
        if view.pending is not None and step.expect in ("forward", "back"):
            ghost = self._preview(step.expect)
        self.query_one(GardenWidget).show(
            view, ghost, lit_spaces=light.spaces, lit_painters=light.painters, lit_emperor=light.emperor
        )
        self.query_one(StatusWidget).show(view, self.names)
        hand = self.query_one(HandWidget)
        playing = step.expect is not None and step.expect.startswith("play")
        hand.show(view.hand, self.cursor, active=playing, lit=frozenset(light.cards))
        hand.set_class(light.hand, "lit")
        self.query_one(StatusWidget).set_class(light.seats, "lit")
        self.log_widget.set_class(light.log or light.tiles, "lit")
        self.query_one("#prompt", Static).set_class(light.choice, "lit")
        total = len(tutorial.script.steps)
        head = lt("Learn to play · step {n} of {total}", n=tutorial.index + 1, total=total)
        self.query_one(LessonWidget).show(head, step.says(tutorial.lang), self.note)
        if step.expect is None:
            last = tutorial.index == len(tutorial.script.steps) - 1
            said = lt("Enter: finish the tutorial.") if last else lt("Enter (or N): the next step.")
        elif playing:
            said = lt("Your move: a card by ←/→ and Enter, or 1-5.")
        else:
            forward, back = choice_letters()
            said = lt("Your move: [1/{f}] forward or [2/{b}] back.", f=forward.upper(), b=back.upper())
        if tutorial.index > 0:
            said += " " + lt("Backspace: the previous step.")
        self.prompt(said)

    def _preview(self, action: str) -> dict[int, int]:
        """Where the answer would take the painters (the engine's events on a clone)."""
        clone = self.tutorial.state.clone()
        events = clone.apply_action(self.tutorial.script.you, self.tutorial.game.parse_action(action))
        return ghost_from_events(events)

    def prompt(self, text: str) -> None:
        self.query_one("#prompt", Static).update(paragraph(text, "bold"))

    # ------------------------------------------------------------------ keys

    async def on_key(self, event: events.Key) -> None:
        if self.busy or self.done or event.key in self.active_bindings:
            return
        event.stop()
        event.prevent_default()
        step = self.tutorial.step
        key, char = event.key, event.character
        if key == "backspace":
            self.previous()
            return
        if step.expect is None:
            if key in ("enter", "n", "space"):
                self.note = ""
                self.tutorial.next()
                if self.tutorial.finished:
                    self.finish()
                else:
                    self.show_step()
            elif char is not None and (char.isdigit() or char.lower() in "fb"):
                self.explain(lt("Read this step first, then press Enter."))
            return
        if step.expect.startswith("play"):
            hand = self.tutorial.view.hand or ()
            if key in ("left", "right"):
                self.cursor = (self.cursor + (1 if key == "right" else -1)) % max(1, len(hand))
                self.show_step()
            elif key == "enter" and hand:
                await self.attempt(f"play {hand[self.cursor]}")
            elif char is not None and char.isdigit() and 1 <= int(char) <= len(hand):
                self.cursor = int(char) - 1
                await self.attempt(f"play {hand[self.cursor]}")
            return
        forward, back = choice_letters()
        keys = {"1": "forward", "f": "forward", forward: "forward", "2": "back", "b": "back", back: "back"}
        answer = keys.get(key)
        if answer is not None:
            await self.attempt(answer)

    def previous(self) -> None:
        """Backspace: the step before, its board, hand and log as they were there."""
        if self.tutorial.index == 0:
            return
        events = self.tutorial.back()
        self.note, self.cursor = "", 0
        self.log_widget.clear()
        self._start_log()
        for event in events:
            self._log_event(event)
        self.show_step()

    def explain(self, text: str) -> None:
        self.note = text
        self.show_step()

    async def attempt(self, action: str) -> None:
        result = self.tutorial.attempt(action)
        if not result.ok:
            self.explain(result.explanation)
            return
        self.busy, self.note, self.cursor = True, "", 0
        try:
            pace = self.settings.pace
            for event in result.events:
                self._log_event(event)
                if event.kind in STEPS and not pace.stepping:  # the lesson itself is stepped
                    await pace.beat()
        finally:
            self.busy = False
        self.show_step()

    def finish(self) -> None:
        self.done = True
        words = lt("You know how to play Sakura. Now try a real game.")
        self.query_one(LessonWidget).show(lt("Well done!"), words)
        self.prompt("")
        self.query_one(HandWidget).set_class(False, "lit")
        button = Button(t("Play a real game"), id="play-real", variant="primary")
        self.mount(button, after=self.query_one("#prompt"))
        button.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "play-real":
            self.post_message(OpenStart())

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(rules_text()))
