"""The notifier of ``sakura serve``, from its options (or their environment variables).

* e-mail: ``--smtp-url`` and ``--mail-from`` (``SAKURA_SMTP_URL``, ``SAKURA_MAIL_FROM``), both or
  neither: off unless configured;
* Web Push: on, with the VAPID key of ``--vapid-private-key`` (``SAKURA_VAPID_PRIVATE_KEY``) or
  the one kept in the data directory (made the first time), and ``--vapid-subject``
  (``SAKURA_VAPID_SUBJECT``; default ``mailto:`` the mail sender, else ``mailto:sakura@localhost``);
* links: ``--site-url`` (``SAKURA_SITE_URL``), the address players reach the site by;
* the secret unsubscribe links are signed with: ``SAKURA_SECRET_KEY``, else one kept in the data
  directory (``notify-secret.key``, made the first time). Every process of a site must share
  the key and the secret: on many machines, give both.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from sakura.server.notify.notifier import Notifier

SECRET_FILE = "notify-secret.key"


def secret_in(folder: Path) -> bytes:
    """``SAKURA_SECRET_KEY``, else the secret kept in ``folder`` (32 random bytes, mode 0600,
    made the first time)."""
    given = os.environ.get("SAKURA_SECRET_KEY")
    if given:
        return given.encode()
    path = folder / SECRET_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(32))
    return path.read_bytes()


def notifier_from(  # noqa: PLR0913 - one parameter per option of sakura serve
    *,
    site_url: str,
    data_dir: Path,
    smtp_url: str | None = None,
    mail_from: str | None = None,
    vapid_private_key: Path | None = None,
    vapid_subject: str | None = None,
    push: bool = True,
) -> Notifier:
    """The notifier the options describe (``ValueError`` with the option's name if one is wrong)."""
    mailer = None
    if smtp_url or mail_from:
        if not (smtp_url and mail_from):
            raise ValueError("e-mail needs both --smtp-url and --mail-from")
        from sakura.server.notify.mail import Mailer, SmtpServer

        mailer = Mailer(SmtpServer.parse(smtp_url), mail_from)
    pusher = None
    if push:
        from sakura.server.notify.push import Pusher, key_in, load_key

        if vapid_private_key is not None and not vapid_private_key.is_file():
            raise ValueError(f"--vapid-private-key: no such file {vapid_private_key}")
        vapid = load_key(vapid_private_key) if vapid_private_key is not None else key_in(data_dir)
        subject = vapid_subject or (f"mailto:{mail_from}" if mail_from else "mailto:sakura@localhost")
        if not subject.startswith(("mailto:", "https:")):
            raise ValueError("--vapid-subject is a mailto: or https: URL")
        pusher = Pusher(vapid, subject)
    return Notifier(site_url, secret_in(data_dir), mailer=mailer, pusher=pusher)
