"""The IMAP door against a real IMAP server: Debian's Dovecot on loopback.

Mail is put in the mailbox by IMAP APPEND, as a mail server would deliver
it; the poller stores each unseen message, marks it seen, and never stores
one twice.
"""

import imaplib
import shutil
import socket
import subprocess
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.server import inbox
from pbem.server.imap import poll
from pbem.server.service import Service
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
DOVECOT = "/usr/sbin/dovecot"
CONFIG = """
protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
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
