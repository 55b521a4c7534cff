"""The clock's workers and jobs (pbem.server.scheduler), without timing asserts.

A worker is woken and waited for with events (the 30-second waits only catch a
hang); the jobs the clock plans are read from APScheduler's job store. These
tests kill mutants scripts/mutation's "clocks" group found alive.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

from pbem.server import scheduler
from pbem.server.scheduler import Clock, Worker

from websupport import Site

HANG = 30  # seconds: only a hang waits this long


def idle_sender():
    return SimpleNamespace(send_due=lambda: 0)


def test_a_worker_runs_when_woken_and_wakes_the_next_only_when_it_did_something(caplog):
    results = [3, 0, RuntimeError("boom"), 1]
    seen_at_start = []  # how often the next worker had been woken when each run began
    ran, woke = threading.Semaphore(0), threading.Semaphore(0)
    nxt = SimpleNamespace(woken=0)

    def wake():
        nxt.woken += 1
        woke.release()

    nxt.wake = wake

    def work():
        seen_at_start.append(nxt.woken)
        result = results.pop(0)
        ran.release()
        if isinstance(result, Exception):
            raise result
        return result

    worker = Worker("w", work, idle=HANG * 10, then=(nxt, nxt))
    assert worker.thread.name == "w" and worker.thread.daemon
    worker.thread.start()
    try:
        with caplog.at_level(logging.ERROR, logger="pbem.server.scheduler"):
            for _ in range(4):
                worker.wake()
                assert ran.acquire(timeout=HANG)
            for _ in range(4):
                assert woke.acquire(timeout=HANG)
    finally:
        worker.stop()
    # 3 wakes both next workers; 0 and the failure wake none; 1 wakes both again
    assert seen_at_start == [0, 2, 2, 2] and nxt.woken == 4
    assert [r.getMessage() for r in caplog.records] == ["w failed"]
    assert caplog.records[0].exc_info[0] is RuntimeError
    assert not worker.thread.is_alive()
    assert results == []


def test_a_stopped_worker_does_no_more_work():
    calls = []
    worker = Worker("w", lambda: calls.append(1), idle=HANG * 10)
    worker.thread.start()
    worker.stop()
    assert not worker.thread.is_alive() and worker.stopping
    assert calls == []  # woken by stop(), it leaves without working
    worker.stop()  # twice is harmless


def test_the_clock_chains_its_workers_and_idles_at_least_a_second(tmp_path):
    site = Site(tmp_path)
    clock = Clock(site.service, idle_sender(), tick_seconds=0.2)
    assert clock.tick_seconds == 0.2
    assert (clock.sending.idle, clock.jobs.idle, clock.mail.idle) == (1.0, 1.0, 1.0)
    assert clock.jobs.then == (clock.sending,) and clock.mail.then == (clock.sending,) and clock.sending.then == ()
    assert (clock.sending.name, clock.jobs.name, clock.mail.name) == ("send", "jobs", "mail")
    assert clock.sending.work == clock.send_due and clock.jobs.work == clock.run_jobs
    assert clock.mail.work == clock.process_mail
    assert Clock(site.service, idle_sender(), tick_seconds=7).mail.idle == 7
    assert Clock(site.service, idle_sender()).tick_seconds == 5.0
    assert str(clock.scheduler.timezone) == "UTC"


def test_plan_deadlines_brings_the_tick_forward_to_each_games_next_check(tmp_path):
    asked = []
    games = [{"id": 1, "next_check": "2026-11-06T17:00:00Z"}, {"id": 2, "next_check": None},
             {"id": 3, "next_check": "2026-11-07T08:30:00Z"}]

    def games_to_check(when):
        asked.append(when)
        return games

    service = SimpleNamespace(store=SimpleNamespace(games_to_check=games_to_check), run_jobs=lambda: 0)
    clock = Clock(service, idle_sender(), tick_seconds=10)
    before = datetime.now(timezone.utc).replace(microsecond=0)
    clock.plan_deadlines()
    after = datetime.now(timezone.utc)
    ahead = timedelta(seconds=4 * 10 + 60)  # what the next ticks might pass over
    assert before + ahead <= datetime.strptime(asked[0], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc) \
        <= after + ahead
    jobs = {job.id: job for job in clock.scheduler.get_jobs()}
    assert sorted(jobs) == ["check-1-2026-11-06T17:00:00Z", "check-3-2026-11-07T08:30:00Z"]
    job = jobs["check-1-2026-11-06T17:00:00Z"]
    assert job.trigger.run_date == datetime(2026, 11, 6, 17, 0, 0, 50000, tzinfo=timezone.utc)
    assert job.func == clock.tick_soon and job.misfire_grace_time == 3600
    assert clock.deadline_jobs == {1: "check-1-2026-11-06T17:00:00Z", 3: "check-3-2026-11-07T08:30:00Z"}
    # a check already planned is not planned again (even if its job was dropped meanwhile)
    clock.scheduler.remove_job("check-1-2026-11-06T17:00:00Z")
    clock.plan_deadlines()
    assert sorted(job.id for job in clock.scheduler.get_jobs()) == ["check-3-2026-11-07T08:30:00Z"]
    # a new next check for game 1 is planned; a game already planned does not stop the ones after it
    games[0]["next_check"] = "2026-11-06T18:00:00Z"
    games.append({"id": 4, "next_check": "2026-11-08T08:30:00Z"})
    clock.plan_deadlines()
    assert sorted(job.id for job in clock.scheduler.get_jobs()) == \
        ["check-1-2026-11-06T18:00:00Z", "check-3-2026-11-07T08:30:00Z", "check-4-2026-11-08T08:30:00Z"]


def test_a_tick_resolves_wakes_the_workers_and_survives_a_failure(tmp_path, caplog):
    site = Site(tmp_path)
    clock = Clock(site.service, idle_sender())
    planned = []
    clock.plan_deadlines = lambda: planned.append(1)
    site.service.tick = lambda: []
    clock.tick()
    assert not clock.jobs.event.is_set() and clock.sending.event.is_set() and planned == [1]
    clock.sending.event.clear()
    site.service.tick = lambda: [(1, 0)]  # a day resolved: its reports are to draw
    clock.tick()
    assert clock.jobs.event.is_set() and clock.sending.event.is_set() and planned == [1, 1]
    clock.jobs.event.clear()
    clock.sending.event.clear()

    def broken():
        raise RuntimeError("disk full")

    site.service.tick = broken
    with caplog.at_level(logging.ERROR, logger="pbem.server.scheduler"):
        clock.tick()
    assert [r.getMessage() for r in caplog.records] == ["tick failed"]
    assert not clock.sending.event.is_set() and planned == [1, 1]


def test_mail_processing_brings_the_tick_forward_only_when_mail_was_handled(tmp_path, monkeypatch):
    site = Site(tmp_path)
    clock = Clock(site.service, idle_sender())
    soon = []
    clock.tick_after_mail = lambda: soon.append(1)
    counts = [0, 2]
    monkeypatch.setattr(scheduler.inbox, "process_pending", lambda service: counts.pop(0))
    assert clock.process_mail() == 0 and soon == []
    assert clock.process_mail() == 2 and soon == [1]
    clock.mail_arrived()
    assert clock.mail.event.is_set()


def test_mail_brings_one_tick_forward_at_a_time_and_one_a_gap_at_most(tmp_path, monkeypatch):
    """A tick brought forward by mail: at once; not again while it has not run (it will see the mail);
    once it has, the next no sooner than MAIL_TICK_GAP after it; long after, at once again."""
    site = Site(tmp_path)
    clock = Clock(site.service, idle_sender())
    assert scheduler.MAIL_TICK_GAP == 0.25
    t = [1000.0]
    monkeypatch.setattr(scheduler.time, "monotonic", lambda: t[0])
    planned = []
    clock.scheduler = SimpleNamespace(modify_job=lambda job, next_run_time: planned.append((job, next_run_time)))

    def brought(delay: float) -> None:
        before = datetime.now(timezone.utc)
        clock.tick_after_mail()
        after = datetime.now(timezone.utc)
        job, when = planned[-1]
        assert job == "tick"
        assert before + timedelta(seconds=delay - 0.001) <= when <= after + timedelta(seconds=delay + 0.001)

    brought(0)
    assert clock.mail_tick_at == 1000.0 and len(planned) == 1
    t[0] = 1000.1  # it has run; the next within the gap: 0.25 after the last
    brought(0.15)
    assert clock.mail_tick_at == 1000.25 and len(planned) == 2
    t[0] = 1000.2  # that one has not run yet: nothing more to plan
    clock.tick_after_mail()
    assert len(planned) == 2 and clock.mail_tick_at == 1000.25
    t[0] = 1000.25  # its time: a new one, a gap later
    brought(0.25)
    assert clock.mail_tick_at == 1000.5
    t[0] = 1003.0  # long after: at once
    brought(0)
    assert clock.mail_tick_at == 1003.0 and len(planned) == 4

    def stopped(job, next_run_time):
        raise RuntimeError("the scheduler is shut down")

    clock.scheduler = SimpleNamespace(modify_job=stopped)
    t[0] = 1004.0
    clock.tick_after_mail()  # no error: the next tick comes anyway
    assert clock.mail_tick_at == 1004.0


def test_prune_logs_what_it_did_and_a_failure(tmp_path, caplog, monkeypatch):
    site = Site(tmp_path)
    clock = Clock(site.service, idle_sender())
    with caplog.at_level(logging.INFO, logger="pbem.server.scheduler"):
        clock.prune()
    assert [r.getMessage().split(":")[0] for r in caplog.records] == ["pruned"]
    caplog.clear()
    from pbem.server import retention

    def broken(*args):
        raise OSError("gone")

    monkeypatch.setattr(retention, "prune", broken)
    with caplog.at_level(logging.INFO, logger="pbem.server.scheduler"):
        clock.prune()
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [("ERROR", "prune failed")]


def test_start_plans_the_tick_and_the_prune_and_stop_ends_every_thread(tmp_path):
    site = Site(tmp_path)
    clock = Clock(site.service, idle_sender(), tick_seconds=3)
    clock.tick_soon()  # before the start: nothing to bring forward, and no error
    before = datetime.now(timezone.utc)
    clock.start()
    try:
        tick, prune = clock.scheduler.get_job("tick"), clock.scheduler.get_job("prune")
        assert tick.trigger.interval == timedelta(seconds=3) and tick.max_instances == 1 and tick.coalesce
        assert tick.next_run_time is not None  # running, not paused
        assert prune.trigger.interval == timedelta(hours=scheduler.PRUNE_HOURS) == timedelta(hours=6)
        assert prune.max_instances == 1 and prune.coalesce
        # the first prune a minute after the start (wide margins: a value, not a timing)
        assert before + timedelta(seconds=50) <= prune.next_run_time <= datetime.now(timezone.utc) + timedelta(seconds=70)
        assert all(w.thread.is_alive() for w in (clock.sending, clock.jobs, clock.mail))
    finally:
        clock.stop()
    assert not any(w.thread.is_alive() for w in (clock.sending, clock.jobs, clock.mail))
    assert not clock.scheduler.running


def test_mail_processing_polls_the_imap_folder_the_settings_name(monkeypatch):
    from pbem.server import imap

    polled, processed = [], []
    from pbem.server.doors import Doors

    config = SimpleNamespace(imap_host="imap.example", imap_port=993, imap_user="u", imap_password="p",
                             imap_folder="Orders", imap_ssl=True, imap_after="move", imap_move_to="Done")
    service = SimpleNamespace(config=config, run_jobs=lambda: 0, store=None, now=lambda: "NOW", doors=Doors())
    monkeypatch.setattr(imap, "poll", lambda *args, **kwargs: polled.append((args, kwargs)) or 2)
    monkeypatch.setattr(scheduler.inbox, "process_pending", lambda s: processed.append(s) or 0)
    clock = Clock(service, idle_sender())
    assert clock.process_mail() == 0
    assert polled == [((service, "imap.example", 993, "u", "p", "Orders"),
                       {"ssl": True, "after": "move", "move_to": "Done"})]
    assert (service.doors.imap_last.at, service.doors.imap_last.stored) == ("NOW", 2)
    assert processed == [service]
    config.imap_host = ""
    clock.process_mail()
    service.config = None
    clock.process_mail()
    assert len(polled) == 1 and processed == [service] * 3


def test_prune_hands_the_store_settings_time_and_map_cache_to_retention(monkeypatch, caplog):
    from pbem.server import retention

    calls = []
    service = SimpleNamespace(store="STORE", config="CONFIG", now=lambda: "NOW", maps="MAPS", run_jobs=lambda: 0)
    monkeypatch.setattr(retention, "prune", lambda *args: calls.append(args) or "3 mails")
    clock = Clock(service, idle_sender())
    with caplog.at_level(logging.INFO, logger="pbem.server.scheduler"):
        clock.prune()
    assert calls == [("STORE", "CONFIG", "NOW", "MAPS")]
    assert [r.getMessage() for r in caplog.records] == ["pruned: 3 mails"]
    del service.maps
    clock.prune()
    assert calls[-1] == ("STORE", "CONFIG", "NOW", None)


def test_tick_soon_brings_the_tick_job_forward(tmp_path):
    site = Site(tmp_path)
    clock = Clock(site.service, idle_sender())
    far = datetime(2100, 1, 1, tzinfo=timezone.utc)
    clock.scheduler.add_job(lambda: None, "interval", seconds=5, id="tick", next_run_time=far)
    clock.scheduler.add_job(lambda: None, "interval", seconds=5, id="other", next_run_time=far)
    before = datetime.now(timezone.utc)
    clock.tick_soon()
    job = clock.scheduler.get_job("tick")
    assert before <= job.next_run_time <= datetime.now(timezone.utc)
    assert clock.scheduler.get_job("other").next_run_time == far


def test_an_idle_worker_runs_anyway_after_its_idle_time():
    ran = threading.Semaphore(0)
    worker = Worker("w", lambda: ran.release(), idle=0.01)
    worker.thread.start()
    try:
        assert ran.acquire(timeout=HANG) and ran.acquire(timeout=HANG)  # never woken, it ran twice
    finally:
        worker.stop()


def test_digests_are_looked_for_every_ten_minutes_not_every_tick(tmp_path):
    site = Site(tmp_path)
    try:
        clock = Clock(site.service, idle_sender())
        start = datetime(2026, 11, 6, 17, 0, tzinfo=timezone.utc)
        assert clock.digest_due(start)  # the first tick looks
        assert clock.last_digest == start
        assert not clock.digest_due(start + timedelta(minutes=10) - timedelta(microseconds=1))
        assert clock.last_digest == start
        assert clock.digest_due(start + timedelta(minutes=10))  # ten minutes on, to the microsecond
        assert clock.last_digest == start + timedelta(minutes=10)
        assert not clock.digest_due(start + timedelta(minutes=15))
        assert clock.digest_due(start + timedelta(minutes=15), every=timedelta(minutes=5))
        # without a time, the wall clock's: a look now, none a moment later
        fresh = Clock(site.service, idle_sender())
        assert fresh.digest_due() and not fresh.digest_due()
        assert fresh.last_digest.tzinfo is not None and fresh.last_digest > start
    finally:
        site.store.close()


def test_the_send_worker_sends_the_outbox_then_the_webhooks(tmp_path):
    from pbem.server import notify

    from test_notifications import Hook

    site, hook = Site(tmp_path), Hook()
    try:
        clock = Clock(site.service, SimpleNamespace(send_due=lambda: 2))  # two mails went
        clock.webhooks = notify.WebhookSender(site.store, allow=("127.0.0.0/8",))  # the test's receiver on loopback
        notify.set_settings(site.store, "anna@example.org", "every", f"{hook.url}/chat", "slack",
                            allow=("127.0.0.0/8",))
        notify.notice(site.store, "anna@example.org", "Your turn", "Game 1: your turn.", "turn", None, "t:1")
        assert clock.send_due() == 3  # and one chat message
        assert [path for path, _ in hook.received] == ["/chat"]
        assert clock.send_due() == 2  # the message is not sent twice
    finally:
        hook.stop()
        site.store.close()


def test_the_clock_plans_in_utc_on_a_machine_in_another_zone(tmp_path, monkeypatch):
    # start's and tick_soon's times are the UTC now: a naive local "now" would be read by APScheduler as UTC,
    # nine hours late in Tokyo (the bounds are hours wide: only that mistake breaks them, never a slow machine)
    import time

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    site = Site(tmp_path)
    clock = Clock(site.service, idle_sender(), tick_seconds=3600)
    try:
        assert time.timezone == -9 * 3600  # the machine's zone is Tokyo's for this test
        ticked, tick_once = threading.Semaphore(0), clock.tick
        clock.tick = lambda: (tick_once(), ticked.release())
        before = datetime.now(timezone.utc)
        clock.start()
        assert ticked.acquire(timeout=HANG)  # the first tick at once, not an hour on
        tick, prune = clock.scheduler.get_job("tick"), clock.scheduler.get_job("prune")
        assert before + timedelta(seconds=59) <= prune.next_run_time <= before + timedelta(hours=1)
        assert tick.next_run_time <= before + timedelta(hours=2)  # at once, then an hour on
        clock.tick_soon()
        assert clock.scheduler.get_job("tick").next_run_time <= datetime.now(timezone.utc) + timedelta(hours=2)
    finally:
        clock.stop()
        site.store.close()
        monkeypatch.undo()
        time.tzset()


def test_a_check_planned_again_after_another_replaces_its_own_pending_job():
    # a game's next check moves (a reminder, then orders in: the deadline) and back (the orders withdrawn)
    # while its first job still waits: the job is planned again, not refused as a duplicate (which would
    # stop the tick's planning of every game after it)
    games = [{"id": 1, "next_check": "2099-11-06T17:00:00Z"}, {"id": 2, "next_check": "2099-11-07T08:00:00Z"}]
    service = SimpleNamespace(store=SimpleNamespace(games_to_check=lambda when: games), run_jobs=lambda: 0)
    clock = Clock(service, idle_sender(), tick_seconds=10)
    clock.scheduler.start(paused=True)  # jobs stored as a running clock stores them, none run
    try:
        clock.plan_deadlines()
        games[0]["next_check"] = "2099-11-06T18:00:00Z"
        clock.plan_deadlines()
        games[0]["next_check"], games[1]["next_check"] = "2099-11-06T17:00:00Z", "2099-11-07T09:00:00Z"
        clock.plan_deadlines()
        assert sorted(job.id for job in clock.scheduler.get_jobs()) == [
            "check-1-2099-11-06T17:00:00Z", "check-1-2099-11-06T18:00:00Z", "check-2-2099-11-07T08:00:00Z",
            "check-2-2099-11-07T09:00:00Z"]
        assert clock.deadline_jobs == {1: "check-1-2099-11-06T17:00:00Z", 2: "check-2-2099-11-07T09:00:00Z"}
    finally:
        clock.scheduler.shutdown(wait=False)


def test_stop_waits_for_a_tick_still_running():
    # shutdown(wait=True): the clock's stop returns only once a job that is running has finished (the
    # tick may be writing to the database); the look at the stopper while the tick is held is no timing
    # assert: held, it cannot return, however slow the machine
    service = SimpleNamespace(store=SimpleNamespace(games_to_check=lambda when: []), run_jobs=lambda: 0)
    clock = Clock(service, idle_sender(), tick_seconds=3600)
    started, release = threading.Event(), threading.Event()

    def held_tick():
        started.set()
        release.wait(HANG)

    clock.tick = held_tick
    clock.start()
    assert started.wait(HANG)
    stopper = threading.Thread(target=clock.stop)
    stopper.start()
    stopper.join(0.5)
    try:
        assert stopper.is_alive()  # still waiting for the tick
    finally:
        release.set()
        stopper.join(HANG)
    assert not stopper.is_alive() and not clock.scheduler.running
