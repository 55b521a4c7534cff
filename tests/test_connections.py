"""Idle and slow connections cannot stop the server (issue 28, item 2).

Before, 1,000 idle TCP connections to the SMTP port and then one HTTP request made waitress's
select() fail on a descriptor past 1023: the web's thread died for good while SMTP kept answering;
and 150 HTTP clients sending their headers slowly took every one of waitress's 100 places.
Everything here connects to 127.0.0.1 only (another loopback address, 127.0.0.2, is used as a
source address where a client must differ from the attacker).
"""

from __future__ import annotations

import smtplib
import socket
import time

import pytest

from pbem.server.mail.smtpd import start_smtpd
from pbem.tools.attack import connect, connections, said_first, smtp_greeting


def test_a_thousand_idle_smtp_connections_and_slow_http_clients_leave_the_web_answering(tmp_path):
    said = connections(tmp_path, idle=1000, slow=150, slow_seconds=10, web_request_seconds=3)
    print(said)
    assert said.web == "HTTP/1.1 200 OK", said  # during the flood, from another address
    assert said.web_after == "HTTP/1.1 200 OK", said
    assert said.alive
    assert said.smtp.startswith("220"), said  # SMTP answers another address meanwhile
    assert said.smtp_kept == 20 and said.smtp_refused == 980  # smtp_connections_per_address
    assert said.slow_refused == 130  # web_connections_per_address: answered 503 at once
    assert said.slow_closed == 20 and said.slow_left == 0  # the others closed, their request never whole


@pytest.fixture
def receiver():
    got = []
    controller = start_smtpd(got.append, "127.0.0.1", 0, connections=5, per_address=3)
    controller.got = got
    yield controller
    controller.stop()


def greeting(sock: socket.socket) -> bytes:
    first = said_first(sock, 10)
    return first or b""


def test_the_smtp_receiver_holds_so_many_connections_in_all_and_from_one_address(receiver):
    held = []
    for _ in range(3):
        held.append(connect(receiver.port, "127.0.0.1"))
        assert greeting(held[-1]).startswith(b"220")
    refused = connect(receiver.port, "127.0.0.1")  # a fourth from the same address
    assert greeting(refused).startswith(b"421 4.7.0 too many connections from your address")
    assert said_first(refused, 10) == b""  # and closed
    for _ in range(2):  # two more from elsewhere: five in all
        held.append(connect(receiver.port, "127.0.0.2"))
        assert greeting(held[-1]).startswith(b"220")
    assert smtp_greeting(receiver.port, "127.0.0.3").startswith("421 4.7.0 too many connections here")
    held.pop().close()  # one leaves: a place again
    deadline = time.monotonic() + 30
    while not smtp_greeting(receiver.port, "127.0.0.3").startswith("220"):
        assert time.monotonic() < deadline, "the place of a closed connection never came back"
        time.sleep(0.1)
    for sock in held:
        sock.close()


def test_mail_still_arrives_through_a_bounded_receiver(receiver):
    with smtplib.SMTP("127.0.0.1", receiver.port, timeout=30) as client:
        client.sendmail("a@example.org", ["pbem@example.org"], b"Subject: x\r\n\r\nhello\r\n")
    assert len(receiver.got) == 1 and receiver.got[0].endswith(b"hello\r\n")


def test_a_body_larger_than_the_site_takes_is_refused_before_it_is_read(tmp_path):
    from pbem.server.config import Config
    from pbem.server.serve import Server

    server = Server(Config(instance=str(tmp_path), web_port=0, smtp_enabled=False, demo=False))
    server.start()
    try:
        with connect(int(server.config.web_port)) as sock:
            sock.sendall(b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                         b"Content-Length: 1000000000\r\n\r\n" + b"x" * 1000)  # a gigabyte announced
            answer = said_first(sock, 30)
    finally:
        server.stop_within(30)
    assert answer is not None and answer.startswith(b"HTTP/1.1 413"), answer
