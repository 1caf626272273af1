"""The app's screens: start, game, pass-the-keyboard, help, end of game, replay."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, RichLog, Select, Static

from sakura.engine import GameError
from sakura.engine.games.sakura import SakuraView
from sakura.records import GameRecord
from sakura.tui.i18n import N_, shape, t, tr, translate_bindings
from sakura.tui.log import sentence
from sakura.tui.render import ghost_from_events, seat_letter, seat_style
from sakura.tui.session import BOT_LEVELS, HUMAN, SeatSpec, Session, Setup
from sakura.tui.widgets import GardenWidget, HandWidget, StatusWidget

if TYPE_CHECKING:
    from sakura.tui.app import SakuraApp


def _log(**options: Any) -> RichLog:
    """The log never takes the keyboard (its scroll keys would eat the game's)."""
    log = RichLog(id="log", **options)
    log.can_focus = False
    return log


def level_name(kind: str) -> str:
    return {
        HUMAN: tr("human"),
        "random": tr("easy bot"),
        "greedy": tr("medium bot"),
        "mcts:300": tr("hard bot"),
    }.get(kind, kind)


def seat_names(setup: Setup) -> list[str]:
    names = []
    for i, spec in enumerate(setup.seats):
        if spec.human:
            names.append(tr("Player {n}").format(n=i + 1))
        else:
            names.append(tr("Bot {n}").format(n=i + 1))
    return names


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q", "app.pop_screen", N_("Close"))]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(rules_text(), id="help-text")
        yield Footer()


def rules_text() -> Text:
    lines = [
        (t("Sakura — the rules in short"), "bold magenta"),
        (t("Be close to the Emperor whenever he stops at a sakura, but never walk into him."), ""),
        (t("Each round everyone picks one card in secret; the cards are revealed together and"), ""),
        (t("take effect from the lowest order number up: garden action first, painter action second."), ""),
        (t("A painter that reaches the Emperor falls from grace: one token lost, three spaces back."), ""),
        (t("Moving painters count only free spaces. Only the gate may hold several painters."), ""),
        (t("At a sakura the closest painters earn tokens (3, 2, 1); the rest line up behind."), ""),
        (t("After the last sakura the most tokens wins."), ""),
        ("", ""),
        (t("Garden actions"), "bold cyan"),
        (t("E+1, E+2: the Emperor moves forward · E-1: he moves back · E±1: you choose"), ""),
        (t("C-2: the painter closest to the Emperor goes back 2 · F+2: the furthest goes forward 2"), ""),
        ("", ""),
        (t("Painter actions"), "bold yellow"),
        (t("P+n: your painter moves forward n · P±n: you choose forward or back"), ""),
        (t("JUMP: to the first free space beyond the next painter ahead"), ""),
        (t("COUNT: forward one space per painter between you and the Emperor"), ""),
        ("", ""),
        (t("Keys"), "bold"),
        (t("←/→ and Enter, or 1-5: play a card · 1/F forward, 2/B back · S save · ? help · Ctrl+Q quit"), ""),
        (
            t(
                "Garden: ⌂ gate · = bridge · ⛩/T torii · ✿ sakura (✓ scored) · ♔ Emperor · A-F painters, K court"  # noqa: E501
            ),
            "",
        ),
    ]
    out = Text()
    for text, style in lines:
        out.append(text + "\n", style=style)
    return out


class PassScreen(Screen[None]):
    """Hot-seat: the board and hand stay hidden until the next player is at the keyboard."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", N_("Ready"))]

    def __init__(self, name: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.player_name = name

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Static(t("Pass the keyboard to {name}.", name=self.player_name), id="pass-title")
            yield Static(t("Press Enter when {name} is ready; the others look away.", name=self.player_name))
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)


class StartScreen(Screen[None]):
    """Player count, variant, every seat (human or a bot and its strength), seed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "start", N_("Start"), show=True)]

    def __init__(self, setup: Setup | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.setup = setup or Setup()

    def compose(self) -> ComposeResult:
        s = self.setup
        with VerticalScroll(id="start"):
            yield Static(t("Sakura — a new game"), id="start-title")
            with Horizontal(classes="row"):
                yield Label(t("Players"))
                yield Select(
                    [(str(n), n) for n in range(2, 7)], value=s.players, allow_blank=False, id="players"
                )
            with Horizontal(classes="row"):
                yield Label(t("Two players"))
                yield Select(
                    [(t("court painter"), "court"), (t("tactical"), "tactical")],
                    value=s.variant if s.variant in ("court", "tactical") else "court",
                    allow_blank=False,
                    id="variant",
                )
            kinds = [sp.kind for sp in s.seats] + ["greedy"] * 6
            options = [(shape(level_name(k)), k) for k in (HUMAN, *BOT_LEVELS)]
            for i in range(6):
                with Horizontal(classes="row seat", id=f"seat-row-{i}"):
                    yield Label(t("Seat {n}", n=i + 1))
                    yield Select(options, value=kinds[i], allow_blank=False, id=f"seat-{i}")
            with Horizontal(classes="row"):
                yield Label(t("Seed"))
                yield Input(value="" if s.seed is None else str(s.seed), placeholder=t("random"), id="seed")
            yield Static("", id="start-error")
            yield Button(t("Start the game"), id="go", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self._sync()
        self.query_one("#go", Button).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        self._sync()

    def _sync(self) -> None:
        players = self._players()
        for i in range(6):
            self.query_one(f"#seat-row-{i}").display = i < players
        self.query_one("#variant", Select).disabled = players != 2

    def _players(self) -> int:
        value = self.query_one("#players", Select).value
        return value if isinstance(value, int) else 3

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        players = self._players()
        seats = tuple(SeatSpec(str(self.query_one(f"#seat-{i}", Select).value)) for i in range(players))
        variant = str(self.query_one("#variant", Select).value) if players == 2 else None
        text = self.query_one("#seed", Input).value.strip()
        error = self.query_one("#start-error", Static)
        if text and not text.isdigit():
            error.update(t("The seed is a whole number (or empty for a random deal)."))
            return
        try:
            setup = Setup(players, variant, seats, int(text) if text else None)
        except ValueError:
            error.update(t("At least one seat must be a human's."))
            return
        self.app.switch_screen(GameScreen(setup))


class GameScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", N_("Help")),
        Binding("s", "save", N_("Save")),
        Binding("ctrl+q", "app.quit", N_("Quit")),
    ]

    def __init__(self, setup: Setup | None = None, session: Session | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        if session is None:
            assert setup is not None
            seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(10**9)
            session = Session(setup, seed=seed)
        self.session = session
        self.names = seat_names(session.setup)
        self.mode = "wait"  # wait | select | court | choice | over
        self.actor: int | None = None
        self.shown: int | None = None  # hot-seat: whose hand may be on screen
        self.cursor = 0
        self.picked: int | None = None
        self.choice_forward = True
        self.busy = False

    @property
    def sakura_app(self) -> SakuraApp:
        from sakura.tui.app import SakuraApp

        assert isinstance(self.app, SakuraApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield GardenWidget(id="garden")
        yield StatusWidget(id="status")
        yield Static("", id="prompt")
        yield HandWidget(id="hand")
        yield _log(wrap=True, markup=False, auto_scroll=True)
        yield Footer()

    # ------------------------------------------------------------------ showing

    @property
    def log_viewer(self) -> int | None:
        humans = self.session.humans
        return humans[0] if len(humans) == 1 else None

    def board_view(self) -> SakuraView:
        seat = self.actor if self.actor is not None else self.log_viewer
        return self.session.view(seat)

    def refresh_board(self, view: SakuraView | None = None, ghost: dict[int, int] | None = None) -> None:
        view = view or self.board_view()
        self.query_one(GardenWidget).show(view, ghost)
        self.query_one(StatusWidget).show(view, self.names)
        hand = self.query_one(HandWidget)
        own = self.session.view(self.actor) if self.actor is not None else None
        if own is not None and own.hand is not None:
            hand.show(own.hand, self.cursor, self.picked, active=self.mode in ("select", "court"))
        elif self.session.hot_seat:
            hand.show(None, caption=t("(the hand is hidden until its player takes the keyboard)"))
        else:
            seat = self.log_viewer
            cards = self.session.view(seat).hand if seat is not None else None
            hand.show(cards, active=False)

    def prompt(self, text: str) -> None:
        self.query_one("#prompt", Static).update(Text(text, style="bold"))

    def write(self, text: str | None) -> None:
        if text:
            log = self.query_one(RichLog)
            for line in text.split("\n"):
                log.write(Text(line))

    def who(self, seat: int) -> str:
        view = self.session.view(None)
        if seat == view.court:
            return tr("court painter")
        return self.names[seat]

    # ------------------------------------------------------------------ flow

    def on_mount(self) -> None:
        self.write(t("A new game: seed {seed}.", seed=self.session.seed))
        self.refresh_board()
        self.run_worker(self.advance(), exclusive=True)

    async def play_events(self, events: list[Any], snapshots: list[SakuraView]) -> None:
        delay = self.sakura_app.delay
        resolving = 0
        for event in events:
            seen = event.seen_by(self.log_viewer).to_dict()
            self.write(sentence(seen, self.who, you=self.log_viewer))
            if event.kind == "card_resolving":
                resolving += 1
                if resolving >= 2 and snapshots:
                    self.refresh_board(snapshots[min(resolving - 2, len(snapshots) - 1)])
            if delay and event.kind in ("cards_revealed", "card_resolving", "sakura_scored", "bumped"):
                await asyncio.sleep(delay)
        self.refresh_board()

    async def advance(self) -> None:
        """Let bots act until a human must, then wait for that human's keys."""
        self.busy = True
        try:
            while not self.session.terminal():
                bots = self.session.due_bots()
                if bots:
                    seat = bots[0]
                    self.mode = "wait"
                    if self.session.hot_seat:
                        self.actor = None
                    self.prompt(t("{name} is thinking…", name=self.who(seat)))
                    action = await asyncio.to_thread(self.session.bot_action, seat)
                    snaps: list[SakuraView] = []
                    events = self.session.apply(seat, action, snaps, self.log_viewer)
                    await self.play_events(events, snaps)
                    continue
                seat = self.session.due_humans()[0]
                if self.session.hot_seat and seat != self.shown:
                    self.actor, self.mode = None, "wait"
                    self.refresh_board()
                    self.prompt("")
                    self.app.push_screen(
                        PassScreen(self.who(seat)), lambda _, seat=seat: self.begin_turn(seat)
                    )
                    return
                self.begin_turn(seat)
                return
            self.game_over()
        finally:
            self.busy = False

    def begin_turn(self, seat: int) -> None:
        self.actor, self.shown = seat, seat
        view = self.session.view(seat)
        self.cursor, self.picked = 0, None
        if view.pending is not None:
            self.mode, self.choice_forward = "choice", True
            self.show_choice()
            return
        self.mode = "select"
        self.refresh_board()
        if view.double == seat:
            self.prompt(
                t(
                    "{name}: choose the card for your own painter (then one for the court painter).",
                    name=self.who(seat),
                )
            )
        else:
            self.prompt(t("{name}: choose a card (←/→ and Enter, or 1-5).", name=self.who(seat)))

    def show_choice(self) -> None:
        assert self.actor is not None
        view = self.session.view(self.actor)
        assert view.pending is not None
        _, card, part = view.pending
        word = "forward" if self.choice_forward else "back"
        preview = self.session.preview(self.actor, word)
        ghost = ghost_from_events(preview, lambda e: getattr(e, "seat", None))
        self.refresh_board(view, ghost)
        consequence = "; ".join(
            s for e in preview if (s := sentence(e.to_dict(), self.who, you=self.actor)) is not None
        )
        what = tr("the Emperor") if part == "garden" else tr("your painter")
        head = t(
            "Card {card}: move {what} [1] forward or [2] back? Now: {now}.",
            card=card,
            what=what,
            now=tr("forward") if self.choice_forward else tr("back"),
        )
        self.prompt(head + "\n" + (consequence or t("Nothing moves.")))

    async def submit(self, action: str) -> None:
        seat = self.actor
        assert seat is not None
        view = self.session.view(seat)
        if action not in view.legal_actions:
            self.write(t("That is not possible now."))
            return
        self.busy = True
        self.mode = "wait"
        if self.session.hot_seat:
            self.actor = None
        snaps: list[SakuraView] = []
        events = self.session.apply(seat, action, snaps, self.log_viewer)
        await self.play_events(events, snaps)
        self.busy = False
        self.run_worker(self.advance(), exclusive=True)

    def play_again(self) -> None:
        """From the end screen: the start screen, set up as this game was."""
        setup = self.session.setup
        self.app.pop_screen()
        self.app.switch_screen(StartScreen(Setup(setup.players, setup.variant, setup.seats, None)))

    def game_over(self) -> None:
        self.mode, self.actor = "over", None
        self.refresh_board()
        self.prompt(t("The game is over."))
        self.app.push_screen(EndScreen(self))

    # ------------------------------------------------------------------ keys

    async def on_key(self, event: events.Key) -> None:
        try:
            await self.game_key(event.key, event.character)
        except GameError as exc:
            self.write(str(exc))

    async def game_key(self, key: str, char: str | None) -> None:
        if self.busy or self.actor is None or self.mode in ("wait", "over"):
            return
        view = self.session.view(self.actor)
        if self.mode == "choice":
            if key in ("1", "f", "up"):
                self.choice_forward = True
            elif key in ("2", "b", "down"):
                self.choice_forward = False
            elif key in ("left", "right", "tab"):
                self.choice_forward = not self.choice_forward
            elif key == "enter":
                await self.submit("forward" if self.choice_forward else "back")
                return
            else:
                return
            if key in ("1", "2", "f", "b"):
                await self.submit("forward" if self.choice_forward else "back")
                return
            self.show_choice()
            return
        hand = view.hand or ()
        if key == "left":
            self.cursor = (self.cursor - 1) % max(1, len(hand))
        elif key == "right":
            self.cursor = (self.cursor + 1) % max(1, len(hand))
        elif key == "escape" and self.mode == "court":
            self.mode, self.picked = "select", None
            self.begin_turn(self.actor)
            return
        elif key == "enter" or (char is not None and char.isdigit() and 1 <= int(char) <= len(hand)):
            if key != "enter" and char is not None:
                self.cursor = int(char) - 1
            if not hand:
                return
            card = hand[self.cursor]
            if view.double == self.actor:
                if self.mode == "select":
                    self.mode, self.picked = "court", card
                    self.prompt(t("Now the card for the court painter (Esc: choose again)."))
                    self.refresh_board()
                    return
                if card == self.picked:
                    return
                await self.submit(f"play {self.picked} court {card}")
                return
            await self.submit(f"play {card}")
            return
        else:
            return
        self.refresh_board()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_save(self) -> None:
        path = self.sakura_app.save_dir / f"sakura-{self.session.seed}-r{self.session.view(None).round}.json"
        try:
            self.session.save(path)
        except OSError as exc:
            self.write(t("Could not save: {error}", error=str(exc)))
            return
        self.sakura_app.last_saved = path
        self.write(t("Saved to {path}.", path=str(path)))


class EndScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "again", N_("Play again")),
        Binding("s", "save", N_("Save")),
        Binding("q,ctrl+q", "app.quit", N_("Quit")),
    ]

    def __init__(self, game: GameScreen) -> None:
        super().__init__()
        translate_bindings(self)
        self.game = game

    def compose(self) -> ComposeResult:
        view = self.game.session.view(None)
        outcome = view.outcome
        assert outcome is not None
        table = Table(title=t("Final standings"), expand=False)
        table.add_column(t("Place"))
        table.add_column(t("Painter"))
        table.add_column(t("Tokens"), justify="right")
        table.add_column(t("Space"), justify="right")
        order = sorted(range(len(outcome.scores)), key=lambda s: (-outcome.scores[s], -view.painters[s]))
        for place, seat in enumerate(order, 1):
            mark = " ★" if seat in outcome.winners else ""
            table.add_row(
                str(place),
                Text(
                    f"{seat_letter(view, seat)} {shape(self.game.who(seat))}{mark}",
                    style=seat_style(view, seat),
                ),
                str(outcome.scores[seat]),
                str(view.painters[seat]),
            )
        winners = ", ".join(self.game.who(w) for w in outcome.winners)
        with Vertical(id="end"):
            yield Static(table)
            yield Static(t("Winner: {names}", names=winners), id="winner")
            yield Static(t("N or Enter: play again · S: save the record · Q: quit"))
        yield Footer()

    def action_again(self) -> None:
        self.game.play_again()

    def action_save(self) -> None:
        self.game.action_save()
        self.notify(t("Saved."))


class ReplayScreen(Screen[None]):
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

    def compose(self) -> ComposeResult:
        yield Static("", id="prompt")
        yield GardenWidget(id="garden")
        yield StatusWidget(id="status")
        yield _log(wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def who(self, seat: int) -> str:
        if seat == getattr(self.game, "court", -1):
            return tr("court painter")
        return self.record.players[seat] if seat < len(self.record.players) else str(seat + 1)

    def show(self) -> None:
        state = self.game.state_from_json(self.record.initial)
        log = self.query_one(RichLog)
        log.clear()
        for move in self.record.moves[: self.index]:
            state.apply_action(move.player, self.game.parse_action(move.action))
            for event in move.events:
                text = sentence(event, self.who)
                for line in (text or "").split("\n") if text else ():
                    log.write(Text(line))
        view = state.view(None)
        assert isinstance(view, SakuraView)
        self.query_one(GardenWidget).show(view)
        self.query_one(StatusWidget).show(view, list(self.record.players))
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
        self.app.push_screen(HelpScreen())


def save_dir_default() -> Path:
    return Path.cwd()
