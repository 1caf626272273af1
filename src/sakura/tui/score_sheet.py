"""The end of a game of Sakura in the terminal: the engine's score sheet as a table a player
reads at a glance (five tokens at the start, what each cherry tree gave, what the Emperor took
back, the total), the tie-break in words, and where you finished.

The numbers are the engine's (:func:`sakura.engine.games.sakura.score_sheet`); nothing here
adds them up differently: a row's total is the sheet's ``tokens``.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from sakura.engine.games.sakura import SakuraView, ScoreSheet
from sakura.tui.i18n import N_, lt, ltn, paragraph, shape, t, tr
from sakura.tui.render import seat_letter, seat_style

# "You finished 2nd": each place its own sentence, as each language writes an ordinal.
PLACES = (
    N_("You finished 1st."),
    N_("You finished 2nd."),
    N_("You finished 3rd."),
    N_("You finished 4th."),
    N_("You finished 5th."),
    N_("You finished 6th."),
)


def sheet_table(
    sheet: ScoreSheet, view: SakuraView, who: Callable[[int], str], you: int | None
) -> tuple[RenderableType, str]:
    """The score sheet's table (with the bumps under it) and the sentences under it: the
    winner, why (the tie-break), and, for the one human at the keyboard, their place."""
    table = Table(title=t("Score sheet"), expand=False, padding=(0, 1))
    table.add_column("#")
    table.add_column(t("Painter"))
    table.add_column(t("At start"), justify="right")
    for tree in sheet.trees:
        table.add_column(f"✿{tree.sakura + 1}", justify="right")  # the garden's own sakura mark
    table.add_column(t("Bumps"), justify="right")
    table.add_column(t("Tokens"), justify="right", style="bold")
    table.add_column(t("Space"), justify="right")
    court = view.court
    order = [*sheet.order(), *([court] if court is not None else [])]
    places: dict[int, int] = {}
    for place, seat in enumerate(order, start=1):
        places[seat] = place
        mark = " ★" if seat in sheet.winners else ""
        name = Text(f"{seat_letter(view, seat)} {shape(who(seat))}{mark}", style=seat_style(view, seat))
        if seat == you:
            name.append(" ◀", style="bold")
        lost = sheet.lost(seat)
        table.add_row(
            "–" if seat == court else str(place),
            name,
            str(sheet.start(seat)),
            *(f"+{tree.tokens(seat)}" if tree.tokens(seat) else "·" for tree in sheet.trees),
            f"−{lost}" if lost else "·",
            str(sheet.tokens[seat]),
            str(sheet.spaces[seat]),
        )
    notes = [lt("The court painter takes tokens like a player but never wins.")] if court is not None else []
    notes += [bump_line(sheet, i, who) for i in range(len(sheet.bumps)) if sheet.bumps[i].token_lost]
    body: RenderableType = Group(table, *(paragraph(n, "italic") for n in notes)) if notes else table
    said = [lt("Winner: {names}", names=tr(", ").join(who(w) for w in sheet.winners)), why(sheet, who)]
    if you is not None and you in places and you != court:
        said.append(tr(PLACES[places[you] - 1]))
    return body, "\n".join(s for s in said if s)


def why(sheet: ScoreSheet, who: Callable[[int], str]) -> str:
    """The tie-break in words, or nothing when the most tokens decided alone."""
    if len(sheet.tied) < 2:
        return ""
    n = sheet.tokens[sheet.tied[0]]
    if sheet.decided_by_closeness:
        (winner,) = sheet.winners
        return ltn(
            "Tied on {n} token: {name} wins, closest to the Emperor (space {space}).",
            "Tied on {n} tokens: {name} wins, closest to the Emperor (space {space}).",
            n,
            name=who(winner),
            space=sheet.spaces[winner],
        )
    return ltn(
        "Tied on {n} token, side by side at the gate: a shared win.",
        "Tied on {n} tokens, side by side at the gate: a shared win.",
        n,
    )


def bump_line(sheet: ScoreSheet, index: int, who: Callable[[int], str]) -> str:
    """One token given back, told with its round and its cause."""
    bump = sheet.bumps[index]
    if bump.by == "emperor" and bump.card_of is not None and bump.card_of != bump.seat:
        return lt(
            "Round {round}: {other}'s card {card} backed the Emperor onto {name}: −1 token.",
            round=bump.round,
            name=who(bump.seat),
            other=who(bump.card_of),
            card=bump.card,
        )
    if bump.by == "emperor":
        return lt(
            "Round {round}: the Emperor backed onto {name} (card {card}): −1 token.",
            round=bump.round,
            name=who(bump.seat),
            card=bump.card,
        )
    if bump.card_of is not None and bump.card_of != bump.seat:
        return lt(
            "Round {round}: {name} reached the Emperor, moved by {other}'s card {card}: −1 token.",
            round=bump.round,
            name=who(bump.seat),
            other=who(bump.card_of),
            card=bump.card,
        )
    return lt(
        "Round {round}: {name} reached the Emperor (card {card}): −1 token.",
        round=bump.round,
        name=who(bump.seat),
        card=bump.card,
    )


def view_table(view: SakuraView, who: Callable[[int], str], you: int | None) -> tuple[RenderableType, str]:
    """The final standings from the final view alone (a web table's game, whose record the
    server keeps): place, painter, tokens, space; the winner, and where ``you`` finished."""
    outcome = view.outcome
    assert outcome is not None
    table = Table(title=t("Final standings"), expand=False)
    table.add_column(t("Place"))
    table.add_column(t("Painter"))
    table.add_column(t("Tokens"), justify="right")
    table.add_column(t("Space"), justify="right")
    # the court painter is ranked among the painters by its tokens, but takes no place: it
    # never wins (rules: "is ranked and takes tokens like a player, but cannot win")
    court = view.court
    tokens = list(outcome.scores) + ([view.tokens[court]] if court is not None else [])
    order = sorted(range(len(tokens)), key=lambda s: (-tokens[s], -view.painters[s]))
    place, places = 0, {}
    for seat in order:
        mark = " ★" if seat in outcome.winners else ""
        place += seat != court
        places[seat] = place
        table.add_row(
            "–" if seat == court else str(place),
            Text(f"{seat_letter(view, seat)} {shape(who(seat))}{mark}", style=seat_style(view, seat)),
            str(tokens[seat]),
            str(view.painters[seat]),
        )
    note = lt("The court painter takes tokens like a player but never wins.") if court is not None else ""
    winners = tr(", ").join(who(w) for w in outcome.winners)
    standings: RenderableType = Group(table, paragraph(note, "italic")) if note else table
    said = lt("Winner: {names}", names=winners)
    if you is not None:
        said += "\n" + lt(
            "You finished in place {place} of {players}.", place=places[you], players=view.players
        )
    return standings, said
