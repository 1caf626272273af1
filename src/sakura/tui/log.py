"""The log: one translated sentence per engine event, from the event's dict form.

Live games pass ``event.seen_by(viewer).to_dict()``, replays the record's events, so hidden
cards arrive as ``None`` and are never named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sakura.engine.games.sakura import default_deck
from sakura.tui.i18n import lt, ltn, tr

Names = Callable[[int], str]


def card_text(number: int) -> str:
    card = default_deck().card(number)
    return f"{number} {card.garden} {card.painter}"


def and_list(items: list[str]) -> str:
    """Items as a reader lists them: ``13 and 40``, ``5, 13 and 40`` (the language's comma
    and "and").

    >>> and_list(["5"]), and_list(["13", "40"]), and_list(["5", "13", "40"])
    ('5', '13 and 40', '5, 13 and 40')
    """
    if len(items) < 2:
        return "".join(items)
    return lt("{items} and {last}", items=tr(", ").join(items[:-1]), last=items[-1])


def capital(text: str) -> str:
    """A sentence starts with a capital even when it starts with a name in lower case
    ("court painter moves ..."); the rest is left as it is.

    >>> capital("court painter moves."), capital("  1. court painter"), capital("")
    ('Court painter moves.', '  1. court painter', '')
    """
    return text[:1].upper() + text[1:]


def sentence(event: dict[str, Any], name: Names, you: int | None = None) -> str | None:
    """The sentence for one event (each line starting with a capital), or ``None`` for
    events not worth a line."""
    text = _sentence(event, name, you)
    return None if text is None else "\n".join(capital(line) for line in text.split("\n"))


def _sentence(event: dict[str, Any], name: Names, you: int | None) -> str | None:
    """The log speaks to its reader: what the viewer's own painter does is said with "you"
    (a whole sentence of its own, as each language conjugates it), the others by name."""
    kind = event.get("type")

    def yours(key: str = "seat") -> bool:
        return you is not None and event.get(key) == you

    def called(seat: int) -> str:  # a name in a list: "13 (you)", "1. You: 3 tokens"
        return tr("you") if you is not None and seat == you else name(seat)

    if kind == "round_started":
        line = lt("— Round {round} —", round=event["round"])
        if yours("double"):
            line += "\n" + lt("You play two cards: one for the court painter.")
        elif event.get("double") is not None:
            line += "\n" + lt(
                "{name} plays two cards: one for the court painter.", name=name(event["double"])
            )
        return line
    if kind == "card_chosen":
        cards = event.get("cards")
        if cards and event["player"] == you:
            if len(cards) == 2:  # tactical: your own painter's card, then the court painter's
                return lt(
                    "You choose card {card} for your painter and card {court} for the court painter.",
                    card=cards[0],
                    court=cards[1],
                )
            return lt("You choose card {cards}.", cards=", ".join(map(str, cards)))
        return lt("{name} has chosen.", name=name(event["player"]))
    if kind == "cards_revealed":
        plays = ", ".join(f"{card} ({called(seat)})" for seat, card in event["plays"])
        line = lt("Cards revealed: {plays}.", plays=plays)
        if event.get("court_from_deck"):
            line += "\n" + lt("The court painter's card comes from the deck.")
        return line
    if kind == "card_resolving":
        if yours():
            return lt("Your card {card}.", card=card_text(event["card"]))
        return lt("Card {card} of {name}.", card=card_text(event["card"]), name=name(event["seat"]))
    if kind == "choice_asked":
        # whole sentences, not a fragment put in one: "de" + "el" is "del" in Spanish
        if yours():
            if event["part"] == "garden":
                return lt("You choose the direction of the Emperor's move.")
            return lt("You choose the direction of your painter's move.")
        if event["part"] == "garden":
            return lt("{name} chooses the direction of the Emperor's move.", name=name(event["seat"]))
        return lt("{name} chooses the direction of the painter's move.", name=name(event["seat"]))
    if kind == "choice_made":
        if yours():
            return lt("You choose forward.") if event["forward"] else lt("You choose back.")
        if event["forward"]:
            return lt("{name} chooses forward.", name=name(event["seat"]))
        return lt("{name} chooses back.", name=name(event["seat"]))
    if kind == "emperor_moved":
        if event["start"] == event["end"]:
            return lt("The Emperor cannot go back past space 1.")
        return lt(
            "The Emperor walks from space {start} to space {end}.", start=event["start"], end=event["end"]
        )
    if kind == "painter_moved" and yours():
        return _you_moved(event)
    if kind == "painter_moved":
        who = name(event["seat"])
        if event["start"] == event["end"]:
            if event["end"] == 0:
                return lt("{name} is at the gate and cannot go back.", name=who)
            return lt("{name} stays on space {end}.", name=who, end=event["end"])
        if event["cause"] == "lineup":
            return lt("{name} lines up on space {end}.", name=who, end=event["end"])
        if event["end"] < event["start"]:
            return lt(
                "{name} goes back from space {start} to space {end}.",
                name=who,
                start=event["start"],
                end=event["end"],
            )
        return lt(
            "{name} moves from space {start} to space {end}.",
            name=who,
            start=event["start"],
            end=event["end"],
        )
    if kind == "painter_stayed":
        if event.get("seat") is None:
            return lt("Nobody moves.")
        if yours():
            return lt("You stay where you are.")
        return lt("{name} stays where they are.", name=name(event["seat"]))
    if kind == "bumped" and yours():
        return _you_bumped(event)
    if kind == "bumped":
        who = name(event["seat"])
        if event.get("by") == "emperor":  # the Emperor's move caused it, not the painter's
            line = lt(
                "The Emperor backs onto {name} on space {at}: {name} falls from grace, back to space {end}.",
                name=who,
                at=event["at"],
                end=event["end"],
            )
        else:
            line = lt(
                "{name} reaches the Emperor on space {at} and falls from grace: back to space {end}.",
                name=who,
                at=event["at"],
                end=event["end"],
            )
        if event.get("token_lost"):
            line += "\n" + lt("{name} gives a token back to the supply.", name=who)
        return line
    if kind == "cards_discarded":
        n = len(event["cards"])
        return (
            ltn(
                "The Emperor stops at a sakura: {n} card is discarded unplayed.",
                "The Emperor stops at a sakura: {n} cards are discarded unplayed.",
                n,
            )
            if n
            else None
        )
    if kind == "sakura_scored":
        lines = [
            lt(
                "Sakura {number} on space {space} is scored!",
                number=event["sakura"] + 1,
                space=event["space"],
            )
        ]
        for seat, rank, tokens in event["awards"]:
            lines.append(
                ltn(
                    "  {rank}. {name}: {n} token",
                    "  {rank}. {name}: {n} tokens",
                    tokens,
                    rank=rank,
                    name=capital(called(seat)),
                )
            )
        return "\n".join(lines)
    if kind == "hands_refilled":
        mine = event["draws"][you] if you is not None and you < len(event["draws"]) else None
        if mine and len(mine) == 1:  # "you draw 5" read as five cards: say "card"
            return lt("Hands are refilled; you draw card {card}.", card=mine[0])
        if mine:
            return lt("Hands are refilled; you draw cards {cards}.", cards=and_list([str(c) for c in mine]))
        return lt("Hands are refilled.")
    if kind == "deck_reshuffled":
        return ltn(
            "The discard pile is shuffled into a new deck of {n} card.",
            "The discard pile is shuffled into a new deck of {n} cards.",
            event["size"],
        )
    if kind == "game_ended":
        return lt("The game is over.")
    return None


def _you_moved(event: dict[str, Any]) -> str:
    """Your own painter's move, told to you."""
    start, end = event["start"], event["end"]
    if start == end:
        if end == 0:
            return lt("You are at the gate and cannot go back.")
        return lt("You stay on space {end}.", end=end)
    if event["cause"] == "lineup":
        return lt("You line up on space {end}.", end=end)
    if end < start:
        return lt("You go back from space {start} to space {end}.", start=start, end=end)
    return lt("You move from space {start} to space {end}.", start=start, end=end)


def _you_bumped(event: dict[str, Any]) -> str:
    """Your own painter's fall from grace, told to you."""
    if event.get("by") == "emperor":
        line = lt(
            "The Emperor backs onto you on space {at}: you fall from grace, back to space {end}.",
            at=event["at"],
            end=event["end"],
        )
    else:
        line = lt(
            "You reach the Emperor on space {at} and fall from grace: back to space {end}.",
            at=event["at"],
            end=event["end"],
        )
    if event.get("token_lost"):
        line += "\n" + lt("You give a token back to the supply.")
    return line
