"""The card game's screens: a game (both players' areas, the hand, two-step turns) and its
replay.

A turn is the engine's two decisions: place a card (first the card, then the area) or, when
the view lists only discards, discard one; then give one. Everything a key may do comes from
the view's ``legal_actions`` (read with the engine's ``parse_action``): a card that fits
nowhere is dimmed and its key does nothing, an area the card cannot go in gets no key.
The turn on screen, hot-seat's hand-over and the end are
:class:`~sakura.tui.game_screen.GameScreen`'s; who acts is the play session's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Footer, Static

from sakura.engine.games.cards import AREAS, ROUNDS, CardsView, Discard, Give, Place, parse_action
from sakura.tui.cards_log import result_line, sentence
from sakura.tui.cards_render import area_name, card_label
from sakura.tui.cards_widgets import CardsBoard, CardsHand
from sakura.tui.dialogs import make_log, styled_lines
from sakura.tui.game_screen import GameScreen
from sakura.tui.i18n import RTL, language, lt, shape, t
from sakura.tui.play import Play, Settings
from sakura.tui.replay_screen import ReplayScreen


@dataclass(frozen=True, slots=True)
class TurnOptions:
    """What the view's legal actions allow: ``verb`` (``place``, ``discard``, ``give`` or
    ``""`` when nothing), the cards that may be played, and each card's open areas."""

    verb: str
    cards: frozenset[str]
    areas: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, legal: Sequence[str]) -> TurnOptions:
        verb, cards = "", set()
        areas: dict[str, tuple[str, ...]] = {}
        for text in legal:
            action = parse_action(text)
            cards.add(action.card)
            if isinstance(action, Place):
                verb = "place"
                areas[action.card] = (*areas.get(action.card, ()), action.area)
            elif isinstance(action, Discard):
                verb = "discard"
            elif isinstance(action, Give):
                verb = "give"
        ordered = {card: tuple(a for a in AREAS if a in spots) for card, spots in areas.items()}
        return cls(verb, frozenset(cards), ordered)


def rules_text() -> RenderableType:
    return styled_lines(
        [
            (lt("Sakura, the card game — the rules in short"), "bold magenta"),
            (lt("Two players, three rounds. Each is dealt ten cards; twenty are set aside unseen."), ""),
            (
                lt(
                    "Your turn: place a card at the right end of one of your three areas "
                    "(garden, palace, temple), never lower than the card it follows; equal is fine."
                ),
                "",
            ),
            (lt("If no card of your hand fits anywhere, discard one face down instead."), ""),
            (lt("Then give a card of your hand to your opponent, face down."), ""),
            (
                lt(
                    "When both hands are empty, each area scores its best three cards: "
                    "three colours 10, one colour 15, numbers in a row +5; each blossom ✿ +3, "
                    "but an area holding more than one blossom scores 0."
                ),
                "",
            ),
            (lt("After three rounds the higher total wins; equal totals are a draw."), ""),
            ("", ""),
            (lt("Cards"), "bold cyan"),
            (lt("r red · b blue · g green · y yellow, numbers 1 to 5, ✿ a cherry blossom"), ""),
            (lt("▶ whose turn · underlined: the three cards that score · ★ the card you received last"), ""),
            ("", ""),
            (lt("Keys"), "bold"),
            (lt("←/→ and Enter, or 1-9 and 0: choose a card (dimmed cards cannot be played now)"), ""),
            (lt("then 1-3, or ↑/↓ and Enter: the area · Esc: another card"), ""),
            (lt("S save · ? help · Ctrl+Q quit"), ""),
            (
                lt(
                    "H: a hint (each card's estimated chance of winning) · PageUp/PageDown: "
                    "page through the log"
                ),
                "",
            ),
            (lt("P: the pace of a round (normal, slow, step by step, fast) · Space: its next step"), ""),
        ]
    )


class Step(StrEnum):
    """A card-game turn's steps: choose a card to place or discard, where the picked card
    goes, a card to give."""

    PLACE = "place"
    AREA = "area"
    GIVE = "give"


