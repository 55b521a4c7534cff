"""A chat webhook's address and its POST: to the public Internet only (issue 28 §6).

A player types the address his chat app gave him; the server then posts to it. Without a check,
that makes the server a client inside its own network: 127.0.0.1, [::1], the cloud's metadata
service 169.254.169.254, the club's 10.x machines. So:

- **at save** (``check``): an http(s) address of at most 500 characters, no user or password in it,
  whose host -- a literal address, or every address its name resolves to now -- is public (a
  name that does not resolve now is kept: it is checked again at every send);
- **at send** (``post``): the name is resolved once, every address checked, and the connection
  made to that checked address (TLS still checks the certificate of the name): a DNS answer
  that changes between the check and the connection (rebinding) reaches nothing else;
- no redirect is followed (an answer 3xx is a failure, final), the exchange is bounded in time
  (``timeout`` from the connection's start to the answer read, the connection cut when it runs
  out, however slowly the answer drips; the name's resolution is the system's) and
  in size (at most ``ANSWER_BYTES`` of the answer's body are read; http.client bounds the header).

"Public" is Python's ``ipaddress`` ``is_global``: not loopback, private, link-local, shared
(100.64/10), reserved, documentation or multicast; an IPv6 address that carries an IPv4 one
(mapped, 6to4, Teredo) is judged by the IPv4 one.

``allow``: networks let through all the same -- for the tests' receivers on loopback only. Nothing
in the settings can set it: only code that calls ``check``, ``post`` or ``notify.WebhookSender``
with it, which the server never does.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time
import urllib.parse

from pbem.server import i18n

URL_LIMIT = 500
ANSWER_BYTES = 1024


class NotPublic(i18n.Refusal):
    """A webhook address the server will not post to; the message says why."""


class HostNotFound(NotPublic):
    """A webhook's host name that does not resolve (now)."""


FORM = i18n.N_("the webhook is an http(s) address of at most 500 characters, as the chat app gives it")


def is_public(address: str) -> bool:
    """Whether ``address`` (an IP address as text) is on the public Internet."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if ip.version == 6:
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is not None and not is_public(str(inner)):
            return False
    return ip.is_global and not ip.is_multicast


def allowed(address: str, allow) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    return any(ip in ipaddress.ip_network(net) for net in allow)


def parts(url: str) -> tuple[str, str, int, str]:
    """The scheme, host, port and path (with the query) of a webhook address, checked for its form."""
    url = (url or "").strip()
    if not url.startswith(("https://", "http://")) or len(url) > URL_LIMIT or any(c.isspace() for c in url):
        raise NotPublic(FORM)
    try:
        split = urllib.parse.urlsplit(url)
        port = split.port or (443 if split.scheme == "https" else 80)
    except ValueError:
        raise NotPublic(FORM) from None
    if not split.hostname or split.username is not None or split.password is not None:
        raise NotPublic(FORM)
    path = (split.path or "/") + (f"?{split.query}" if split.query else "")
    return split.scheme, split.hostname, port, path


def addresses(host: str, port: int, allow=()) -> list[str]:
    """Every address ``host`` resolves to, each one public (or in ``allow``); else NotPublic."""
    try:
        found = [info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]
    except (OSError, UnicodeError):
        raise HostNotFound("the webhook's host %(host)s is not found", host=host) from None
    for address in found:
        if not is_public(address) and not allowed(address, allow):
            raise NotPublic("the webhook's host %(host)s is not on the public Internet (%(address)s): the server "
                            "posts only to public addresses", host=host, address=address)
    return list(dict.fromkeys(found))


def check(url: str, allow=()) -> str:
    """The webhook address as saved: its form, and its host public now (one not found now is kept)."""
    url = (url or "").strip()
    if not url:
        return ""
    _scheme, host, port, _path = parts(url)
    try:
        addresses(host, port, allow)
    except HostNotFound:
        pass  # not found now: checked again at every send
    return url


def post(url: str, body: bytes, headers: dict, timeout: float, allow=()) -> int:
    """POST ``body`` to ``url`` at its checked public address; the answer's status (no redirect followed).
    Raises NotPublic for an address refused, OSError (a timeout too) when nothing answered in time."""
    scheme, host, port, path = parts(url)
    address = addresses(host, port, allow)[0]
    deadline = time.monotonic() + timeout
    line = Line(socket.create_connection((address, port), timeout=timeout))
    cut = threading.Timer(max(0.0, deadline - time.monotonic()), line.cut)  # however slowly the answer drips
    cut.start()
    try:
        if scheme == "https":
            line.wrap(ssl.create_default_context(), host)
        connection = http.client.HTTPConnection(host, port, timeout=timeout)
        connection.sock = line.sock  # the checked address, connected: http.client does not resolve the name again
        connection.request("POST", path, body=body, headers=headers)
        answer = connection.getresponse()
        answer.read(ANSWER_BYTES)
        if line.was_cut:  # what came before the cut is no answer
            raise TimeoutError(f"no whole answer within {timeout:g} s")
        return answer.status
    finally:
        cut.cancel()
        line.close()


class Line:
    """The connection of one POST, which the timer may cut (shut: a read waiting on it ends) while it is open."""

    def __init__(self, sock):
        self.sock, self.lock, self.closed, self.was_cut = sock, threading.Lock(), False, False

    def wrap(self, context, host: str) -> None:
        with self.lock:
            self.sock = context.wrap_socket(self.sock, server_hostname=host, do_handshake_on_connect=False)
        self.sock.do_handshake()

    def cut(self) -> None:
        with self.lock:
            if not self.closed:
                self.was_cut = True
                try:
                    self.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.sock.close()
