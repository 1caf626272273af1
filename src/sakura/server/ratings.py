"""Ratings of rated tables: openskill's Plackett-Luce model, one rating per account, class and mode.

A class is a game and table size that play alike: Sakura for two with the court painter,
Sakura for two tactical, Sakura for three to six, and the card game (:func:`klass_of`). A mode
is how fast it is played (:func:`mode_of`): ``realtime`` (everyone at the screen, a move timer
of seconds) or ``turn`` (turn-based, a move in hours or days, ``docs/turn-based.md``): the two
are different skills, so each has its own ratings and leaderboards.

At the end of a rated table every seat's account is ranked (the winners first, then by score;
a seat a bot took over from its leaver ranks last, whatever the bot scored) and rated in one
transaction that also inserts the table's row in ``sakura_rated_games``: its key makes the
update happen once, also when two processes or a restart try again. A server that stops
between a game's last action and its rating update (the action is stored first) finds the
table unrated when it starts and rates it then (:func:`pending`).
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

from openskill.models import PlackettLuce
from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from sakura.server.db import Store, now
from sakura.server.models import TableRow
from sakura.server.names import name_key
from sakura.server.people_models import AccountRow, RatedGameRow, RatingHistoryRow, RatingRow

MODEL = PlackettLuce()
CLASSES = ("sakura-2-court", "sakura-2-tactical", "sakura-3-6", "sakura-cards")
MODES = ("realtime", "turn")
FAULT = "SAKURA_FAULT"  # the tests' way to stop the server at a chosen moment (see tests)


# The rating a person reads: openskill's ordinal (mu - 3 sigma, what the leaderboard sorts by)
# on a scale centred on 1500 for an established average player (mu 25, sigma 2.5), 40 points
# a unit, so the order is the leaderboard's. The first games move it a lot: until then it is
# "provisional" (shown with a "?", as chess sites do).
CENTRE, SCALE, AVERAGE_ORDINAL, PROVISIONAL_GAMES = 1500, 40, 25 - 3 * 2.5, 10


def shown(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """The rating as displayed: ``display`` on the 1500-centred scale, ``provisional`` for the
    first games.

    >>> shown(25.0, 2.5, 40), shown(25.0, 25 / 3, 0)
    ({'display': 1500, 'provisional': False}, {'display': 800, 'provisional': True})
    >>> shown(30.0, 2.0, 12)["display"] > shown(25.0, 2.5, 40)["display"]
    True
    """
    display = round(CENTRE + SCALE * (mu - 3 * sigma - AVERAGE_ORDINAL))
    return {"display": display, "provisional": games < PROVISIONAL_GAMES}


def klass_of(game: str, players: int, variant: str | None) -> str:
    """The rating class of a table.

    >>> klass_of("sakura", 2, "tactical"), klass_of("sakura", 5, None), klass_of("sakura-cards", 2, None)
    ('sakura-2-tactical', 'sakura-3-6', 'sakura-cards')
    """
    if game == "sakura-cards":
        return "sakura-cards"
    if players == 2:
        return "sakura-2-tactical" if variant == "tactical" else "sakura-2-court"
    return "sakura-3-6"


def mode_of(options: dict[str, Any]) -> str:
    """The rating mode of a table from its options: a turn-based table has a ``pace``.

    >>> mode_of({"pace": "1d", "timeouts": 3}), mode_of({}), mode_of({"spectator_chat": False})
    ('turn', 'realtime', 'realtime')
    """
    return "turn" if "pace" in options else "realtime"


def ranks(scores: list[int], winners: list[int], forfeits: list[bool]) -> list[int]:
    """Ranks from 1 (best); equal results share a rank; a forfeit ranks below everyone.

    >>> ranks([10, 12, 12], [1, 2], [False, False, False])
    [2, 1, 1]
    >>> ranks([15, 3], [0], [True, False])
    [2, 1]
    """
    keys = [(forfeits[i], i not in winners, -scores[i]) for i in range(len(scores))]
    order = sorted(set(keys))
    return [order.index(k) + 1 for k in keys]


def _fault(point: str) -> None:
    if os.environ.get(FAULT) == point:
        os._exit(86)  # as if the process were killed here


class RatingClass(NamedTuple):
    """Where a table's ratings are kept: its game's class and its mode."""

    klass: str
    mode: str = "realtime"


def settle(store: Store, table_id: str, rating: RatingClass, accounts: list[str], places: list[int]) -> bool:
    """Rate one finished table in its ``rating`` class, once: False if it had been rated already."""
    klass, mode = rating
    keys = [name_key(a) for a in accounts]
    at = now()
    mine = (RatingRow.klass == klass, RatingRow.mode == mode)
    with store.engine.connect() as conn:
        trans = conn.begin()
        try:
            conn.execute(insert(RatedGameRow), {"table_id": table_id, "klass": klass, "mode": mode, "at": at})
            rows = {
                r.account: r
                for r in conn.execute(select(RatingRow).where(*mine, RatingRow.account.in_(keys)))
            }
            before = [
                MODEL.rating(mu=rows[k].mu, sigma=rows[k].sigma) if k in rows else MODEL.rating()
                for k in keys
            ]
            after = MODEL.rate([[r] for r in before], ranks=[float(p) for p in places])
            for seat, key in enumerate(keys):
                new = after[seat][0]
                won = 1 if places[seat] == 1 else 0
                values = {"mu": new.mu, "sigma": new.sigma, "ordinal": new.ordinal()}
                if key in rows:
                    conn.execute(
                        update(RatingRow)
                        .where(RatingRow.account == key, *mine)
                        .values(**values, games=rows[key].games + 1, wins=rows[key].wins + won)
                    )
                else:
                    conn.execute(
                        insert(RatingRow),
                        {"account": key, "klass": klass, "mode": mode, **values, "games": 1, "wins": won},
                    )
                conn.execute(
                    insert(RatingHistoryRow),
                    {
                        "account": key,
                        "klass": klass,
                        "mode": mode,
                        "table_id": table_id,
                        "mu": new.mu,
                        "sigma": new.sigma,
                        "rank": places[seat],
                        "at": at,
                    },
                )
            _fault("rating")  # the moment between computing and committing
            trans.commit()
        except IntegrityError:
            trans.rollback()
            return False
        except BaseException:
            trans.rollback()
            raise
    return True


def pending(store: Store) -> list[str]:
    """Rated tables finished but not rated yet (a server stopped in between)."""
    done = select(RatedGameRow.table_id)
    with store.engine.connect() as conn:
        return list(
            conn.scalars(
                select(TableRow.id).where(
                    TableRow.rated.is_(True), TableRow.status == "finished", TableRow.id.not_in(done)
                )
            )
        )


def of_seats(
    store: Store, klass: str, accounts: list[str | None], mode: str = "realtime"
) -> list[dict[str, Any] | None]:
    """Each seat's rating in ``klass`` and ``mode`` (the table's) as shown next to its name at
    a rated table (``None`` for a seat without an account); an account not yet rated there has
    the model's start."""
    keys = [None if a is None else name_key(a) for a in accounts]
    with store.engine.connect() as conn:
        rows = {
            r.account: r
            for r in conn.execute(
                select(RatingRow).where(
                    RatingRow.klass == klass,
                    RatingRow.mode == mode,
                    RatingRow.account.in_([k for k in keys if k]),
                )
            )
        }
    start = MODEL.rating()
    out: list[dict[str, Any] | None] = []
    for key in keys:
        row = rows.get(key) if key else None
        mu, sigma, games = (row.mu, row.sigma, row.games) if row else (start.mu, start.sigma, 0)
        out.append(
            None if key is None else {"mu": mu, "sigma": sigma, "games": games, **shown(mu, sigma, games)}
        )
    return out


