"""The garden, the players and the hand drawn as Rich text, from a view only.

Everything drawn comes from a :class:`SakuraView` (the board the engine shows a seat) and
the deck's card data; nothing here decides what is legal or where a piece goes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text

from sakura.engine import Event
from sakura.engine.games.sakura import SakuraView, default_deck
from sakura.tui.i18n import shape, t, tr

SEAT_COLOURS = ("bright_red", "bright_blue", "bright_green", "bright_yellow", "bright_cyan", "orange1")
COURT_COLOUR = "bright_magenta"
EMPEROR = "♔"
LABEL = 10  # width of the row labels
NAME = 14  # a name longer than this is shortened (with "…") in a narrow status line


def seat_letter(view: SakuraView, seat: int) -> str:
    return "K" if seat == view.court else "ABCDEF"[seat]


def seat_style(view: SakuraView, seat: int) -> str:
    return f"bold {COURT_COLOUR if seat == view.court else SEAT_COLOURS[seat % 6]}"


def seat_name(view: SakuraView, seat: int, names: Sequence[str]) -> str:
    if seat == view.court:
        return tr("court painter")
    return names[seat]


def _label(text: str) -> Text:
    s = shape(text)
    return Text(s[: LABEL - 1].ljust(LABEL), style="dim")


def draw_garden(
    view: SakuraView,
    width: int,
    ghost: dict[int, int] | None = None,
    *,
    lit_spaces: Collection[int] = (),
    lit_painters: Collection[int] = (),
    lit_emperor: bool = False,
    emperor_ghost: int | None = None,
) -> Text:
    """The path from the gate to the last sakura, ``width`` cells wide at most.

    ``ghost`` maps a seat to a space where a pending choice would take its painter (shown as a
    lower-case letter): the consequence of a choice, computed by the engine on a clone.
    ``lit_*``: spaces, painters and the Emperor shown highlighted (reversed), for the tutorial.
    ``emperor_ghost``: where a pending choice would take the Emperor (a blinking dim crown).
    """
    spaces = view.garden
    n = len(spaces)
    cell = max(1, min(3, (width - LABEL) // n))
    scored = set(view.sakuras[: view.scored])
    out = Text(no_wrap=True, overflow="crop")

    ruler = Text()
    for i in range(n):
        # every space numbered at 3 cells; at 2, every other one (two-digit numbers side by
        # side would run together: "9101112"); at 1, the tens
        if cell >= 3 or (cell == 2 and i % 2 == 0):
            mark = str(i).rjust(cell)
        elif cell == 2:
            mark = " ·" if i % 5 == 0 else "  "
        else:
            mark = str(i // 10) if i % 10 == 0 else ("·" if i % 5 == 0 else " ")
        ruler.append(mark, style="dim")
    out.append_text(_label(tr("space")))
    out.append_text(ruler)
    out.append("\n")

    path = Text()
    for i, sym in enumerate(spaces):
        if sym == "G":
            glyph, style = "⌂", "bold white"
        elif sym == "B":
            glyph, style = "=", "bold blue"
        elif sym == "T":
            glyph, style = "⛩" if cell >= 2 else "T", "bold red"
        elif sym == "S":
            glyph, style = ("✿", "bold magenta") if i not in scored else ("✓", "dim magenta")
        else:
            glyph, style = "·", "green"
        if i in lit_spaces:
            style += " reverse"
        path.append(glyph.rjust(cell) if glyph != "⛩" else " " * (cell - 2) + glyph, style=style)
    out.append_text(_label(tr("garden")))
    out.append_text(path)
    out.append("\n")

    emperor = Text(" " * (cell * n))
    emperor = Text()
    for i in range(n):
        lit = " reverse" if lit_emperor and i == view.emperor else ""
        if i == emperor_ghost and i != view.emperor:
            emperor.append(EMPEROR.rjust(cell), style="dim yellow blink")
            continue
        emperor.append((EMPEROR if i == view.emperor else " ").rjust(cell), style="bold yellow" + lit)
    out.append_text(_label(tr("Emperor")))
    out.append_text(emperor)
    out.append("\n")

    at: dict[int, list[int]] = {}
    for seat, space in enumerate(view.painters):
        at.setdefault(space, []).append(seat)
    ghosts = {space: seat for seat, space in (ghost or {}).items()}
    row = Text()
    for i in range(n):
        seats = at.get(i, [])
        if i == 0 and len(seats) > 1:
            row.append(str(len(seats)).rjust(cell), style="bold white")
        elif seats:
            lit = " reverse" if seats[0] in lit_painters else ""
            row.append(seat_letter(view, seats[0]).rjust(cell), style=seat_style(view, seats[0]) + lit)
        elif i in ghosts:
            row.append(
                seat_letter(view, ghosts[i]).lower().rjust(cell), style=f"{seat_style(view, ghosts[i])} blink"
            )
        else:
            row.append(" " * cell)
    out.append_text(_label(tr("painters")))
    out.append_text(row)
    gate = at.get(0, [])
    if len(gate) > 1:
        out.append("\n")
        out.append_text(_label(""))
        out.append(shape(tr("at the gate:")) + " ", style="dim")
        for seat in gate:
            out.append(seat_letter(view, seat) + " ", style=seat_style(view, seat))
    return out


def draw_status(
    view: SakuraView, names: Sequence[str], width: int, away: frozenset[int] = frozenset()
) -> Text:
    """Round, deck, supply, sakuras scored, then one entry a painter: letter, name, space,
    tokens, the card it played (this round's once revealed, else the last round's: the cards
    lie face up in front of their players until the next reveal), a check once they have
    chosen this round, and "away" for a player who left a web table."""
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(
        t(
            "Round {round} · deck {deck} · supply {supply} · sakuras {scored}/{total}",
            round=view.round,
            deck=view.deck_size,
            supply=view.supply,
            scored=view.scored,
            total=len(view.sakuras),
        ),
        style="bold",
    )
    out.append("\n")
    wide = width >= 100
    played = dict(view.revealed or view.last_round)
    line = 0  # cells used on the current line of entries
    for seat in range(len(view.painters)):
        entry = Text()
        entry.append(f" {seat_letter(view, seat)} ", style=f"reverse {seat_style(view, seat)}")
        name = seat_name(view, seat, names)
        entry.append(" " + shape(name if wide or len(name) <= NAME else name[: NAME - 1] + "…") + " ")
        entry.append(t("sp {space}", space=view.painters[seat]), style="dim")
        entry.append(" ")
        entry.append(t("♦{tokens}", tokens=view.tokens[seat]), style="bold yellow")
        if seat in played:
            entry.append(f" #{played[seat]}", style="cyan")
        if seat < view.players and view.chosen[seat] and not view.terminal:
            entry.append(" ✓", style="green")
        if seat in away:
            entry.append(" " + shape(tr("away")), style="bold red")
        # an entry is never cut across two lines: one that does not fit starts the next line
        if line and line + 2 + entry.cell_len > width:  # 2: the gap before the entry
            out.append("\n")
            line = 0
        elif line:
            out.append("  ")
            line += 2
        out.append_text(entry)
        line += entry.cell_len
    return out


def describe_garden_action(code: str) -> str:
    return {
        "E+1": tr("Emperor forward 1"),
        "E+2": tr("Emperor forward 2"),
        "E-1": tr("Emperor back 1"),
        "E±1": tr("Emperor ±1, you choose"),
        "C-2": tr("closest painter back 2"),
        "F+2": tr("furthest painter forward 2"),
    }.get(code, code)


def describe_painter_action(code: str) -> str:
    if code == "JUMP":
        return tr("jump past the next painter")
    if code == "COUNT":
        return tr("+1 per painter ahead")
    if "±" in code:
        return tr("you ±{n}").format(n=code[-1])
    if code.startswith("P-"):
        return tr("you back {n}").format(n=code[-1])
    return tr("you forward {n}").format(n=code[-1])


def draw_card(
    number: int | None,
    width: int,
    *,
    selected: bool = False,
    picked: bool = False,
    index: int | None = None,
    describe: bool = False,
) -> Text:
    """One card: key number, order number, garden action, painter action (and words, if wide)."""
    style = "reverse bold" if selected else ("bold green" if picked else "")
    out = Text(no_wrap=True, overflow="crop")
    if number is None:
        out.append("░" * width + "\n" + "░" * width + "\n" + "░" * width, style="dim")
        return out
    card = default_deck().card(number)
    key = f"[{index}]" if index is not None else ""
    out.append(f"{key} #{number}".ljust(width)[:width], style=style)
    out.append("\n")
    garden, painter = str(card.garden), str(card.painter)
    if describe:
        garden += " " + shape(describe_garden_action(garden))
        painter += " " + shape(describe_painter_action(painter))
    out.append(garden.ljust(width)[:width], style=style or "cyan")
    out.append("\n")
    out.append(painter.ljust(width)[:width], style=style or "yellow")
    return out


def emperor_from_events(events: Sequence[Event]) -> int | None:
    """Where the previewed events leave the Emperor (read from their public dict form), or
    ``None`` when he does not move."""
    ends = [int(d["end"]) for d in (e.to_dict() for e in events) if d.get("type") == "emperor_moved"]
    return ends[-1] if ends else None


def ghost_from_events(events: Sequence[Event]) -> dict[int, int]:
    """Where the previewed events leave each painter that moved (last move wins), read from
    the events' public dict form."""
    ghost: dict[int, int] = {}
    for data in (e.to_dict() for e in events):
        if data.get("type") in ("painter_moved", "bumped") and isinstance(data.get("seat"), int):
            ghost[int(data["seat"])] = int(data["end"])
    return ghost
