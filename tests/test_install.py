"""`pip install .` alone serves (issue: a server an organiser can install): the wheel holds
the maps, templates and style sheet as data files, and an installed pbem, away from the
source checkout, finds them under its prefix and serves pages.

The wheel is built here and unpacked into a fresh virtual environment as pip would lay
it out; its dependencies come from the test environment (no download)."""

import os
import shutil
import subprocess
import sys
import sysconfig
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_an_installed_pbem_finds_its_data_and_serves(tmp_path):
    wheels = tmp_path / "wheels"
    # built by the test environment's setuptools (a test dependency), not in an isolated build
    # environment pip would make and fill first: the same wheel, without installing setuptools again
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(wheels), str(ROOT)], check=True, capture_output=True, timeout=600)
    wheel = next(wheels.glob("pbem-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    with zipfile.ZipFile(wheel) as archive:  # as pip lays a wheel out: code in site-packages, data under the prefix
        for name in archive.namelist():
            if ".data/data/" in name:
                target = venv / name.split(".data/data/", 1)[1]
            else:
                target = site / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(name))
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith("share/pbem/templates/game.html") for n in names)
    assert any(n.endswith("share/pbem/maps/marengo.toml") for n in names)
    assert any(n.endswith("share/pbem/static/pbem.css") for n in names)
    assert not any(n.startswith("tests/") for n in names)
    # the test environment's libraries, but never its editable pbem
    deps = sysconfig.get_paths()["purelib"]
    shim = site / "deps.pth"
    shim.write_text(deps + "\n")
    for finder in site.glob("__editable__*"):
        finder.unlink()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    where = tmp_path / "elsewhere"
    where.mkdir()
    probe = subprocess.run([str(python), "-c", "import pbem, pbem.paths; print(pbem.__file__); print(pbem.paths.ROOT)"],
                           capture_output=True, text=True, cwd=where, env=env, check=True)
    code, root = probe.stdout.split()
    assert code.startswith(str(site)) and Path(root) == venv / "share" / "pbem", probe.stdout
    games = subprocess.run([str(python), "-m", "pbem.cli", "games"], capture_output=True, text=True, cwd=where,
                           env=env, timeout=120)
    assert "marengo: Bonaparte at Marengo" in games.stdout, games.stderr
    serve_env = {**env, "PBEM_INSTANCE": str(tmp_path / "data"), "PBEM_WEB_PORT": "0", "PBEM_SMTP_ENABLED": "false"}
    server = subprocess.Popen([str(python), "-m", "pbem.cli", "serve"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, cwd=where, env=serve_env)
    try:
        url = server.stdout.readline().split("running: ")[-1].strip()
        assert url.startswith("http://127.0.0.1:"), url
        page = urllib.request.urlopen(url + "/login", timeout=30).read().decode()
        assert "Sign in" in page or "sign in" in page
        css = urllib.request.urlopen(url + "/static/pbem.css", timeout=30).read()
        assert css == (ROOT / "static" / "pbem.css").read_bytes()
    finally:
        server.terminate()
        server.wait(timeout=30)
    shutil.rmtree(venv)
