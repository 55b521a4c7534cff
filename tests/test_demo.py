"""`pbem demo`: a whole game by mail through the real server (SMTP both ways)."""

import email
import email.policy
from pathlib import Path

from pbem.cli import main

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())


def test_a_whole_game_by_mail(tmp_path, capsys):
    out = tmp_path / "demo"
    # the bots' FINAL orders resolve each day at once; the deadline (and the timeout) only catch a
    # bot that never answers, so they are long enough that a busy machine never reaches them
    # (at 10 s a day, a run under a load of 17 got 10 acknowledgements of 12)
    assert main(["demo", "--out", str(out), "--scenario", SMALL, "--seed", "2", "--day-seconds", "120",
                 "--timeout", "900"]) == 0
    printed = capsys.readouterr().out
    assert "12 days resolved" in printed and "PROBLEM" not in printed
    mails = sorted(out.glob("*.eml"))
    reports = []
    for path in mails:
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        names = [p.get_filename() for p in msg.walk()]
        if "map.png" in names:
            reports.append(msg)
            assert msg["Auto-Submitted"] == "auto-generated"
    assert len(reports) == 2 * 12  # each side, every day
    assert len(list(out.glob("*.png"))) >= 24  # the maps are written beside the mails
    acks = [p for p in mails if "Orders-accepted" in p.name]
    assert len(acks) == 12  # the bots' orders, one mail a day, each acknowledged once
