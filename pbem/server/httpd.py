"""The web's listener: waitress, bounded against idle and slow clients (issue 28, item 2).

``start_httpd(app, config)`` makes the server (``.run()`` serves until closed). Over waitress's
defaults it:

- waits with poll(), not select(): select() cannot watch a descriptor past 1023, and one such
  connection (the process had a thousand others open, say to the SMTP port) made waitress's loop
  raise "filedescriptor out of range" and the web thread end for good;
- holds at most ``web_connections`` connections in all (waitress's ``connection_limit``: past it,
  new ones wait in the listen queue until some close);
- holds at most ``web_connections_per_address`` from one client address; another gets
  ``503`` and is closed at once, so one client cannot take every place (not applied behind a
  reverse proxy, ``proxies`` > 0, where every connection comes from the proxy: there the proxy
  bounds each client, deploy/nginx.conf);
- closes a connection whose request (headers and body) has not fully arrived
  ``web_request_seconds`` after its first byte, however slowly it keeps sending, and one idle
  ``web_idle_seconds`` (waitress's ``channel_timeout``), looking every ``CLEANUP_SECONDS``;
- refuses a request body larger than the web app takes (its ``MAX_CONTENT_LENGTH``) with 413
  before buffering it, where waitress would keep up to 1 GiB of it on disk;
- keeps the connection open after an answer without a body (304 Not Modified, 204, 1xx) on HTTP/1.1
  (``BodilessKeptOpen``): waitress 3.0.2 closed it, as such an answer has no Content-Length (RFC 9110
  forbids one on a 304), so every conditional request of a page or its maps paid a new connection.
"""

from __future__ import annotations

import weakref

from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import WSGITask

CLEANUP_SECONDS = 2  # how often slow and idle connections are looked for
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 45\r\n\r\nToo many connections from your address here.\n")


class BodilessKeptOpen(WSGITask):
    """waitress's task, but an HTTP/1.1 answer without a body leaves the connection open.

    waitress (task.py, ``build_response_header``) closes the connection after any answer without a
    Content-Length, so that the client knows where a body of unknown length ends; it drops the header from
    a 304, 204 or 1xx (which must not carry one), so it closed after each of them too, although such an
    answer ends at its header's blank line (RFC 9112 6.3). The close it asks there, and only there, is
    not made; every other close (the client's ``Connection: close``, HTTP/1.0, an error) stays."""

    building_header = False

    def build_response_header(self):
        self.building_header = True
        try:
            return super().build_response_header()
        finally:
            self.building_header = False

    def set_close_on_finish(self) -> None:
        if self.building_header and not self.has_body and self.version == "1.1" and \
                self.request.headers.get("CONNECTION", "").lower() != "close":
            return  # the answer ends at its header: the connection can carry the next request
        super().set_close_on_finish()


class Channel(HTTPChannel):
    task_class = BodilessKeptOpen


class BoundedServer(TcpWSGIServer):
    """waitress's TCP server with a per-address connection limit and a time limit on a request's arrival."""

    channel_class = Channel

    def __init__(self, app, per_address: int = 0, request_seconds: float = 0, **settings):
        self.per_address = per_address  # 0: no limit by address
        self.request_seconds = request_seconds  # 0: no limit on a request's arrival
        self.arriving: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # request being read -> since
        super().__init__(app, **settings)

    def handle_accept(self) -> None:
        try:
            pair = self.accept()
        except OSError:  # the client gone already, or no descriptor left: the next one is taken
            return
        if pair is None:
            return
        conn, addr = pair
        if self.per_address and self.from_address(addr[0]) >= self.per_address:
            try:
                conn.setblocking(False)
                conn.send(BUSY)
            except OSError:
                pass
            conn.close()
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def from_address(self, host: str) -> int:
        """How many connections from ``host`` are open."""
        return sum(1 for channel in list(self.active_channels.values()) if channel.addr and channel.addr[0] == host)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # the idle ones (channel_timeout)
        if not self.request_seconds:
            return
        for channel in list(self.active_channels.values()):
            request = channel.request  # a request being read (None between requests)
            if request is None or channel.requests:  # nothing arriving, or one being answered
                continue
            began = self.arriving.setdefault(request, now)
            if now - began > self.request_seconds:
                channel.will_close = True  # closed by the loop at once (waitress: writable)


def start_httpd(app, config, **settings) -> BoundedServer:
    """The web's server on ``config.web_host``:``config.web_port``, bounded as the settings say;
    ``settings``: more of waitress's (the trust of a proxy's headers: pbem.server.serve.proxy_options)."""
    return BoundedServer(
        app, per_address=0 if config.proxies else config.web_connections_per_address,
        request_seconds=config.web_request_seconds, host=config.web_host, port=config.web_port, threads=8,
        ident="pbem", asyncore_use_poll=True, connection_limit=config.web_connections,
        channel_timeout=config.web_idle_seconds, cleanup_interval=CLEANUP_SECONDS,
        max_request_body_size=app.config["MAX_CONTENT_LENGTH"], **settings)

