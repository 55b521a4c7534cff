"""docs/operations.md and deploy/ agree: every file the guide names exists, every unit and timer
of deploy/ is installed and enabled by the guide's commands and runs a pbem command that exists,
the Postfix packages it installs are those scripts/test installs, Postfix's lines are settings
Postfix knows, and the DKIM selector and domain are the same in the guide, OpenDKIM's settings
and the DNS records. tests/test_mail_path.py plays the guide's Postfix and OpenDKIM block itself.
"""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.server.store import Store

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "operations.md"
DEPLOY = ROOT / "deploy"


def guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


def command_lines() -> list[str]:
    blocks = re.findall(r"^ *```[a-z]*\n(.*?)^ *```", guide(), flags=re.S | re.M)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def units() -> list[Path]:
    return sorted(p for p in DEPLOY.iterdir() if p.suffix in (".service", ".timer"))


def test_every_file_the_guide_names_exists():
    texts = guide() + (DEPLOY / "postfix-pipe.md").read_text()
    named = set(re.findall(r"\bdeploy/[\w./-]*\w", texts)) | set(re.findall(r"`(Dockerfile|compose\.yaml)`", texts))
    assert len(named) >= 12, sorted(named)
    missing = sorted(n for n in named if not (ROOT / n).exists())
    assert not missing, f"docs/operations.md names files that are not there: {missing}"


def test_every_file_of_deploy_is_named_by_the_guide():
    texts = guide() + (DEPLOY / "postfix-pipe.md").read_text()
    files = [p.relative_to(ROOT).as_posix() for p in DEPLOY.rglob("*") if p.is_file()]
    unnamed = [f for f in files if f not in texts]
    assert not unnamed, f"deploy/ has files the guide does not mention: {unnamed}"


def test_the_guide_installs_and_enables_every_unit_and_timer():
    lines = command_lines()
    copied = {Path(word).name for line in lines if line.startswith("cp deploy/") and "/etc/systemd/system" in line
              for word in line.split()[1:-1]}
    assert {u.name for u in units()} <= copied, f"not copied by the guide: {sorted({u.name for u in units()} - copied)}"
    enabled = {word for line in lines if line.startswith("systemctl enable") for word in line.split()[2:]}
    for timer in (u for u in units() if u.suffix == ".timer"):
        assert timer.name in enabled, f"the guide does not enable {timer.name}"
        assert (DEPLOY / f"{timer.stem}.service").exists(), f"{timer.name} starts no service of deploy/"
    assert "pbem" in enabled, "the server itself is enabled"


def read_unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read_string(path.read_text())
    return parser


