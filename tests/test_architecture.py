"""The architecture rule (docs/architecture.md): only a game's own package imports it,
the engine core stands alone, the server does not use the tools. The contracts are in
pyproject.toml; lint-imports checks them on the real tree."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=cwd,
                          capture_output=True, text=True)


def test_the_import_contracts_hold():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ", 0 broken" in result.stdout and "kept" in result.stdout


def test_a_server_module_importing_a_game_breaks_the_contract(tmp_path):
    """The contract is not vacuous: the same tree with one server module importing
    Bonaparte at Marengo directly is refused."""
    import shutil

    shutil.copytree(ROOT / "pbem", tmp_path / "pbem", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    inbox = tmp_path / "pbem" / "server" / "inbox.py"
    inbox.write_text(inbox.read_text() + "\nfrom pbem.games.marengo.scenario import SIDES  # noqa\n")
    result = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=tmp_path,
                            capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    assert result.returncode != 0
    assert "Only a game's own package imports it BROKEN" in result.stdout
    assert "pbem.server.inbox -> pbem.games.marengo.scenario" in result.stdout
