"""``pbem demo``: a whole game by mail through the real server.

The server runs on loopback with its SMTP receiver on; its outgoing mail goes
to a small relay (a second SMTP server on loopback, the "mail hub") that
writes every message to the output folder as .eml, with its map PNGs beside
it, and hands it to the addressee's bot. Each bot reads the reports mailed to
it (the view attached as view.json, the same data its map shows) and, when
its day comes, mails its orders back to the server by SMTP with its key.
Deadlines are compressed to seconds.
"""

from __future__ import annotations

import email
import email.policy
import json
import queue
import re
import smtplib
import threading
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from pbem.core.ruleset import options_of
from pbem.games import ruleset
from pbem.server.config import Config
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.serve import Server

# a valid one-pixel PNG (run_demo's draw_maps=False)
BLANK_PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                          "0000000d49444154789c6360606060000000050001a5f645400000000049454e44ae426082")
KEY = re.compile(r"Your (?:secret|new) key (?:for this seat )?(?:for \w+ in game .*? )?is:? (\S+)")


@dataclass
class Summary:
    game_id: int = 0
    days: int = 0
    mails: int = 0
    reports: int = 0
    orders_sent: int = 0
    winner: str | None = None
    victory: str = ""
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        lines = [f"game {self.game_id}: {self.days} days resolved in {self.seconds:.1f} s",
                 f"mails written: {self.mails} ({self.reports} reports); orders mailed by the bots: {self.orders_sent}",
                 f"result: {self.victory or 'not finished'}"]
        lines += [f"PROBLEM: {p}" for p in self.problems]
        return "\n".join(lines)


class Bot:
    """A player that reads its mail and answers by SMTP."""

    def __init__(self, side: str, address: str, server: Server, rules, scenario, seed: int):
        self.side, self.address, self.server, self.scenario, self.seed = side, address, server, scenario, seed
        self.orders = rules.bots()["bot"].orders
        self.key: str | None = None
        self.game_id: int | None = None
        self.answered: set[int] = set()
        self.sent = 0

    def read(self, msg: EmailMessage) -> None:
        body = msg.get_body(preferencelist=("plain",))
        text = body.get_content() if body else ""
        found = KEY.search(text)
        if found:
            self.key = found.group(1)
        tag = re.search(r"\[pbem (\d+)\]", msg.get("Subject", ""))
        if tag:
            self.game_id = int(tag.group(1))
        view = None
        for part in msg.iter_attachments():
            if part.get_filename() == "view.json":
                view = json.loads(part.get_content() if isinstance(part.get_content(), str)
                                  else part.get_content().decode())
        if view and self.side in view.get("to_move", ()) and not view.get("over") and view["day"] not in self.answered:
            self.answered.add(view["day"])
            self.send_orders(view)

    def send_orders(self, view: dict) -> None:
        orders = self.orders(self.scenario, view, self.seed)
        header = f"GAME {self.game_id} SIDE {self.side} KEY {self.key}\n"
        msg = EmailMessage()
        msg["From"] = self.address
        msg["To"] = self.server.config.from_addr
        msg["Subject"] = f"Orders {view['turn_label']}"
        msg.set_content(header + orders + "FINAL\n")
        with smtplib.SMTP("127.0.0.1", self.server.smtp_port, timeout=30) as smtp:
            smtp.send_message(msg)
        self.sent += 1


class Hub:
    """The relay the server mails through: files every message and passes it to its bot."""

    def __init__(self, out: Path):
        self.out = out
        self.count = 0
        self.reports = 0
        self.inbox: queue.Queue = queue.Queue()
        self.lock = threading.Lock()
        self.controller = start_smtpd(self.deliver, return_path=False)

    @property
    def port(self) -> int:
        return self.controller.port

    def deliver(self, raw: bytes) -> None:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        with self.lock:
            self.count += 1
            n = self.count
        to = str(msg.get("To", "")).split("@")[0]
        stem = f"{n:04d}-{re.sub(r'[^A-Za-z0-9]+', '-', to)}-{re.sub(r'[^A-Za-z0-9]+', '-', msg.get('Subject', ''))[:60]}"
        (self.out / f"{stem}.eml").write_bytes(raw)
        for i, part in enumerate(msg.walk()):
            if part.get_content_type() == "image/png":
                (self.out / f"{stem}-{i}.png").write_bytes(part.get_content())
        if "report" in msg.get("Subject", "").lower() or any(
                p.get_filename() == "view.json" for p in msg.iter_attachments()):
            self.reports += 1
        self.inbox.put(msg)

    def stop(self) -> None:
        self.controller.stop()


def run_demo(out: str | Path, seed: int = 1, game: str = "marengo", scenario: str | None = None,
             day_seconds: float = 10.0, timeout: float = 900.0, options: dict | None = None,
             draw_maps: bool = True) -> Summary:
    """A whole game of ``game`` played by mail through the real server between its simple bots.

    ``draw_maps=False`` attaches a one-pixel PNG in place of each map: the mail, its answers and the game
    are the same, without the time the drawing takes (for tests whose matter is not the map)."""
    rules = ruleset(game)
    out = Path(out)
    (out / "instance").mkdir(parents=True, exist_ok=True)
    summary = Summary()
    hub = Hub(out)
    config = Config(instance=str(out / "instance"), web_port=0, smtp_port=0, smtp_host="127.0.0.1",
                    relay_host="127.0.0.1", relay_port=hub.port, tick_seconds=0.2, demo=False,
                    from_addr="pbem@demo.invalid", domain="demo.invalid", secret_key="demo")
    server = Server(config)
    started = time.monotonic()
    try:
        server.start()
        service = server.service
        if not draw_maps:
            service.rasterise = lambda svg: BLANK_PNG
            service.drawing = None  # the maps are not drawn in the drawing workers either
        scenario = scenario or next(iter(rules.scenarios().values())).name
        addresses = {seat.id: f"{seat.id}@bots.invalid"
                     for seat in rules.seats(service.scenario(game, scenario),
                                             options_of(rules, options))}
        game_id, _keys = service.create_game(
            "Demo by mail", addresses, scenario=scenario, seed=seed, game=game, options=options,
            settings={"hours": 0, "seconds": day_seconds, "reminders": [], "early": True})
        summary.game_id = game_id
        game_scenario = service.game(game_id).scenario
        bots = {address: Bot(side, address, server, rules, game_scenario, seed) for side, address in addresses.items()}
        while time.monotonic() - started < timeout:
            try:
                msg = hub.inbox.get(timeout=0.5)
            except queue.Empty:
                if service.info(game_id)["status"] == "finished" and server.store_idle():
                    break
                continue
            bot = bots.get(str(msg.get("To", "")).strip())
            if bot is not None:
                try:
                    bot.read(msg)
                except Exception as exc:  # a bot's failure is the demo's failure, said plainly
                    summary.problems.append(f"the {bot.side} bot could not answer: {exc}")
        info = service.info(game_id)
        played = service.game(game_id)
        summary.days = len(played.days)
        final = played.view(None)
        summary.winner = final["winner"]
        summary.victory = final["victory"]
        summary.orders_sent = sum(b.sent for b in bots.values())
        if info["status"] != "finished":
            summary.problems.append(f"the game did not finish within {timeout:.0f} s")
    finally:
        server.stop()
        hub.stop()
    summary.mails, summary.reports = hub.count, hub.reports
    summary.seconds = time.monotonic() - started
    if summary.days and summary.reports < summary.days * len(bots):
        summary.problems.append(f"{summary.reports} reports for {summary.days} days: expected {len(bots)} a day")
    return summary
