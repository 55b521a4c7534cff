"""The load generator's own processes (issue 15): SMTP clients that offer prebuilt mail, and an SMTP
sink that notes what the server sends, each in a process of its own.

Before, the clients (smtplib threads building each mail with ``EmailMessage``) and the relay that
took the server's mail (aiosmtpd, each delivery's headers parsed by the email package) shared the
load process and its one GIL: at 400 mails a second offered they sent 141. Now:

- ``Clients``: one process (``python -m pbem.tools.loadgen clients``) holding N SMTP connections
  on one asyncio loop. It sends bytes made beforehand: the driver hands it each game's orders mail
  for the day as a template (``orders_template``: made once per game and day, the Message-ID left
  out), the process only puts a fresh Message-ID in. A phase is a schedule (mails at a rate, from a
  start, until a stop) or a list sent as fast as the connections go; every mail is retried until
  250, as a mail server would, and noted: when it was due, started, accepted, how many attempts.
- ``Sink``: one process (``python -m pbem.tools.loadgen sink``) with a minimal SMTP server that
  notes each message's arrival time and the few headers the load test reads (Message-ID,
  In-Reply-To, To, Subject) by a scan of the bytes, whether it is a day's report (view.json and
  map.png attached) and, for a report, the view.json attachment itself, decoded, which the driver
  needs to send the next day's orders. It hands these to the driver in batches; the message is
  then dropped. ``count_only`` notes nothing but the number of messages (the generator's ceiling).

Both talk to the driver over a socket pair with ``multiprocessing.connection`` (pickled tuples).
``cpu_seconds`` and ``machine_busy`` read /proc for the share of the CPU each process took.
"""

from __future__ import annotations

import asyncio
import base64
import os
import re
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection

SERVER_ADDR = "pbem@load.invalid"  # the same as pbem.tools.harness (kept free of its imports)
BOT_DOMAIN = "bots.invalid"
RETRY_PAUSE = 0.2  # seconds between attempts of one mail
ATTEMPTS = 5  # attempts of a mail before it is given up (counted as not accepted)
BATCH = 0.01  # seconds: the mails of a schedule due within it are handed to the connections together


# -- the mail --------------------------------------------------------------------------------------


def _stuffed(data: bytes) -> bytes:
    """``data`` with CRLF line ends and dot-stuffed for SMTP DATA (RFC 5321 4.5.2), ending in CRLF."""
    data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if not data.endswith(b"\r\n"):
        data += b"\r\n"
    data = data.replace(b"\r\n.", b"\r\n..")
    return b"." + data if data.startswith(b".") else data


def waiting(conn: Connection):
    """The driver's messages waiting on ``conn``, until none is left; ``("stop",)`` (and no more) when the
    driver is gone -- its end of the pipe closed -- so is the process that reads them."""
    while True:
        try:
            if not conn.poll():
                return
            message = conn.recv()
        except (EOFError, OSError):
            message = ("stop",)
        yield message
        if message[0] == "stop":
            return


def orders_text(game_id: int, side: str, key: str, body: str, final: bool = False, marker: str = "") -> str:
    """A player's orders mail's text: the header line with the key, a marker comment if given, the
    orders, FINAL if asked."""
    text = f"GAME {game_id} SIDE {side} KEY {key}\n"
    if marker:
        text += f"# {marker}\n"
    text += body if body.endswith("\n") or not body else body + "\n"
    if final:
        text += "FINAL\n"
    return text


def orders_template(sender: str, game_id: int, side: str, key: str, turn_label: str, body: str,
                    final: bool = False, marker: str = "") -> tuple[bytes, bytes]:
    """A player's orders mail as (before the Message-ID, after it), ready for SMTP DATA: the same
    header line, orders and FINAL as ``harness.orders_mail``, made from bytes, not EmailMessage."""
    text = orders_text(game_id, side, key, body, final, marker)
    subject = f"Orders {turn_label}"
    if not subject.isascii():
        from email.header import Header

        subject = Header(subject, "utf-8").encode()
    encoding = "7bit" if text.isascii() else "8bit"
    head = (f"From: {sender}\r\nTo: {SERVER_ADDR}\r\nSubject: {subject}\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/plain; charset=\"utf-8\"\r\nContent-Transfer-Encoding: {encoding}\r\n"
            f"Message-ID: ").encode()
    return _stuffed(head)[:-2], _stuffed(b"\r\n\r\n" + text.encode("utf-8"))


