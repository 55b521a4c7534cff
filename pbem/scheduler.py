"""The clock: APScheduler runs the service's ticks and the outbox sender.

One interval job looks at every running game's clock (resolving due days,
timing out questions, sending reminders) and processes stored mail; another
delivers the outbox. A date job is added at each game's exact deadline so a
day is resolved within a second of it, whatever the tick interval. Every job
is idempotent: what it does is decided by the database, so a crash and a
restart do nothing twice.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

from apscheduler.schedulers.background import BackgroundScheduler

from pbem import deadlines, inbox
from pbem.mail.outbox import Sender
from pbem.service import Service

log = logging.getLogger("pbem.scheduler")
logging.getLogger("apscheduler").setLevel(logging.ERROR)  # a skipped overlapping tick is normal


class Clock:
    def __init__(self, service: Service, sender: Sender, tick_seconds: float = 5.0):
        self.service = service
        self.sender = sender
        self.tick_seconds = tick_seconds
        self.scheduler = BackgroundScheduler(timezone=timezone.utc)
        self.deadline_jobs: dict[int, str] = {}

    def start(self) -> None:
        now = datetime.now(timezone.utc)
        self.scheduler.add_job(self.tick, "interval", seconds=self.tick_seconds, id="tick",
                               next_run_time=now, max_instances=1, coalesce=True)
        self.scheduler.add_job(self.send, "interval", seconds=max(1.0, self.tick_seconds / 2), id="send",
                               next_run_time=now, max_instances=1, coalesce=True)
        self.scheduler.start()

    def stop(self) -> None:
        self.scheduler.shutdown(wait=True)

    def tick(self) -> None:
        try:
            config = self.service.config
            if config is not None and config.imap_host:
                from pbem.imap import poll

                poll(self.service, config.imap_host, config.imap_port, config.imap_user,
                     config.imap_password, config.imap_folder)
            inbox.process_pending(self.service)
            self.service.tick()
            self.plan_deadlines()
            self.service.run_jobs()
        except Exception:  # logged, and tried again at the next tick
            log.exception("tick failed")

    def send(self) -> None:
        try:
            self.sender.send_due()
        except Exception:
            log.exception("sending failed")

    def plan_deadlines(self) -> None:
        """A date job at each running game's deadline (and its grace end)."""
        for info in self.service.store.games("running"):
            when = deadlines.parse_iso(info.get("deadline"))
            if when is None:
                continue
            job_id = f"deadline-{info['id']}-{info['deadline']}"
            if self.deadline_jobs.get(info["id"]) == job_id:
                continue
            self.deadline_jobs[info["id"]] = job_id
            grace = deadlines.grace_end(info["settings"], when)
            self.scheduler.add_job(self.tick, "date", run_date=grace + timedelta(milliseconds=50),
                                   id=job_id, replace_existing=True, misfire_grace_time=3600)