class CardsScreen(GameScreen[CardsView, Step]):
    """The card game's screen; in a turn ``mode`` is a :class:`Step`."""

    def __init__(self, play: Play[CardsView], settings: Settings) -> None:
        super().__init__(play, settings)
        self.cursor = 0
        self.picked: int | None = None  # the hand position of the card being placed
        self.area_cursor = 0

    def compose(self) -> ComposeResult:
        yield CardsBoard(id="board")
        yield Static("", id="prompt")
        yield CardsHand(id="hand")
        yield make_log(wrap=True, markup=False, auto_scroll=True)
        yield Footer()

    # ------------------------------------------------------------------ showing

    def options(self) -> TurnOptions:
        if not self.acting:
            return TurnOptions("", frozenset(), {})
        assert self.actor is not None
        return TurnOptions.of(self.play.view(self.actor).legal_actions)

    def open_areas(self, view: CardsView) -> tuple[str, ...]:
        if self.mode != Step.AREA or self.picked is None or view.hand is None:
            return ()
        return self.options().areas.get(view.hand[self.picked], ())

    def refresh_board(self, view: CardsView | None = None) -> None:
        hand = self.query_one(CardsHand)
        own: CardsView | None = None
        if self.actor is not None:
            own = self.play.view(self.actor)
        elif not self.play.hot_seat and self.log_viewer is not None:
            own = self.play.view(self.log_viewer)
        bottom = own.player if own is not None and own.player is not None else (self.shown or 0)
        board = view or own or self.play.view(None)
        keys: tuple[str, ...] = ()
        cursor = ghost = None
        if own is not None and own.hand is not None and self.acting:
            keys = self.open_areas(own)
            if keys and self.picked is not None:
                cursor, ghost = keys[self.area_cursor % len(keys)], own.hand[self.picked]
        self.query_one(CardsBoard).show(
            board, bottom, self.names, keys=keys, cursor=cursor, ghost=ghost, away=self.away()
        )
        if own is None:
            hand.show(None, caption=self.hidden_caption())
            return
        acting = self.acting and self.mode in (Step.PLACE, Step.GIVE)
        hand.show(
            own,
            cursor=self.cursor if acting else None,
            legal=self.options().cards if acting else frozenset(),
            picked=self.picked if self.mode == Step.AREA else None,
        )

    def sentence(self, event: dict[str, Any], you: int | None) -> str | None:
        return sentence(event, self.who, you=you)

    def rules(self) -> RenderableType:
        return rules_text()

    def standings(self) -> tuple[RenderableType, str]:
        view = self.play.view(None)
        outcome = view.outcome
        assert outcome is not None
        table = Table(title=t("Final standings"), expand=False)
        table.add_column(t("Player"))
        for r in range(1, ROUNDS + 1):
            table.add_column(t("Round {round}", round=r), justify="right")
        table.add_column(t("Total"), justify="right", style="bold")
        for seat in sorted(range(2), key=lambda s: -outcome.scores[s]):
            mark = " ★" if seat in outcome.winners else ""
            rounds = map(str, view.round_scores[seat])
            table.add_row(Text(shape(self.who(seat)) + mark), *rounds, str(view.totals[seat]))
        return table, result_line(outcome.winners, outcome.scores, self.who)

    def start(self) -> None:
        view = self.play.view(None)
        self.write(lt("— Round {round} — {name} starts.", round=view.round, name=self.who(view.starter)))

    async def after_other(self) -> None:
        await self.beat()

    def stale_turn(self, view: CardsView) -> bool:
        return (self.mode == Step.GIVE) != (view.phase == "give")

    # ------------------------------------------------------------------ a turn

    def begin_turn(self, seat: int) -> None:
        self.actor, self.shown = seat, seat
        view = self.play.view(seat)
        options = TurnOptions.of(view.legal_actions)
        self.mode = Step.GIVE if options.verb == "give" else Step.PLACE
        self.picked, self.area_cursor = None, 0
        hand = view.hand or ()
        self.cursor = next((i for i, c in enumerate(hand) if c in options.cards), 0)
        self.refresh_board()
        self.ask(options)

    def ask(self, options: TurnOptions, hint: str = "") -> None:
        """The prompt for the decision at hand (and a hint after a key that did nothing)."""
        assert self.actor is not None
        name = self.who(self.actor)
        if self.mode == Step.AREA and self.picked is not None:
            card = (self.play.view(self.actor).hand or ())[self.picked]
            # in right-to-left text a right-to-left mark keeps each key with its area, not with
            # the card before it
            mark = "\u200f" if language() in RTL else ""
            spots = " · ".join(f"{mark}[{AREAS.index(a) + 1}] {area_name(a)}" for a in options.areas[card])
            text = lt("Place {card} in: {areas} · Esc: another card", card=card_label(card), areas=spots)
        elif options.verb == "give":
            text = lt(
                "{name}: give a card to {other}, face down (←/→ and Enter, or its number).",
                name=name,
                other=self.who(1 - self.actor),
            )
        elif options.verb == "discard":
            text = lt(
                "{name}: no card fits in any of your areas; choose one to discard face down.", name=name
            )
        else:
            text = lt("{name}: choose a card to place (←/→ and Enter, or its number).", name=name)
        self.prompt(text + ("\n" + hint if hint else ""))

    async def game_key(self, key: str, char: str | None) -> None:
        assert self.actor is not None
        view = self.play.view(self.actor)
        hand = view.hand or ()
        options = TurnOptions.of(view.legal_actions)
        if self.mode == Step.AREA:
            await self.area_key(key, char, options, hand)
            return
        if key in ("left", "right") and hand:
            self.cursor = (self.cursor + (1 if key == "right" else -1)) % len(hand)
            self.refresh_board()
        elif key == "enter" and hand:
            await self.choose(self.cursor % len(hand), options, hand)
        elif char is not None and char.isdigit():
            index = 9 if char == "0" else int(char) - 1
            if index < len(hand):
                await self.choose(index, options, hand)

    async def choose(self, index: int, options: TurnOptions, hand: Sequence[str]) -> None:
        """The card at ``index`` was chosen: give it, discard it, or ask for its area."""
        card = hand[index]
        if card not in options.cards:
            self.ask(options, lt("{card} cannot be played now.", card=card_label(card)))
            return
        self.cursor = index
        if options.verb == "give":
            await self.submit(f"give {card}")
        elif options.verb == "discard":
            await self.submit(f"discard {card}")
        else:
            self.mode, self.picked, self.area_cursor = Step.AREA, index, 0
            self.refresh_board()
            self.ask(options)

    async def area_key(self, key: str, char: str | None, options: TurnOptions, hand: Sequence[str]) -> None:
        assert self.picked is not None
        card = hand[self.picked]
        spots = options.areas.get(card, ())
        if key == "escape":
            self.mode, self.picked = Step.PLACE, None
            self.refresh_board()
            self.ask(options)
        elif key in ("up", "down", "left", "right") and spots:
            step = 1 if key in ("down", "right") else -1
            self.area_cursor = (self.area_cursor + step) % len(spots)
            self.refresh_board()
        elif key == "enter" and spots:
            await self.submit(f"place {card} {spots[self.area_cursor % len(spots)]}")
        elif char is not None and len(char) == 1 and char in "123":
            area = AREAS[int(char) - 1]
            if area in spots:
                await self.submit(f"place {card} {area}")
            elif len(spots) == 1:  # one place only: say where, and how to put it there
                self.ask(
                    options,
                    lt(
                        "{card} fits only in the {area}: Enter or {key} puts it there.",
                        card=card_label(card),
                        area=area_name(spots[0]),
                        key=AREAS.index(spots[0]) + 1,
                    ),
                )
            else:
                self.ask(
                    options,
                    lt("{card} cannot go in the {area}.", card=card_label(card), area=area_name(area)),
                )


class CardsReplayScreen(ReplayScreen):
    """A card-game record: both players' areas and scores after each move."""

    def compose_board(self) -> ComposeResult:
        yield CardsBoard(id="board")

    def show_board(self, view: Any) -> None:
        assert isinstance(view, CardsView)
        names = [self.who(seat) for seat in range(2)]
        self.query_one(CardsBoard).show(view, 0, names)

    def sentence(self, event: dict[str, Any]) -> str | None:
        return sentence(event, self.who)

    def rules(self) -> RenderableType:
        return rules_text()
