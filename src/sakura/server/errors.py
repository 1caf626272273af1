"""The one error a client's request can meet at a table or in the lobby.

Each carries a short ``code`` that the protocol sends with the words (``docs/protocol.md``)
and the HTTP API turns into a status (:data:`HTTP_STATUS`), so a page can react to the kind of
refusal without parsing sentences.
"""

from __future__ import annotations


class TableError(ValueError):
    """A request a client may not make now (not seated, seat taken, ...); changes nothing."""

    def __init__(self, message: str, code: str = "refused", *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after  # seconds, for refusals that pass (rate limits, grace)


# The HTTP status of each code the lobby's API can answer with (anything else: 409 Conflict).
HTTP_STATUS = {
    "bad_table": 400,
    "storage": 503,  # the database failed or did not answer in time: try again
    "full": 503,  # the server holds as many tables as it may
    "rate_limited": 429,
    "no_table": 404,
    "busy": 503,  # hints and analyses: the worker processes have as much as they take
    "bad_seat": 400,
    "bad_name": 400,  # a name or chat text the server does not take (names.py)
    "bad_chat": 400,
    "bad_password": 400,  # accounts.py
    "bad_login": 401,
    "login_required": 401,
    "taken": 409,
    "name_taken": 409,  # a seat's name like another's at the same table (names.fold)
    "too_many_games": 409,  # as many turn-based games at once as one person may have (turns/bounds.py)
    "forbidden": 403,  # moderation: an admin's page, asked for by someone else
    "banned": 403,  # a banned account signs in or chats
    "no_account": 404,
    "no_message": 404,
    "bad_email": 400,  # notifications (server/notify): an address that is not one
    "bad_subscription": 400,  # a push subscription whose endpoint or keys are not the Push API's
    "push_off": 404,  # this server sends no Web Push
    "bad_unsubscribe": 404,  # an unsubscribe link this server did not sign
}


def http_status(error: TableError) -> int:
    return HTTP_STATUS.get(error.code, 409)
