"""The pages come with the reader's language on ``<html lang dir>`` already (no left-to-right
first paint for a Persian reader): from ``?lang``, the language menu's cookie, or the
browser's ``Accept-Language``."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


@pytest.mark.parametrize(
    ("path", "headers", "cookies", "expected"),
    [
        ("/", {"accept-language": "fa-IR,fa;q=0.9,en;q=0.8"}, {}, '<html lang="fa" dir="rtl">'),
        ("/t/abc", {"accept-language": "de-DE,de;q=0.9,es;q=0.7,en;q=0.3"}, {}, '<html lang="es" dir="ltr">'),
        ("/replay/abc", {"accept-language": "en;q=0.2,fa;q=0.8"}, {}, '<html lang="fa" dir="rtl">'),
        ("/", {"accept-language": "fa"}, {"sakura_lang": "es"}, '<html lang="es" dir="ltr">'),
        ("/?lang=fa", {"accept-language": "es"}, {"sakura_lang": "es"}, '<html lang="fa" dir="rtl">'),
        ("/", {"accept-language": "zh-CN,ja;q=0.5"}, {}, '<html lang="en" dir="ltr">'),
        ("/", {"accept-language": "fa;q=nonsense, es"}, {"sakura_lang": "xx"}, '<html lang="es" dir="ltr">'),
    ],
)
def test_the_page_is_served_in_the_readers_language(
    client: TestClient, path: str, headers: dict[str, str], cookies: dict[str, str], expected: str
) -> None:
    client.cookies.clear()
    for name, value in cookies.items():
        client.cookies.set(name, value)
    response = client.get(path, headers=headers)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert expected in response.text and response.text.count("<html") == 1
    assert "Accept-Language" in response.headers["vary"]
