"""The built-in SMTP receiver: a message is stored before it is acknowledged.

``start_smtpd(deliver)`` listens (aiosmtpd, in its own thread) and hands each
message's raw bytes to ``deliver(raw)``, the server's function that stores
it. The answer to the sending mail server is ``250`` only after ``deliver``
returned; if it raised, the answer is ``451`` and the sender keeps the message
and tries again later, so nothing is lost. A message over ``limit_bytes`` is
refused with ``552``, a sender over its hourly limit with ``451``
(``SenderLimit``: a real mail server tries again later), and every sender with
``451`` while too many stored mails wait to be processed (``Backlog``:
back-pressure, the intake held to what the server processes).

The connections held at once are bounded, in all (``connections``) and from one client
address (``per_address``): one more is answered ``421 4.7.0`` and closed at once, so idle or
slow connections cannot take every place, nor every file descriptor of the process (a
thousand of them once made the web's select() fail: issue 28). A connection idle for
``IDLE_SECONDS`` is closed (aiosmtpd's timeout; RFC 5321 §4.5.3.2 asks a server to wait 5 minutes).

Like any final-delivery MTA (RFC 5321 §4.4), the receiver puts a
``Return-Path:`` line with the envelope sender before the message; an empty
one (``<>``) marks a bounce. ``return_path=False`` hands over the bytes
exactly as received.
"""

from __future__ import annotations

import asyncio
import logging

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP

from pbem.server.mail.limits import Backlog, SenderLimit

LIMIT_BYTES = 20 * 1024 * 1024
CONNECTIONS = 100  # connections held at once, in all (Config.smtp_connections)
PER_ADDRESS = 20  # connections held at once from one client address (Config.smtp_connections_per_address)
IDLE_SECONDS = 300  # a connection that says nothing this long is closed

log = logging.getLogger(__name__)


class Receiver:
    """The aiosmtpd handler: each message goes to ``deliver(raw)`` before the 250."""

    def __init__(self, deliver, return_path: bool = True, recipients=None, limit: SenderLimit | None = None,
                 backlog: Backlog | None = None):
        self.deliver = deliver
        self.backlog = backlog
        self.return_path = return_path
        self.recipients = None if recipients is None else {r.lower() for r in recipients}
        self.limit = limit

    async def handle_MAIL(self, server, session, envelope, address, mail_options) -> str:
        busy = self.backlog.refusal() if self.backlog is not None else ""
        if busy:
            return f"451 4.3.2 The server is busy ({busy}); try again later"
        why = self.limit.refusal(address) if self.limit is not None else ""
        if why:
            return f"451 4.7.1 Too much mail from you ({why}); try again later"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options) -> str:
        if self.recipients is not None:
            domain = "@" + address.rpartition("@")[2]
            if address.lower() not in self.recipients and domain.lower() not in self.recipients:
                return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        raw = envelope.original_content or envelope.content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        if self.return_path:
            sender = (envelope.mail_from or "").strip().strip("<>")  # aiosmtpd gives "<>" for a bounce
            raw = b"Return-Path: <" + sender.encode("utf-8") + b">\r\n" + raw
        if self.limit is not None:
            why = self.limit.refusal(envelope.mail_from, len(raw))
            if why:
                return f"451 4.7.1 Too much mail from you ({why}); try again later"
        try:
            # deliver blocks (it writes to the database): run it off the event loop
            await asyncio.get_running_loop().run_in_executor(None, self.deliver, raw)
        except Exception:
            log.exception("could not store a message from %s", envelope.mail_from)
            return "451 4.3.0 The message could not be stored; please try again later"
        if self.limit is not None:
            self.limit.note(envelope.mail_from, len(raw))
        return "250 2.0.0 OK: message stored"


class Connections:
    """The connections held, in all and by client address (the event loop's thread alone counts)."""

    def __init__(self, total: int = CONNECTIONS, per_address: int = PER_ADDRESS):
        self.total, self.per_address = total, per_address  # 0: no limit
        self.held: dict[str, int] = {}

    def enter(self, address: str) -> str:
        """Count a new connection from ``address``; or, over a limit, why it is refused."""
        if self.total and sum(self.held.values()) >= self.total:
            return "too many connections here"
        if self.per_address and self.held.get(address, 0) >= self.per_address:
            return "too many connections from your address"
        self.held[address] = self.held.get(address, 0) + 1
        return ""

    def leave(self, address: str) -> None:
        self.held[address] -= 1
        if not self.held[address]:
            del self.held[address]


class BoundedSMTP(SMTP):
    """aiosmtpd's SMTP session, refused with 421 at once when a connection limit is reached."""

    def __init__(self, handler, connections: Connections, **settings):
        super().__init__(handler, **settings)
        self.connections = connections
        self.counted: str | None = None  # the address this connection is counted under

    def connection_made(self, transport) -> None:
        if self.transport is None:  # a new connection (not the same one after STARTTLS)
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if peer else ""
            why = self.connections.enter(address)
            if why:
                transport.write(f"421 4.7.0 {why}; try again later\r\n".encode())
                transport.close()
                return
            self.counted = address
        super().connection_made(transport)

    def connection_lost(self, error) -> None:
        if self.counted is None:  # refused: no session was begun
            return
        self.connections.leave(self.counted)
        self.counted = None
        super().connection_lost(error)


class _Controller(Controller):
    """An aiosmtpd Controller that may listen on port 0 and records the port it got, and whose
    sessions are bounded (``BoundedSMTP``)."""

    def __init__(self, handler, connections: Connections, **settings):
        super().__init__(handler, **settings)
        self.connections = connections

    def factory(self):
        return BoundedSMTP(self.handler, self.connections, **self.SMTP_kwargs)

    def _create_server(self):
        return self._listen()

    async def _listen(self):
        server = await super()._create_server()
        self.port = server.sockets[0].getsockname()[1]
        return server


def start_smtpd(deliver, host: str = "127.0.0.1", port: int = 0, limit_bytes: int = LIMIT_BYTES,
                server_hostname=None, return_path: bool = True, recipients=None,
                sender_limit: SenderLimit | None = None, backlog: Backlog | None = None,
                connections: int = CONNECTIONS, per_address: int = PER_ADDRESS) -> Controller:
    """Start receiving mail; returns the running controller (``.port``, ``.stop()``).

    ``recipients``: the addresses (``orders@example.org``) and domains
    (``@example.org``) mail is taken for; others get 550, so mail that was
    never meant for the server is not stored and answered. None takes all.
    ``sender_limit``: messages and bytes an hour per envelope sender (pbem.server.mail.limits).
    ``backlog``: 451 to every sender while too many stored mails wait to be processed (the same module).
    ``connections``, ``per_address``: the connections held at once, in all and from one address (0: no limit).
    """
    controller = _Controller(
        Receiver(deliver, return_path, recipients, sender_limit, backlog),
        Connections(connections, per_address),
        hostname=host,
        port=port,
        server_hostname=server_hostname,
        data_size_limit=limit_bytes,
        enable_SMTPUTF8=True,
        timeout=IDLE_SECONDS,
    )
    controller.start()
    return controller
