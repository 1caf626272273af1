"""Sakura's actions: play a card (or two, in the tactical variant), or choose a direction.

Text forms round-trip through :func:`parse_action`:

>>> parse_action("play 17")
Play(card=17, court=None)
>>> str(parse_action("play 17 court 42"))
'play 17 court 42'
>>> parse_action("back")
Choose(forward=False)

The compiled build makes both actions extension types (``actions.pxd``), as it does the events:
Cython builds the dataclass's ``__init__``, ``__eq__`` and ``__hash__`` in C (searches key their
statistics by actions), where those ``dataclasses`` generates would stay interpreted. Hence
frozen dataclasses without ``slots=True``, which Cython's dataclasses do not take.
"""

from __future__ import annotations

from dataclasses import dataclass

from sakura.engine.errors import IllegalActionError


@dataclass(frozen=True)
class Play:
    """Play ``card`` for your own painter; in the tactical variant the player further from
    the Emperor also gives ``court`` to the court painter."""

    card: int
    court: int | None = None

    def __str__(self) -> str:
        if self.court is None:
            return f"play {self.card}"
        return f"play {self.card} court {self.court}"


@dataclass(frozen=True)
class Choose:
    """Answer the choice a resolving card offers: forward or back."""

    forward: bool

    def __str__(self) -> str:
        return "forward" if self.forward else "back"


SakuraAction = Play | Choose
FORWARD = Choose(True)
BACK = Choose(False)


def parse_action(text: str) -> SakuraAction:
    """Read an action's text form; raises :class:`IllegalActionError` on malformed text."""
    if not isinstance(text, str):
        raise IllegalActionError(f"an action is text, not {type(text).__name__}")
    words = text.strip().lower().split()
    if words == ["forward"]:
        return FORWARD
    if words == ["back"] or words == ["backward"]:
        return BACK
    try:
        if len(words) == 2 and words[0] == "play":
            return Play(int(words[1]))
        if len(words) == 4 and words[0] == "play" and words[2] == "court":
            return Play(int(words[1]), int(words[3]))
    except ValueError:
        pass
    raise IllegalActionError(
        f"not an action: {text!r} (expected 'play N', 'play N court M', 'forward' or 'back')"
    )