def message_id(tag: str, n: int, game_id: int, day: int) -> str:
    return f"<load.{tag}{n}.{game_id}.{day}@{BOT_DOMAIN}>"


# -- CPU -----------------------------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds of a live process so far (Linux /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rpartition(b")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def machine_busy() -> float | None:
    """CPU seconds the whole machine has spent busy since boot, all cores (Linux /proc/stat)."""
    try:
        with open("/proc/stat", "rb") as f:
            values = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle, iowait
    return (sum(values[:8]) - idle) / TICK  # guest time is already in user


# -- the processes, seen from the driver ---------------------------------------------------------


class _Child:
    """A child process of this module and the connection to it."""

    role = ""

    def __init__(self, *args: str, env: dict | None = None):
        ours, theirs = socket.socketpair()
        self.conn = Connection(ours.detach())
        fd = theirs.detach()
        self.proc = subprocess.Popen([sys.executable, "-m", "pbem.tools.loadgen", self.role, str(fd), *args],
                                     pass_fds=(fd,), env=env, stdin=subprocess.DEVNULL)
        os.close(fd)
        self.send_lock = threading.Lock()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, message) -> None:
        with self.send_lock:
            self.conn.send(message)

    def cpu(self) -> float | None:
        return cpu_seconds(self.proc.pid)

    def close(self, timeout: float = 10) -> None:
        self.stop()
        self.reap(timeout)

    def stop(self) -> None:
        """Tell the process to end (nothing if it is gone already)."""
        try:
            self.send(("stop",))
        except OSError:
            pass

    def reap(self, timeout: float) -> None:
        """Wait for the process to end (killed after ``timeout``) and close the pipe."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.conn.close()


class Clients(_Child):
    """The SMTP client process: ``connections`` connections to ``port``; ``tag`` makes its
    Message-IDs its own. ``run`` blocks until a phase is over and returns its ``Record`` tuples."""

    role = "clients"

    def __init__(self, port: int, connections: int, tag: str = "", env: dict | None = None):
        super().__init__(str(port), str(connections), tag or "-", env=env)
        self.lock = threading.Lock()
        ready = self.conn.recv()
        assert ready == ("ready",), ready

    def template(self, game_id: int, day: int, side: str, sender: str, parts: tuple[bytes, bytes]) -> None:
        """The mail to send for ``game_id`` from now on (its day, side and bytes)."""
        self.send(("template", game_id, day, side, sender, parts))

    def run(self, phase: str, jobs: dict) -> tuple[list[tuple], int]:
        """Run one phase; ``jobs`` is {"games": [game ids]} (each sent as soon as a connection is free)
        or {"games": [...], "start": t, "rate": r, "total": n, "stop_at": t} (the k-th mail due at
        ``start + k / rate`` for ``games[k % len(games)]``, none started at or after ``stop_at``).
        Returns (records, SMTP errors retried); a record is (message_id, game_id, side, day, due,
        started, accepted or None, attempts)."""
        with self.lock:
            self.send(("run", phase, jobs))
            answer = self.conn.recv()
        assert answer[0] == "done" and answer[1] == phase, answer[:2]
        return answer[2], answer[3]


class Sink(_Child):
    """The SMTP sink process. ``on_batch(list of deliveries)`` is called from a thread of this process
    for each batch it hands over; a delivery is (at, to, subject, message_id, in_reply_to, size,
    is_report, view.json bytes or None). With ``count_only`` it hands nothing over."""

    role = "sink"

    def __init__(self, on_batch=None, count_only: bool = False, env: dict | None = None):
        super().__init__("count" if count_only else "note", env=env)
        kind, self.port = self.conn.recv()
        assert kind == "port"
        self.on_batch = on_batch
        self.count = 0
        self.sessions = 0  # SMTP connections it took, known once it is closed
        self.received = threading.Event()
        self.thread = threading.Thread(target=self._read, name="sink-reader", daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while True:
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                return
            if message[0] == "batch":
                self.count += len(message[1])
                if self.on_batch is not None:
                    self.on_batch(message[1])
            elif message[0] == "stopped":
                self.count = max(self.count, message[1])
                self.sessions = message[2]
                self.received.set()
                return

    def close(self, timeout: float = 10) -> int:
        """Stop the sink; returns how many messages it took."""
        self.stop()
        self.received.wait(timeout)
        self.thread.join(timeout)
        self.reap(timeout)
        return self.count


# -- the client process -------------------------------------------------------------------------


class SMTPRefused(Exception):
    """The server answered a command with another code than the one expected."""


async def _reply(reader: asyncio.StreamReader) -> int:
    while True:
        line = await reader.readline()
        if not line:
            raise ConnectionError("the server closed the connection")
        if line[3:4] != b"-":
            return int(line[:3])


async def _expect(reader, writer, command: bytes, code: int) -> None:
    if command:
        writer.write(command)
    got = await _reply(reader)
    if got != code:
        raise SMTPRefused(got)


class _ClientProcess:
    def __init__(self, conn: Connection, port: int, connections: int, tag: str):
        self.conn = conn
        self.port = port
        self.connections = connections
        self.tag = "" if tag == "-" else tag
        self.templates: dict[int, tuple] = {}  # game id -> (day, side, sender, before, after)
        self.count = 0
        self.stopping: asyncio.Future | None = None
        self.tasks: set[asyncio.Task] = set()

    def on_readable(self) -> None:
        for message in waiting(self.conn):
            if message[0] == "template":
                _, game_id, day, side, sender, (before, after) = message
                self.templates[game_id] = (day, side, sender.encode(), before, after)
            elif message[0] == "run":
                task = asyncio.get_running_loop().create_task(self.phase(message[1], message[2]))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            elif message[0] == "stop":
                if not self.stopping.done():
                    self.stopping.set_result(None)
                asyncio.get_running_loop().remove_reader(self.conn.fileno())
                return

    async def main(self) -> None:
        loop = asyncio.get_running_loop()
        self.stopping = loop.create_future()
        loop.add_reader(self.conn.fileno(), self.on_readable)
        self.conn.send(("ready",))
        await self.stopping

    async def phase(self, phase: str, jobs: dict) -> None:
        queue: asyncio.Queue = asyncio.Queue()
        records: list[tuple] = []
        errors = [0]
        stop_at = jobs.get("stop_at")
        workers = [asyncio.create_task(self.connection(queue, records, errors, stop_at))
                   for _ in range(self.connections)]
        games = jobs["games"]
        if "rate" not in jobs:
            for game_id in games:
                queue.put_nowait((None, game_id))
        else:
            start, rate, total = jobs["start"], jobs["rate"], jobs["total"]
            k = 0
            while k < total:
                now = time.time()
                if stop_at is not None and now >= stop_at:
                    break
                due = start + k / rate
                if due > now:  # asleep at least BATCH: at 400 a second, 100 wake-ups, not 400
                    await asyncio.sleep(max(due - now, BATCH))
                    continue
                while k < total and start + k / rate <= now:  # every mail due by now, at once
                    queue.put_nowait((start + k / rate, games[k % len(games)]))
                    k += 1
        for _ in workers:
            queue.put_nowait(None)
        await asyncio.gather(*workers)
        self.conn.send(("done", phase, records, errors[0]))

    async def connection(self, queue: asyncio.Queue, records: list, errors: list, stop_at) -> None:
        reader = writer = None
        while True:
            job = await queue.get()
            if job is None:
                break
            due, game_id = job
            if stop_at is not None and time.time() >= stop_at:
                continue
            day, side, sender, before, after = self.templates[game_id]
            self.count += 1
            mid = message_id(self.tag, self.count, game_id, day)
            raw = before + mid.encode() + after
            started, accepted, attempts = time.time(), None, 0
            while True:
                attempts += 1
                try:
                    if writer is None:
                        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20)
                        await _expect(reader, writer, b"", 220)
                        await _expect(reader, writer, b"EHLO load.invalid\r\n", 250)
                    await _expect(reader, writer, b"MAIL FROM:<" + sender + b">\r\n", 250)
                    await _expect(reader, writer, b"RCPT TO:<" + SERVER_ADDR.encode() + b">\r\n", 250)
                    await _expect(reader, writer, b"DATA\r\n", 354)
                    await _expect(reader, writer, raw + b".\r\n", 250)
                    accepted = time.time()
                    break
                except (OSError, SMTPRefused, ConnectionError, ValueError):
                    errors[0] += 1
                    if writer is not None:
                        writer.close()
                    reader = writer = None
                    if attempts >= ATTEMPTS or (stop_at is not None and time.time() >= stop_at + 30):
                        break
                    await asyncio.sleep(RETRY_PAUSE)
            records.append((mid, game_id, side, day, due, started, accepted, attempts))
        if writer is not None:
            try:
                writer.write(b"QUIT\r\n")
                await asyncio.wait_for(_reply(reader), 5)
            except (OSError, ConnectionError, ValueError, asyncio.TimeoutError):
                pass
            writer.close()


# -- the sink process ---------------------------------------------------------------------------

_FOLD = re.compile(rb"\r?\n[ \t]+")
_WANTED = {b"to": 1, b"subject": 2, b"message-id": 3, b"in-reply-to": 4}


def headers_of(message: bytes) -> list[str]:
    """[To, Subject, Message-ID, In-Reply-To] of a message (unfolded, stripped; To in lower case)."""
    cut = [i for i in (message.find(b"\r\n\r\n"), message.find(b"\n\n")) if i >= 0]
    head = _FOLD.sub(b" ", message[:min(cut)] if cut else message)
    found = ["", "", "", ""]
    for line in head.splitlines():
        name, colon, value = line.partition(b":")
        where = _WANTED.get(name.strip().lower()) if colon else None
        if where and not found[where - 1]:
            found[where - 1] = " ".join(value.decode("utf-8", "replace").split())
    found[0] = found[0].lower()
    return found


def attachment(message: bytes, name: bytes = b"view.json") -> bytes | None:
    """The decoded bytes of the attachment ``name`` (base64, quoted-printable or as is) found by a scan
    of the message's bytes; None when there is none. Falls back on the email package when the scan
    finds the name but not a part around it."""
    at = message.find(b'filename="' + name + b'"')
    if at < 0:
        return None
    start = message.rfind(b"\n--", 0, at)
    blank = [i for i in (message.find(b"\r\n\r\n", at), message.find(b"\n\n", at)) if i >= 0]
    if start < 0 or not blank:
        return _attachment_by_parsing(message, name)
    body_at = min(blank)
    part_head = message[start:body_at].lower()
    body_at += 4 if message.startswith(b"\r\n\r\n", body_at) else 2
    end = message.find(b"\n--", body_at)
    body = message[body_at:end if end >= 0 else len(message)]
    if b"base64" in part_head:
        return base64.b64decode(body)
    if b"quoted-printable" in part_head:
        import quopri

        return quopri.decodestring(body)
    return body.rstrip(b"\r\n")


def _attachment_by_parsing(message: bytes, name: bytes) -> bytes | None:
    import email
    import email.policy

    msg = email.message_from_bytes(message, policy=email.policy.default)
    for part in msg.iter_attachments():
        if part.get_filename() == name.decode():
            return part.get_payload(decode=True)
    return None


class _SinkSession(asyncio.Protocol):
    """One SMTP session of the sink: commands answered from the bytes received (no stream reader,
    no task), each message's data handed to ``note(at, message)``, un-stuffed, before its 250."""

    def __init__(self, note):
        self.note = note
        self.buffer = bytearray()
        self.in_data = False
        self.scanned = 0  # how far the data was searched for its end
        self.transport = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(b"220 sink.load.invalid ESMTP\r\n")

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        while buffer and not self.transport.is_closing():
            if self.in_data:
                if buffer.startswith(b".\r\n") and not self.scanned:
                    end, message = 0, b""  # an empty message
                else:
                    end = buffer.find(b"\r\n.\r\n", self.scanned)
                    if end < 0:
                        self.scanned = max(0, len(buffer) - 4)
                        return
                    message = bytes(buffer[:end + 2]).replace(b"\r\n..", b"\r\n.")
                    end += 2
                del buffer[:end + 3]
                self.in_data, self.scanned = False, 0
                self.note(time.time(), message[1:] if message.startswith(b"..") else message)
                self.transport.write(b"250 2.0.0 OK\r\n")
                continue
            cut = buffer.find(b"\r\n")
            if cut < 0:
                return
            verb = bytes(buffer[:4]).upper()
            del buffer[:cut + 2]
            if verb == b"DATA":
                self.in_data = True
                self.transport.write(b"354 End data with <CR><LF>.<CR><LF>\r\n")
            elif verb == b"EHLO":
                self.transport.write(b"250-sink.load.invalid\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 67108864\r\n")
            elif verb == b"QUIT":
                self.transport.write(b"221 Bye\r\n")
                self.transport.close()
            elif verb in (b"HELO", b"MAIL", b"RCPT", b"RSET", b"NOOP"):
                self.transport.write(b"250 OK\r\n")
            else:
                self.transport.write(b"502 Command not implemented\r\n")


