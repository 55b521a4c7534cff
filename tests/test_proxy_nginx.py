"""Behind the documented nginx (issue 28 §4): a real ``pbem serve`` (the Server, waitress) with
``proxies = 1``, and in front of it a real nginx from Debian on loopback, started here with its own
config whose ``location /`` is deploy/nginx.conf's own (headers and all), over plain HTTP and over
TLS (a certificate made here). Clients connect from different loopback addresses (127.0.0.2,
127.0.0.3), so nginx sees two people, as it would on the Internet.

- the sign-in link limit (``throttle.LINKS_PER_CLIENT``) counts each person, not the proxy: one
  client that used up its links leaves the other free, and an ``X-Forwarded-For`` a client writes
  itself counts for nothing;
- a link asked for over TLS is mailed as https (nginx's ``X-Forwarded-Proto``), and one asked for
  over plain HTTP as http: the scheme follows the proxy, the host is ``base_url``'s.
"""

from __future__ import annotations

import http.client
import re
import shutil
import ssl
import subprocess
import time
import urllib.parse
from pathlib import Path

import pytest

from pbem.server import throttle
from pbem.server.config import Config
from pbem.server.serve import Server

DEPLOY = Path(__file__).parent.parent / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or shutil.which("/usr/sbin/nginx")
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx (Debian package nginx) is not installed: scripts/test "
                                                      "installs it")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def deploy_location(upstream: str) -> str:
    """deploy/nginx.conf's ``location /`` block, proxying to ``upstream`` instead of 127.0.0.1:8080."""
    found = re.search(r"\n(    location / \{.*?\n    \})", DEPLOY.read_text(), re.S)
    assert found and "proxy_pass http://127.0.0.1:8080;" in found.group(1)
    return found.group(1).replace("http://127.0.0.1:8080", upstream)


class Nginx:
    """nginx in the foreground, one process, its files in ``folder``: HTTP on ``port``, TLS on ``tls_port``."""

    def __init__(self, folder: Path, upstream: str):
        self.folder, self.port, self.tls_port = folder, free_port(), free_port()
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                        "/CN=localhost", "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")],
                       check=True, capture_output=True)
        temp = " ".join(f"{kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                          "uwsgi", "scgi"))
        (folder / "nginx.conf").write_text(f"""
daemon off;
master_process off;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    {temp}
    server {{
        listen 127.0.0.1:{self.port};
        listen 127.0.0.1:{self.tls_port} ssl;
        ssl_certificate {folder}/cert.pem;
        ssl_certificate_key {folder}/key.pem;
{deploy_location(upstream)}
    }}
}}
""")
        self.process = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while not self.listening():
            assert self.process.poll() is None, self.process.stderr.read().decode()
            assert time.monotonic() < deadline, "nginx did not listen within 30 s"
            time.sleep(0.1)

    def listening(self) -> bool:
        try:
            http.client.HTTPConnection("127.0.0.1", self.tls_port, timeout=1).connect()
            http.client.HTTPConnection("127.0.0.1", self.port, timeout=1).connect()
            return True
        except OSError:
            return False

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


class Person:
    """A browser at loopback address ``source`` talking to nginx, by HTTP or HTTPS; keeps its cookies."""

    def __init__(self, nginx: Nginx, source: str, tls: bool = False):
        self.nginx, self.source, self.tls, self.cookies = nginx, source, tls, {}

    def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None):
        if self.tls:
            context = ssl.create_default_context()
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # the certificate made here
            connection = http.client.HTTPSConnection("127.0.0.1", self.nginx.tls_port, timeout=60,
                                                     source_address=(self.source, 0), context=context)
        else:
            connection = http.client.HTTPConnection("127.0.0.1", self.nginx.port, timeout=60,
                                                    source_address=(self.source, 0))
        sent = {"Host": "games.example.org", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = urllib.parse.urlencode(form).encode() if form is not None else None
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=sent)
        answer = connection.getresponse()
        text = answer.read().decode()
        for value in answer.headers.get_all("Set-Cookie") or []:
            name, _eq, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";")[0]
        connection.close()
        return answer.status, text

    def ask_link(self, email: str, headers: dict | None = None) -> int:
        status, page = self.request("GET", "/login")
        assert status == 200, page
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        status, _page = self.request("POST", "/login", {"csrf_token": token, "email": email, "next": "/"},
                                     headers)
        return status


