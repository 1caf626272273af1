"""The words of a notification (a push's title and body, an e-mail's subject and text), in the
account's language: English, Spanish and Persian, as the pages (``docs/i18n.md``).

They are written on the server, so they live here rather than in the pages' catalogs (which
hold what the page code uses); ``tests/server/test_notify_texts.py`` holds them to the same
rules: every language has every message, with the same placeholders. A message says no more
than the seat may know: whose move (its own), the round, the deadline; at the end, the result
every player sees.

>>> text("fa", "move.title")
'در ساکورا نوبت شماست'
>>> text("fa", "move.body", table="x1", round=4, deadline="2027-01-15 14:00 UTC")[:13]
'میز x1، دور ۴'
>>> text("de", "end.title")  # a language without a catalog: English
'Game over at Sakura'
"""

from __future__ import annotations

from typing import Any

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "move.title": "Your move at Sakura",
        "move.body": "Table {table}, round {round}: it is your move, until {deadline}.",
        "end.title": "Game over at Sakura",
        "end.body": "Table {table}: the game is over. Your score: {score}; won by {winners}.",
        "mail.open": "Open the table: {url}",
        "mail.why": "You get this e-mail because your Sakura account {account} asked for e-mail "
        "notifications. To stop them, one click: {unsubscribe}",
        "mail.unsubscribe": "Stop these e-mails",
        "unsubscribe.title": "Stop e-mail notifications",
    },
    "es": {
        "move.title": "Te toca en Sakura",
        "move.body": "Mesa {table}, ronda {round}: te toca jugar, hasta el {deadline}.",
        "end.title": "Partida terminada en Sakura",
        "end.body": "Mesa {table}: la partida ha terminado. Tu puntuación: {score}; la gana {winners}.",
        "mail.open": "Abrir la mesa: {url}",
        "mail.why": "Recibes este correo porque tu cuenta de Sakura {account} pidió avisos por "
        "correo. Para dejar de recibirlos, un clic: {unsubscribe}",
        "mail.unsubscribe": "No recibir más correos",
        "unsubscribe.title": "Dejar de recibir avisos por correo",
    },
    "fa": {
        "move.title": "در ساکورا نوبت شماست",
        "move.body": "میز {table}، دور {round}: نوبت حرکت شماست، تا {deadline}.",
        "end.title": "بازی در ساکورا تمام شد",
        "end.body": "میز {table}: بازی تمام شد. امتیاز شما: {score}؛ برنده: {winners}.",
        "mail.open": "باز کردن میز: {url}",
        "mail.why": "این نامه را می‌گیرید چون حساب ساکورای شما {account} اعلان با ایمیل خواسته است. "
        "برای قطع آن، یک کلیک: {unsubscribe}",
        "mail.unsubscribe": "دیگر ایمیل نفرست",
        "unsubscribe.title": "قطع اعلان‌های ایمیلی",
    },
}
LANGUAGES = tuple(TEXTS)
_DIGITS = {"fa": str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")}  # numbers in the language's digits


def language_of(code: str | None) -> str:
    """``code`` if there is a catalog for it (``es-MX`` counts as ``es``), else English."""
    base = (code or "").strip().lower().replace("_", "-").split("-")[0]
    return base if base in TEXTS else "en"


def text(language: str, key: str, **values: Any) -> str:
    """The message ``key`` in ``language`` (English if it has none), its placeholders filled;
    the numbers among them (ints) in the language's digits."""
    code = language_of(language)
    digits = _DIGITS.get(code)
    if digits is not None:
        values = {k: str(v).translate(digits) if isinstance(v, int) else v for k, v in values.items()}
    return TEXTS[code][key].format(**values)
