"""Positions: any situation of a game of Sakura, as a value with a one-line text form and JSON.

Like chess's FEN, the text form is a line of space-separated fields. The first names the table
(``3``..``6`` players, or ``2c``/``2t`` for two players with the court painter, plain or
tactical); every other field starts with a letter:

====  =====================================================================================
``e``  the Emperor's space                    ``s``  how many sakuras are scored (0-3)
``p``  painters' spaces by seat, court last    ``t``  tokens by seat, court last
``q``  tokens in the supply                    ``r``  the round number
``h``  hands, ``/`` between seats              ``d``  the deck, top card first
``x``  the discard pile, oldest first          ``c``  cards chosen this round (secret), by seat
``k``  cards of the round still to resolve, ``card@seat`` in order, then ``:`` and the stage
====  =====================================================================================

Cards in a list are separated by ``.``. ``h``, ``d``, ``x``, ``c`` and ``k`` are optional: a
position without hands is the public board, and a state made from it deals the unseen cards
from a seed. The stage after ``k`` is ``-`` (next card not started), ``g`` (its owner chooses
the Emperor's direction), ``G`` (garden action done) or ``p`` (its owner chooses the painter's
direction), with ``!`` added once the Emperor has reached an unscored sakura on that card.

>>> p = Position.from_text("4 e14 s1 p11,9,0,0 t5,7,5,3 q34 r5")
>>> p.emperor, p.painters
(14, (11, 9, 0, 0))
>>> Position.from_text(p.text()) == p
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sakura.engine.errors import InvalidPositionError
from sakura.engine.games.sakura.cards import EMPEROR_CHOICE, MOVE_CHOICE

if TYPE_CHECKING:
    from sakura.engine.games.sakura.game import SakuraGame
    from sakura.engine.games.sakura.state import SakuraState

Cards = tuple[int, ...]
STAGES = ("-", "g", "G", "p")
_VARIANT_CODES = {"c": "court", "t": "tactical"}


@dataclass(frozen=True, slots=True)
class Position:
    """A situation; see the module docstring for the text form."""

    players: int
    variant: str
    emperor: int
    scored: int
    painters: tuple[int, ...]
    tokens: tuple[int, ...]
    supply: int
    round: int = 1
    hands: tuple[Cards, ...] | None = None
    deck: Cards | None = None  # top first
    discard: Cards | None = None  # oldest first
    chosen: tuple[Cards, ...] | None = None  # per player; () = not chosen yet
    queue: tuple[tuple[int, int], ...] = field(default=())  # (card, seat), head first
    stage: int = 0  # index into STAGES
    scoring: bool = False

    # ---------------------------------------------------------------- text form

    def text(self) -> str:
        head = str(self.players) if self.variant == "standard" else f"2{self.variant[0]}"
        parts = [
            head,
            f"e{self.emperor}",
            f"s{self.scored}",
            "p" + ",".join(map(str, self.painters)),
            "t" + ",".join(map(str, self.tokens)),
            f"q{self.supply}",
            f"r{self.round}",
        ]
        if self.hands is not None:
            parts.append("h" + "/".join(_cards(h) for h in self.hands))
        if self.deck is not None:
            parts.append("d" + _cards(self.deck))
        if self.discard is not None:
            parts.append("x" + _cards(self.discard))
        if self.chosen is not None and any(self.chosen):
            parts.append("c" + "/".join(_cards(c) for c in self.chosen))
        if self.queue or self.stage or self.scoring:
            q = ".".join(f"{c}@{s}" for c, s in self.queue)
            parts.append(f"k{q}:{STAGES[self.stage]}{'!' if self.scoring else ''}")
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def from_text(cls, text: str) -> Position:
        if not isinstance(text, str) or not text.strip():
            raise InvalidPositionError("a position is a non-empty line of text")
        words = text.split()
        players, variant = _parse_head(words[0])
        seen: dict[str, str] = {}
        for word in words[1:]:
            label, value = word[0], word[1:]
            if label not in "estpqrhdxck":
                raise InvalidPositionError(f"unknown position field {word!r}")
            if label in seen:
                raise InvalidPositionError(f"position field {label!r} appears twice")
            seen[label] = value
        for label in "estpq":
            if label not in seen:
                raise InvalidPositionError(f"the position lacks its {label!r} field")
        try:
            queue: tuple[tuple[int, int], ...] = ()
            stage, scoring = 0, False
            if "k" in seen:
                qtext, sep, stext = seen["k"].partition(":")
                if not sep or stext.rstrip("!") not in STAGES or stext.count("!") > 1:
                    raise InvalidPositionError(f"bad 'k' field {seen['k']!r}: 'card@seat...:stage'")
                queue = tuple(_card_at(item) for item in qtext.split(".") if item)
                stage, scoring = STAGES.index(stext.rstrip("!")), stext.endswith("!")
            position = cls(
                players=players,
                variant=variant,
                emperor=int(seen["e"]),
                scored=int(seen["s"]),
                painters=_ints(seen["p"], ","),
                tokens=_ints(seen["t"], ","),
                supply=int(seen["q"]),
                round=int(seen.get("r", "1")),
                hands=_seats(seen["h"]) if "h" in seen else None,
                deck=_ints(seen["d"], ".") if "d" in seen else None,
                discard=_ints(seen["x"], ".") if "x" in seen else None,
                chosen=_chosen(_seats(seen["c"])) if "c" in seen else None,
                queue=queue,
                stage=stage,
                scoring=scoring,
            )
        except ValueError as exc:
            if isinstance(exc, InvalidPositionError):
                raise
            raise InvalidPositionError(f"malformed position {text!r}: {exc}") from None
        return position

    # ---------------------------------------------------------------- JSON form

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": self.players,
            "variant": self.variant,
            "emperor": self.emperor,
            "scored": self.scored,
            "painters": list(self.painters),
            "tokens": list(self.tokens),
            "supply": self.supply,
            "round": self.round,
        }
        if self.hands is not None:
            out["hands"] = [list(h) for h in self.hands]
        if self.deck is not None:
            out["deck"] = list(self.deck)
        if self.discard is not None:
            out["discard"] = list(self.discard)
        if self.chosen is not None and any(self.chosen):
            out["chosen"] = [list(c) for c in self.chosen]
        if self.queue or self.stage or self.scoring:
            out["queue"] = [[c, s] for c, s in self.queue]
            out["stage"] = STAGES[self.stage]
            out["scoring"] = self.scoring
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Position:
        if not isinstance(data, Mapping):
            raise InvalidPositionError("a JSON position is an object")
        known = {
            "players",
            "variant",
            "emperor",
            "scored",
            "painters",
            "tokens",
            "supply",
            "round",
            "hands",
            "deck",
            "discard",
            "chosen",
            "queue",
            "stage",
            "scoring",
        }
        unknown = set(data) - known
        if unknown:
            raise InvalidPositionError(f"unknown position keys: {sorted(unknown)}")
        try:
            stage = data.get("stage", "-")
            if stage not in STAGES:
                raise InvalidPositionError(f"stage is one of {STAGES}, not {stage!r}")

            def cards(key: str) -> Cards | None:
                return _int_tuple(data[key]) if key in data else None

            def seats(key: str) -> tuple[Cards, ...] | None:
                return tuple(_int_tuple(h) for h in data[key]) if key in data else None

            return cls(
                players=_int(data["players"]),
                variant=str(data.get("variant", "standard")),
                emperor=_int(data["emperor"]),
                scored=_int(data["scored"]),
                painters=_int_tuple(data["painters"]),
                tokens=_int_tuple(data["tokens"]),
                supply=_int(data["supply"]),
                round=_int(data.get("round", 1)),
                hands=seats("hands"),
                deck=cards("deck"),
                discard=cards("discard"),
                chosen=_chosen(seats("chosen")),
                queue=tuple((_int(c), _int(s)) for c, s in data.get("queue", ())),
                stage=STAGES.index(stage),
                scoring=bool(data.get("scoring", False)),
            )
        except KeyError as exc:
            raise InvalidPositionError(f"the JSON position lacks {exc}") from None
        except (TypeError, ValueError) as exc:
            if isinstance(exc, InvalidPositionError):
                raise
            raise InvalidPositionError(f"malformed JSON position: {exc}") from None

    # ---------------------------------------------------------------- checks

    def validate(self, game: SakuraGame) -> None:
        """Raise :class:`InvalidPositionError` unless this is a possible situation of ``game``."""
        fail = InvalidPositionError
        if (self.players, self.variant) != (game.players, game.variant):
            raise fail(
                f"the position is for {self.players} players ({self.variant}), "
                f"the game for {game.players} ({game.variant})"
            )
        n, sakuras = game.num_painters, game.sakuras
        if len(self.painters) != n or len(self.tokens) != n:
            raise fail(f"expected {n} painters and {n} token counts")
        if not 0 <= self.scored <= len(sakuras):
            raise fail(f"scored sakuras must be 0 to {len(sakuras)}")
        if not 1 <= self.emperor <= game.garden.last_space:
            raise fail(f"the Emperor stands on a space from 1 to {game.garden.last_space}")
        if self.scored < len(sakuras):
            nxt = sakuras[self.scored]
            if self.emperor > nxt or (self.emperor == nxt and not self.scoring):
                raise fail(f"the Emperor cannot be past the unscored sakura on space {nxt}")
        if self.scoring and (self.scored >= len(sakuras) or self.emperor != sakuras[self.scored]):
            raise fail("'!' (scoring) needs the Emperor on the next unscored sakura")
        for seat, space in enumerate(self.painters):
            if not 0 <= space < self.emperor:
                raise fail(f"painter {seat} must stand behind the Emperor (space {space})")
        garden = [p for p in self.painters if p > 0]
        if len(set(garden)) != len(garden):
            raise fail("two painters share a space (only the gate may be shared)")
        if min(self.tokens) < 0 or self.supply < 0:
            raise fail("token counts cannot be negative")
        if sum(self.tokens) + self.supply != game.deck.total_tokens:
            raise fail(f"tokens and supply must add up to {game.deck.total_tokens}")
        if self.round < 1:
            raise fail("rounds are numbered from 1")
        if not 0 <= self.stage < len(STAGES):
            raise fail(f"the stage is an index into {STAGES}, not {self.stage}")
        self._validate_cards(game)
        self._validate_round(game)

    def _validate_cards(self, game: SakuraGame) -> None:
        fail = InvalidPositionError
        seen: list[int] = []
        if self.hands is not None:
            if len(self.hands) != game.players:
                raise fail(f"expected {game.players} hands")
            if any(len(h) > 5 for h in self.hands):
                raise fail("a hand holds at most five cards")
            for h in self.hands:
                seen += h
        if self.chosen is not None:
            if len(self.chosen) != game.players:
                raise fail(f"expected {game.players} entries of chosen cards")
            if self.queue:
                raise fail("cards cannot be chosen while the round's cards resolve")
            for seat, picked in enumerate(self.chosen):
                if len(picked) > 2 or (len(picked) == 2 and game.variant != "tactical"):
                    raise fail(f"player {seat + 1} chose too many cards")
                seen += picked
        for card, seat in self.queue:
            if not 0 <= seat < game.num_painters:
                raise fail(f"card {card} is owned by seat index {seat}: no such seat (indexes count from 0)")
            seen.append(card)
        if [c for c, _ in self.queue] != sorted(c for c, _ in self.queue):
            raise fail("cards resolve lowest order number first")
        if self.stage and not self.queue:
            raise fail("a stage needs a card resolving")
        seen += self.deck or ()
        seen += self.discard or ()
        known = set(game.numbers)
        strange = [c for c in seen if c not in known]
        if strange:
            raise fail(f"no such card(s) in the deck: {strange}")
        if len(set(seen)) != len(seen):
            raise fail("a card is in two places at once")
        complete = self.hands is not None and self.deck is not None and self.discard is not None
        if complete and len(seen) != len(known):
            raise fail(f"every card must be somewhere; missing: {sorted(known - set(seen))}")

    def _validate_round(self, game: SakuraGame) -> None:
        """The round's stage must be one the rules can reach, or the game would get stuck
        (e.g. waiting for the court painter, who never chooses)."""
        fail = InvalidPositionError
        if self.scored >= len(game.sakuras):
            if self.queue or any(self.chosen or ()):
                raise fail("the game is over: no cards can be chosen or waiting to resolve")
            return
        stage = STAGES[self.stage]
        if self.scoring and stage not in ("G", "p"):
            raise fail("'!' (the Emperor reached a sakura) comes with stage 'G' or 'p' only")
        if stage in ("g", "p"):
            card, seat = self.queue[0]
            if seat >= game.players:
                raise fail(f"the court painter never chooses, yet card {card} waits for a choice")
            kind, offered = (
                (game.g_kind[card], EMPEROR_CHOICE) if stage == "g" else (game.p_kind[card], MOVE_CHOICE)
            )
            if kind != offered:
                part = "garden" if stage == "g" else "painter"
                raise fail(f"card {card} offers no choice of direction for its {part} action")
        if self.hands is not None and not self.queue:  # selection: everyone must be able to act
            double = None
            if game.variant == "tactical" and self.painters[0] != self.painters[1]:
                double = 0 if self.painters[0] < self.painters[1] else 1
            chosen = self.chosen or ((),) * game.players
            for seat, hand in enumerate(self.hands):
                need = 2 if seat == double else 1
                if not chosen[seat] and len(hand) < need:
                    raise fail(f"player {seat + 1} must choose {need} card(s) but holds {len(hand)}")


def position_of(state: SakuraState) -> Position:
    """The full position of a state (hands, deck and discard included)."""
    game = state.game
    chosen = tuple(p or () for p in state.picks)
    return Position(
        players=game.players,
        variant=game.variant,
        emperor=state.emperor,
        scored=state.scored,
        painters=tuple(state.pos),
        tokens=tuple(state.tokens),
        supply=state.supply,
        round=state.round,
        hands=tuple(tuple(h) for h in state.hands),
        deck=tuple(reversed(state.deck)),
        discard=tuple(state.discard),
        chosen=chosen if any(chosen) else None,
        queue=tuple(state.queue[state.qi :]),
        stage=state.stage,
        scoring=state.scoring,
    )


def _chosen(chosen: tuple[Cards, ...] | None) -> tuple[Cards, ...] | None:
    """Nobody has chosen yet: the same position as no chosen field (text() omits it)."""
    return chosen if chosen is not None and any(chosen) else None


def _cards(cards: Cards) -> str:
    return ".".join(map(str, cards))


def _ints(text: str, sep: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(sep)) if text else ()


def _seats(text: str) -> tuple[Cards, ...]:
    return tuple(_ints(part, ".") for part in text.split("/"))


def _card_at(item: str) -> tuple[int, int]:
    card, sep, seat = item.partition("@")
    if not sep:
        raise InvalidPositionError(f"expected card@seat, got {item!r}")
    return int(card), int(seat)


def _parse_head(word: str) -> tuple[int, str]:
    if word in ("3", "4", "5", "6"):
        return int(word), "standard"
    if len(word) == 2 and word[0] == "2" and word[1] in _VARIANT_CODES:
        return 2, _VARIANT_CODES[word[1]]
    raise InvalidPositionError(
        f"the first field is 3-6 or 2c/2t (two players, court or tactical), not {word!r}"
    )


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidPositionError(f"expected a whole number, got {value!r}")
    return value


def _int_tuple(values: Any) -> tuple[int, ...]:
    if not isinstance(values, list | tuple):
        raise InvalidPositionError(f"expected a list of whole numbers, got {values!r}")
    return tuple(_int(v) for v in values)