@pytest.fixture
def behind_nginx(tmp_path):
    (tmp_path / "pbem").mkdir()
    config = Config(instance=str(tmp_path / "pbem"), web_port=0, smtp_enabled=False, tick_seconds=60, demo=False,
                    secret_key="proxy-test", relay_host="127.0.0.1", relay_port=9,  # nothing listens: mail stays
                    proxies=1, base_url="http://games.example.org")
    server = Server(config)
    server.start()
    folder = tmp_path / "nginx"
    folder.mkdir()
    nginx = Nginx(folder, f"http://127.0.0.1:{config.web_port}")
    try:
        yield server, nginx
    finally:
        nginx.stop()
        server.stop()


def links_mailed(server, email: str) -> list[str]:
    rows = server.store.query("SELECT body FROM outbox WHERE kind = 'login' AND to_addr = ? ORDER BY id", (email,))
    return [re.search(r"(https?://\S+/login/\S+)", row["body"]).group(1) for row in rows]


def test_one_client_using_up_its_links_leaves_everyone_else_free(behind_nginx):
    server, nginx = behind_nginx
    greedy, other = Person(nginx, "127.0.0.2"), Person(nginx, "127.0.0.3")
    for i in range(throttle.LINKS_PER_CLIENT):
        # what it writes in X-Forwarded-For itself is not believed: nginx's last hop is
        assert greedy.ask_link(f"g{i}@example.org", {"X-Forwarded-For": f"10.9.9.{i}"}) == 200
    assert greedy.ask_link("one-more@example.org", {"X-Forwarded-For": "10.9.9.99"}) == 429
    assert other.ask_link("anna@example.org") == 200  # another person behind the same proxy
    counted = {row["ip"] for row in server.store.query("SELECT DISTINCT ip FROM login_attempts")}
    assert counted == {"127.0.0.2", "127.0.0.3"}


def test_the_429_page_says_the_limit_and_what_an_admin_behind_a_proxy_must_set(behind_nginx):
    _server, nginx = behind_nginx
    greedy = Person(nginx, "127.0.0.4")
    for i in range(throttle.LINKS_PER_CLIENT):
        greedy.ask_link(f"g{i}@example.org")
    status, page = greedy.request("GET", "/login")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    status, page = greedy.request("POST", "/login", {"csrf_token": token, "email": "x@example.org", "next": "/"})
    assert status == 429
    assert f"{throttle.LINKS_PER_CLIENT} sign-in links" in page and "15 minutes" in page and "proxies" in page


def test_a_link_asked_for_over_tls_is_mailed_as_https(behind_nginx):
    server, nginx = behind_nginx
    assert Person(nginx, "127.0.0.5", tls=True).ask_link("anna@example.org") == 200
    assert Person(nginx, "127.0.0.6").ask_link("fred@example.org") == 200
    # a client's own X-Forwarded-Proto over plain HTTP is replaced by nginx's
    assert Person(nginx, "127.0.0.7").ask_link("otto@example.org", {"X-Forwarded-Proto": "https"}) == 200
    assert [link.split("/login/")[0] for link in links_mailed(server, "anna@example.org")] \
        == ["https://games.example.org"]
    assert [link.split("/login/")[0] for link in links_mailed(server, "fred@example.org")] \
        == ["http://games.example.org"]
    assert [link.split("/login/")[0] for link in links_mailed(server, "otto@example.org")] \
        == ["http://games.example.org"]
