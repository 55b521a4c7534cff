"""What a newcomer's trial found (issue 13): the server side, each fix with the test
that failed before it, over a real SQLite file and the real web app."""

from __future__ import annotations

import pytest

from websupport import ADMIN, ANNA, FRED, MOD, OTTO, SMALL, Site, csrf


@pytest.fixture
def site(tmp_path):
    s = Site(tmp_path)
    yield s
    s.store.close()


# -- games made by the JSON API take the web form's defaults ------------------------------


def test_a_game_made_by_the_api_without_settings_has_the_default_settings(site):
    anna = site.client(ANNA)
    made = anna.post("/api/games", json={"title": "By script", "scenario": SMALL, "seats": ["austria"]},
                     headers={"X-CSRF-Token": anna.csrf})
    assert made.status_code == 201, made.text
    settings = site.service.info(made.json["id"])["settings"]
    assert settings["early"] is True and settings["reminders"] == [24, 2] and settings["hours"] == 48
    told = anna.post("/api/games", json={"title": "No early", "scenario": SMALL, "seats": ["austria"],
                                         "settings": {"early": False, "hours": 24}},
                     headers={"X-CSRF-Token": anna.csrf})
    settings = site.service.info(told.json["id"])["settings"]
    assert (settings["early"], settings["hours"], settings["reminders"]) == (False, 24, [24, 2])


# -- backup and restore refuse what is not a club's database -------------------------------


def pbem_cli(*args, tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "PBEM_CONFIG": ""}
    return subprocess.run([sys.executable, "-m", "pbem.cli", *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=tmp_path)


def club(tmp_path, extra: str = "") -> "Path":
    config = tmp_path / "club.toml"
    config.write_text(f'instance = "data"\nadmin_email = "org@example.org"\n{extra}')
    return config


def test_backup_without_a_database_is_refused_in_one_line(tmp_path):
    config = club(tmp_path)
    done = pbem_cli("backup", str(tmp_path / "copy.sqlite3"), "--config", str(config), tmp_path=tmp_path)
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0 and "there is no database at" in done.stderr
    assert "pbem.sqlite3" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "copy.sqlite3").exists() and not (tmp_path / "data" / "pbem.sqlite3").exists()


def test_restore_refuses_a_file_that_is_not_a_pbem_database_and_leaves_the_club_as_it_was(tmp_path):
    import sqlite3

    from pbem.server.store import Store

    config = club(tmp_path)
    (tmp_path / "data").mkdir()
    live = tmp_path / "data" / "pbem.sqlite3"
    store = Store(live)
    store.create_game("marengo", SMALL, 1, "Kept")
    store.close()
    before = live.read_bytes()
    other = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all\n" * 100)
    for wrong, said in ((other, "not pbem's (no table migrations, games, seats, log)"), (text, "not a database")):
        done = pbem_cli("restore", str(wrong), "--config", str(config), tmp_path=tmp_path)
        assert done.returncode != 0 and said in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and done.stderr.strip().count("\n") == 0
        assert live.read_bytes() == before
    copy = tmp_path / "copy.sqlite3"
    assert pbem_cli("backup", str(copy), "--config", str(config), tmp_path=tmp_path).returncode == 0
    assert pbem_cli("restore", str(copy), "--config", str(config), tmp_path=tmp_path).returncode == 0


# -- settings-file errors: one line, exit code 2 -------------------------------------------


@pytest.mark.parametrize("content, said", [
    (None, "does not exist"),
    ('web_prot = 8080\n', "unknown setting 'web_prot' (did you mean web_port?)"),
    ('web_port = "eighty"\n', "web_port must be a whole number, not 'eighty'"),
    ('smtp_enabled = "maybe"\n', "smtp_enabled must be true or false, not 'maybe'"),
    ('web_port = 80\nweb_port = 81\n', "is not valid TOML"),
])
def test_a_bad_settings_file_is_one_clear_line_and_exit_code_2(tmp_path, content, said):
    config = tmp_path / "bad.toml"
    if content is not None:
        config.write_text(content)
    for command in (["serve"], ["backup", str(tmp_path / "b.sqlite3")], ["login-link"]):
        done = pbem_cli(*command, "--config", str(config), tmp_path=tmp_path)
        assert done.returncode == 2, (command, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and said in lines[0] and str(config) in lines[0], done.stderr
