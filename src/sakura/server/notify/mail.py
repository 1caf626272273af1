"""E-mail notifications through a configured SMTP server (``aiosmtplib``: asynchronous, so a
slow server holds up no table).

``sakura serve --smtp-url smtp://user:password@host:587 --mail-from sakura@example.org`` (or
``SAKURA_SMTP_URL``, ``SAKURA_MAIL_FROM``) turns it on; ``smtps://`` for TLS from the first byte
(port 465); ``smtp://`` upgrades with STARTTLS when the server offers it. Off when not configured.

Each mail is plain text with a simple HTML alternative, in the account's language, with the
table's link and a one-click unsubscribe (RFC 8058): ``List-Unsubscribe`` names
``/unsubscribe/{token}`` and ``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` lets a mail
program POST to it with no login (:mod:`.tokens`).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import unquote, urlsplit

import aiosmtplib

SEND_SECONDS = 30.0  # an SMTP exchange that takes longer fails (and is counted)


@dataclass(frozen=True)
class SmtpServer:
    """Where mail is handed over, parsed from ``smtp[s]://[user[:password]@]host[:port]``.

    >>> SmtpServer.parse("smtp://ada:s%40cret@mail.example.org:2525")
    SmtpServer(host='mail.example.org', port=2525, user='ada', password=<hidden>, tls=False)
    >>> SmtpServer.parse("smtps://mail.example.org").port
    465
    """

    host: str
    port: int
    user: str | None = None
    password: str | None = None
    tls: bool = False  # TLS from the start (smtps); else STARTTLS when offered

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"an SMTP URL is smtp://user:password@host:port or smtps://..., not {url!r}")
        tls = parts.scheme == "smtps"
        return cls(
            host=parts.hostname,
            port=parts.port or (465 if tls else 587),
            user=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            tls=tls,
        )

    def __repr__(self) -> str:  # never the password, wherever it is printed or logged
        return (
            f"SmtpServer(host={self.host!r}, port={self.port}, user={self.user!r}, "
            f"password={'<hidden>' if self.password else None}, tls={self.tls})"
        )


@dataclass(frozen=True)
class Mail:
    """What one notification says by mail (the sender fills in the envelope)."""

    to: str
    subject: str
    lines: tuple[str, ...]  # the paragraphs
    url: str  # the table
    open_text: str  # "Open the table: {url}"
    unsubscribe_url: str
    unsubscribe_text: str  # the HTML link's words
    why: str  # why this mail came, with the unsubscribe link in words
    language: str


def message(mail: Mail, sender: str) -> EmailMessage:
    """The mail as sent: headers (RFC 8058's two), a plain text part and an HTML one."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, mail.to, mail.subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    msg["Content-Language"] = mail.language
    msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to it
    msg["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    plain = "\n\n".join([*mail.lines, mail.open_text, "-- ", mail.why])
    msg.set_content(plain + "\n")
    e = html.escape
    rtl = ' dir="rtl"' if mail.language == "fa" else ""
    body = "".join(f"<p>{e(line)}</p>" for line in mail.lines)
    msg.add_alternative(
        f'<!doctype html><html lang="{e(mail.language)}"{rtl}><body>{body}'
        f'<p><a href="{e(mail.url)}">{e(mail.open_text)}</a></p><hr>'
        f'<p><small><a href="{e(mail.unsubscribe_url)}">{e(mail.unsubscribe_text)}</a></small></p>'
        "</body></html>\n",
        subtype="html",
    )
    return msg


class Mailer:
    """Sends :class:`Mail` through one SMTP server, from one address."""

    def __init__(self, server: SmtpServer, sender: str) -> None:
        self.server = server
        self.sender = sender

    async def send(self, mail: Mail) -> None:
        """Hand ``mail`` over; raises (``aiosmtplib``'s errors, ``OSError``) if it was not taken."""
        s = self.server
        await aiosmtplib.send(
            message(mail, self.sender),
            hostname=s.host,
            port=s.port,
            username=s.user,
            password=s.password,
            use_tls=s.tls,
            start_tls=False if s.tls else None,  # None: STARTTLS when the server offers it
            timeout=SEND_SECONDS,
        )
