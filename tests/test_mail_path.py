"""The real mail path of docs/operations.md, played on loopback with Debian's own daemons.

A private Postfix (its own config and queue folders under a temporary folder, smtpd on a
free 127.0.0.1 port), a private OpenDKIM (a key made by opendkim-genkey, the milter on a
loopback port) and a private Dovecot (the players' mailboxes) are set up with the commands
and files the guide gives -- its fenced blocks are read from docs/operations.md and played,
with the club's paths, domain and ports replaced by the test's. ``pbem serve`` sends through
that Postfix (``relay_host``) and receives through its pipe to ``pbem mail-in``
(``smtp_enabled = false``). A player reads the server's welcome by IMAP, checks its DKIM
signature, replies through Postfix, and reads the answer, signed as well.

Postfix and OpenDKIM are Debian packages scripts/test installs (with Dovecot); Postfix
starts only as root, so the test is skipped, with that reason, elsewhere.
"""

from __future__ import annotations

import email
import email.policy
import http.cookiejar
import imaplib
import json
import os
import pwd
import re
import shutil
import signal
import smtplib
import socket
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
import urllib.parse
import urllib.request
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.harness import free_port, read_only, wait_until

dkim = pytest.importorskip("dkim", reason="dkimpy is in the test extras: pip install -e '.[test]'")

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "operations.md"
SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
CLUB, PLAYERS = "games.test", "players.test"
ANNA, FRED = f"anna@{PLAYERS}", f"fred@{PLAYERS}"
PBEM_USER = "nobody"  # the pipe's user= (Postfix never runs a pipe as root): the service user of the guide
DAEMONS = {"postfix": "/usr/sbin/postfix", "opendkim": "/usr/sbin/opendkim",
           "opendkim-genkey": "/usr/sbin/opendkim-genkey", "dovecot": "/usr/sbin/dovecot"}

if os.geteuid() != 0:
    pytest.skip("Postfix starts only as root (postfix start); run as root, as CI does", allow_module_level=True)
_missing = [name for name, path in DAEMONS.items() if not os.access(path, os.X_OK)]
if _missing:
    pytest.skip(f"missing Debian packages' programs {', '.join(_missing)}: scripts/test installs postfix, "
                "opendkim, opendkim-tools and dovecot-imapd", allow_module_level=True)

from test_imap import CONFIG as DOVECOT_CONFIG  # noqa: E402 -- the IMAP tests' private Dovecot, the same


# -- the guide's blocks --------------------------------------------------------------------------


def fenced_blocks(text: str) -> list[str]:
    return re.findall(r"^ *```[a-z]*\n(.*?)^ *```", text, flags=re.S | re.M)


def guide_block(marker: str) -> list[str]:
    """The command lines of the guide's one fenced block that holds ``marker``."""
    blocks = [b for b in fenced_blocks(GUIDE.read_text()) if marker in b]
    assert len(blocks) == 1, f"docs/operations.md should have one fenced block with {marker!r}, has {len(blocks)}"
    return [line.split("  #")[0].strip() for line in blocks[0].splitlines()
            if line.strip() and not line.strip().startswith("#")]


def runs_as_service_user(command: list[str]) -> bool:
    user = pwd.getpwnam(PBEM_USER)
    try:
        return subprocess.run(command, user=user.pw_uid, group=user.pw_gid, capture_output=True, cwd="/",
                              timeout=60).returncode == 0
    except PermissionError:
        return False


def service_pbem(root: Path) -> Path:
    """The ``pbem`` command the service user runs (the guide's /srv/pbem/.venv/bin/pbem): this venv's,
    when that user may run its interpreter; else (a pyenv Python under /root, closed to others)
    Debian's python3 of the same version over this venv's packages, as a venv made from it would be."""
    own = Path(sys.executable).parent / "pbem"
    if runs_as_service_user([str(own), "--help"]):
        return own
    system = Path("/usr/bin/python3")
    version = subprocess.run([str(system), "-c", "import sys; print(sys.version_info[:2])"], capture_output=True,
                             text=True).stdout.strip() if system.exists() else ""
    if version != str(sys.version_info[:2]):
        pytest.skip(f"the service user ({PBEM_USER}) cannot run this interpreter ({sys.executable}) and "
                    f"/usr/bin/python3 is not Python {sys.version_info[0]}.{sys.version_info[1]}")
    launcher = root / "bin" / "pbem"
    launcher.parent.mkdir()
    launcher.write_text(f"#!{system}\nimport site, sys\nsite.addsitedir({sysconfig.get_paths()['purelib']!r})\n"
                        "from pbem.cli import main\nsys.exit(main())\n")
    launcher.chmod(0o755)
    assert runs_as_service_user([str(launcher), "--help"]), f"{launcher} does not run as {PBEM_USER}"
    return launcher


