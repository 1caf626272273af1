"""The HTML pages, served with the reader's language already on ``<html lang dir>``.

The page's script picks the language too (``static/js/i18n.js``: ``?lang``, the menu's choice,
the browser's preference) and translates everything; setting ``lang`` and ``dir`` here, from
the same sources the server can see (``?lang``, the ``sakura_lang`` cookie the menu writes,
``Accept-Language``), spares a right-to-left reader a left-to-right first paint.

>>> pick_language("fa-IR,fa;q=0.9,en;q=0.5", None, None)
'fa'
>>> pick_language("de-DE,de;q=0.9,es;q=0.7", None, None), pick_language("", "es", None)
('es', 'es')
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path

from fastapi import Request
from fastapi.responses import HTMLResponse

STATIC = Path(str(resources.files("sakura.server").joinpath("static")))
_HTML_TAG = '<html lang="en" dir="ltr">'


@cache
def languages() -> dict[str, str]:
    """Language code -> direction, as ``languages.json`` lists them (English first)."""
    data = json.loads((STATIC / "i18n" / "languages.json").read_text(encoding="utf-8"))
    return {entry["code"]: entry["dir"] for entry in data}


def _base(tag: str | None) -> str:
    return (tag or "").strip().lower().replace("_", "-").split("-")[0]


def pick_language(accept: str | None, cookie: str | None, query: str | None) -> str:
    """The first of ``?lang``, the cookie, then ``Accept-Language`` by its q-values, that
    the catalogs have; else English."""
    known = languages()
    for wanted in (query, cookie):
        if _base(wanted) in known:
            return _base(wanted)
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        ranked.append((-q, i, _base(tag)))
    for _, _, code in sorted(ranked):
        if code in known:
            return code
    return next(iter(known))


@cache
def _template(name: str) -> str:
    text = (STATIC / name).read_text(encoding="utf-8")
    assert _HTML_TAG in text, f"{name} must start its <html> as {_HTML_TAG}"
    return text


def page(name: str, request: Request) -> HTMLResponse:
    """``static/<name>`` with ``lang`` and ``dir`` set for this request's reader."""
    code = pick_language(
        request.headers.get("accept-language"),
        request.cookies.get("sakura_lang"),
        request.query_params.get("lang"),
    )
    html = _template(name).replace(_HTML_TAG, f'<html lang="{code}" dir="{languages()[code]}">', 1)
    return HTMLResponse(html, headers={"Vary": "Accept-Language, Cookie"})
