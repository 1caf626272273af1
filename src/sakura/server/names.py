"""What a person may type as a name (a seat's display name, an account's username) and as
chat text: checked here once, so that every path into the server refuses the same things.

A name is 1 to 24 characters (code points, after Unicode NFC and trimming), letters of any
script welcome (Persian included, with its zero-width non-joiner), and no control character,
no bidirectional override, no line or paragraph separator: a name must not reorder or break
the sentence it is shown in. Nor may it pass for another name (:mod:`sakura.server.lookalikes`):
no word mixing scripts that look alike (a Cyrillic ``А`` in ``Аda``), no zero-width joiner
where no script needs one; and names are compared in their folded form (:func:`fold`), so that
an account's username and a seat's name at a table are unique as a reader sees them.
Rendering is the pages' business, and they only ever insert text (``textContent``), never HTML,
so ``<b>`` in a name is shown as the four characters it is.

>>> clean_name("  Ada  "), clean_name("نگار\u200cها")
('Ada', 'نگار\u200cها')
>>> clean_name("a\u202eb")
Traceback (most recent call last):
...
sakura.server.errors.TableError: a name may not hold control or direction-override characters
>>> clean_name("Ada\u200d")
Traceback (most recent call last):
...
sakura.server.errors.TableError: a name may hold a zero-width joiner only inside a word that needs one
>>> clean_name("")
Traceback (most recent call last):
...
sakura.server.errors.TableError: a name needs 1 to 24 characters
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from sakura.server.errors import TableError
from sakura.server.lookalikes import bad_joiner, fold, mixed_script_word

__all__ = ["NAME_RULES", "clean_chat", "clean_name", "clean_username", "fold", "name_key", "optional_name"]

NAME_MAX = 24
CHAT_MAX = 300
USERNAME_MIN = 3
# Format characters a script needs inside words (Persian's ZWNJ, joiners); every other format
# character (bidi overrides and isolates, invisible operators) is refused.
_JOINERS = {"\u200c", "\u200d"}
# The rules a JSON Schema can state, for the OpenAPI contract (contract.py); the others in words
NAME_RULES: dict[str, Any] = {
    "maxLength": NAME_MAX,
    "pattern": "^[^\\x00-\\x1f\\x7f-\\x9f\\u2028-\\u202e\\u2066-\\u2069]*$",
    "description": "1 to 24 characters after trimming, one script a word, no control, direction or "
    "stray zero-width character (400 bad_name otherwise)",
}
_USERNAME = re.compile(r"[\w.\-]+")  # \w: letters and digits of every script, and "_"


def _bad_char(ch: str, *, newlines: bool = False) -> bool:
    if newlines and ch == "\n":
        return False
    category = unicodedata.category(ch)
    if category == "Cf":
        return ch not in _JOINERS
    return category in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp")


def clean_name(text: str, *, what: str = "a name") -> str:
    """``text`` trimmed and NFC-normalised, or a :class:`TableError` (code ``bad_name``)."""
    name = unicodedata.normalize("NFC", text).strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise TableError(f"{what} needs 1 to {NAME_MAX} characters", "bad_name")
    if any(_bad_char(ch) for ch in name):
        raise TableError(f"{what} may not hold control or direction-override characters", "bad_name")
    if bad_joiner(name):
        raise TableError(f"{what} may hold a zero-width joiner only inside a word that needs one", "bad_name")
    if mixed_script_word(name):
        raise TableError(
            f"{what} may not mix alphabets within a word (letters of one that look like another's)",
            "bad_name",
        )
    return name


def optional_name(text: str | None) -> str | None:
    """A seat's name as the lobby takes it: none (or only spaces) leaves the seat unnamed."""
    if text is None or not text.strip():
        return None
    return clean_name(text)


def clean_username(text: str) -> str:
    """An account's username: a name without spaces, of letters, digits, ``_``, ``.`` and ``-``,
    3 characters at least.

    >>> clean_username("Ada_L"), clean_username("نگار")
    ('Ada_L', 'نگار')
    """
    name = clean_name(text, what="a username")
    if len(name) < USERNAME_MIN or not _USERNAME.fullmatch(name):
        raise TableError(
            f"a username is {USERNAME_MIN} to {NAME_MAX} letters, digits, '_', '.' or '-' (no spaces)",
            "bad_name",
        )
    return name


def name_key(name: str) -> str:
    """The form names are compared and searched by: ``Ada``, ``ADA`` and ``ada`` are one.

    >>> name_key("ADA") == name_key("ada")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()[: NAME_MAX * 2]


def clean_chat(text: str) -> str:
    """A chat message: 1 to 300 characters, new lines allowed, no other control character."""
    message = unicodedata.normalize("NFC", text).strip()
    if not message:
        raise TableError("a chat message needs some text", "bad_chat")
    if len(message) > CHAT_MAX:
        raise TableError(f"a chat message is at most {CHAT_MAX} characters", "bad_chat")
    if any(_bad_char(ch, newlines=True) for ch in message):
        raise TableError("a chat message may not hold control or direction-override characters", "bad_chat")
    return message
