"""The browser's catalogs (``static/i18n/*.json``) against each other and against the code.

A key is *used* when it is written out in full in the page code: a string literal in a JS
module, or a ``data-i18n*`` attribute in an HTML page (docs/i18n.md asks for keys written out,
never assembled, so this test can find them). Every catalog must hold exactly the used keys;
the same placeholders in every language; plural messages with the plural categories of their
language (``languages.json``) and nothing else.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "sakura" / "server" / "static"
I18N = STATIC / "i18n"
LANGUAGES = json.loads((I18N / "languages.json").read_text(encoding="utf-8"))
CODES = [language["code"] for language in LANGUAGES]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# A string literal in JS: "...", '...' or a template literal without ${...}.
LITERAL = re.compile(r"\"([^\"\\\n]*)\"|'([^'\\\n]*)'|`([^`$\\\n]*)`")
KEY = re.compile(r"^[a-z]+(\.[A-Za-z0-9_+\-?]+)+$")
HTML_KEY = re.compile(r"data-i18n(?:-\w+)?=\"([^\"]+)\"")


def catalog(code: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((I18N / f"{code}.json").read_text(encoding="utf-8"))
    return data


def namespaces() -> set[str]:
    return {key.split(".")[0] for code in CODES for key in catalog(code)}


def used_keys() -> set[str]:
    """Every catalog-looking literal of the page code (first segment a catalog namespace)."""
    spaces = namespaces()
    found: set[str] = set()
    for path in (STATIC / "js").rglob("*.js"):
        for match in LITERAL.finditer(path.read_text(encoding="utf-8")):
            text = next(g for g in match.groups() if g is not None)
            if KEY.match(text) and text.split(".")[0] in spaces:
                found.add(text)
    for path in STATIC.glob("*.html"):
        found.update(HTML_KEY.findall(path.read_text(encoding="utf-8")))
    return found


def forms(value: object) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [str(value)]


def test_there_are_three_languages_and_one_is_right_to_left() -> None:
    assert CODES == ["en", "es", "fa"]
    assert [language["dir"] for language in LANGUAGES] == ["ltr", "ltr", "rtl"]
    for code in CODES:
        assert (I18N / f"{code}.json").exists()


def test_the_code_uses_no_key_missing_from_the_catalogs() -> None:
    used = used_keys()
    assert len(used) > 100  # the extraction works
    for code in CODES:
        missing = sorted(used - set(catalog(code)))
        assert not missing, f"{code}.json lacks {missing}"


def test_no_catalog_holds_a_stale_key() -> None:
    used = used_keys()
    for code in CODES:
        stale = sorted(set(catalog(code)) - used)
        assert not stale, f"{code}.json holds keys no page uses: {stale}"


@pytest.mark.parametrize("code", CODES[1:])
def test_every_catalog_has_the_keys_of_every_other(code: str) -> None:
    english, other = set(catalog("en")), set(catalog(code))
    assert not sorted(english - other), f"{code}.json lacks {sorted(english - other)}"
    assert not sorted(other - english), f"{code}.json has keys English lacks: {sorted(other - english)}"


@pytest.mark.parametrize("code", CODES[1:])
def test_translations_keep_the_placeholders(code: str) -> None:
    english = catalog("en")
    for key, value in catalog(code).items():
        expected = {name for form in forms(english[key]) for name in PLACEHOLDER.findall(form)}
        for form in forms(value):
            assert set(PLACEHOLDER.findall(form)) <= expected, (code, key, form)
        found = {name for form in forms(value) for name in PLACEHOLDER.findall(form)}
        assert found == expected, (code, key, found, expected)


@pytest.mark.parametrize("language", LANGUAGES, ids=CODES)
def test_plural_messages_have_the_categories_of_their_language(language: dict[str, object]) -> None:
    allowed = set(language["plurals"])  # type: ignore[arg-type]
    for key, value in catalog(str(language["code"])).items():
        if isinstance(value, dict):
            categories = {category for category in value if not category.startswith("=")}  # "=0": exact
            assert categories == allowed, (language["code"], key, categories)
            assert "{n}" in value["other"], (language["code"], key)
        else:
            assert isinstance(value, str) and value.strip(), (language["code"], key)


def test_plural_messages_are_plural_in_every_language() -> None:
    kinds = {code: {key: isinstance(value, dict) for key, value in catalog(code).items()} for code in CODES}
    for key, plural in kinds["en"].items():
        for code in CODES[1:]:
            # A language may need plural forms where English does not; never the reverse.
            assert kinds[code][key] or not plural, (code, key)


# The same in Spanish as in English: names ("Sakura", "torii"), "bot", and the letter of red
# (R for rojo).
SAME_IN_SPANISH = {"app.title", "space.T", "seat.name_bot", "letter.5", "cards.sheet.total"}


def words(value: object) -> str:
    return " ".join(PLACEHOLDER.sub("", form) for form in forms(value))


def test_no_english_is_left_in_spanish() -> None:
    english = catalog("en")
    same = sorted(
        key
        for key, value in catalog("es").items()
        if words(value) == words(english[key]) and re.search("[A-Za-z]", words(value))
    )
    assert set(same) <= SAME_IN_SPANISH, same


def test_persian_has_no_latin_letters() -> None:
    latin = sorted(key for key, value in catalog("fa").items() if re.search("[A-Za-z]", words(value)))
    assert not latin, latin
