"""Server settings: embedded defaults, then a TOML file, then PBEM_* environment variables.

Every setting has a default that gives a newcomer a working server on this
machine: the web on 127.0.0.1:8080, mail received on 127.0.0.1:2525, outgoing
mail written to a local maildir folder (shown on the admin page) because no
relay is configured, and the data (database, maildir, secret key) in one
folder that never follows the current directory: ``instance`` from the config
file (a relative path is taken from the config file's folder) or the
environment, else ``$XDG_DATA_HOME/pbem`` (``~/.local/share/pbem``).
"""

from __future__ import annotations

import difflib
import os
import secrets
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path


@dataclass
class Config:
    instance: str = ""  # folder for the database, the maildir and the secret key (default: default_instance())
    database: str = ""  # default: <instance>/pbem.sqlite3
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    base_url: str = ""  # default: http://<web_host>:<web_port>
    proxies: int = 0  # reverse proxies in front (1 behind nginx): trust their X-Forwarded-For/-Proto
    proxy_address: str = "127.0.0.1"  # the address the (nearest) proxy connects from; its headers alone are trusted
    smtp_host: str = "127.0.0.1"  # the built-in receiver (port 0: any free port)
    smtp_port: int = 2525
    smtp_enabled: bool = True  # false: no built-in receiver (mail comes by pipe or IMAP)
    relay_host: str = ""  # outgoing mail relay; empty: deliver to <instance>/maildir
    relay_port: int = 25
    relay_user: str = ""
    relay_password: str = ""
    relay_starttls: bool = False
    from_addr: str = "pbem@localhost"
    domain: str = "localhost"
    imap_host: str = ""  # poll a real mailbox (optional)
    imap_port: int = 993
    imap_user: str = ""
    imap_password: str = ""
    imap_folder: str = "INBOX"
    imap_ssl: bool = True  # IMAP over TLS (port 993); false for a local server on port 143
    imap_after: str = "seen"  # what becomes of a fetched message: "seen" (kept, flagged), "move", "delete"
    imap_move_to: str = "pbem-fetched"  # the folder imap_after = "move" moves fetched mail to (made if missing)
    tick_seconds: float = 5.0  # how often the scheduler looks at the clocks and the outbox
    max_message_bytes: int = 512 * 1024
    smtp_sender_messages: int = 100  # messages an hour the receiver takes from one envelope sender (0: no limit)
    smtp_sender_mib: int = 20  # MiB an hour the receiver takes from one envelope sender (0: no limit)
    smtp_backlog: int = 200  # stored mails waiting to be processed above which the receiver answers 451 (0: no limit)
    smtp_connections: int = 100  # SMTP connections held at once, in all (0: no limit); docs/security.md
    smtp_connections_per_address: int = 20  # ... from one client address (0: no limit)
    web_connections: int = 200  # HTTP connections held at once, in all (pbem.server.httpd)
    web_connections_per_address: int = 20  # ... from one client address (0: no limit; not applied when proxies > 0)
    web_request_seconds: int = 30  # a request's headers and body must all arrive within this, from its first byte
    web_idle_seconds: int = 60  # an HTTP connection idle this long is closed
    stop_seconds: int = 20  # SIGTERM: the server ends within this, stuck parts or not (below systemd's TimeoutStopSec)
    smtp_process: bool = False  # the SMTP receiver in a process of its own (pbem.server.receiver): a core of its own
    retain_inbound_days: int = 30  # raw inbound mail, once processed (0: forever); pbem.server.retention
    retain_outbox_days: int = 30  # text of sent mail
    retain_attachments_days: int = 7  # attachments of sent mail, cached map images
    retain_audit_days: int = 365  # audit noise (wrong keys, errors); rulings are kept forever
    cache_games: int = 300  # games kept replayed in memory, the least recently used dropped first (at least 1)
    vacation_year_days: int = 28  # days of vacation scheduled ahead a player may take in a calendar year
    secret_key: str = ""  # web sessions, stored parses' key; default: made once and kept in <instance>/secret_key
    admin_email: str = "admin@localhost"
    demo: bool = True  # create a demo game on an empty database

    @property
    def database_path(self) -> Path:
        return Path(self.database) if self.database else Path(self.instance) / "pbem.sqlite3"

    @property
    def maildir(self) -> Path:
        return Path(self.instance) / "maildir"

    @property
    def url(self) -> str:
        return self.base_url or f"http://{self.web_host}:{self.web_port}"

    @property
    def relay(self):
        return (self.relay_host, self.relay_port) if self.relay_host else None


