"""``pbem loadtest`` with tiny numbers: the invariants hold (nothing lost or
doubled, every due game resolved, every resolved day two reports). Timings
are printed figures, never asserted here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pbem.tools.harness import ServerProcess

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())


def number(pattern: str, text: str) -> int:
    found = re.search(pattern, text)
    assert found, f"no {pattern!r} in:\n{text}"
    return int(found.group(1))


def test_pbem_loadtest_with_tiny_numbers_loses_and_doubles_nothing(tmp_path):
    out = tmp_path / "figures.txt"
    result = subprocess.run(
        [sys.executable, "-m", "pbem.cli", "loadtest", "--games", "5", "--seconds", "5", "--rate", "4",
         "--due-rate", "0.5", "--clients", "2", "--tick", "0.2", "--scenario", SMALL,
         "--workdir", str(tmp_path / "work"), "--drain", "90", "--out", str(out), "--limits"],
        capture_output=True, text=True, timeout=240, env=ServerProcess.environment())
    text = result.stdout
    assert result.returncode == 0, text + result.stderr
    assert out.read_text().strip() in text
    accepted = number(r"(\d+) accepted \(SMTP 250\)", text)
    assert accepted > 0
    assert number(r"orders taken by the game: (\d+)", text) + number(r"refused \(the day had moved on\): (\d+)",
                                                                     text) == accepted
    due = number(r"(\d+) games came due", text)
    assert due > 0 and number(r"games came due \([^)]*\), (\d+) resolved", text) == due
    for what in (r"accepted mails without acknowledgement (\d+)", r"with more than one (\d+)",
                 r"resolved days missing a report (\d+)", r"with a report twice (\d+)",
                 r"delivered twice \(same Message-ID\) (\d+)", r"inbound unprocessed (\d+)", r"outbox unsent (\d+)",
                 r"jobs not done (\d+)", r"days resolved beyond the one due (\d+)"):
        assert number(what, text) == 0, what
    assert "DRAIN TIMED OUT" not in text
    assert "nothing lost or doubled: met" in text
    # --limits: the bare parts measured in the same run, and each figure's ratio to its limit
    assert number(r"bare receiver \(aiosmtpd[^)]*\): (\d+) mails", text) == 200
    for what in ("order mails acknowledged a second", "250 -> acknowledgement p99", "deadline -> both reports",
                 "order mails accepted a second"):
        assert re.search(re.escape(what) + r".*: (\d+\.\d\d|-)", text), what
    # the generator's own ceiling (the same client process against a sink that stores nothing)
    assert number(r"the load generator's ceiling \([^)]*\): (\d+) mails/s", text) > 0
    # how the CPU was shared, per mail acknowledged: the server (and its helpers), the load processes
    assert re.search(r"server \(pbem serve and its \d+ helper processes[^)]*\): \d+\.\d CPU-s, \d+\.\d\d ms a mail", text)
    assert re.search(r"load generator: \d+\.\d CPU-s, \d+\.\d\d ms a mail \(clients \d+\.\d, sink \d+\.\d, "
                     r"driver \d+\.\d\)", text)
    assert number(r"the server's mail reached the sink over (\d+) SMTP connections", text) > 0
    assert re.search(r"started behind the schedule [^:]*: p50 \d+\.\d\d s", text)


def test_copied_games_are_games_of_their_own_each_seat_at_its_own_address(tmp_path):
    from pbem.server.service import Service
    from pbem.server.store import Store
    from pbem.tools.scale import template

    path = template(tmp_path, 12, "marengo", SMALL)
    service = Service(Store(path))
    assert [g["id"] for g in service.store.query("SELECT id FROM games ORDER BY id")] == list(range(1, 13))
    emails = [s["email"] for s in service.store.query("SELECT email FROM seats")]
    assert len(emails) == 24 and len(set(emails)) == 24
    first, copy = service.game(1), service.game(12)
    assert copy.view("austria") == first.view("austria") and service.info(12)["status"] == "running"
    assert service.seat(12, "france")["email"] == "france12@bots.invalid"
    service.store.close()


def test_pbem_loadtest_scale_delivers_every_report_of_the_due_games_and_resolves_no_other(tmp_path):
    out = tmp_path / "figures.txt"
    result = subprocess.run(
        [sys.executable, "-m", "pbem.cli", "loadtest", "--scale", "40", "--due", "3", "--window", "3", "--scenario", SMALL,
         "--tick", "0.2", "--workdir", str(tmp_path / "work"), "--drain", "200", "--out", str(out)],
        capture_output=True, text=True, timeout=300, env=ServerProcess.environment())
    text = result.stdout
    assert result.returncode == 0, text + result.stderr
    assert out.read_text().strip() in text
    assert "reports delivered: 6 of 6;" in text and "days resolved: 3" in text
    assert re.search(r"first deadline -> last report delivered: \d+\.\d s", text)
    assert re.search(r"ratio \(limit / run\): \d+\.\d\d", text)
    # where the CPU went, first deadline to last report: the machine's idle share, the server, each drawing worker
    assert re.search(r"idle share of the machine over those \d+ s: \d+%.*the server's process \d+% \(\d+\.\d s\), "
                     r"its drawing workers \d+%(, \d+%)* \(\d+\.\d s of drawing in all\)", text)
