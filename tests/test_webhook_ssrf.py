"""A chat webhook reaches the public Internet only (issue 28 §6): refused at save and at send for
loopback, link-local (the cloud's metadata), private and other non-public addresses; sent to the
address it checked (DNS is asked once); no redirect followed; the exchange bounded in time.

The sending is tested against real HTTP servers on loopback, let through by the sender's ``allow``
(networks the tests name; the server never passes it, no setting can set it); the refusal is
tested without it, the same servers listening and receiving nothing.
"""

from __future__ import annotations

import socket
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pbem.server import notify, webhooks
from pbem.server.service import Service
from pbem.server.store import Store

from conftest import Clock
from websupport import ANNA, Site

LOOPBACK = ("127.0.0.0/8",)
START = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)
NOT_PUBLIC = ["127.0.0.1", "127.8.9.10", "::1", "169.254.169.254", "fe80::1", "10.1.2.3", "172.16.0.1",
              "172.31.255.254", "192.168.1.1", "100.64.0.1", "0.0.0.0", "::", "224.0.0.1", "255.255.255.255",
              "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "2002:7f00:1::1",
              "2002:a9fe:a9fe::1", "192.0.2.1", "198.18.0.1", "ff02::1"]
PUBLIC = ["8.8.8.8", "1.1.1.1", "162.159.135.232", "2606:4700::1111", "2a00:1450:4001:80e::200e"]


