"""The container image (Dockerfile, compose.yaml; docs/operations.md, "In a container").

The static checks always run: the Dockerfile copies everything `pip install .` needs (the
package and pyproject's data files), runs as a user of its own, keeps the instance in a volume,
exposes the ports its settings name, and its settings alone (the image's ENV, no file) make
`pbem serve` start and serve the sign-in page, run here without Docker. compose.yaml starts that
image with the volume and the same ports.

The build-and-run tests need a Docker daemon and the base image (pulled, or already present):
they build the image, start it (with docker run, and with docker compose where the plugin is
installed), fetch the sign-in page through the published port, and remove what they made.
Without a daemon, or when the base image cannot be pulled, they are skipped saying which.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import urllib.request
import uuid
from pathlib import Path

import pytest

from pbem.tools.harness import free_port, wait_until

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "compose.yaml"


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    result = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            result.append((word.upper(), rest.strip()))
    return result


def image_env() -> dict[str, str]:
    env = {}
    for word, rest in instructions():
        if word == "ENV":
            env.update(dict(re.findall(r"(\w+)=(\S+)", rest)))
    return env


def test_the_image_copies_what_pip_install_needs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    needed = {"pyproject.toml", project["project"]["readme"], *project["tool"]["setuptools"]["packages"]["find"]
              ["include"]}
    needed = {n.rstrip("*") for n in needed}
    for globs in project["tool"]["setuptools"]["data-files"].values():
        needed |= {g.split("/")[0] for g in globs}
    copied = set()
    for word, rest in instructions():
        if word == "COPY":
            copied |= {Path(p).name for p in rest.split()[:-1] if not p.startswith("--")}
    assert needed <= copied, f"the Dockerfile does not copy {sorted(needed - copied)}"
    ignore = (ROOT / ".dockerignore").read_text().splitlines()
    for name in needed:
        assert f"!{name}" in ignore, f".dockerignore keeps {name} out of the build context"
    runs = [rest for word, rest in instructions() if word == "RUN"]
    assert any("pip install" in r and "/src" in r for r in runs), runs
    assert re.match(r"python:3\.\d+-slim", dict(instructions())["FROM"])


def test_the_image_runs_pbem_serve_as_a_user_of_its_own_with_the_instance_in_a_volume():
    steps = instructions()
    words = [w for w, _ in steps]
    users = [rest for word, rest in steps if word == "USER"]
    assert users and users[-1] not in ("root", "0"), "the server must not run as root"
    assert words.index("USER") < words.index("CMD")
    assert any(word == "RUN" and "useradd" in rest and users[-1] in rest for word, rest in steps)
    env = image_env()
    volumes = [rest.strip('[]"') for word, rest in steps if word == "VOLUME"]
    assert volumes == [env["PBEM_INSTANCE"]], "the instance (database, secret key, mail) is the volume"
    exposed = {p for word, rest in steps if word == "EXPOSE" for p in rest.split()}
    assert exposed == {env["PBEM_WEB_PORT"], env["PBEM_SMTP_PORT"]}
    assert env["PBEM_WEB_HOST"] == env["PBEM_SMTP_HOST"] == "0.0.0.0", "reachable through the published ports"
    cmd = dict(steps)["CMD"]
    assert cmd.replace(" ", "") == '["pbem","serve"]'


def test_compose_starts_the_image_with_its_volume_and_ports():
    text = COMPOSE.read_text()
    env = image_env()
    assert re.search(r"^\s+build: \.$", text, re.M), "compose builds the Dockerfile beside it"
    volume = re.search(r"^\s+- (\S+):(\S+)$", text.split("volumes:")[1], re.M)
    assert volume and volume.group(2) == env["PBEM_INSTANCE"]
    assert re.search(rf"^  {re.escape(volume.group(1))}:$", text, re.M), "the volume is declared"
    published = re.findall(r'"127\.0\.0\.1:\$\{\w+:-\d+\}:(\d+)"', text)
    assert set(published) == {env["PBEM_WEB_PORT"], env["PBEM_SMTP_PORT"]}
    names = set(re.findall(r"^\s+#?\s*(PBEM_\w+):", text, re.M))
    from pbem.server.config import Config
    from dataclasses import fields
    settings = {f"PBEM_{f.name.upper()}" for f in fields(Config)}
    assert names and names <= settings, f"not settings: {sorted(names - settings)}"


def test_the_images_settings_alone_start_the_server(tmp_path):
    """The image's ENV and CMD, run here: no settings file, the instance from PBEM_INSTANCE
    (ports and host made local: this machine's free loopback ports)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(image_env())
    web = free_port()
    env.update(PBEM_INSTANCE=str(tmp_path / "volume"), PBEM_WEB_HOST="127.0.0.1", PBEM_WEB_PORT=str(web),
               PBEM_SMTP_HOST="127.0.0.1", PBEM_SMTP_PORT=str(free_port()))
    log = open(tmp_path / "serve.log", "wb")
    server = subprocess.Popen([str(Path(sys.executable).parent / "pbem"), "serve"], env=env, stdout=log,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=tmp_path)
    try:
        page = wait_until(lambda: fetch(f"http://127.0.0.1:{web}/login"), timeout=60, interval=0.2,
                          what="the sign-in page")
        assert 'name="email"' in page
        assert (tmp_path / "volume" / "pbem.sqlite3").exists() and (tmp_path / "volume" / "secret_key").exists()
    finally:
        server.terminate()
        server.wait(timeout=30)


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.read().decode() if response.status == 200 else None
    except OSError:
        return None


# -- with Docker -----------------------------------------------------------------------------------


def docker(*args, timeout: float = 900, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout, **kwargs)


PULL_FAILURES = ("pull access denied", "failed to resolve source metadata", "failed to fetch", "dial tcp",
                 "no such host", "TLS handshake timeout", "i/o timeout", "connection refused",
                 "error getting credentials", "failed to do request", "manifest unknown", "toomanyrequests")


@pytest.fixture(scope="module")
def image():
    if shutil.which("docker") is None:
        pytest.skip("no docker command on this machine")
    info = docker("info", "--format", "{{.ServerVersion}}", timeout=60)
    if info.returncode != 0:
        reason = (info.stderr.strip().splitlines() or ["docker info failed"])[-1]
        pytest.skip(f"the docker CLI is here but no Docker daemon answers: {reason}")
    base = dict(instructions())["FROM"]
    if docker("image", "inspect", base, timeout=60).returncode != 0:
        pulled = docker("pull", base)
        if pulled.returncode != 0:
            pytest.skip(f"cannot pull the base image {base}: {pulled.stderr.strip().splitlines()[-1:]}")
    tag = f"pbem-test:{uuid.uuid4().hex[:12]}"
    built = docker("build", "-t", tag, str(ROOT))
    if built.returncode != 0 and any(f in built.stderr for f in PULL_FAILURES):
        pytest.skip(f"the build could not fetch what it needs from a registry: {built.stderr.strip()[-400:]}")
    assert built.returncode == 0, f"docker build failed:\n{built.stdout[-3000:]}{built.stderr[-3000:]}"
    try:
        yield tag
    finally:
        docker("image", "rm", "-f", tag, timeout=120)


def test_the_image_starts_and_serves_the_sign_in_page(image):
    port = free_port()
    name = f"pbem-test-{uuid.uuid4().hex[:12]}"
    volume = f"{name}-data"
    started = docker("run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8080", "-v", f"{volume}:/var/lib/pbem",
                     image, timeout=120)
    assert started.returncode == 0, started.stderr
    try:
        page = wait_until(lambda: fetch(f"http://127.0.0.1:{port}/login"), timeout=120, interval=0.5,
                          what="the container's sign-in page")
        assert 'name="email"' in page
        user = docker("exec", name, "id", "-u", timeout=60).stdout.strip()
        assert user != "0", "the server runs as root in the container"
        listing = docker("exec", name, "ls", "/var/lib/pbem", timeout=60).stdout.split()
        assert "pbem.sqlite3" in listing, listing
        logs = docker("logs", name, timeout=60)
        assert "sign in as" in logs.stdout + logs.stderr, "the admin's first sign-in link is in the log"
    finally:
        docker("rm", "-f", name, timeout=120)
        docker("volume", "rm", "-f", volume, timeout=120)


def test_compose_brings_the_server_up_and_down(image):
    if docker("compose", "version", timeout=60).returncode != 0:
        pytest.skip("the docker compose plugin is not installed (docker build and run are tested above)")
    project = f"pbemtest{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = {**os.environ, "WEB_PUBLISH_PORT": str(port), "SMTP_PUBLISH_PORT": str(free_port()),
           "IMAGE_NAME": f"{project}:latest"}  # its own image, removed with --rmi all
    up = docker("compose", "-p", project, "-f", str(COMPOSE), "up", "-d", "--build", env=env)
    try:
        assert up.returncode == 0, up.stderr
        page = wait_until(lambda: fetch(f"http://127.0.0.1:{port}/login"), timeout=120, interval=0.5,
                          what="the compose service's sign-in page")
        assert 'name="email"' in page
    finally:
        docker("compose", "-p", project, "-f", str(COMPOSE), "down", "-v", "--rmi", "all", env=env, timeout=300)
