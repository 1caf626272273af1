"""The terminal app's languages: gettext catalogs kept by Babel, loaded at start-up.

The source strings are English and are marked with :func:`t` (:func:`tn` for plurals,
:func:`lt` and :func:`ltn` for logical text, :func:`tr` for fragments). ``pybabel extract``
(its keywords are in docs/tui.md) collects them into ``locale/sakura_tui.pot``; ``pybabel
update`` merges them into ``locale/LANG/LC_MESSAGES/sakura_tui.po``. The ``.po``
files are the only committed form: at start-up :func:`set_language` reads the catalog with
``babel.messages.pofile`` and compiles it in memory to ``gettext.GNUTranslations``, so a fresh
``pip install`` needs no build step and plural forms follow the catalog's ``Plural-Forms``.

Persian is written right to left: terminals lay out text cell by cell, left to right, so a
line is shaped, put in visual order and mirrored (:mod:`sakura.tui.bidi`) once it is whole.
:func:`t` does that at once, for a label that is shown as it is; :func:`lt` (and :func:`ltn`)
return the logical text, for what is joined to other text or wrapped to a width (the log, the
prompt, the help): :func:`paragraph` shapes it where it is drawn. Shaping twice, or before
joining or wrapping, scrambles the line. See ``docs/tui.md`` for what that does not cover.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rich.console import RenderableType

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


def rtl() -> bool:
    return _active["lang"] in RTL


def shape(text: str) -> str:
    """Put finished lines of right-to-left text into visual order for a terminal, shaped
    and with their brackets mirrored (:func:`sakura.tui.bidi.shape_line`).

    The paragraph direction is right to left whatever the line starts with: python-bidi's
    automatic direction would take "E+1، E+2: ..." for a left-to-right line and put its
    Persian words in the wrong order."""
    if not rtl():
        return text
    from sakura.tui.bidi import shape_line

    return "\n".join(shape_line(line) for line in text.split("\n"))


def paragraph(text: str, style: str = "") -> RenderableType:
    """Logical text (from :func:`lt`) as a renderable that wraps it to the width it is drawn
    at and only then shapes each line (right-to-left languages; aligned where its reader
    starts)."""
    if not rtl():  # Rich wraps left-to-right text itself
        from rich.text import Text

        return Text(text, style=style, justify="left")
    from sakura.tui.bidi import Paragraph

    return Paragraph(text, style, rtl=True)


def lines_at(text: str, width: int) -> list[str]:
    """Logical text cut into lines of at most ``width`` cells, each then shaped (a
    right-to-left line is reordered after it is cut, never before)."""
    from sakura.tui.bidi import shape_wrapped, wrap

    return shape_wrapped(text, width) if rtl() else wrap(text, width)


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


def lt(message: str, **values: Any) -> str:
    """Translate ``message`` and fill in ``values``, in logical order (not shaped): for text
    that is joined to more text or wrapped before it is shown (:func:`paragraph`)."""
    text = str(_active["translations"].gettext(message))
    return text.format(**values) if values else text


def ltn(singular: str, plural: str, n: int, **values: Any) -> str:
    """:func:`tn` in logical order (not shaped), as :func:`lt`."""
    text = str(_active["translations"].ngettext(singular, plural, n))
    return text.format(n=n, **values)


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
