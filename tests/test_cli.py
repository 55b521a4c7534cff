"""The command line: each command a thin layer over the library (and documented)."""

import os
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

from pbem.cli import build_parser
from pbem.server.store import Store

ROOT = Path(__file__).parent.parent


def run(args, env=None, stdin=None):
    return subprocess.run([sys.executable, "-m", "pbem.cli", *args], input=stdin, capture_output=True,
                          env={**os.environ, **(env or {})}, cwd=ROOT, timeout=120)


def test_mail_in_stores_a_piped_message(tmp_path):
    msg = EmailMessage()
    msg["From"] = "anna@example.org"
    msg["To"] = "pbem@localhost"
    msg["Subject"] = "help"
    msg["Message-ID"] = "<pipe-1@example.org>"
    msg.set_content("HELP\n")
    env = {"PBEM_INSTANCE": str(tmp_path), "PBEM_DEMO": "false"}
    first = run(["mail-in"], env, msg.as_bytes())
    assert first.returncode == 0, first.stderr
    again = run(["mail-in"], env, msg.as_bytes())
    assert again.returncode == 0 and b"duplicate" in again.stdout
    rows = Store(tmp_path / "pbem.sqlite3").query("SELECT source, status FROM inbound")
    assert rows == [{"source": "pipe", "status": "stored"}]


def test_mail_in_asks_the_mail_server_to_retry_when_it_cannot_store(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the instance folder should be")
    result = run(["mail-in"], {"PBEM_INSTANCE": str(blocker)}, b"Subject: x\n\nHELP\n")
    assert result.returncode == 75  # EX_TEMPFAIL: the message stays with the mail server
    assert b"could not store" in result.stderr


def test_adjudicate_exits_nonzero_on_a_failed_case(tmp_path):
    case = (ROOT / "tests" / "cases" / "marengo" / "assault-rulebook-example.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(case.replace("eliminated = [\"A1\"]", "eliminated = [\"A2\"]"))
    assert run(["adjudicate", str(ROOT / "tests/cases/marengo/assault-rulebook-example.toml")]).returncode == 0
    result = run(["adjudicate", str(bad)])
    assert result.returncode == 1 and b"0 passed, 1 failed" in result.stdout


def test_map_check_lists_problems_and_exits_nonzero(tmp_path):
    assert run(["map", "check", str(ROOT / "maps" / "marengo-map.toml")]).returncode == 0
    broken = tmp_path / "broken.toml"
    broken.write_text('[[locale]]\nid = "a"\nat = [0, 0]\n')
    result = run(["map", "check", str(broken)])
    assert result.returncode == 1 and b"missing capacity" in result.stdout


def test_every_command_is_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    commands = build_parser()._subparsers._group_actions[0].choices
    for name in commands:
        assert f"pbem {name}" in readme, f"README.md does not mention `pbem {name}`"


def test_bench_prints_its_figures():
    """The figures themselves are for reading (docs/performance.md), never asserted."""
    import re

    result = run(["bench", "--games", "2", "--repeat", "2"])
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert re.search(r"self-play: 2 complete games in [\d.]+ s: [\d.]+ games/s", out)
    assert re.search(r"replay of a complete game's log \(\d+ days a game.*median [\d.]+ ms \(the best of 2 "
                     r"replays of each game\).*the first replay of each: median [\d.]+ ms", out)
    assert re.search(r"of which parsing the orders again: \d+% \(median over the games", out)


def test_a_port_in_use_is_one_clear_line(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run(["serve"], {"PBEM_INSTANCE": str(tmp_path), "PBEM_WEB_PORT": str(port),
                                 "PBEM_SMTP_ENABLED": "false", "PBEM_DEMO": "false"})
    assert result.returncode == 1
    lines = result.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr.decode()
    assert f"the web port 127.0.0.1:{port} cannot be used" in lines[0] and "web_port" in lines[0]


def test_the_data_folder_never_follows_the_current_directory(tmp_path, monkeypatch):
    from pbem.server.config import load_config

    monkeypatch.chdir(tmp_path)
    plain = load_config(env={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert plain.database_path == tmp_path / "xdg" / "pbem" / "pbem.sqlite3"
    club = tmp_path / "etc" / "pbem.toml"
    club.parent.mkdir()
    club.write_text('instance = "data"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    config = load_config(str(club), env={})
    assert config.database_path == tmp_path / "etc" / "data" / "pbem.sqlite3"  # beside the config file


def test_serve_prints_the_admin_link_only_until_the_admin_has_a_password(tmp_path):
    import hashlib

    from pbem.server.config import load_config

    env = {"PBEM_INSTANCE": str(tmp_path), "PBEM_WEB_PORT": "0", "PBEM_SMTP_PORT": "0", "PBEM_DEMO": "false"}

    def first_lines():
        proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "serve"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env={**os.environ, **env}, cwd=ROOT, text=True)
        lines = [proc.stdout.readline() for _ in range(7)]
        proc.terminate()
        # the server itself is waited for (it ends within its stop_seconds, 20 s, of a SIGTERM), not the end of
        # its pipes: once in a whole loaded run they stayed open past 30 s (a child holding them? not found)
        proc.wait(timeout=60)
        errors = "" if lines[0] else proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
        assert lines[0], f"pbem serve printed nothing: {errors[-2000:]}"
        return "".join(lines)

    said = first_lines()
    assert "/login/" in said
    # each door mail comes in by, open or closed (issue 34)
    assert "mail in by SMTP: 127.0.0.1:" in said and "mail in by IMAP: closed (no imap_host)" in said
    assert "mail in by pipe: pbem mail-in" in said
    store = Store(load_config(env=env).database_path)
    store.add_player("admin@localhost", password_hash=hashlib.sha256(b"not a real hash").hexdigest())
    store.close()
    out = first_lines()
    assert "/login/" not in out and "with your password" in out


def test_serve_names_the_relay_with_its_port_and_warns_of_a_misspelled_setting(tmp_path):
    env = {"PBEM_INSTANCE": str(tmp_path), "PBEM_WEB_PORT": "0", "PBEM_SMTP_PORT": "0", "PBEM_DEMO": "false",
           "PBEM_RELAY_HOST": "mail.example.org", "PBEM_RELAY_PORT": "587", "PBEM_WEB_PROT": "8081"}
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "serve"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, **env}, cwd=ROOT, text=True)
    lines = [proc.stdout.readline() for _ in range(7)]
    proc.terminate()
    _, errors = proc.communicate(timeout=30)
    assert "mail out: relay mail.example.org:587\n" in lines, (lines, errors[-2000:])
    assert ("the environment variable PBEM_WEB_PROT is not a setting and is ignored (did you mean PBEM_WEB_PORT?)"
            in errors)


def test_only_environment_variables_that_look_like_a_setting_are_warned_of():
    from pbem.server.config import misspelled_environment

    assert misspelled_environment({"PBEM_WEB_PORT": "1", "PBEM_LEAK_GAMES": "3", "PBEM_CONFIG": "x",
                                   "PBEM_RELAY_PROT": "2", "HOME": "/"}) == [
        "the environment variable PBEM_RELAY_PROT is not a setting and is ignored (did you mean PBEM_RELAY_PORT?)"]


def test_mail_in_with_no_message_stores_nothing_and_says_so(tmp_path):
    result = run(["mail-in"], {"PBEM_INSTANCE": str(tmp_path), "PBEM_DEMO": "false"}, b"  \n")
    assert result.returncode == 65 and b"no message on standard input" in result.stderr
    assert not (tmp_path / "pbem.sqlite3").exists()
