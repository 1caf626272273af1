"""The terminal app's catalogs: every string of the source in every language, none stale."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from sakura.tui import i18n

SOURCE = Path(i18n.__file__).parent
KEYWORDS = {"t": None, "lt": None, "tr": None, "N_": None, "tn": (1, 2), "ltn": (1, 2)}


def _source_ids() -> set[str]:
    ids = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
        str(SOURCE), keywords=KEYWORDS, comment_tags=()
    ):
        ids.add(message if isinstance(message, str) else message[0])
    return ids


@pytest.mark.parametrize("lang", ["es", "fa"])
def test_catalog_matches_the_source(lang: str) -> None:
    path = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
    source = _source_ids()
    assert not source - ids, f"{lang} lacks {sorted(source - ids)}"
    assert not ids - source, f"{lang} has stale strings {sorted(ids - source)}"
    assert not list(catalog.obsolete), f"{lang} keeps obsolete strings"
    for m in catalog:
        if m.id:
            assert "fuzzy" not in m.flags, m.id
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            assert all(strings), f"{lang}: {m.id!r} is untranslated"
    assert catalog.plural_forms.startswith("nplurals=")


def test_catalogs_share_their_strings() -> None:
    sets = []
    for lang in ("es", "fa"):
        with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po").open("rb") as fh:
            sets.append({m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.id})
    assert sets[0] == sets[1]


def test_plurals_and_locale_detection() -> None:
    try:
        i18n.set_language("es")
        assert i18n.tn("{n} card", "{n} cards", 1) == f"{1} card"  # not in the catalog
        one = i18n.tn(
            "The discard pile is shuffled into a new deck of {n} card.",
            "The discard pile is shuffled into a new deck of {n} cards.",
            1,
        )
        many = i18n.tn(
            "The discard pile is shuffled into a new deck of {n} card.",
            "The discard pile is shuffled into a new deck of {n} cards.",
            12,
        )
        assert one.endswith("1 carta.") and many.endswith("12 cartas.")
    finally:
        i18n.set_language("en")
    assert i18n.detect_language(environ={"LC_ALL": "fa_IR.UTF-8", "LANG": "es_ES.UTF-8"}) == "fa"
    assert i18n.detect_language(environ={}) == "en"
    with pytest.raises(ValueError, match="unknown language"):
        i18n.detect_language("xx")
