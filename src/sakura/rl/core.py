"""What the RL adapters share: picking a game, stepping it fast, and checking actions by id.

The adapters step the engine through its public API. Where a game declares the fast path
(:class:`~sakura.engine.FastGame`: ``new_fast_state`` and ``apply_fast``, which skip event
values and re-checking; see ``docs/api.md``) they use it, because every action they apply has
been checked first against the ids of the player's own ``view.legal_actions``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sakura import __version__
from sakura.engine import Action, Game, State, fast_path, make_game
from sakura.rl.encoding import LAYOUT_VERSION, Encoder

ILLEGAL_MODES = ("raise", "replace", "penalize")
ILLEGAL_PENALTY = 1.0  # ``illegal="penalize"``: taken off the step's reward, as much as a whole win


def resolve_game(game: str | Game[Any], config: Mapping[str, Any] | None = None) -> Game[Any]:
    """A game object from a name and config (``make_game``) or as given."""
    if isinstance(game, str):
        return make_game(game, config or {})
    if config:
        raise ValueError("give a config with a game's name, not with a game object")
    return game


def new_state(game: Game[Any], seed: int) -> State[Any]:
    """A fresh state from ``seed``, without event values where the game allows it."""
    return fast_path(game).new_state(seed)


def applier(game: Game[Any], state: State[Any]) -> Callable[[int, Action], Any]:
    """``state.apply_fast`` if ``game`` declares the fast path, else ``state.apply_action``."""
    return fast_path(game).stepper(state)


def check_render_mode(mode: str | None) -> str | None:
    """Both environments render the public board as text, or nothing."""
    if mode not in (None, "ansi"):
        raise ValueError(f"render_mode is None or 'ansi', not {mode!r}")
    return mode


def check_illegal_mode(mode: str) -> str:
    if mode not in ILLEGAL_MODES:
        raise ValueError(f"illegal= must be one of {ILLEGAL_MODES}, not {mode!r}")
    return mode


def legal_or_replace(
    encoder: Encoder, legal: list[int], action: Any, who: str, mode: str
) -> tuple[int, bool]:
    """The action id to apply for a player whose legal ids are ``legal``: ``action`` itself if
    legal; otherwise (``mode="raise"``, the default) a ``ValueError`` naming the action and the
    player's legal actions, or (``"replace"`` and ``"penalize"``) the lowest legal id, and
    ``True`` to say it was replaced (the env then flags it in ``info`` and, for
    ``"penalize"``, takes :data:`ILLEGAL_PENALTY` off the player's reward)."""
    try:
        wanted = int(action)
    except (TypeError, ValueError):
        raise ValueError(f"{who}: an action is an integer id, not {action!r}") from None
    if wanted in legal:
        return wanted, False
    if mode == "raise":
        texts = ", ".join(f"{i} ({encoder.action_text(i)})" for i in legal)
        shown = encoder.action_text(wanted) if 0 <= wanted < encoder.num_actions else "no such id"
        raise ValueError(f"{who}: action {wanted} ({shown}) is not legal now; legal: {texts}")
    return legal[0], True


def env_metadata(**extra: Any) -> dict[str, Any]:
    """What every environment's ``metadata`` says: the render modes and the observation
    layout version (cite it with the package version: ``docs/rl.md``)."""
    return {
        "render_modes": ["ansi"],
        "render_fps": 4,
        "sakura_version": __version__,
        "observation_layout_version": LAYOUT_VERSION,
        **extra,
    }
