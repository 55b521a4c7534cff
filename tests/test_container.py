"""The container image (Dockerfile, compose.yaml; docs/operations.md, "In a container").

The static checks always run: the Dockerfile copies everything `pip install .` needs (the
package and pyproject's data files), runs as a user of its own, keeps the instance in a volume,
exposes the ports its settings name; what its COPY lines put in the build context builds a wheel
that, installed, serves the sign-in page and the style sheet with the image's settings alone (its
ENV and CMD, no settings file), run here without Docker. compose.yaml starts that image with the
volume and the same ports.

The build-and-run tests need a Docker daemon and the base image (pulled, or already present):
they build the image, start it (with docker run, and with docker compose where the plugin is
installed), fetch the sign-in page through the published port, and remove what they made.
Without a daemon, or when the base image cannot be pulled, they are skipped saying which.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import urllib.request
import uuid
import zipfile
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
    from dataclasses import fields

    from pbem.server.config import Config
    settings = {f"PBEM_{f.name.upper()}" for f in fields(Config)}
    unknown = [name for name in env if name.startswith("PBEM_") and name not in settings]
    assert not unknown, f"the image sets variables that are no settings: {unknown}"


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
    from dataclasses import fields

    from pbem.server.config import Config
    settings = {f"PBEM_{f.name.upper()}" for f in fields(Config)}
    assert names and names <= settings, f"not settings: {sorted(names - settings)}"


def build_context(target: Path) -> Path:
    """The files the Dockerfile's COPY lines put in /src, as a build would see them."""
    target.mkdir()
    for word, rest in instructions():
        if word == "COPY":
            for name in rest.split()[:-1]:
                source = ROOT / name
                if source.is_dir():
                    shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
                else:
                    shutil.copy2(source, target / name)
    return target


def installed(context: Path, tmp_path: Path) -> Path:
    """`pip install /src` without the network: the wheel built from the context, laid out in a fresh
    venv as pip would (code in site-packages, data files under the prefix), the test environment's
    libraries beside it; returns the venv's python."""
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(wheels), str(context)], check=True, capture_output=True, timeout=600)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    with zipfile.ZipFile(next(wheels.glob("pbem-*.whl"))) as archive:
        for name in archive.namelist():
            target = venv / name.split(".data/data/", 1)[1] if ".data/data/" in name else site / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(name))
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    for finder in site.glob("__editable__*"):  # never the checkout's editable pbem
        finder.unlink()
    return python


def test_what_the_image_copies_installs_and_serves_with_the_images_settings(tmp_path):
    """The build context the COPY lines make, installed, then the image's ENV and CMD run here: no
    settings file, the instance from PBEM_INSTANCE (host and ports made this machine's loopback)."""
    python = installed(build_context(tmp_path / "src"), tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "PYTHON"))}
    env.update(image_env())
    web = free_port()
    env.update(PBEM_INSTANCE=str(tmp_path / "volume"), PBEM_WEB_HOST="127.0.0.1", PBEM_WEB_PORT=str(web),
               PBEM_SMTP_HOST="127.0.0.1", PBEM_SMTP_PORT=str(free_port()))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    log = open(tmp_path / "serve.log", "wb")
    server = subprocess.Popen([str(python), "-m", "pbem.cli", *json.loads(dict(instructions())["CMD"])[1:]],
                              env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=elsewhere)
    try:
        page = wait_until(lambda: fetch(f"http://127.0.0.1:{web}/login"), timeout=60, interval=0.2,
                          what="the sign-in page")
        assert 'name="email"' in page
        css = urllib.request.urlopen(f"http://127.0.0.1:{web}/static/pbem.css", timeout=30).read()
        assert css == (ROOT / "static" / "pbem.css").read_bytes()
        assert (tmp_path / "volume" / "pbem.sqlite3").exists() and (tmp_path / "volume" / "secret_key").exists()
        probe = subprocess.run([str(python), "-c", "import pbem.paths; print(pbem.paths.ROOT)"], env=env,
                               cwd=elsewhere, capture_output=True, text=True, check=True)
        assert probe.stdout.strip() == str(python.parent.parent / "share" / "pbem"), "data files from the install"
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


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
