"""Bounded storage (issue 14): old mail is pruned as the retention settings say, and the
receiver takes only so much mail from one sender."""

from __future__ import annotations

import os
import shutil
import smtplib
import subprocess
import sys
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from conftest import Clock

from pbem.server import inbox, retention
from pbem.server.config import Config
from pbem.server.mail.limits import SenderLimit
from pbem.server.mail.outbox import Sender
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.scheduler import Clock as GameClock
from pbem.server.service import Service
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def finished_game(tmp_path_factory):
    """A finished game of the small scenario, its mail sent, one wrong key and one stored mail: played
    once for the module (drawing its reports takes seconds); each test works on a copy."""
    where = tmp_path_factory.mktemp("played")
    clock = Clock(datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc))
    store = Store(where / "pbem.sqlite3", clock=clock)
    service = Service(store, Config(instance=str(where)), clock=clock)
    game_id, keys = service.create_game("Kept", {"austria": "anna@example.org", "france": "fred@example.org"},
                                        scenario=SMALL, seed=5, settings={"hours": 48})
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "mallory@example.net", "pbem@localhost", "x"
    msg.set_content(f"GAME {game_id} SIDE Austria KEY wrong\nSTATUS\n")
    inbox.process(service, inbox.receive(service, msg.as_bytes(), "smtp")[0])
    while not service.game(game_id).over:
        service.resolve_next(game_id)
        service.run_jobs()
    Sender(store, maildir=str(where / "maildir")).send_due(clock())
    store.close()
    return where, game_id, clock()


@pytest.fixture
def played(tmp_path, finished_game):
    """A copy of the finished game in this test's own folder: (service, store, clock, config, game id)."""
    where, game_id, now = finished_game
    assert not list(where.glob("*-wal")), "the played game's database was left open"
    shutil.copytree(where, tmp_path, dirs_exist_ok=True)
    clock = Clock(now)
    config = Config(instance=str(tmp_path))
    store = Store(tmp_path / "pbem.sqlite3", clock=clock)
    service = Service(store, config, clock=clock)
    return service, store, clock, config, game_id


def test_prune_forgets_old_mail_and_keeps_the_game(tmp_path, played):
    service, store, clock, config, game_id = played
    log, days = store.read_log(game_id), store.read_days(game_id)
    digest = service.game(game_id).state.digest()
    assert store.query_one("SELECT COUNT(*) AS n FROM outbox WHERE attachments != '[]'")["n"] > 0
    assert str(retention.prune(store, config, clock())).startswith("nothing")  # nothing is old yet
    clock.advance(days=8)
    retention.prune(store, config, clock())
    assert store.query_one("SELECT COUNT(*) AS n FROM outbox WHERE attachments != '[]'")["n"] == 0
    assert store.query_one("SELECT COUNT(*) AS n FROM outbox WHERE body != ''")["n"] > 0  # texts: 30 days
    late = store.execute("INSERT INTO inbound (received_at, raw, source) VALUES (?, ?, 'smtp')",
                         (store.now(), b"Subject: not yet processed\r\n\r\nHELP\r\n")).lastrowid
    assert store.query_one("SELECT COUNT(*) AS n FROM texts")["n"] > 0  # the reports' HTML, kept once
    clock.advance(days=30)
    done = retention.prune(store, config, clock())
    assert done.bytes_freed > 0 and done.counts["inbound mails"] == 1
    assert store.query_one("SELECT COUNT(*) AS n FROM outbox WHERE body != '' OR html IS NOT NULL"
                           " OR html_ref IS NOT NULL")["n"] == 0
    assert store.query_one("SELECT COUNT(*) AS n FROM texts")["n"] == 0  # the texts kept once went with them
    rows = store.query("SELECT id, length(raw) AS n, message_id, sender, status FROM inbound")
    assert [r["n"] for r in rows if r["id"] != late] == [0] and store.get_inbound(late)["raw"]  # pending: kept
    assert store.mails("WHERE status != 'sent'") == []
    # the game is whole: log, days, the same state on replay, and its audit (the wrong key is noise)
    assert store.read_log(game_id) == log and store.read_days(game_id) == days
    fresh = Service(Store(tmp_path / "pbem.sqlite3"), config)
    assert fresh.game(game_id).state.digest() == digest
    assert any(a["action"] == "create" for a in store.read_audit(game_id))
    clock.advance(days=365)
    retention.prune(store, config, clock())
    actions = {a["action"] for a in store.read_audit(game_id)}
    assert "wrong_key" not in actions and "create" in actions


