"""Issue 15: an acknowledgement never waits behind drawing. A real ``pbem serve`` has a burst of due
games to draw; its drawing processes are stopped (SIGSTOP: a drawing that does not end) while an
orders mail arrives; the mail is acknowledged while the burst's reports are still undrawn, and the
reports follow once the drawing goes on (SIGCONT). An order of events, not a timing."""

from __future__ import annotations

import json
import math
import os
import signal
import sqlite3
import time
from datetime import datetime, timezone
from pathlib import Path

from pbem.core.game import Game
from pbem.games import ruleset
from pbem.server.serve import DRAWERS
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.harness import BOT_DOMAIN, Relay, ServerProcess, iso, orders_mail, send_mail, wait_until
from pbem.tools.scale import SETTINGS, copy_games

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
GAMES, DUE = 12, 8


def drawing_processes(server: ServerProcess) -> list[int]:
    """The server's drawing processes: its group's processes below its priority."""
    mine = os.getpriority(os.PRIO_PROCESS, server.proc.pid)
    found = []
    for pid in server.group():
        try:
            if pid != server.proc.pid and os.getpriority(os.PRIO_PROCESS, pid) > mine:
                found.append(pid)
        except OSError:
            continue
    return found


def test_an_orders_mail_is_acknowledged_while_a_burst_of_due_games_waits_for_its_drawing(tmp_path):
    instance = tmp_path / "server"
    instance.mkdir()
    store = Store(instance / "pbem.sqlite3")
    service = Service(store)
    seats = {"austria": f"austria1@{BOT_DOMAIN}", "france": f"france1@{BOT_DOMAIN}"}
    _, keys = service.create_game("Ack 1", seats, scenario=SMALL, seed=1, settings=SETTINGS)
    store.execute("UPDATE outbox SET status = 'sent'")
    store.close()
    copy_games(instance / "pbem.sqlite3", GAMES)  # every copy has game 1's keys
    far = "2099-01-01T00:00:00Z"
    conn = sqlite3.connect(str(instance / "pbem.sqlite3"))
    with conn:
        conn.execute("UPDATE games SET deadline = ?, next_check = ?", (far, far))
    conn.close()

    reports, acks = [], []
    relay = Relay(lambda d, raw: (reports if d.is_report else acks).append(d), keep_raw=False)
    server = ServerProcess(instance, relay.port, tick=0.2)
    stopped: list[int] = []
    try:
        server.start()
        when = iso(datetime.fromtimestamp(math.ceil(time.time()) + 1, timezone.utc))
        writer = sqlite3.connect(str(server.database), timeout=30)
        with writer:
            writer.execute("UPDATE games SET deadline = ?, next_check = ? WHERE id <= ?", (when, when, DUE))
        writer.close()
        # the drawing processes (one a core) start with the burst's first maps: stopped once all are there
        wait_until(lambda: len(drawing_processes(server)) >= DRAWERS, timeout=120, interval=0.01,
                   what="the drawing processes")
        for pid in drawing_processes(server):
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
        # an orders mail for a game that is not due
        rules = ruleset("marengo")
        scenario = rules.load_scenario(Path(SMALL))
        game_id = GAMES
        conn = sqlite3.connect(str(server.database))
        log = [json.loads(e) for (e,) in conn.execute("SELECT entry FROM log WHERE game_id = ?", (game_id,))]
        conn.close()
        game = Game(rules, scenario, 1, log)
        side = game.turn().seats[0]
        view = json.loads(json.dumps(game.view(side)))
        raw = orders_mail(f"{side}{game_id}@{BOT_DOMAIN}", game_id, side, keys[side], view,
                          rules.bots()["bot"].orders(scenario, view, 1), "<ack-beats-drawing@bots.invalid>")
        send_mail(server.smtp_port, raw, f"{side}{game_id}@{BOT_DOMAIN}")
        wait_until(lambda: any(a.in_reply_to == "<ack-beats-drawing@bots.invalid>" for a in acks), timeout=120,
                   what="the acknowledgement")
        undrawn = 2 * DUE - len(reports)
        assert undrawn > 0  # acknowledged while the burst still waits for its drawing
        assert all(os.path.exists(f"/proc/{pid}") for pid in stopped)  # the drawing was stopped, not gone
    finally:
        for pid in stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
    try:
        wait_until(lambda: len(reports) >= 2 * DUE, timeout=300, what="the burst's reports")
        ack = next(a for a in acks if a.in_reply_to == "<ack-beats-drawing@bots.invalid>")
        assert ack.at < max(r.at for r in reports)  # the acknowledgement came before the burst was out
        assert len({r.to for r in reports}) == 2 * DUE  # each seat of each due game once
    finally:
        server.stop()
        relay.stop()
