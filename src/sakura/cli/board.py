"""Sakura positions drawn as plain text, for ``sakura show`` and ``sakura replay``; and the card
game's table (``draw_cards``) for ``sakura replay --board``.

Painters are shown by seat number (1-6) and the court painter by ``c``; ``E`` is the Emperor.
Unscored sakuras are ``S``, scored ones ``s``.
"""

from __future__ import annotations

from sakura.engine.games.cards import AREAS, CardsView
from sakura.engine.games.sakura import Position, SakuraGame


def seat_label(seat: int, game: SakuraGame) -> str:
    return "c" if seat == game.court else str(seat + 1)


def draw_position(position: Position, game: SakuraGame) -> str:
    spaces = list(game.garden.spaces)
    for i in game.sakuras[: position.scored]:
        spaces[i] = "s"
    width = len(spaces)
    ruler = "".join(str(i // 10) if i % 10 == 0 else " " for i in range(width))
    units = "".join(str(i % 10) for i in range(width))
    painters = [" "] * width
    emperor = [" "] * width
    emperor[position.emperor] = "E"
    at_gate = []
    for seat, space in enumerate(position.painters):
        if space == 0:
            at_gate.append(seat_label(seat, game))
        else:
            painters[space] = seat_label(seat, game)
    if at_gate:
        painters[0] = "*" if len(at_gate) > 1 else at_gate[0]
    variant = "" if game.variant == "standard" else f", {game.variant} variant"
    lines = [
        f"Sakura: {game.players} players{variant}; round {position.round}; "
        f"sakuras scored {position.scored}/{len(game.sakuras)}; supply {position.supply} tokens",
        "",
        "space     " + ruler,
        "          " + units,
        "garden    " + "".join(spaces),
        "emperor   " + "".join(emperor).rstrip(),
        "painters  " + "".join(painters).rstrip(),
        "",
        "tokens    " + "   ".join(f"{seat_label(s, game)}: {t}" for s, t in enumerate(position.tokens)),
    ]
    if len(at_gate) > 1:
        lines.append("at gate   " + ", ".join(at_gate) + "  (* on the line above)")
    if position.hands is not None:
        lines.append(
            "hands     "
            + "   ".join(f"{s + 1}: " + " ".join(map(str, h)) for s, h in enumerate(position.hands))
        )
    if position.deck is not None:
        lines.append(f"deck      {len(position.deck)} cards")
    if position.queue:
        todo = ", ".join(f"{c} ({seat_label(s, game)})" for c, s in position.queue)
        lines.append(f"to resolve {todo}")
    lines.append("")
    lines.append("legend    G gate  B bridge  T torii  S sakura (s scored)  E Emperor")
    lines.append("          1-6 painters by seat" + ("  c court painter" if game.court >= 0 else ""))
    return "\n".join(lines)


_COMBINATIONS = {
    ("colours", True): "three colours, in a row",
    ("colours", False): "three colours",
    ("one_colour", True): "one colour, in a row",
    ("one_colour", False): "one colour",
    ("none", True): "in a row",
}


def draw_cards(view: CardsView) -> str:
    """The card game's table as a spectator sees it: each player's areas, their scores and the
    three cards behind each (from the view's ``area_details``), round scores and totals."""
    head = "the end" if view.terminal or view.turn is None else f"player {view.turn + 1} to {view.phase}"
    lines = [f"round {view.round} of 3, {head}; {view.aside} cards set aside"]
    for seat in range(2):
        rounds = " + ".join(str(s) for s in view.round_scores[seat]) or "-"
        lines.append(
            f"player {seat + 1}: total {view.totals[seat]} (rounds {rounds}); "
            f"{view.hand_sizes[seat]} in hand, {view.discard_counts[seat]} discarded"
        )
        for i, area in enumerate(AREAS):
            detail = view.area_details[seat][i]
            if detail.blossoms > 1:
                why = f"{detail.blossoms} blossoms: nothing"
            elif detail.best:
                why = f"{' '.join(detail.best)}: {_COMBINATIONS[detail.combination, detail.run]}"
                why += ", and a blossom" if detail.blossoms else ""
            else:
                why = "a blossom" if detail.blossoms else ""
            cards = " ".join(view.areas[seat][i]) or "-"
            lines.append(f"  {area:<7} {cards:<28} {view.area_scores[seat][i]:>3}  {why}".rstrip())
    return "\n".join(lines)
