"""A turn-based table's deadline in words: hours or days away, where a real-time table's move
timer counts seconds (``docs/turn-based.md``). The same steps as the browser's
(``js/turns.js`` ``untilDeadline``): days and hours, hours and minutes, minutes, then "now"."""

from __future__ import annotations

from sakura.tui.i18n import lt

MINUTE, HOUR, DAY = 60, 3600, 86_400


def due_in(left: int) -> str:
    """``left`` seconds as a due time, in logical order (:func:`~sakura.tui.i18n.lt`).

    >>> due_in(23 * HOUR + 5 * MINUTE + 59), due_in(2 * DAY + 3 * HOUR + 1)
    ('Due in 23 h 5 min', 'Due in 2 d 3 h')
    >>> due_in(14 * MINUTE), due_in(59)
    ('Due in 14 min', 'Due now')
    """
    if left < MINUTE:
        return lt("Due now")
    days, rest = divmod(left, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // MINUTE
    if days:
        return lt("Due in {d} d {h} h", d=days, h=hours)
    if hours:
        return lt("Due in {h} h {m} min", h=hours, m=minutes)
    return lt("Due in {m} min", m=minutes)
