"""The clock: APScheduler runs the game clocks; three workers do what arrives.

- APScheduler's interval job (``tick``) looks at the running games' clocks:
  it resolves due days, times out questions and sends reminders; a date job
  at each game's exact deadline runs it then, whatever the interval.
- The mail worker processes stored mail as soon as a door stored some.
- The jobs worker draws and queues the reports of resolved days, waking the sender at each.
- The sender delivers the outbox as soon as something is queued.
- Every ``PRUNE_HOURS``, old mail is pruned (pbem.server.retention).

Each worker sleeps until woken (or until ``tick_seconds`` pass, to pick up
work left by a crash). Everything they do is decided by the database, so a
crash and a restart do nothing twice.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta, timezone

from apscheduler.schedulers.background import BackgroundScheduler

from pbem.server import deadlines, inbox, notify
from pbem.server.leagues.service import Leagues
from pbem.server.mail.outbox import Sender
from pbem.server.service import Service

log = logging.getLogger("pbem.server.scheduler")
PRUNE_HOURS = 6  # how often old mail is pruned (pbem.server.retention)
MAIL_TICK_GAP = 0.25  # seconds: at most one tick brought forward by mail in this time (Clock.tick_after_mail)
logging.getLogger("apscheduler").setLevel(logging.ERROR)  # a skipped overlapping tick is normal


class Worker:
    """A thread that runs ``work()`` whenever woken, and every ``idle`` seconds anyway."""

    def __init__(self, name: str, work, idle: float, then=()):
        self.name, self.work, self.idle, self.then = name, work, idle, then
        self.event = threading.Event()
        self.stopping = False  # pragma: no mutate (None is as false)
        self.thread = threading.Thread(target=self.run, name=name, daemon=True)

    def wake(self) -> None:
        self.event.set()

    def run(self) -> None:
        while not self.stopping:
            self.event.wait(self.idle)
            self.event.clear()
            if self.stopping:
                return
            try:
                if self.work():
                    for other in self.then:  # what this worker made, the next one handles
                        other.wake()
            except Exception:  # logged, and tried again when next woken
                log.exception("%s failed", self.name)

    def stop(self) -> None:
        self.stopping = True
        self.event.set()
        if self.thread.is_alive():
            self.thread.join(timeout=30)  # pragma: no mutate (how long to wait for a hung worker)


class Clock:
    def __init__(self, service: Service, sender: Sender, tick_seconds: float = 5.0):
        self.service = service
        self.sender = sender
        self.tick_seconds = tick_seconds
        self.scheduler = BackgroundScheduler(timezone=timezone.utc)
        self.deadline_jobs: dict[int, str] = {}
        self.last_digest = datetime.min.replace(tzinfo=timezone.utc)  # no look for digests yet
        idle = max(1.0, tick_seconds)
        self.webhooks = notify.WebhookSender(service.store)
        self.sending = Worker("send", self.send_due, idle)
        self.jobs = Worker("jobs", self.run_jobs, idle, then=(self.sending,))
        self.mail = Worker("mail", self.process_mail, idle, then=(self.sending,))
        self.mail_tick_at = float("-inf")  # when (time.monotonic) the last tick brought forward by mail runs

    def start(self) -> None:
        for worker in (self.sending, self.jobs, self.mail):
            worker.thread.start()
        self.scheduler.add_job(self.tick, "interval", seconds=self.tick_seconds, id="tick",
                               next_run_time=datetime.now(timezone.utc), max_instances=1, coalesce=True)
        self.scheduler.add_job(self.prune, "interval", hours=PRUNE_HOURS, id="prune", max_instances=1,
                               coalesce=True, next_run_time=datetime.now(timezone.utc) + timedelta(minutes=1))
        self.scheduler.start()

    def stop(self) -> None:
        self.scheduler.shutdown(wait=True)
        for worker in (self.mail, self.jobs, self.sending):
            worker.stop()

    def digest_due(self, now: datetime | None = None, every: timedelta = timedelta(minutes=10)) -> bool:
        """Whether to look for digests to send: every ten minutes, not every tick (``now``: the
        time it is, the wall clock's when not given)."""
        now = datetime.now(timezone.utc) if now is None else now
        if now - self.last_digest < every:
            return False
        self.last_digest = now
        return True

    def send_due(self) -> int:
        """The outbox's mail, then the webhooks' chat messages."""
        return self.sender.send_due() + self.webhooks.send_due()

    def run_jobs(self) -> int:
        """The reports of resolved days drawn and queued, the sender woken as each job's are queued
        (not once all are: in a tournament round, hundreds of jobs); no job is taken once the
        clock is stopping."""
        return self.service.run_jobs(queued=self.sending.wake, going=lambda: not self.jobs.stopping)

    def mail_arrived(self) -> None:
        self.mail.wake()

    def process_mail(self) -> int:
        config = self.service.config
        if config is not None and config.imap_host:
            self.poll_imap(config)
        done = inbox.process_pending(self.service)
        if done:
            self.tick_after_mail()  # orders marked FINAL may let a day be resolved now
        return done

    def poll_imap(self, config) -> None:
        """The IMAP door: its outcome kept for the admin page (``service.doors``); a failure logged in one
        line when it is news (not at every tick while the password stays wrong), never as a traceback."""
        from pbem.server.imap import ImapError, poll

        now = self.service.now()
        try:
            stored = poll(self.service, config.imap_host, config.imap_port, config.imap_user, config.imap_password,
                          config.imap_folder, ssl=config.imap_ssl, after=config.imap_after,
                          move_to=config.imap_move_to)
        except ImapError as exc:
            if self.service.doors.failed(now, str(exc)):
                log.warning("IMAP: %s", exc)
            return
        if self.service.doors.imap_last and self.service.doors.imap_last.error:
            log.info("IMAP: the mailbox is read again")
        self.service.doors.fetched(now, stored)

    def tick_after_mail(self) -> None:
        """Bring a tick forward for the mail just processed: at once, unless one brought forward by mail has
        not run yet (it reads the store when it runs, so it sees this mail too); and never less than
        ``MAIL_TICK_GAP`` after the last. Before, every batch brought a whole tick forward (every running game
        with a seat marked final looked at, the leagues, the deadlines planned): under a stream of mail, tens of
        ticks a second. A day whose last side marked its orders FINAL is resolved within a quarter of a
        second of the mail."""
        now = time.monotonic()
        if now < self.mail_tick_at:
            return
        self.mail_tick_at = max(now, self.mail_tick_at + MAIL_TICK_GAP)
        try:
            self.scheduler.modify_job("tick", next_run_time=datetime.now(timezone.utc)
                                      + timedelta(seconds=self.mail_tick_at - now))
        except Exception:  # not started yet, or shutting down: the next tick comes anyway
            pass

    def prune(self) -> None:
        """Forget what the retention settings no longer keep (pbem.server.retention)."""
        from pbem.server import retention

        try:
            done = retention.prune(self.service.store, self.service.config, self.service.now(),
                                   getattr(self.service, "maps", None))
            log.info("pruned: %s", done)
        except Exception:  # logged, and tried again at the next prune
            log.exception("prune failed")

    def tick_soon(self) -> None:
        try:
            self.scheduler.modify_job("tick", next_run_time=datetime.now(timezone.utc))
        except Exception:  # not started yet, or shutting down: the next tick comes anyway
            pass

    def tick(self) -> None:
        try:
            if self.service.tick():
                self.jobs.wake()
            Leagues(self.service).tick()  # tournaments: results read, next rounds paired
            if self.digest_due():
                notify.digests(self.service)  # once a day (dedupe), to the players who chose a digest
            self.plan_deadlines()
            self.sending.wake()  # reminders and notices the tick queued
        except Exception:  # logged, and tried again at the next tick
            log.exception("tick failed")

    def plan_deadlines(self) -> None:
        """A date job at each running game's next check (a reminder, a deadline)."""
        for info in self.service.store.games_to_check(deadlines.iso(datetime.now(timezone.utc)
                                                                    + timedelta(seconds=4 * self.tick_seconds + 60))):
            if not info.get("next_check"):
                continue
            job_id = f"check-{info['id']}-{info['next_check']}"
            if self.deadline_jobs.get(info["id"]) == job_id:
                continue
            self.deadline_jobs[info["id"]] = job_id
            when = deadlines.parse_iso(info["next_check"])
            # the date job only brings the one tick job forward: two ticks never run at once
            self.scheduler.add_job(self.tick_soon, "date", run_date=when + timedelta(milliseconds=50),
                                   id=job_id, replace_existing=True, misfire_grace_time=3600)