class Receiver:
    """An HTTP server on loopback recording every request (method, path); answers ``answer(handler)``."""

    def __init__(self, answer=None):
        self.requests: list[tuple[str, str]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def handle_one(self):
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                receiver.requests.append((self.command, self.path))
                if answer is not None:
                    answer(self)
                    return
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_POST = do_GET = handle_one

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.stop()


@pytest.fixture
def world(tmp_path):
    clock = Clock(START)
    store = Store(tmp_path / "pbem.sqlite3", clock=clock)
    yield Service(store, clock=clock), clock
    store.close()


def queued(store, url: str) -> int:
    """A chat message to ``url`` waiting in the webhook outbox (as one saved before a check existed)."""
    return store.execute("INSERT INTO webhook_outbox (created, email, url, format, text, kind, next_attempt_at)"
                         " VALUES (?, ?, ?, 'discord', 'Your turn', 'turn', ?)",
                         (store.now(), ANNA, url, store.now())).lastrowid


def row(store, row_id: int) -> dict:
    return store.query_one("SELECT * FROM webhook_outbox WHERE id = ?", (row_id,))


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_a_non_public_address_is_not_public(address):
    assert not webhooks.is_public(address)


@pytest.mark.parametrize("address", PUBLIC)
def test_a_public_address_is_public(address):
    assert webhooks.is_public(address)


def test_a_webhook_at_a_non_public_address_is_refused_at_save(world):
    service, _clock = world
    for url in ("http://127.0.0.1:8080/hook", "http://[::1]/hook", "http://169.254.169.254/latest/meta-data/",
                "https://10.0.0.5/hook", "http://192.168.1.1/", "http://localhost/hook", "http://0x7f000001/hook",
                "http://[::ffff:127.0.0.1]/hook"):
        with pytest.raises(notify.NotifyError, match="not on the public Internet"):
            notify.set_settings(service.store, ANNA, "every", url)
    for url in ("http://user:pw@chat.example/hook", "ftp://chat.example/hook", "http:///hook"):
        with pytest.raises(notify.NotifyError, match="http"):
            notify.set_settings(service.store, ANNA, "every", url)
    assert notify.settings_of(service.store, ANNA)["webhook_url"] == ""
    # a name not found now is kept: it is checked at every send
    notify.set_settings(service.store, ANNA, "every", "https://chat.example/hook")
    assert notify.settings_of(service.store, ANNA)["webhook_url"] == "https://chat.example/hook"


def test_the_notifications_page_refuses_a_private_webhook_and_says_why(tmp_path):
    site = Site(tmp_path)
    try:
        anna = site.client(ANNA)
        answer = anna.post("/notifications", data={"csrf_token": anna.csrf, "mode": "every",
                                                   "webhook_url": "http://169.254.169.254/latest/meta-data/",
                                                   "webhook_format": "discord"})
        assert answer.status_code == 400 and "not on the public Internet" in answer.text
        assert notify.settings_of(site.store, ANNA)["webhook_url"] == ""
    finally:
        site.store.close()


def test_a_queued_message_to_a_non_public_address_is_not_sent(world, receiver):
    service, clock = world
    for url in (f"{receiver.url}/hook", f"http://localhost:{receiver.server.server_port}/hook"):
        row_id = queued(service.store, url)
        assert notify.WebhookSender(service.store, timeout=5).send_due(clock.now) == 0
        failed = row(service.store, row_id)
        assert failed["status"] == "failed" and "not on the public Internet" in failed["last_error"]
    assert receiver.requests == []  # nothing reached the listening server
    assert any(a["action"] == "webhook failed" for a in service.store.read_audit(None))


def test_the_message_goes_to_the_address_checked_dns_asked_once(world, receiver, monkeypatch):
    """DNS rebinding: the name is resolved once; the connection is made to that checked address, so a
    later answer is never asked for nor used. The name first answers 127.0.0.1 (let through: the
    receiver), then 127.0.0.2 (not let through, and nothing listens there): a sender that asked DNS
    again to connect would fail. (DNS for this one name is the part replaced: no name server of the
    test's can run here; every other name and address is resolved as ever.)"""
    service, clock = world
    real = socket.getaddrinfo
    asked = []

    def rebinding(host, port, *args, **kwargs):
        if host != "hooks.chat.example":
            return real(host, port, *args, **kwargs)
        asked.append(host)
        return real("127.0.0.1" if len(asked) == 1 else "127.0.0.2", port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    row_id = queued(service.store, f"http://hooks.chat.example:{receiver.server.server_port}/hook")
    sent = notify.WebhookSender(service.store, timeout=5, allow=("127.0.0.1/32",)).send_due(clock.now)
    assert row(service.store, row_id)["last_error"] is None and sent == 1
    assert asked == ["hooks.chat.example"] and receiver.requests == [("POST", "/hook")]
    assert row(service.store, row_id)["status"] == "sent"


def test_a_redirect_is_not_followed(world, receiver):
    service, clock = world

    def redirect(handler):
        handler.send_response(302)
        handler.send_header("Location", f"{receiver.url}/metadata")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    moved = Receiver(redirect)
    try:
        row_id = queued(service.store, f"{moved.url}/hook")
        assert notify.WebhookSender(service.store, timeout=5, allow=LOOPBACK).send_due(clock.now) == 0
        assert moved.requests == [("POST", "/hook")] and receiver.requests == []
        failed = row(service.store, row_id)
        assert (failed["status"], failed["last_error"]) == ("failed", "HTTP 302")
    finally:
        moved.stop()


def test_an_answer_dripping_forever_is_cut_at_the_timeout(world):
    service, clock = world
    stop = threading.Event()

    def drip(handler):
        handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
        for _ in range(600):  # a header byte every 0.1 s, for a minute: each read waits less than the timeout
            if stop.is_set():
                return
            try:
                handler.wfile.write(b"X")
                handler.wfile.flush()
            except OSError:
                return
            time.sleep(0.1)

    slow = Receiver(drip)
    try:
        row_id = queued(service.store, f"{slow.url}/hook")
        sender = notify.WebhookSender(service.store, timeout=1, allow=LOOPBACK)
        worker = threading.Thread(target=sender.send_due, args=(clock.now,), daemon=True)
        worker.start()
        worker.join(45)  # well within the minute the answer would drip
        assert not worker.is_alive(), "the POST was not cut"
        waiting = row(service.store, row_id)
        assert waiting["status"] == "queued" and waiting["last_error"]  # tried again later
    finally:
        stop.set()
        slow.stop()
