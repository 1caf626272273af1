"""The card game drawn as Rich text, from a :class:`CardsView` only.

A card is its colour *and* its letter (``r`` red, ``b`` blue, ``g`` green, ``y`` yellow),
its number, and ``✿`` for a cherry blossom: ``r1✿``, ``b3``. The colour alone never tells
a card apart, so the screen reads the same to a colour-blind player. Each area shows the
score the view gives it now and, from the view's ``area_details`` (the engine's
``explain_area``), the three cards behind it (underlined) and what they make. Nothing here
decides what scores or what fits: that is the view's ``area_scores``, ``area_details`` and
``legal_actions``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.text import Text

from sakura.engine.games.cards import AREAS, ROUNDS, AreaScore, CardsView
from sakura.tui.i18n import RTL, language, shape, t, tn, tr

COLOUR_STYLES = {
    "r": "bold bright_red",
    "b": "bold deep_sky_blue1",
    "g": "bold bright_green",
    "y": "bold bright_yellow",
}
BLOSSOM = "✿"
LRM = "\u200e"  # keeps a card's blossom next to its number inside right-to-left text
NEWEST = "★"
CHIP = 4  # cells a card takes in an area row: "r1✿" and a space
LABEL = 12  # the area column: a key "[1] " and the area's name


def colour_name(letter: str) -> str:
    return {"r": tr("red"), "b": tr("blue"), "g": tr("green"), "y": tr("yellow")}[letter]


def area_name(area: str) -> str:
    return {"garden": tr("garden"), "palace": tr("palace"), "temple": tr("temple")}[area]


def card_label(card: str) -> str:
    """A card as text: ``r1*`` is ``r1✿`` (with a left-to-right mark in Persian text)."""
    if not card.endswith("*"):
        return card
    return card[:-1] + BLOSSOM + (LRM if language() in RTL else "")


def cards_label(cards: Sequence[str]) -> str:
    return " ".join(card_label(c) for c in cards) or "–"


def chip(card: str, *, style: str = "", width: int = 3) -> Text:
    """One card in its colour, padded to ``width`` cells (0: not padded); ``style`` adds to
    the colour."""
    text = card[:-1] + BLOSSOM if card.endswith("*") else card
    out = Text(text, style=f"{COLOUR_STYLES[card[0]]} {style}".strip())
    out.append(" " * (width - len(text)))  # the padding takes no underline or reverse
    return out


def describe_area(score: AreaScore, cards: int, *, short: bool = False) -> str:
    """What an area's cards make, in words: ``three colours, in a row, blossom +3``; ``short``
    (a narrow screen): ``3 colours, run, ✿+3``.

    ``cards`` is how many cards the area holds (below three there is no combination)."""
    if score.blossoms > 1:
        if short:
            return tr("{n}✿: 0").format(n=score.blossoms)
        return tr("{n} blossoms: the area scores 0").format(n=score.blossoms)
    parts = []
    if score.best:
        if score.combination == "colours":
            parts.append(tr("3 colours") if short else tr("three colours"))
        elif score.combination == "one_colour":
            parts.append(
                tr("1 colour")
                if short
                else tr("one colour ({colour})").format(colour=colour_name(score.best[0][0]))
            )
        if score.run:
            parts.append(tr("run") if short else tr("in a row"))
    elif cards >= 3:
        parts.append(tr("none") if short else tr("no combination"))
    if score.blossoms == 1:
        parts.append(BLOSSOM + "+3" if short else tr("blossom +3"))
    return tr(", ").join(parts)


def explain(score: AreaScore, cards: int) -> str:
    """The three scoring cards and what they make: ``b1 g2 r3: three colours, in a row``."""
    how = describe_area(score, cards)
    if score.best and score.blossoms <= 1:
        return f"{cards_label(score.best)}: {how}"
    return how


def status_line(view: CardsView, names: Sequence[str]) -> Text:
    """Round, whose turn and what they do (place or discard, then give)."""
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(t("Round {round} of {rounds}", round=view.round, rounds=ROUNDS), style="bold")
    out.append(" · ")
    if view.turn is None:
        out.append(t("the game is over"), style="bold")
    elif view.phase == "give":
        out.append(t("{name} gives a card", name=names[view.turn]), style="bold cyan")
    else:
        out.append(t("{name} places a card (or discards)", name=names[view.turn]), style="bold cyan")
    out.append(" · ")
    out.append(tn("{n} card set aside", "{n} cards set aside", view.aside), style="dim")
    return out


def player_header(view: CardsView, seat: int, name: str, *, turn: bool, away: bool = False) -> Text:
    """Name (and "away" for a player who left a web table), hand size, discards, every
    finished round's score and the total so far."""
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(("▶ " if turn else "  ") + shape(name), style="bold reverse" if turn else "bold")
    if away:
        out.append(" " + shape(tr("away")), style="bold red")
    out.append("  ")
    out.append(t("hand {n}", n=view.hand_sizes[seat]), style="")
    out.append(" · ")
    out.append(t("discarded {n}", n=view.discard_counts[seat]), style="dim")
    rounds = view.round_scores[seat]
    if rounds:
        out.append(" · ")
        out.append(t("rounds {scores}", scores=" + ".join(map(str, rounds))))
    out.append(" · ")
    out.append(t("total {n}", n=view.totals[seat]), style="bold yellow")
    return out