class Place:
    """The test's stand-ins for the club's paths, domain and ports."""

    def __init__(self, root: Path):
        self.root = root
        self.postfix = root / "postfix"          # /etc/postfix
        self.opendkim = root / "opendkim"        # /etc/opendkim
        self.deploy = root / "deploy"            # the checkout's deploy/, with the club's names replaced
        self.instance = root / "instance"        # /var/lib/pbem
        self.config = self.instance / "pbem.toml"  # /etc/pbem/pbem.toml
        self.smtp_port, self.milter_port, self.imap_port, self.web_port = (free_port() for _ in range(4))
        self.pbem = service_pbem(root)
        self.started: list[subprocess.Popen] = []  # the daemons and the server, stopped at the end

    def rewrite(self, text: str) -> str:
        for club, here in [("games.example.org", CLUB), ("/etc/postfix", str(self.postfix)),
                           ("/etc/opendkim.conf", str(self.opendkim / "opendkim.conf")),
                           ("/etc/opendkim", str(self.opendkim)), ("/run/opendkim", str(self.root / "run")),
                           ("inet:127.0.0.1:8891", f"inet:127.0.0.1:{self.milter_port}"),
                           ("inet:8891@127.0.0.1", f"inet:{self.milter_port}@127.0.0.1"),
                           ("/srv/pbem/.venv/bin/pbem", str(self.pbem)), ("/srv/pbem", str(self.root)),
                           ("/etc/pbem/pbem.toml", str(self.config)),
                           ("user=pbem", f"user={PBEM_USER}")]:
            text = text.replace(club, here)
        return text

    def command(self, line: str) -> str:
        """A line of the guide as the test runs it: postconf and postmap told the config folder."""
        line = self.rewrite(line)
        line = line.replace("postconf -e", f"postconf -c {self.postfix} -e")
        return line.replace("postmap ", f"postmap -c {self.postfix} ")


def play(place: Place, lines: list[str]) -> None:
    for line in lines:
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", place.command(line)], cwd=place.root,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"the guide's line {line!r} failed:\n{done.stdout}{done.stderr}"


# -- the daemons ---------------------------------------------------------------------------------


def wait_listening(port: int, what: str, log: Path) -> None:
    def up():
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            return False

    try:
        wait_until(up, timeout=30, what=f"{what} on 127.0.0.1:{port}")
    except Exception:
        raise RuntimeError(f"{what} did not listen:\n" + (log.read_text(errors="replace") if log.exists() else ""))


def postfix_base(place: Place) -> None:
    """A fresh Postfix config folder, as the Debian package leaves /etc/postfix, but private to the test:
    its own queue, smtpd on a loopback port, no chroot, its log in a file."""
    assert Path("/etc/postfix/main.cf").exists(), "the postfix package leaves /etc/postfix/main.cf"
    place.postfix.mkdir()
    master = Path("/etc/postfix/master.cf.proto").read_text()
    lines = []
    for line in master.splitlines():
        fields = line.split()
        if fields and not line[0].isspace() and not line.startswith("#") and len(fields) >= 8:
            if fields[0] == "smtp" and fields[1] == "inet":
                fields[0] = f"127.0.0.1:{place.smtp_port}"
            fields[4] = "n"  # no chroot: the queue folder holds no copy of /etc
            line = "  ".join(fields)
        lines.append(line)
    (place.postfix / "master.cf").write_text("\n".join(lines) + "\n")
    # the main.cf the Debian package wrote ("Internet Site"), with the test's own queue and log
    (place.postfix / "main.cf").write_text(Path("/etc/postfix/main.cf").read_text() + f"""
queue_directory = {place.root}/spool
data_directory = {place.root}/postfix-data
maillog_file_prefixes = {place.root}
maillog_file = {place.root}/postfix.log
""")
    (place.root / "spool").mkdir()
    (place.root / "postfix-data").mkdir()
    shutil.chown(place.root / "postfix-data", "postfix")


def postfix_for_the_test(place: Place) -> None:
    """What only the test needs: loopback only, and the players' domain delivered into Maildirs
    that the test's Dovecot reads (a club's players are on their own providers' servers)."""
    home = place.root / "home"
    (place.postfix / "vmailbox").write_text(f"{ANNA} {ANNA}/Maildir/\n{FRED} {FRED}/Maildir/\n")
    dovecot = pwd.getpwnam("dovecot")
    settings = [
        "inet_interfaces = loopback-only", "inet_protocols = ipv4", "smtp_dns_support_level = disabled",
        f"virtual_mailbox_domains = {PLAYERS}", f"virtual_mailbox_base = {home}",
        f"virtual_mailbox_maps = texthash:{place.postfix}/vmailbox",
        f"virtual_uid_maps = static:{dovecot.pw_uid}", f"virtual_gid_maps = static:{dovecot.pw_gid}",
    ]
    subprocess.run(["postconf", "-c", str(place.postfix), "-e", *settings], check=True)