class _SinkProcess:
    def __init__(self, conn: Connection, count_only: bool):
        self.conn = conn
        self.count_only = count_only
        self.batch: list[tuple] = []
        self.count = 0
        self.sessions = 0  # SMTP connections made to the sink

    def note(self, at: float, message: bytes) -> None:
        self.count += 1
        if self.count_only:
            return
        to, subject, mid, in_reply_to = headers_of(message)
        report = b'filename="view.json"' in message and b'filename="map.png"' in message
        view = None
        if report:
            try:
                view = attachment(message)
            except Exception:  # noqa: BLE001 -- the driver counts a report without its view as unreadable
                view = None
        if not self.batch:  # the first of a batch: handed over in 20 ms with what comes meanwhile
            asyncio.get_running_loop().call_later(0.02, self.flush)
        self.batch.append((at, to, subject, mid, in_reply_to, len(message), report, view))

    def flush(self) -> None:
        batch, self.batch = self.batch, []
        if batch:
            try:
                self.conn.send(("batch", batch))
            except OSError:  # the driver is gone; its socket's end tells the reader too
                pass

    async def main(self) -> None:
        loop = asyncio.get_running_loop()
        def session() -> _SinkSession:
            self.sessions += 1
            return _SinkSession(self.note)

        server = await loop.create_server(session, "127.0.0.1", 0)
        self.conn.send(("port", server.sockets[0].getsockname()[1]))
        stopping = loop.create_future()

        def on_readable():
            for message in waiting(self.conn):
                if message[0] == "stop":
                    if not stopping.done():
                        stopping.set_result(None)
                    loop.remove_reader(self.conn.fileno())
                    return

        loop.add_reader(self.conn.fileno(), on_readable)
        await stopping
        server.close()
        try:
            if self.batch:
                self.conn.send(("batch", self.batch))
            self.conn.send(("stopped", self.count, self.sessions))
        except OSError:
            pass


def main(argv: list[str]) -> int:
    role, fd = argv[0], int(argv[1])
    conn = Connection(fd)
    if role == "clients":
        port, connections, tag = int(argv[2]), int(argv[3]), argv[4]
        asyncio.run(_ClientProcess(conn, port, connections, tag).main())
    elif role == "sink":
        asyncio.run(_SinkProcess(conn, argv[2] == "count").main())
    else:
        raise SystemExit(f"pbem.tools.loadgen: no role {role!r} (clients or sink)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