def test_zero_keeps_forever(tmp_path, played):
    service, store, clock, config, game_id = played
    config.retain_attachments_days = config.retain_outbox_days = config.retain_inbound_days = 0
    clock.advance(days=400)
    retention.prune(store, config, clock())
    assert store.query_one("SELECT COUNT(*) AS n FROM outbox WHERE attachments != '[]'")["n"] > 0
    assert store.query_one("SELECT COUNT(*) AS n FROM inbound WHERE length(raw) > 0")["n"] > 0


def test_the_clock_prunes(tmp_path, played):
    service, store, clock, config, game_id = played
    clock.advance(days=40)
    game_clock = GameClock(service, Sender(store, maildir=str(tmp_path / "maildir")), 5)
    game_clock.prune()
    assert store.query_one("SELECT COUNT(*) AS n FROM outbox WHERE attachments != '[]'")["n"] == 0


def test_pbem_prune_on_the_command_line(tmp_path, played):
    service, store, clock, config, game_id = played
    store.close()
    env = {**os.environ, "PBEM_INSTANCE": str(tmp_path), "PBEM_DEMO": "false", "PBEM_RETAIN_ATTACHMENTS_DAYS": "0",
           "PBEM_RETAIN_OUTBOX_DAYS": "0", "PBEM_RETAIN_INBOUND_DAYS": "0"}
    result = subprocess.run([sys.executable, "-m", "pbem.cli", "prune", "--vacuum"], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "attachments" not in result.stdout and "vacuumed" in result.stdout  # 0: kept forever


# -- the receiver's per-sender limit ------------------------------------------------------------------


def test_the_receiver_takes_only_so_much_from_one_sender():
    received = []
    controller = start_smtpd(received.append, sender_limit=SenderLimit(messages=3, bytes_=10_000))
    try:
        raw = b"From: flood@example.net\r\nSubject: x\r\n\r\nHELP\r\n"
        with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as client:
            for _ in range(3):
                client.sendmail("flood@example.net", ["pbem@localhost"], raw)
            with pytest.raises(smtplib.SMTPSenderRefused) as caught:
                client.sendmail("flood@example.net", ["pbem@localhost"], raw)
            assert caught.value.smtp_code == 451
            client.sendmail("someone@example.org", ["pbem@localhost"], raw)  # others are not held up
            with pytest.raises(smtplib.SMTPDataError) as caught:  # bytes: one big message over the hour's share
                client.sendmail("big@example.org", ["pbem@localhost"], raw + (b"x" * 70 + b"\r\n") * 300)
            assert caught.value.smtp_code == 451
        assert len(received) == 4
    finally:
        controller.stop()


def test_the_senders_bytes_are_counted_as_they_come_and_leave_the_hour():
    """The hour's bytes of a sender are kept as a running sum: a message counts until it is an hour old,
    then its bytes are free again (and those of another sender never were counted)."""
    now = [0.0]
    limit = SenderLimit(messages=0, bytes_=1024 * 1024, clock=lambda: now[0])
    limit.note("a@example.org", 600_000)
    now[0] = 1800.0
    limit.note("A@example.org", 400_000)
    assert limit.refusal("a@example.org", 48_576) == ""  # exactly 1 MiB with it
    assert "MiB" in limit.refusal("a@example.org", 48_576 + 1)
    assert limit.refusal("b@example.org", 1024 * 1024) == ""
    now[0] = 3600.5  # the first message left the hour
    assert limit.refusal("a@example.org", 648_576) == ""
    assert "MiB" in limit.refusal("a@example.org", 648_576 + 1)
    now[0] = 5400.5  # both left it
    assert limit.refusal("a@example.org", 1024 * 1024) == ""
    unlimited = SenderLimit(messages=0, bytes_=0, clock=lambda: now[0])
    unlimited.note("a@example.org", 10**9)
    assert unlimited.refusal("a@example.org", 10**9) == ""