@pytest.mark.parametrize("unit", [u for u in units() if u.suffix == ".service"], ids=lambda u: u.name)
def test_each_service_runs_a_pbem_command_that_exists(unit):
    service = read_unit(unit)["Service"]
    command = service["ExecStart"]
    # a lone % is a systemd specifier (%H: the host name): a date format in a unit must write %%
    assert not re.search(r"%(?![%])", command.replace("%%", "")), f"{unit.name}: a lone % in {command!r}"
    words = command.replace("'", " ").split()
    pbem = words.index("/srv/pbem/.venv/bin/pbem")
    subcommand = words[pbem + 1]
    done = subprocess.run([sys.executable, "-m", "pbem.cli", subcommand, "--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, f"{unit.name} runs pbem {subcommand}, which pbem does not know: {done.stderr}"
    options = [w for w in words[pbem + 2:] if w.startswith("--")]
    for option in options:
        assert option in done.stdout, f"{unit.name}: pbem {subcommand} has no option {option}"
    assert service["User"] == "pbem" and "PBEM_CONFIG=/etc/pbem/pbem.toml" in service.get("Environment", "") \
        or "--config /etc/pbem/pbem.toml" in command


@pytest.mark.parametrize("timer", [u for u in units() if u.suffix == ".timer"], ids=lambda u: u.name)
def test_each_timer_has_a_calendar_systemd_reads(timer):
    calendar = read_unit(timer)["Timer"]["OnCalendar"]
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed: the calendar expression is not checked")
    done = subprocess.run(["systemd-analyze", "calendar", calendar], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"{timer.name}: {calendar!r}: {done.stderr}"


def test_the_guide_installs_the_packages_scripts_test_installs():
    install = [line for line in command_lines() if "apt-get install" in line and "postfix" in line]
    assert len(install) == 1, install
    packages = set(install[0].split("-y", 1)[1].split())
    script = (ROOT / "scripts" / "test").read_text()
    tested = set(re.search(r"apt-get install -y -qq ([^>]+)", script).group(1).split())
    assert packages == {"postfix", "opendkim", "opendkim-tools"} and packages <= tested


def postfix_settings() -> dict[str, str]:
    lines = [line for line in (DEPLOY / "postfix" / "main.cf").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return dict(line.split(" = ", 1) for line in lines)


def test_postfix_lines_are_settings_postfix_knows():
    settings = postfix_settings()
    master = (DEPLOY / "postfix" / "master.cf").read_text()
    transports = set(re.findall(r"^(\w+)\s+unix\s", master, re.M))
    assert transports == {"pbem"}
    assert (DEPLOY / "postfix" / "transport").read_text().split()[-2:] == ["games.example.org", "pbem:"]
    assert "argv=/srv/pbem/.venv/bin/pbem mail-in --config /etc/pbem/pbem.toml" in master
    assert settings["relay_domains"] == "games.example.org"
    if not Path("/usr/sbin/postconf").exists():
        pytest.skip("postfix is not installed (scripts/test installs it): the names are not checked")
    known = set(subprocess.run(["postconf", "-d", "-H"], capture_output=True, text=True, check=True).stdout.split())
    unknown = [n for n in settings if n not in known and not n.startswith(tuple(f"{t}_" for t in transports))]
    assert not unknown, f"deploy/postfix/main.cf sets what Postfix does not know: {unknown}"


def test_the_dkim_selector_and_domain_agree():
    genkey = next(line for line in command_lines() if line.startswith("opendkim-genkey"))
    selector = re.search(r"-s (\S+)", genkey).group(1)
    domain = re.search(r"-d (\S+)", genkey).group(1)
    conf = dict(line.split(None, 1) for line in (DEPLOY / "opendkim.conf").read_text().splitlines()
                if line.strip() and not line.startswith("#"))
    assert (conf["Selector"], conf["Domain"]) == (selector, domain)
    keys = re.search(r"-D (\S+)", genkey).group(1)
    assert conf["KeyFile"] == f"{keys}/{selector}.private"
    assert postfix_settings()["smtpd_milters"] == "inet:" + "127.0.0.1:" + conf["Socket"].split(":")[1].split("@")[0]
    records = (DEPLOY / "dns-records.txt").read_text()
    assert f"{selector}._domainkey.{domain}." in records
    assert re.search(rf"^{re.escape(domain)}\.\s+IN TXT\s+\"v=spf1 ", records, re.M)
    assert re.search(rf"^_dmarc\.{re.escape(domain)}\.\s+IN TXT\s+\"v=DMARC1; p=", records, re.M)
    assert f"-d {domain} -s {selector}" in " ".join(command_lines())


def test_the_backup_and_prune_services_do_their_work(tmp_path):
    """Each timer's service's ExecStart as systemd would run it (%% read as %, its Environment set),
    with the club's folders made this test's: the backup writes this hour's copy, prune runs."""
    instance = tmp_path / "instance"
    config = tmp_path / "pbem.toml"
    config.write_text(f'instance = "{instance}"\ndemo = false\n')
    instance.mkdir()
    Store(instance / "pbem.sqlite3").close()
    backups = tmp_path / "backups"
    backups.mkdir()
    pbem = Path(sys.executable).parent / "pbem"
    for unit in ("pbem-backup.service", "pbem-prune.service"):
        service = read_unit(DEPLOY / unit)["Service"]
        command = service["ExecStart"].replace("%%", "%").replace("/srv/pbem/.venv/bin/pbem", str(pbem))
        command = command.replace("/var/backups/pbem", str(backups))
        env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
        name, _, value = service["Environment"].partition("=")
        env[name] = value.replace("/etc/pbem/pbem.toml", str(config))
        done = subprocess.run(shlex.split(command), env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{unit}: {done.stdout}{done.stderr}"
    copies = [p.name for p in backups.iterdir()]
    assert len(copies) == 1 and re.fullmatch(r"pbem-\d\d\.sqlite3", copies[0]), copies


def test_the_dovecot_example_is_read_by_dovecot(tmp_path):
    if not Path("/usr/bin/doveconf").exists():
        pytest.skip("dovecot-imapd is not installed (scripts/test installs it): the example is not read")
    conf = tmp_path / "dovecot.conf"
    conf.write_text(f"!include {DEPLOY / 'dovecot-pbem.conf'}\n")
    done = subprocess.run(["doveconf", "-n", "-c", str(conf)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "mail_location = maildir:~/Mail" in done.stdout
    postfix = [line for line in command_lines() if "home_mailbox=" in line]
    assert len(postfix) == 1 and "home_mailbox=Mail/" in postfix[0], "Postfix delivers where Dovecot reads"
