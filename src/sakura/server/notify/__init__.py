"""Notifications that reach a player when the page is closed (issue 35): Web Push and e-mail,
each optional per account, sent when a turn-based table's decision begins and the account's seat
is due, and when its game ends. See ``docs/turn-based.md`` ("Notifications").

| Module | Holds |
|---|---|
| ``models.py`` | the rows: an account's choices, its push subscriptions, the ledger of sends |
| ``store.py`` | their reads and writes, from the database's worker threads |
| ``texts.py`` | the words of a notification, in the account's language (the pages' catalogs) |
| ``tokens.py`` | the signed token of an e-mail's one-click unsubscribe |
| ``mail.py`` | e-mail through a configured SMTP server (``aiosmtplib``) |
| ``push.py`` | Web Push (``pywebpush``, VAPID) |
| ``notifier.py`` | the :class:`Notifier` the app is given: when, to whom, in the background |

Only ``models`` and ``store`` are imported by the rest of the server unconditionally; the
senders' libraries load with the notifier.
"""