def area_rows(
    view: CardsView,
    seat: int,
    width: int,
    chips: int,
    *,
    keys: Sequence[str] = (),
    cursor: str | None = None,
    ghost: str | None = None,
) -> list[Text]:
    """The three areas of ``seat`` as rows of cards, each with its score and combination.

    ``keys`` are the areas open to the card being placed (they get their key number),
    ``cursor`` the area highlighted, ``ghost`` the card shown where it would go."""
    rows = []
    for i, area in enumerate(AREAS):
        cards = view.areas[seat][i]
        detail = view.area_details[seat][i]
        row = Text(no_wrap=True, overflow="ellipsis")
        key = f"[{i + 1}] " if area in keys else "    "
        style = "reverse bold" if area == cursor else ("dim" if keys and area not in keys else "")
        row.append(key, style="bold")
        row.append(shape(area_name(area))[: LABEL - 5].ljust(LABEL - 4), style=style or "dim")
        best = Counter(detail.best) if detail.blossoms <= 1 else Counter()
        used = 0
        for card in cards:
            mark = ""
            if best[card] > 0:
                best[card] -= 1
                mark = "underline"
            row.append_text(chip(card, style=mark))
            row.append(" ")
            used += 1
        if ghost is not None and area == cursor:
            row.append_text(chip(ghost, style="blink reverse"))
            row.append(" ")
            used += 1
        row.append(" " * (CHIP * max(0, chips - used)))
        row.append(f"{view.area_scores[seat][i]:>3} ", style="bold yellow")
        room = width - LABEL - CHIP * max(chips, used) - 4
        if room > 4:
            # the longest form that fits: the scoring cards and what they make; what they
            # make (they are underlined); that in short words; never a phrase cut off
            forms = (
                explain(detail, len(cards)),
                describe_area(detail, len(cards)),
                describe_area(detail, len(cards), short=True),
            )
            how = next((f for f in forms if len(f) <= room), forms[-1])
            row.append(shape(how)[:room], style="italic")
        rows.append(row)
    return rows


def chips_wide(view: CardsView) -> int:
    """How many cards the widest area row must hold (at least three), so rows line up."""
    return max(3, *(len(a) + 1 for seat in view.areas for a in seat))


def hand_boxes(
    hand: Sequence[str] | None,
    *,
    cursor: int | None = None,
    legal: frozenset[str] = frozenset(),
    picked: int | None = None,
    newest: str | None = None,
) -> Text:
    """The hand as small boxed cards, each with its key (1-9, 0 for the tenth) in its top edge:
    the card under the cursor heavy, cards that cannot be played now dimmed, the card being
    placed green, the newest received card marked ★ under its box."""
    out = Text(no_wrap=True, overflow="crop")
    if not hand:
        return out
    tops, mids, bottoms = Text(), Text(), Text()
    marked = False
    for i, card in enumerate(hand):
        heavy = i == cursor
        edge = "bold white" if heavy else ("bold green" if i == picked else "dim")
        h, v = ("━", "┃") if heavy else ("─", "│")
        key = str((i + 1) % 10) if i < 10 else h
        tops.append(("┏" if heavy else "┌") + key + h * 2 + ("┓" if heavy else "┐") + " ", style=edge)
        mids.append(v, style=edge)
        playable = not legal or card in legal
        mids.append_text(chip(card, style=("reverse" if heavy else "") + ("" if playable else " dim")))
        mids.append(v + " ", style=edge)
        star = card == newest and not marked
        marked = marked or star
        bottom = (h + NEWEST + h) if star else h * 3
        bottoms.append(
            ("┗" if heavy else "└") + bottom + ("┛" if heavy else "┘") + " ",
            style="bold magenta" if star and not heavy else edge,
        )
    out.append_text(tops)
    out.append("\n")
    out.append_text(mids)
    out.append("\n")
    out.append_text(bottoms)
    return out


def chips(cards: Sequence[str], *, last: str = "") -> Text:
    """Cards in a line, each in its colour; ``last`` styles the last one (the newest)."""
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(chip(card, width=0, style=last if i == len(cards) - 1 else ""))
    return out if cards else Text("–")


def own_line(view: CardsView, width: int = 200) -> Text:
    """What only this player knows of the round: the cards received (the newest ★), given
    and discarded face down; on two lines (never cut) when one is narrower than it."""
    received = view.received or ()
    parts = []
    for label, cards, last in (
        (tr("received"), received, "reverse"),
        (tr("given"), view.given or (), ""),
        (tr("discarded"), view.discarded or (), ""),
    ):
        part = Text(no_wrap=True)
        part.append(shape(label) + " ", style="dim")
        part.append_text(chips(cards, last=last))
        if cards is received and received:
            part.append(NEWEST, style="bold magenta")
        parts.append(part)
    out = Text(no_wrap=True, overflow="ellipsis")
    line = 0
    for i, part in enumerate(parts):
        if i and line + 3 + part.cell_len > width:
            out.append("\n")
            line = 0
        elif i:
            out.append(" · ", style="dim")
            line += 3
        out.append_text(part)
        line += part.cell_len
    return out