def start_opendkim(place: Place) -> subprocess.Popen:
    (place.root / "run").mkdir()
    shutil.chown(place.root / "run", "opendkim", "opendkim")
    conf = place.opendkim / "opendkim.conf"
    process = subprocess.Popen(["/usr/sbin/opendkim", "-f", "-x", str(conf)], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    try:
        wait_listening(place.milter_port, "OpenDKIM", conf)
    except RuntimeError:
        process.kill()
        raise RuntimeError("OpenDKIM did not start: " + process.communicate()[0].decode(errors="replace"))
    return process


def start_dovecot(place: Place) -> subprocess.Popen:
    home = place.root / "home"
    home.mkdir()
    shutil.chown(home, "dovecot", "dovecot")
    conf = place.root / "dovecot.conf"
    conf.write_text(DOVECOT_CONFIG.format(root=place.root, port=place.imap_port))
    process = subprocess.Popen(["/usr/sbin/dovecot", "-F", "-c", str(conf)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.STDOUT)
    wait_listening(place.imap_port, "Dovecot", place.root / "dovecot.log")
    return process


def write_settings(place: Place) -> None:
    """The guide's settings for Postfix in front (step 7 A), the relay's port made the test's Postfix's."""
    guide = tomllib.loads("\n".join(guide_block("smtp_enabled = false")))
    assert guide == {"smtp_enabled": False, "relay_host": "127.0.0.1", "relay_port": 25, "relay_starttls": False}
    guide["relay_port"] = place.smtp_port
    settings = {"instance": str(place.instance), "web_host": "127.0.0.1", "web_port": place.web_port,
                "base_url": f"http://127.0.0.1:{place.web_port}", "from_addr": f"orders@{CLUB}", "domain": CLUB,
                "admin_email": f"admin@{CLUB}", "secret_key": "mail-path-test", "tick_seconds": 0.2,
                "demo": False, **guide}
    place.instance.mkdir()
    place.config.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in settings.items()))


def give_to_service_user(path: Path) -> None:
    user = pwd.getpwnam(PBEM_USER)
    for p in [path, *path.rglob("*")]:
        os.chown(p, user.pw_uid, user.pw_gid)


# -- the player's side ---------------------------------------------------------------------------


def mailbox(place: Place, user: str) -> list[bytes]:
    client = imaplib.IMAP4("127.0.0.1", place.imap_port)
    try:
        client.login(user, "secret")
        client.select("INBOX")
        _, data = client.uid("search", None, "ALL")
        raws = []
        for uid in data[0].split():
            _, parts = client.uid("fetch", uid, "(BODY.PEEK[])")
            raws.append(parts[0][1])
        return raws
    finally:
        client.logout()


def dkim_record(place: Place) -> bytes:
    """The TXT record of the guide's DNS step, as opendkim-genkey wrote it (pbem.txt)."""
    text = (place.opendkim / "keys" / "pbem.txt").read_text()
    return "".join(re.findall(r'"([^"]*)"', text)).encode()


def verified(place: Place, raw: bytes) -> bool:
    record = dkim_record(place)

    def dns(name, timeout=5):
        assert name in (b"pbem._domainkey.games.test.", "pbem._domainkey.games.test."), name
        return record

    return dkim.verify(raw, dnsfunc=dns)


def wait_for_mail(place: Place, user: str, subject_part: str, timeout: float = 60) -> email.message.Message:
    def found():
        for raw in mailbox(place, user):
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            if subject_part in str(msg["Subject"]):
                return raw
        return None

    try:
        raw = wait_until(found, timeout=timeout, interval=0.2, what=f"a mail with {subject_part!r} for {user}")
    except Exception:
        log = place.root / "postfix.log"
        subjects = [email.message_from_bytes(raw)["Subject"] for raw in mailbox(place, user)]
        server_log = (place.instance / "server.log").read_text(errors="replace")
        raise AssertionError(f"no mail with {subject_part!r} for {user} (has {subjects}); Postfix's log:\n"
                             + (log.read_text(errors="replace")[-4000:] if log.exists() else "(none)")
                             + "\nthe server's log:\n" + server_log[-4000:])
    return raw


# -- the test ------------------------------------------------------------------------------------


