"""The token of an e-mail's one-click unsubscribe: which account and address it stops, signed
with the server's secret (HMAC-SHA256), so that the link works with no login and nobody can
make one for another account. It names the address too: a link in an old mail does not stop
the mails to an address given since.

>>> token = sign(b"k" * 32, "ada", "ada@example.org")
>>> verify(b"k" * 32, token)
('ada', 'ada@example.org')
>>> verify(b"x" * 32, token) is None, verify(b"k" * 32, token[:-2] + "AA") is None
(True, True)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

_PURPOSE = b"sakura-unsubscribe:"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(secret: bytes, account: str, email: str) -> str:
    """``payload.signature``, both base64url: safe in a URL's path."""
    payload = _b64(json.dumps([account, email], separators=(",", ":")).encode())
    mac = hmac.new(secret, _PURPOSE + payload.encode(), hashlib.sha256).digest()
    return f"{payload}.{_b64(mac)}"


def verify(secret: bytes, token: str) -> tuple[str, str] | None:
    """(account key, address) of a token this server signed, else None."""
    payload, _, signature = token.partition(".")
    try:
        expected = hmac.new(secret, _PURPOSE + payload.encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(expected, _unb64(signature)):
            return None
        account, email = json.loads(_unb64(payload))
    except (ValueError, TypeError):
        return None
    return (account, email) if isinstance(account, str) and isinstance(email, str) else None
