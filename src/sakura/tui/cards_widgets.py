"""The card game's widgets: the table (both players' areas) and the hand, drawn from views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.widget import Widget

from sakura.engine.games.cards import CardsView
from sakura.tui.cards_render import area_rows, chips_wide, hand_boxes, own_line, player_header, status_line
from sakura.tui.i18n import shape


class CardsBoard(Widget):
    """The round and whose turn, then each player's name, counts and three areas: the
    ``bottom`` seat's below (the one at the keyboard), the other above."""

    DEFAULT_CSS = "CardsBoard { height: 9; padding: 0 1; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cview: CardsView | None = None
        self.bottom = 0
        self.names: Sequence[str] = ()
        self.keys: tuple[str, ...] = ()
        self.cursor: str | None = None
        self.ghost: str | None = None
        self.away: frozenset[int] = frozenset()

    def show(
        self,
        view: CardsView,
        bottom: int,
        names: Sequence[str],
        *,
        keys: tuple[str, ...] = (),
        cursor: str | None = None,
        ghost: str | None = None,
        away: frozenset[int] = frozenset(),
    ) -> None:
        """``keys``: the areas open to the card being placed; ``cursor``: the one chosen now;
        ``ghost``: that card, drawn where it would go; ``away``: players who left a web table."""
        self.cview, self.bottom, self.names, self.away = view, bottom, names, away
        self.keys, self.cursor, self.ghost = keys, cursor, ghost
        self.refresh()

    def render(self) -> RenderableType:
        view = self.cview
        if view is None:
            return Text("")
        width = max(40, self.size.width - 2)
        wide = chips_wide(view)
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append_text(status_line(view, self.names))
        for seat in (1 - self.bottom, self.bottom):
            out.append("\n")
            out.append_text(
                player_header(view, seat, self.names[seat], turn=view.turn == seat, away=seat in self.away)
            )
            own = seat == self.bottom
            rows = area_rows(
                view,
                seat,
                width,
                wide,
                keys=self.keys if own else (),
                cursor=self.cursor if own else None,
                ghost=self.ghost if own else None,
            )
            for row in rows:
                out.append("\n")
                out.append_text(row)
        return out

    def text(self) -> str:
        """The board as plain text (what a test may read of the screen)."""
        rendered = self.render()
        return rendered.plain if isinstance(rendered, Text) else ""


class CardsHand(Widget):
    """The hand as boxed cards with their keys, and what only its owner knows of the round
    (received, given, discarded). ``view`` is ``None`` while the hand is hidden (hot-seat)."""

    DEFAULT_CSS = "CardsHand { height: auto; padding: 0 1; }"

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self.draw(width).plain.split("\n"))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cview: CardsView | None = None
        self.cursor: int | None = None
        self.legal: frozenset[str] = frozenset()
        self.picked: int | None = None
        self.caption = ""

    @property
    def cards(self) -> tuple[str, ...] | None:
        """The cards on screen (``None``: no hand is shown)."""
        return self.cview.hand if self.cview is not None else None

    def show(
        self,
        view: CardsView | None,
        *,
        cursor: int | None = None,
        legal: frozenset[str] = frozenset(),
        picked: int | None = None,
        caption: str = "",
    ) -> None:
        self.cview, self.cursor, self.legal, self.picked, self.caption = view, cursor, legal, picked, caption
        self.refresh(layout=True)

    def render(self) -> RenderableType:
        return self.draw(self.size.width)

    def draw(self, width: int) -> Text:
        view = self.cview
        if view is None or view.hand is None:
            return Text(shape(self.caption), style="dim italic")
        received = view.received or ()
        out = hand_boxes(
            view.hand,
            cursor=self.cursor,
            legal=self.legal,
            picked=self.picked,
            newest=received[-1] if received else None,
        )
        if not view.hand:
            out.append(" \n \n ")
        out.append("\n")
        out.append_text(own_line(view, width))
        return out

    def text(self) -> str:
        rendered = self.render()
        return rendered.plain if isinstance(rendered, Text) else ""