@pytest.fixture
def place():
    # the daemons' users must reach it (not pytest's tmp), and OpenDKIM refuses a key in a folder others
    # may write to, /tmp's subfolders included: /run is root's alone
    root = Path(tempfile.mkdtemp(prefix="pbem-mailpath-", dir="/run"))
    root.chmod(0o755)
    place = Place(root)
    shutil.copytree(ROOT / "deploy", place.deploy)
    for f in place.deploy.rglob("*"):
        if f.is_file():
            f.write_text(place.rewrite(f.read_text()))
    try:
        yield place
    finally:
        for process in reversed(place.started):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if (place.postfix / "main.cf").exists():
            subprocess.run(["/usr/sbin/postfix", "-c", str(place.postfix), "stop"], capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def test_a_players_mail_goes_in_through_postfix_and_the_answer_comes_back_dkim_signed(place):
    # the guide's Postfix and OpenDKIM steps, on the test's own folders
    postfix_base(place)
    write_settings(place)
    play(place, guide_block("opendkim-genkey"))
    postfix_for_the_test(place)
    place.started.append(start_opendkim(place))
    place.started.append(start_dovecot(place))
    done = subprocess.run(["/usr/sbin/postfix", "-c", str(place.postfix), "start"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    wait_listening(place.smtp_port, "Postfix", place.root / "postfix.log")

    # a game with two players whose mailboxes are in the test's Dovecot
    store = Store(place.instance / "pbem.sqlite3")
    game_id, keys = Service(store).create_game("Mail path", {"austria": ANNA, "france": FRED}, scenario=SMALL,
                                               seed=34, settings={"hours": 48, "reminders": []})
    store.close()
    give_to_service_user(place.instance)
    user = pwd.getpwnam(PBEM_USER)
    log = open(place.instance / "server.log", "wb")
    server = subprocess.Popen([str(place.pbem), "serve", "--config", str(place.config)], stdout=log,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=place.instance,
                              user=user.pw_uid, group=user.pw_gid, env={"PATH": os.environ["PATH"]})
    place.started.append(server)
    wait_listening(place.web_port, "pbem serve", place.instance / "server.log")

    # the welcome mail reaches Anna's mailbox through Postfix, signed by the club's key
    welcome = wait_for_mail(place, ANNA, "Welcome")
    assert verified(place, welcome), "the server's mail should carry a DKIM signature that verifies"
    signature = email.message_from_bytes(welcome)["DKIM-Signature"]
    assert "d=games.test" in signature.replace(" ", "") and "s=pbem" in signature.replace(" ", "")

    # her reply goes to the game address through Postfix, whose pipe hands it to pbem mail-in
    # (pressing Reply: the welcome quoted under her lines)
    welcomed = email.message_from_bytes(welcome, policy=email.policy.default)
    quoted = "\n".join("> " + line for line in welcomed.get_body(("plain",)).get_content().splitlines())
    reply = EmailMessage()
    reply["From"], reply["To"] = ANNA, f"orders@{CLUB}"
    reply["Subject"] = "Re: " + welcomed["Subject"]
    reply["Message-ID"] = "<anna-reply-1@players.test>"
    reply["In-Reply-To"] = reply["References"] = welcomed["Message-ID"]
    reply.set_content(f"GAME {game_id} SIDE Austria KEY {keys['austria']}\nSTATUS\n\n"
                      f"On Sunday, orders@{CLUB} wrote:\n{quoted}\n")
    with smtplib.SMTP("127.0.0.1", place.smtp_port, timeout=30) as smtp:
        smtp.send_message(reply)
    answer = wait_for_mail(place, ANNA, "Status")
    message = email.message_from_bytes(answer, policy=email.policy.default)
    assert message["In-Reply-To"] == "<anna-reply-1@players.test>"
    assert verified(place, answer), "the answer should carry a DKIM signature that verifies"

    # the mail came in by the pipe door, which the admin page's table reports
    conn = read_only(place.instance / "pbem.sqlite3")
    rows = [tuple(r) for r in conn.execute("SELECT source, status FROM inbound")]
    conn.close()
    assert [source for source, _ in rows] == ["pipe"], rows

    # the admin page's "Mail doors" table: SMTP and IMAP closed, the pipe open with the mail it brought
    doors = admin_doors(place)
    assert doors["SMTP"][0] == "closed" and doors["IMAP"][0] == "closed", doors
    assert doors["pipe"][0] == "open" and "1 message kept" in doors["pipe"][2], doors


def admin_doors(place: Place) -> dict[str, list[str]]:
    """Signed in by the link ``pbem serve`` printed for the admin, the admin page's doors: name -> cells."""
    link = re.search(r"sign in as \S+: (\S+)", (place.instance / "server.log").read_text()).group(1)
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    form = browser.open(link, timeout=30).read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    browser.open(urllib.request.Request(link, data=urllib.parse.urlencode({"csrf_token": token}).encode()),
                 timeout=30).read()
    page = browser.open(f"http://127.0.0.1:{place.web_port}/admin", timeout=30).read().decode()
    table = re.search(r'<table id="doors".*?</table>', page, re.S).group(0)
    rows = {}
    for row in re.findall(r"<tr><td>(.*?)</tr>", table, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.split(r"</td>\s*<td>", row)]
        rows[cells[0]] = cells[1:]
    return rows
