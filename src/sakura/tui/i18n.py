"""The terminal app's languages: gettext catalogs kept by Babel, loaded at start-up.

The source strings are English and are marked with :func:`t` (:func:`tn` for plurals,
:func:`tr` for fragments). ``pybabel extract -k t -k tn:1,2 -k tr -k N_`` collects them
into ``locale/sakura_tui.pot``; ``pybabel update`` merges them into
``locale/LANG/LC_MESSAGES/sakura_tui.po`` (see docs/tui.md). The ``.po``
files are the only committed form: at start-up :func:`set_language` reads the catalog with
``babel.messages.pofile`` and compiles it in memory to ``gettext.GNUTranslations``, so a fresh
``pip install`` needs no build step and plural forms follow the catalog's ``Plural-Forms``.

Persian is written right to left: terminals lay out text cell by cell, left to right, so each
finished line is shaped (``arabic-reshaper``) and put in visual order (``python-bidi``) here,
after formatting. See ``docs/tui.md`` for what that does not cover.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "sakura_tui"
LANGUAGES = ("en", "es", "fa")
RTL = frozenset({"fa"})
LANGUAGE_NAMES = {"en": "English", "es": "Español", "fa": "فارسی"}

_active: dict[str, Any] = {"lang": "en", "translations": gettext.NullTranslations()}


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def normalize(value: str | None) -> str | None:
    """``'es_ES.UTF-8'`` -> ``'es'``; ``None`` for a language the app does not speak.

    >>> normalize("es_ES.UTF-8"), normalize("fa_IR"), normalize("C"), normalize("de")
    ('es', 'fa', None, None)
    """
    if not value:
        return None
    code = value.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    return code if code in LANGUAGES else None


def detect_language(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """``--lang`` if given, else the first of LANGUAGE (a ``:`` list), LC_ALL, LC_MESSAGES and
    LANG that is set, as gettext reads them; English when none names a language we have.

    >>> detect_language(environ={"LANG": "es_MX.UTF-8"})
    'es'
    >>> detect_language(environ={"LANGUAGE": "de:fa", "LANG": "es_ES"})
    'fa'
    >>> detect_language("en", environ={"LANG": "es_ES"})
    'en'
    """
    if explicit:
        code = normalize(explicit)
        if code is None:
            raise ValueError(f"unknown language {explicit!r}: choose one of {', '.join(LANGUAGES)}")
        return code
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":") if var == "LANGUAGE" else [value]:
            code = normalize(part)
            if code:
                return code
        if var != "LANGUAGE":  # the first locale variable set decides, as in gettext
            return "en"
    return "en"


def set_language(lang: str) -> None:
    _active["translations"] = _translations(lang)
    _active["lang"] = lang


def language() -> str:
    return str(_active["lang"])


def shape(text: str) -> str:
    """Put a finished line of right-to-left text into visual order for a terminal.

    The paragraph direction is right to left (``base_dir="R"``) whatever the line starts
    with: python-bidi's automatic direction would take "E+1، E+2: ..." for a left-to-right
    line and put its Persian words in the wrong order."""
    if _active["lang"] not in RTL:
        return text
    import arabic_reshaper
    from bidi import get_display

    return "\n".join(get_display(arabic_reshaper.reshape(line), base_dir="R") for line in text.split("\n"))


def justify() -> Literal["left", "right"]:
    """Where a line of running text (the log, the prompt, the help) sits: on the right in a
    right-to-left language, where its reader starts."""
    return "right" if _active["lang"] in RTL else "left"


def N_(message: str) -> str:  # noqa: N802  (gettext's name for "mark, translate later")
    """Mark a string for extraction; it is translated where it is shown (key bindings)."""
    return message


def tr(message: str) -> str:
    """Translate a fragment that goes into another message (not shaped: the whole line is)."""
    return str(_active["translations"].gettext(message))


def t(message: str, **values: Any) -> str:
    """Translate ``message``, fill in ``values`` (``{name}`` fields) and shape it."""
    text = str(_active["translations"].gettext(message))
    return shape(text.format(**values) if values else text)


def tn(singular: str, plural: str, n: int, **values: Any) -> str:
    """The plural form for ``n`` (``{n}`` is filled in too), translated and shaped."""
    text = str(_active["translations"].ngettext(singular, plural, n))
    return shape(text.format(n=n, **values))


def translate_bindings(node: Any) -> None:
    """Translate a screen's key-binding labels (declared with :func:`N_`) for the footer."""
    from dataclasses import replace

    keys = node._bindings.key_to_bindings
    for key, bindings in keys.items():
        keys[key] = [replace(b, description=t(b.description)) if b.description else b for b in bindings]
