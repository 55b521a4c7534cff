"""The IMAP door against a real IMAP server: Debian's Dovecot on loopback.

Mail is put in the mailbox by IMAP APPEND, as a mail server would deliver
it; the poller stores each unseen message, marks it seen, and never stores
one twice.
"""

import imaplib
import logging
import shutil
import socket
import subprocess
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.server import inbox
from pbem.server.config import ConfigError, load_config
from pbem.server.imap import ImapError, poll
from pbem.server.scheduler import Clock
from pbem.server.serve import make_sender
from pbem.server.service import Service
from pbem.server.store import Store
from websupport import ADMIN, Site

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
DOVECOT = "/usr/sbin/dovecot"
CONFIG = """
protocols = imap
listen = 127.0.0.1
base_dir = {root}/dovecot-run
state_dir = {root}/dovecot-state
log_path = {root}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = dovecot
default_login_user = dovenull
first_valid_uid = 1
passdb {{
  driver = static
  args = password=secret
}}
userdb {{
  driver = static
  args = uid=dovecot gid=dovecot home={root}/home/%u
}}
mail_location = maildir:{root}/home/%u/Maildir
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service pop3-login {{
  inet_listener pop3 {{
    port = 0
  }}
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def imap_server():
    # Dovecot's mail processes run as the dovecot user: pytest's private tmp folders are closed to it
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    root.chmod(0o755)
    (root / "home").mkdir(parents=True)
    shutil.chown(root / "home", "dovecot", "dovecot")
    port = free_port()
    (root / "dovecot.conf").write_text(CONFIG.format(root=root, port=port))
    process = subprocess.Popen([DOVECOT, "-F", "-c", str(root / "dovecot.conf")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("Dovecot did not start: " + (root / "dovecot.log").read_text(errors="replace"))
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)


def deliver(port: int, raw: bytes) -> None:
    client = imaplib.IMAP4("127.0.0.1", port)
    client.login("games", "secret")
    client.append("INBOX", None, None, raw)
    client.logout()


def unseen(port: int) -> int:
    client = imaplib.IMAP4("127.0.0.1", port)
    client.login("games", "secret")
    client.select("INBOX")
    _, data = client.uid("search", None, "UNSEEN")
    _, everything = client.uid("search", None, "ALL")
    client.logout()
    assert everything[0].split(), "the poller must never delete mail from the club's mailbox"
    return len(data[0].split())


def test_poll_stores_each_new_message_once_and_marks_it_seen(tmp_path, imap_server):
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    game_id, keys = service.create_game("IMAP", {"austria": "anna@example.org", "france": "fred@example.org"},
                                        scenario=SMALL, seed=1)
    for i, text in enumerate([f"GAME {game_id} SIDE Austria KEY {keys['austria']}\nSTATUS\n", "HELP\n"]):
        msg = EmailMessage()
        msg["From"] = "anna@example.org"
        msg["To"] = "games@example.org"
        msg["Subject"] = f"mail {i}"
        msg["Message-ID"] = f"<imap-{i}@example.org>"
        msg.set_content(text)
        deliver(imap_server, msg.as_bytes())
    assert unseen(imap_server) == 2
    assert poll(service, "127.0.0.1", imap_server, "games", "secret", ssl=False) == 2
    assert unseen(imap_server) == 0
    assert poll(service, "127.0.0.1", imap_server, "games", "secret", ssl=False) == 0
    rows = service.store.query("SELECT source, status FROM inbound ORDER BY id")
    assert rows == [{"source": "imap", "status": "stored"}] * 2
    assert inbox.process_pending(service) == 2
    subjects = [r["subject"] for r in service.store.query("SELECT subject FROM outbox WHERE to_addr = ?",
                                                          ("anna@example.org",))]
    assert any("Status" in s for s in subjects) and inbox.STRANGER_SUBJECT in subjects  # no text of theirs


def test_a_message_seen_again_after_a_crash_is_not_stored_twice(tmp_path, imap_server):
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    msg = EmailMessage()
    msg["From"] = "anna@example.org"
    msg["Subject"] = "twice"
    msg["Message-ID"] = "<twice@example.org>"
    msg.set_content("HELP\n")
    inbox.receive(service, msg.as_bytes(), "imap")  # stored, then the process died before \\Seen
    deliver(imap_server, msg.as_bytes())
    assert poll(service, "127.0.0.1", imap_server, "games", "secret", ssl=False) == 0
    assert unseen(imap_server) == 0
    assert service.store.query("SELECT COUNT(*) AS n FROM inbound")[0]["n"] == 1


def message(i: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = "anna@example.org"
    msg["Subject"] = f"mail {i}"
    msg["Message-ID"] = f"<after-{i}@example.org>"
    msg.set_content("HELP\n")
    return msg.as_bytes()


def folder_count(port: int, folder: str) -> int:
    client = imaplib.IMAP4("127.0.0.1", port)
    client.login("games", "secret")
    status, data = client.select(folder)
    client.logout()
    return int(data[0]) if status == "OK" else -1


def test_fetched_mail_moved_or_deleted_as_the_setting_says(tmp_path, imap_server):
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    deliver(imap_server, message(1))
    deliver(imap_server, message(2))
    assert poll(service, "127.0.0.1", imap_server, "games", "secret", ssl=False, after="move", move_to="done") == 2
    assert folder_count(imap_server, "INBOX") == 0 and folder_count(imap_server, "done") == 2
    deliver(imap_server, message(3))
    assert poll(service, "127.0.0.1", imap_server, "games", "secret", ssl=False, after="delete") == 1
    assert folder_count(imap_server, "INBOX") == 0 and folder_count(imap_server, "done") == 2
    assert service.store.query("SELECT COUNT(*) AS n FROM inbound")[0]["n"] == 3


def test_a_wrong_password_or_host_is_one_line_saying_what_to_check(tmp_path, imap_server):
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    with pytest.raises(ImapError) as refused:
        poll(service, "127.0.0.1", imap_server, "games", "wrong", ssl=False)
    said = str(refused.value)
    assert "refused the login of 'games'" in said and "imap_password" in said and "\n" not in said
    with pytest.raises(ImapError, match="no mailbox 'Nowhere'.*imap_folder"):
        poll(service, "127.0.0.1", imap_server, "games", "secret", folder="Nowhere", ssl=False)
    with pytest.raises(ImapError, match="cannot be reached .*check imap_host, imap_port and imap_ssl"):
        poll(service, "127.0.0.1", free_port(), "games", "secret", ssl=False)
    with pytest.raises(ImapError, match="did not speak TLS|cannot be reached|broke off"):
        poll(service, "127.0.0.1", imap_server, "games", "secret", ssl=True)


def test_the_clock_keeps_the_door_state_and_logs_a_failure_once(tmp_path, imap_server, caplog):
    site = Site(tmp_path)
    config, service = site.config, site.service
    config.imap_host, config.imap_port, config.imap_user, config.imap_password = "127.0.0.1", imap_server, "games", "wrong"
    config.imap_ssl = False
    clock = Clock(service, make_sender(service.store, config))
    with caplog.at_level(logging.INFO, logger="pbem.server.scheduler"):
        clock.process_mail()
        clock.process_mail()
    failed = [r for r in caplog.records if "IMAP:" in r.getMessage()]
    assert len(failed) == 1 and failed[0].exc_info is None and "refused the login" in failed[0].getMessage()
    assert "refused the login" in service.doors.imap_last.error and service.doors.imap_last_ok is None
    admin = site.client(ADMIN)
    doors = admin.get("/admin").get_data(as_text=True).split('id="doors"', 1)[1].split("</table>", 1)[0]
    assert "refused the login of &#39;games&#39;" in doors and "not yet polled" not in doors

    config.imap_password = "secret"
    deliver(imap_server, message(4))
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="pbem.server.scheduler"):
        clock.process_mail()
    assert service.doors.imap_last.error == "" and service.doors.imap_last.stored == 1
    assert any("read again" in r.getMessage() for r in caplog.records)
    # the admin page shows each door, the IMAP one with its last poll
    doors = admin.get("/admin").get_data(as_text=True).split('id="doors"', 1)[1].split("</table>", 1)[0]
    assert "mailbox INBOX of games" in doors and ": 1 new" in doors and "refused" not in doors
    assert "the built-in receiver" in doors and "pbem mail-in" in doors
    assert "1 message kept" in doors


def test_a_bad_after_setting_is_refused():
    with pytest.raises(ConfigError, match="imap_after must be one of seen, move, delete"):
        load_config(env={"PBEM_IMAP_AFTER": "archive"})