def player(store: Store, username: str) -> dict[str, Any] | None:
    """An account's ratings and their history by mode, then class (None: no such account)."""
    key = name_key(username)
    with store.engine.connect() as conn:
        account = conn.execute(select(AccountRow.username).where(AccountRow.key == key)).scalar()
        if account is None:
            return None
        ratings: dict[str, dict[str, Any]] = {mode: {} for mode in MODES}
        for r in conn.execute(select(RatingRow).where(RatingRow.account == key)):
            ratings.setdefault(r.mode, {})[r.klass] = {
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "games": r.games,
                "wins": r.wins,
                **shown(r.mu, r.sigma, r.games),
            }
        history: dict[str, dict[str, list[dict[str, Any]]]] = {mode: {} for mode in MODES}
        for h in conn.execute(
            select(RatingHistoryRow).where(RatingHistoryRow.account == key).order_by(RatingHistoryRow.id)
        ):
            history.setdefault(h.mode, {}).setdefault(h.klass, []).append(
                {
                    "table": h.table_id,
                    "mu": h.mu,
                    "sigma": h.sigma,
                    "rank": h.rank,
                    "at": h.at.isoformat(timespec="minutes"),
                }
            )
    return {"username": account, "ratings": ratings, "history": history}


def leaderboard(
    store: Store, klass: str, page: int, size: int = 25, mode: str = "realtime"
) -> dict[str, Any]:
    """One page of a class's ratings in ``mode``, best (highest mu - 3 sigma) first."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(
                AccountRow.username,
                RatingRow.mu,
                RatingRow.sigma,
                RatingRow.ordinal,
                RatingRow.games,
                RatingRow.wins,
            )
            .join(AccountRow, AccountRow.key == RatingRow.account)
            .where(RatingRow.klass == klass, RatingRow.mode == mode)
            .order_by(RatingRow.ordinal.desc(), RatingRow.account)
            .offset(page * size)
            .limit(size + 1)
        ).all()
        total = conn.execute(
            select(func.count())
            .select_from(RatingRow)
            .where(RatingRow.klass == klass, RatingRow.mode == mode)
        ).scalar()
    players = [
        {
            "rank": page * size + i + 1,
            "username": r[0],
            "mu": r[1],
            "sigma": r[2],
            "ordinal": r[3],
            "games": r[4],
            "wins": r[5],
            **shown(r[1], r[2], r[4]),
        }
        for i, r in enumerate(rows[:size])
    ]
    return {
        "class": klass,
        "mode": mode,
        "page": page,
        "more": len(rows) > size,
        "players": players,
        "total": total,
    }
