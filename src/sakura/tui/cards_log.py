"""The card game's log: one translated sentence per engine event, from the event's dict form.

Live games pass ``event.seen_by(viewer).to_dict()``, remote games the server's events for
this seat, replays the spectator's: a gift or a discard the viewer may not see arrives with
``card`` ``None`` and is told as face down, never named. Round scoring is told area by area
from the event's ``detail`` (the areas are cleared right after, so the event is the record).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sakura.engine.games.cards import AREAS, AreaScore
from sakura.tui.cards_render import area_name, card_label, cards_label, explain
from sakura.tui.i18n import lt

Names = Callable[[int], str]


def _score(data: Any) -> AreaScore:
    if isinstance(data, AreaScore):
        return data
    return AreaScore(
        tuple(data["best"]),
        str(data["combination"]),
        bool(data["run"]),
        int(data["blossoms"]),
        int(data["points"]),
    )


def scoring_lines(event: dict[str, Any], name: Names) -> list[str]:
    """A round's scoring: each player's points and total, then each area's combination."""
    lines = [lt("Round {round} is scored.", round=event["round"])]
    cards = event.get("cards") or ()
    detail = event.get("detail") or ()
    for seat, areas in enumerate(event["areas"]):
        lines.append(
            lt(
                "{name}: {points} this round, {total} in all.",
                name=name(seat),
                points=sum(areas),
                total=event["totals"][seat],
            )
        )
        for i, points in enumerate(areas):
            area = area_name(AREAS[i])
            if seat < len(detail) and seat < len(cards):
                how = explain(_score(detail[seat][i]), len(cards[seat][i]))
                if how:
                    lines.append(lt("  {area} {points}: {how}", area=area, points=points, how=how))
                    continue
            lines.append(lt("  {area} {points}", area=area, points=points))
    return lines


def sentence(event: dict[str, Any], name: Names, you: int | None = None) -> str | None:
    """The sentence for one event, or ``None`` for events not worth a line."""
    kind = event.get("type")
    if kind == "round_started":
        return lt("— Round {round} — {name} starts.", round=event["round"], name=name(event["starter"]))
    if kind == "cards_dealt":
        hands = event.get("hands") or ()
        mine = hands[you] if you is not None and you < len(hands) else None
        if mine:
            return lt("You are dealt {cards}.", cards=cards_label(mine))
        return lt("The cards are dealt; {n} are set aside unseen.", n=event["aside"])
    if kind == "card_placed":
        if event["player"] == you:  # the viewer's own moves are told as "you", as gifts are
            return lt(
                "You place {card} in the {area}.",
                card=card_label(event["card"]),
                area=area_name(event["area"]),
            )
        return lt(
            "{name} places {card} in the {area}.",
            name=name(event["player"]),
            card=card_label(event["card"]),
            area=area_name(event["area"]),
        )
    if kind == "card_discarded":
        if event.get("card") and event["player"] == you:
            return lt("You discard {card} face down: no card fitted.", card=card_label(event["card"]))
        if event.get("card"):
            return lt(
                "{name} discards {card} face down: no card fitted.",
                name=name(event["player"]),
                card=card_label(event["card"]),
            )
        return lt("{name} discards a card face down: no card fitted.", name=name(event["player"]))
    if kind == "card_given":
        card = event.get("card")
        if card and event["giver"] == you:
            return lt("You give {card} to {name}.", card=card_label(card), name=name(event["receiver"]))
        if card and event["receiver"] == you:
            return lt("You receive {card} from {name}.", card=card_label(card), name=name(event["giver"]))
        return lt(
            "{giver} gives {receiver} a card face down.",
            giver=name(event["giver"]),
            receiver=name(event["receiver"]),
        )
    if kind == "round_scored":
        return "\n".join(scoring_lines(event, name))
    if kind == "game_ended":
        return "\n".join([lt("The game is over."), result_line(event["winners"], event["scores"], name)])
    return None


def result_line(winners: Sequence[int], scores: Sequence[int], name: Names) -> str:
    """``Bot 2 wins, 98 to 85.`` or ``A draw: 90 each.``"""
    if len(winners) != 1:
        return lt("A draw: {points} each.", points=scores[0])
    winner = winners[0]
    other = max(s for seat, s in enumerate(scores) if seat != winner)
    return lt("{name} wins, {points} to {other}.", name=name(winner), points=scores[winner], other=other)
