"""Web Push notifications (``pywebpush``; VAPID, RFC 8292; the payload encrypted aes128gcm,
RFC 8291).

The server signs each push request with its VAPID key: ``sakura serve --vapid-private-key
FILE`` (a PEM EC P-256 key; or ``SAKURA_VAPID_PRIVATE_KEY``), else a key generated once and kept
in the data directory (``vapid-private.pem`` beside the default database, readable by its owner
only), so browsers' subscriptions stay valid across restarts. Every process of a site must use
the same key (give it with the option). Its public key, the browser's
``applicationServerKey``, is ``GET /api/push/key``. A subscription's endpoint must be https
(the push services' are), so that an account cannot have the server post to its own network.

``pywebpush`` is synchronous (``requests``): each push runs in a worker thread, never on the
event loop. A subscription the push service answers 404 or 410 for has expired or was
withdrawn (:class:`GoneError`): the notifier deletes it.
"""

from __future__ import annotations

import base64
import json
import logging
import os
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from sakura.server.notify.store import Subscription

log = logging.getLogger("sakura.server")

KEY_FILE = "vapid-private.pem"
PUSH_SECONDS = 30.0  # a push service that takes longer fails the push (and it is counted)
TTL_SECONDS = 7 * 86_400  # a push waits that long for an offline browser (a move may take days)


class GoneError(Exception):
    """The push service no longer knows this subscription (404 or 410)."""


def load_key(path: Path) -> Vapid02:
    """The VAPID key kept in ``path`` (PEM)."""
    return Vapid02.from_file(str(path))


def key_in(folder: Path) -> Vapid02:
    """The key kept in ``folder`` (:data:`KEY_FILE`), made and written (mode 0600) the first time."""
    path = folder / KEY_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        vapid = Vapid02()
        vapid.generate_keys()
        pem = vapid.private_pem()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
        log.info("a new VAPID key for Web Push is kept in %s", path)
    return load_key(path)


def public_key(vapid: Vapid02) -> str:
    """The public key as the Push API takes it (``applicationServerKey``): the uncompressed
    P-256 point, base64url without padding."""
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Pusher:
    """Sends payloads to subscriptions, signed with one VAPID key for one contact (``subject``:
    ``mailto:`` or ``https:``, which the push services may use to reach the site's operator)."""

    def __init__(
        self, vapid: Vapid02, subject: str, *, plain_http_hosts: frozenset[str] = frozenset()
    ) -> None:
        self.vapid = vapid
        self.subject = subject
        self.plain_http_hosts = plain_http_hosts  # endpoints on these hosts may be http (tests only)
        self.public_key = public_key(vapid)

    def send(self, sub: Subscription, payload: dict[str, Any]) -> int:
        """Push ``payload`` (JSON) to ``sub``, blocking (run it in a worker thread); the push
        service's status. :class:`GoneError` if it answered 404 or 410; other failures raise."""
        info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
        try:
            response = webpush(
                info,
                data=json.dumps(payload, ensure_ascii=False),
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.subject},  # a new dict: pywebpush adds aud and exp to it
                content_encoding="aes128gcm",
                ttl=TTL_SECONDS,
                timeout=PUSH_SECONDS,
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):
                raise GoneError(sub.endpoint) from None
            raise
        return int(response.status_code)
