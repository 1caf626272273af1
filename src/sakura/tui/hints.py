"""The ``h`` key of the game screen: each legal action's estimated chance of winning.

The same search as the web app's "Suggest" (:func:`sakura.bots.advise`, the hint level's
bot), from the acting seat's **view** only, run in a worker thread so the screen keeps
answering; its progress shows in the prompt, and the answer goes into the log, best first.
At a web table (``--join``) the server works it out: a ``hint`` message, its progress and
answer coming back as messages.
A hint belongs to the position it was asked in: if the game has moved on when it comes, it
is dropped.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sakura.bots import HINT_SPEC, Advice
from sakura.engine import View
from sakura.engine.games.sakura import SakuraView
from sakura.tui.cards_render import area_name, card_label
from sakura.tui.i18n import lt

if TYPE_CHECKING:
    from sakura.tui.game_screen import GameScreen


def action_words(action: str) -> str:
    """An action as the hint says it: "card 17", "cards 5 and 9", "forward"; in the card game
    "the r3✿ in the garden", "give the b2", "discard the y1"; else as written."""
    if m := re.fullmatch(r"place (\S+) (garden|palace|temple)", action):
        return lt("the {card} in the {area}", card=card_label(m[1]), area=area_name(m[2]))
    if m := re.fullmatch(r"give (\S+)", action):
        return lt("give the {card}", card=card_label(m[1]))
    if m := re.fullmatch(r"discard (\S+)", action):
        return lt("discard the {card}", card=card_label(m[1]))
    if m := re.fullmatch(r"play (\d+)", action):
        return lt("card {n}", n=int(m[1]))
    if m := re.fullmatch(r"play (\d+) court (\d+)", action):
        return lt("cards {a} and {b}", a=int(m[1]), b=int(m[2]))
    if action == "forward":
        return lt("forward")
    if action == "back":
        return lt("back")
    return action


def hint_text(advice: Advice) -> str:
    """One log line: every action with its estimated chance (:meth:`Advice.estimate`), best first."""
    ranked = sorted(advice.actions, key=advice.estimate, reverse=True)
    parts = [lt("{action}: {n}%", action=action_words(a.action), n=_chance(advice, a)) for a in ranked]
    return lt("Hint (estimated chance of winning): {choices}", choices=" · ".join(parts))


def _chance(advice: Advice, action: Any) -> str:
    """A chance with its 95% margin where known (``24 ± 3``): how sure the hint is."""
    n = round(100 * advice.estimate(action))
    return f"{n} ± {max(1, round(100 * action.margin))}" if action.margin >= 0 else str(n)


def decision(view: View) -> tuple[Any, ...]:
    """What a hint answers: these actions, at this point of the game (its progress), and in
    Sakura for this pending choice (two choices of one round differ by their card)."""
    pending = view.pending if isinstance(view, SakuraView) else None
    return (view.progress, pending, tuple(view.legal_actions))


class Hinter:
    """One screen's hints: at most one being worked out at a time. Where it is worked out is
    the play session's (:meth:`~sakura.tui.play.Play.advise`): here in a thread, or at the
    web table's server, whose progress and answer come as messages."""

    def __init__(self, screen: GameScreen[Any, Any], spec: str = HINT_SPEC) -> None:
        self.screen = screen
        self.spec = spec
        self.running = False
        self.last: Advice | None = None
        self.asked: tuple[int, Any] | None = None  # the seat and the decision asked about

    def ask(self) -> None:
        screen = self.screen
        if not screen.play.humans:  # watching a web table: no seat to advise
            screen.write(lt("You are watching: hints are for the players."))
            return
        if screen.busy or not screen.acting or screen.actor is None:
            screen.write(lt("A hint comes when it is your turn to decide."))
            return
        if self.running:
            return
        seat = screen.actor
        view = screen.play.view(seat)
        if not view.legal_actions:
            screen.write(lt("A hint comes when it is your turn to decide."))
            return
        self.running = True
        self.asked = (seat, decision(view))
        screen.run_worker(self._work(seat, view), group="hint")

    # A web table's answer comes as messages (``hint_progress``, ``hint``, or an ``error``).
    def progress(self, message: dict[str, Any]) -> None:
        if self.running:
            self.screen.prompt_line(lt("Working out a hint… {n}%", n=round(100 * float(message["progress"]))))

    def answer(self, message: dict[str, Any]) -> None:
        self.running = False
        self.screen.prompt_line(self.screen.prompt_said)
        if self.still_asked():
            self.show(Advice.from_json(message))

    def still_asked(self) -> bool:
        """Whether the game is still where the hint was asked (it is for that position only)."""
        asked, self.asked = self.asked, None
        if asked is None or self.screen.actor != asked[0]:
            return False
        # others choosing their cards meanwhile change nothing of it
        return bool(decision(self.screen.play.view(asked[0])) == asked[1])

    def show(self, advice: Advice) -> None:
        self.last = advice
        self.screen.write(hint_text(advice))

    def refused(self) -> None:
        if self.running:
            self.asked, self.running = None, False
            self.screen.prompt_line(self.screen.prompt_said)

    async def _work(self, seat: int, view: Any) -> None:
        screen = self.screen
        before = screen.prompt_said
        app = screen.app

        def progress(done: int, total: int) -> None:
            if total:
                text = lt("Working out a hint… {n}%", n=round(100 * done / total))
                app.call_from_thread(screen.prompt_line, text)

        screen.prompt_line(lt("Working out a hint… {n}%", n=0))
        try:
            advice = await screen.play.advise(seat, view, self.spec, progress)
        except BaseException:
            self.running = False
            raise
        if advice is None:  # the server's progress and answer come as messages
            return
        self.running = False
        if self.still_asked():
            screen.prompt_line(before)
            self.show(advice)
