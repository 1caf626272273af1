"""The notifications' words (``sakura.server.notify.texts``) held to the pages' catalog rules:
every language has every message, with the same placeholders; Persian has no Latin letters
outside them, and its numbers are in Persian digits; a language without a catalog gets English."""

from __future__ import annotations

import re

import pytest

from sakura.server.notify.texts import LANGUAGES, TEXTS, language_of, text

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_the_languages_are_the_pages() -> None:
    assert set(LANGUAGES) == {"en", "es", "fa"}


@pytest.mark.parametrize("code", [c for c in TEXTS if c != "en"])
def test_every_message_in_every_language_with_the_same_placeholders(code: str) -> None:
    assert set(TEXTS[code]) == set(TEXTS["en"])
    for key, english in TEXTS["en"].items():
        assert set(PLACEHOLDER.findall(TEXTS[code][key])) == set(PLACEHOLDER.findall(english)), key
        assert TEXTS[code][key] != english, key  # translated


def test_persian_has_no_latin_letters_and_persian_digits() -> None:
    for key, message in TEXTS["fa"].items():
        assert not re.search("[A-Za-z]", PLACEHOLDER.sub("", message)), key
    assert "۱۲" in text("fa", "move.body", table="t", round=12, deadline="-")
    assert "12" in text("es", "move.body", table="t", round=12, deadline="-")


def test_an_unknown_language_is_english() -> None:
    assert language_of("es-MX") == "es" and language_of("de") == "en" and language_of(None) == "en"
    assert text("de", "move.title") == TEXTS["en"]["move.title"]