def default_instance(env) -> Path:
    """The data folder when none is set: the XDG data home's pbem folder."""
    home = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(home) / "pbem"


class ConfigError(ValueError):
    """Server settings that cannot be used; the one-line message names the file and the setting."""


def load_config(path: str | None = None, env: dict | None = None) -> Config:
    """The settings; a file that is missing or unreadable, an unknown setting or a value of the
    wrong type raises ConfigError, whose message names the file, the setting and what it takes."""
    env = os.environ if env is None else env
    config = Config()
    path = path or env.get("PBEM_CONFIG")
    if path:
        where = f"config file {path}"
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{where} does not exist (give --config the path of your settings file, "
                              f"or leave it out to use the defaults)") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{where} cannot be read: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{where} is not valid TOML: {exc}") from None
        apply(config, data, where)
        for name in ("instance", "database"):  # relative to the config file, not to where pbem runs
            value = getattr(config, name)
            if value and not Path(value).is_absolute():
                setattr(config, name, str(Path(path).resolve().parent / value))
    apply(config, {f.name: env[f"PBEM_{f.name.upper()}"] for f in fields(Config)
                   if f"PBEM_{f.name.upper()}" in env}, "environment")
    config.instance = str(Path(config.instance).resolve()) if config.instance else str(default_instance(env))
    if config.imap_after not in IMAP_AFTER:
        raise ConfigError(f"imap_after must be one of {', '.join(IMAP_AFTER)} (what becomes of a fetched "
                          f"message), not {config.imap_after!r}")
    try:
        Path(config.instance).mkdir(parents=True, exist_ok=True)
        if not config.secret_key:
            key_file = Path(config.instance) / "secret_key"
            if not key_file.exists():
                key_file.write_text(secrets.token_hex(32))
                key_file.chmod(0o600)
            config.secret_key = key_file.read_text().strip()
    except OSError as exc:
        raise ConfigError(f"the data folder (setting instance) {config.instance} cannot be used: "
                          f"{exc.strerror or exc}") from None
    return config


def misspelled_environment(env: dict | None = None) -> list[str]:
    """A warning for each PBEM_* environment variable that is no setting but looks like one
    (PBEM_WEB_PROT for PBEM_WEB_PORT): the server would start without it, silently. Other PBEM_*
    variables (the tests' and tools' own) are not settings and are left alone."""
    env = os.environ if env is None else env
    settings = {f"PBEM_{f.name.upper()}" for f in fields(Config)} | {"PBEM_CONFIG"}
    out = []
    for name in sorted(n for n in env if n.startswith("PBEM_") and n not in settings):
        close = difflib.get_close_matches(name, settings, n=1, cutoff=0.85)
        if close:
            out.append(f"the environment variable {name} is not a setting and is ignored "
                       f"(did you mean {close[0]}?)")
    return out


IMAP_AFTER = ("seen", "move", "delete")
KINDS = {"int": "a whole number", "float": "a number", "bool": "true or false", "str": "a text in quotes"}


def apply(config: Config, data: dict, where: str) -> None:
    """Set the settings in ``data`` (a TOML file's, or the environment's texts), each checked."""
    kinds = {f.name: f.type for f in fields(Config)}
    for name, value in data.items():
        if name not in kinds:
            close = difflib.get_close_matches(name, kinds, n=1)
            hint = f"did you mean {close[0]}?" if close else f"known: {', '.join(sorted(kinds))}"
            raise ConfigError(f"{where}: unknown setting {name!r} ({hint})")
        kind = kinds[name]
        setattr(config, name, _value(value, kind, f"{where}: {name} must be {KINDS[kind]}, not {value!r}"))


def _value(value, kind: str, wrong: str):
    """``value`` as a setting of type ``kind``: a TOML value must have the type already (a
    whole number for an int), a text (from the environment) is read as that type."""
    text = isinstance(value, str)
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if text and value.strip().lower() in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            return value.strip().lower() in ("1", "true", "yes", "on")
        raise ConfigError(wrong)
    if kind == "str":
        if text:
            return value
        raise ConfigError(wrong)
    if isinstance(value, bool) or not (text or isinstance(value, (int, float))):
        raise ConfigError(wrong)
    try:
        if kind == "int":
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            return int(value) if not text else int(value.strip())
        return float(value)
    except ValueError:
        raise ConfigError(wrong) from None
