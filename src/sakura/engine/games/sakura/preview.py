"""The consequence of each answer to a pending forward/back choice, for the views.

A player asked "forward or back?" sees both outcomes before answering: where the moving piece
lands, whom it bumps (and whether that costs a token), and whether the Emperor stops at a
sakura. The engine computes them by applying each answer's move to a copy of the state that
holds no hidden part (:meth:`SakuraState.choice_effects`), so a page draws the preview without
knowing a rule, and two states that differ only in what a viewer cannot see preview alike.

>>> from sakura.engine.games.sakura import SakuraGame
>>> choice_previews(SakuraGame(3).new_initial_state(1))  # the players are choosing cards
()
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sakura.engine.games.sakura.events import Bumped, EmperorMoved, PainterMoved

if TYPE_CHECKING:
    from sakura.engine.games.sakura.state import SakuraState


@dataclass(frozen=True, slots=True)
class Bump:
    """A painter that would fall from grace: reached the Emperor at ``at``, back to ``end``."""

    seat: int
    at: int
    end: int
    token_lost: bool


@dataclass(frozen=True, slots=True)
class ChoicePreview:
    """One legal answer (``"forward"`` or ``"back"``) and what it would do at once.

    ``piece`` is ``"emperor"`` (a garden choice) or ``"painter"`` (the chooser's own painter);
    ``start`` and ``end`` are that piece's spaces (for a painter that is bumped, ``end`` is where
    it falls back to and ``bumps`` says so); ``sakura`` is true when the Emperor would stop at
    the next sakura, which is then painted once the card is done."""

    choice: str
    piece: str
    seat: int
    start: int
    end: int
    bumps: tuple[Bump, ...]
    sakura: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "choice": self.choice,
            "piece": self.piece,
            "seat": self.seat,
            "start": self.start,
            "end": self.end,
            "sakura": self.sakura,
            "bumps": [
                {"seat": b.seat, "at": b.at, "end": b.end, "token_lost": b.token_lost} for b in self.bumps
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChoicePreview:
        """The preview whose :meth:`to_json` is ``data``."""
        bumps = tuple(Bump(b["seat"], b["at"], b["end"], b["token_lost"]) for b in data["bumps"])
        return cls(
            choice=data["choice"],
            piece=data["piece"],
            seat=data["seat"],
            start=data["start"],
            end=data["end"],
            bumps=bumps,
            sakura=data["sakura"],
        )


def choice_previews(state: SakuraState) -> tuple[ChoicePreview, ...]:
    """Both answers' previews, forward first; () when no choice is pending."""
    pending = state.pending_choice()
    if pending is None:
        return ()
    seat, _card, part = pending
    out = []
    for forward in (True, False):
        events = state.choice_effects(forward)
        bumps = tuple(Bump(e.seat, e.at, e.end, e.token_lost) for e in events if isinstance(e, Bumped))
        if part == "garden":
            start, end = state.emperor, state.emperor
            moves = [e for e in events if isinstance(e, EmperorMoved)]
            if moves:
                start, end = moves[0].start, moves[-1].end
            nxt = state.game.sakuras[state.scored] if state.scored < len(state.game.sakuras) else -1
            sakura = forward and end == nxt
            answer = "forward" if forward else "back"
            out.append(ChoicePreview(answer, "emperor", seat, start, end, bumps, sakura))
        else:
            start = state.pos[seat]
            end = start
            for e in events:
                if isinstance(e, PainterMoved | Bumped) and e.seat == seat:
                    end = e.end
            answer = "forward" if forward else "back"
            out.append(ChoicePreview(answer, "painter", seat, start, end, bumps, False))
    return tuple(out)
