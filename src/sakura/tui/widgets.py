"""Widgets that redraw themselves from a view at their current size."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.widget import Widget

from sakura.engine.games.sakura import SakuraView
from sakura.tui.i18n import shape
from sakura.tui.render import draw_card, draw_garden, draw_status


class GardenWidget(Widget):
    DEFAULT_CSS = "GardenWidget { height: auto; padding: 0 1; }"

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.sview: SakuraView | None = None
        self.ghost: dict[int, int] = {}
        self.lit: dict[str, Any] = {}

    def show(self, view: SakuraView, ghost: dict[int, int] | None = None, **lit: Any) -> None:
        """``lit``: what :func:`draw_garden` highlights (``lit_spaces``, ``lit_painters``,
        ``lit_emperor``; the tutorial's steps)."""
        self.sview, self.ghost, self.lit = view, ghost or {}, lit
        self.refresh(layout=True)

    def render(self) -> RenderableType:
        if self.sview is None:
            return Text("")
        return draw_garden(self.sview, max(20, self.size.width - 2), self.ghost, **self.lit)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if self.sview is None:
            return 1
        gate = sum(1 for p in self.sview.painters if p == 0)
        return 5 if gate > 1 else 4


class StatusWidget(Widget):
    DEFAULT_CSS = "StatusWidget { height: auto; padding: 0 1; }"

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.sview: SakuraView | None = None
        self.names: Sequence[str] = ()
        self.away: frozenset[int] = frozenset()

    def show(self, view: SakuraView, names: Sequence[str], away: frozenset[int] = frozenset()) -> None:
        self.sview, self.names, self.away = view, names, away
        self.refresh(layout=True)

    def render(self) -> RenderableType:
        if self.sview is None:
            return Text("")
        return draw_status(self.sview, self.names, self.size.width, self.away)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if self.sview is None:
            return 1
        text = draw_status(self.sview, self.names, width, self.away)
        return len(text.wrap(self.app.console, max(1, width)))


class HandWidget(Widget):
    """Five cards side by side; ``cards`` is ``None`` while the hand is hidden."""

    DEFAULT_CSS = "HandWidget { height: auto; padding: 0 1; }"
    COMPACT = 30  # below this many lines the cards lose their top and bottom edges (the log gains)

    @property
    def compact(self) -> bool:
        return self.app.size.height < self.COMPACT

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 3 if self.compact else 5

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.cards: tuple[int, ...] | None = None
        self.cursor = 0
        self.picked: int | None = None
        self.active = False
        self.caption = ""
        self.lit: frozenset[int] = frozenset()

    def show(
        self,
        cards: tuple[int, ...] | None,
        cursor: int = 0,
        picked: int | None = None,
        active: bool = False,
        caption: str = "",
        *,
        lit: frozenset[int] = frozenset(),
    ) -> None:
        """``lit``: cards shown highlighted (as a picked card is; the tutorial's steps)."""
        self.cards, self.cursor, self.picked, self.active, self.caption = (
            cards,
            cursor,
            picked,
            active,
            caption,
        )
        self.lit = lit
        self.refresh()

    def render(self) -> RenderableType:
        grid = Table.grid(padding=(0, 1))
        count = max(5, len(self.cards or ()))
        width = max(6, (self.size.width - 2) // count - 3)
        cells = []
        for i in range(count):
            number = self.cards[i] if self.cards is not None and i < len(self.cards) else None
            selected = self.active and i == self.cursor
            body = draw_card(
                number,
                width,
                selected=selected,
                picked=number is not None and (number == self.picked or number in self.lit),
                index=i + 1,
                describe=width >= 24,
            )
            cells.append(_box(body, width, selected, edges=not self.compact))
            grid.add_column()
        grid.add_row(*cells)
        if self.cards is None:
            return Text(shape(self.caption), style="dim italic") if self.caption else grid
        return grid

    def hidden_text(self) -> str:
        return "" if self.cards is None else " ".join(map(str, self.cards))


def _box(body: Text, width: int, bold: bool, *, edges: bool = True) -> Text:
    """A card in a box (heavy when ``bold``); without ``edges``, only its sides."""
    edge = "━" if bold else "─"
    side = "┃" if bold else "│"
    style = "bold white" if bold else "dim"
    lines = []
    if edges:
        lines.append(Text(("┏" if bold else "┌") + edge * width + ("┓" if bold else "┐"), style=style))
    for line in body.split("\n"):
        row = Text(side, style=style)
        row.append_text(line)
        row.append(side, style=style)
        lines.append(row)
    if edges:
        lines.append(Text(("┗" if bold else "└") + edge * width + ("┛" if bold else "┘"), style=style))
    return Text("\n", no_wrap=True).join(lines)
