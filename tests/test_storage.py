"""Storage (issue 15): nothing that can be drawn again from a game's log is kept twice. A report mail's
map and view.json are kept in the outbox as references and drawn again when sent; every past report
and map stays available to its players after the retention rules have pruned the mail."""

from __future__ import annotations

import base64
import json
import mailbox
import shutil
import sqlite3
from datetime import timedelta

import pytest
from websupport import ANNA, FRED, Site

from pbem.server import retention
from pbem.server.mail.outbox import Sender
from pbem.server.service import Service
from pbem.server.store import Store

SIDES = {"austria": ANNA, "france": FRED}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A finished game of the small scenario on a web site, its mail delivered into a maildir: played
    once for the module (drawing its maps takes seconds); each test works on a copy (``finished``)."""
    where = tmp_path_factory.mktemp("played")
    site = Site(where)
    game_id, _ = site.game()
    while not site.service.game(game_id).over:
        site.service.resolve_next(game_id)
        site.service.run_jobs()
    Sender(site.store, maildir=str(where / "maildir"), resolve=site.service.attachment).send_due()
    site.store.close()
    assert not list(where.glob("*-wal")), "the played game's database was left open"
    return where, game_id


@pytest.fixture
def finished(tmp_path, played):
    """The finished game, copied into this test's folder: (site, game id)."""
    where, game_id = played
    shutil.copytree(where, tmp_path, dirs_exist_ok=True)
    return Site(tmp_path), game_id


def report_rows(store, game_id):
    return store.mails("WHERE kind = 'report' AND game_id = ? ORDER BY id", (game_id,))


def delivered(tmp_path) -> dict[tuple[str, str], dict[str, bytes]]:
    """(to, subject) -> {attachment filename: bytes} of every report mail in the maildir."""
    out = {}
    for msg in mailbox.Maildir(str(tmp_path / "maildir"), create=False):
        parts = {p.get_filename(): p.get_payload(decode=True) for p in msg.walk() if p.get_filename()}
        if "map.png" in parts:
            out[(msg["To"], " ".join(msg["Subject"].split()))] = parts
    return out


def test_report_mails_keep_their_map_and_view_as_references_and_send_them_drawn(tmp_path, finished):
    site, game_id = finished
    game = site.service.game(game_id)
    rows = report_rows(site.store, game_id)
    assert len(rows) == 2 * len(game.days)
    for row in rows:
        parts = json.loads(row["attachments"])
        assert [p["filename"] for p in parts] == ["map.png", "view.json"]
        assert all("data" not in p and "ref" in p for p in parts)
        assert len(row["attachments"]) < 400  # a reference, not a picture
    mails = delivered(tmp_path)
    assert len(mails) == len(rows)
    for row in rows:
        _, day, side, _ = row["dedupe_key"].split(":")[1:]
        parts = mails[(row["to_addr"], row["subject"])]
        assert parts["map.png"] == site.service.map_png(game_id, int(day), side)
        assert parts["map.png"].startswith(b"\x89PNG")
        view = json.loads(parts["view.json"])
        assert view["viewer"] == side and view == json.loads(json.dumps(game.view(side, int(day))))


def test_a_reference_is_drawn_again_when_the_map_cache_has_lost_the_picture(tmp_path, finished):
    site, game_id = finished
    row = report_rows(site.store, game_id)[-1]
    wanted = site.service.map_png(game_id, *json.loads(row["attachments"])[0]["ref"]["map"][1:])
    fresh = Service(Store(tmp_path / "pbem.sqlite3"))  # no map cache folder, nothing in memory
    assert fresh.attachment(json.loads(row["attachments"])[0]["ref"]) == wanted
    assert fresh.maps.drawn == 1


def test_after_pruning_a_player_still_fetches_every_past_report_and_map(finished):
    site, game_id = finished
    game = site.service.game(game_id)
    retention.prune(site.store, site.config, site.service.now() + timedelta(days=400), site.service.maps)
    assert site.store.query_one("SELECT COUNT(*) AS n FROM outbox WHERE attachments != '[]' OR body != ''"
                                " OR body_ref IS NOT NULL OR html IS NOT NULL OR html_ref IS NOT NULL")["n"] == 0
    assert site.store.query_one("SELECT COUNT(*) AS n FROM texts")["n"] == 0  # no text kept for no mail
    for side, email in SIDES.items():
        client = site.client(email)
        for day in range(len(game.days)):
            report = client.get(f"/games/{game_id}/reports/{day}?side={side}&format=text")
            assert report.status_code == 200 and report.text == site.service.report(game_id, day, side).text
            png = client.get(f"/games/{game_id}/map/{day}.png?side={side}")
            assert png.status_code == 200 and png.data == site.service.map_png(game_id, day, side)
            svg = client.get(f"/games/{game_id}/map/{day}.svg?side={side}")
            assert svg.status_code == 200 and svg.data.startswith(b"<svg")


def test_an_old_database_keeps_its_report_pictures_as_references_after_the_upgrade(tmp_path, finished):
    """Migration issue15_1: report rows written with the bytes inline get references; sent again, the mail
    carries the same map and view."""
    site, game_id = finished
    game = site.service.game(game_id)
    rows = report_rows(site.store, game_id)
    site.store.close()
    conn = sqlite3.connect(tmp_path / "pbem.sqlite3")  # as the outbox was written before: the bytes inline
    with conn:
        for row in rows:
            _, day, side, _ = row["dedupe_key"].split(":")[1:]
            png = site.service.map_png(game_id, int(day), side)
            view = json.dumps(game.view(side, int(day)), indent=1, sort_keys=True).encode()
            parts = [{"filename": "map.png", "mime": "image/png", "data": base64.b64encode(png).decode(),
                      "cid": "map"},
                     {"filename": "view.json", "mime": "application/json",
                      "data": base64.b64encode(view).decode(), "cid": None}]
            conn.execute("UPDATE outbox SET attachments = ?, status = 'queued', next_attempt_at = created"
                         " WHERE id = ?", (json.dumps(parts), row["id"]))
        conn.execute("DELETE FROM migrations WHERE name = 'issue15_1_attachments_by_reference'")
    conn.close()
    store = Store(tmp_path / "pbem.sqlite3")
    upgraded = report_rows(store, game_id)
    assert [r["id"] for r in upgraded] == [r["id"] for r in rows]
    for row in upgraded:
        parts = json.loads(row["attachments"])
        assert [p["filename"] for p in parts] == ["map.png", "view.json"] and all("ref" in p for p in parts)
    (tmp_path / "maildir").rename(tmp_path / "before")
    Sender(store, maildir=str(tmp_path / "maildir")).send_due()  # its own service: draws them again
    again = delivered(tmp_path)
    assert len(again) == len(rows)
    for row in rows:
        _, day, side, _ = row["dedupe_key"].split(":")[1:]
        parts = again[(row["to_addr"], row["subject"])]
        assert parts["map.png"] == site.service.map_png(game_id, int(day), side)
        assert json.loads(parts["view.json"])["viewer"] == side
    store.close()


# -- a long HTML kept once, compressed (issue 15, migration issue15_2_texts_kept_once) ---------------


def test_a_long_html_is_kept_once_compressed_and_mailed_whole(tmp_path):
    from pbem.server.mail.outbox import build_email, queue
    from pbem.server.store import Store

    store = Store(tmp_path / "pbem.sqlite3")
    html = "<html><body>" + "".join(f"<p>Line {i}: the Austrians advance.</p>" for i in range(300)) + "</body></html>"
    first = queue(store, "anna@example.org", "Report", "text", html=html, kind="report")
    second = queue(store, "fred@example.org", "Report", "text", html=html, kind="report")  # the same text again
    short = queue(store, "anna@example.org", "Note", "text", html="<p>short</p>")
    rows = {r["id"]: r for r in store.query("SELECT * FROM outbox")}  # as kept
    assert rows[first]["html"] is None and rows[first]["html_ref"] == rows[second]["html_ref"]
    assert rows[short]["html"] == "<p>short</p>" and rows[short]["html_ref"] is None  # a short one stays inline
    kept = store.query("SELECT length(data) AS n FROM texts")
    assert len(kept) == 1 and kept[0]["n"] < len(html) / 4  # once, compressed
    msg = build_email(rows[second], texts=store.text)
    part = next(p for p in msg.walk() if p.get_content_type() == "text/html")
    assert "<p>Line 299: the Austrians advance.</p>" in part.get_content()
    with pytest.raises(Exception):
        build_email(rows[first])  # an HTML by reference is never mailed without it
    store.close()


def test_an_old_database_keeps_its_mails_html_once_after_the_migration(tmp_path):
    import sqlite3

    from pbem.server.mail.outbox import build_email
    from pbem.server.store import Store

    path = tmp_path / "old.sqlite3"
    Store(path).close()
    conn = sqlite3.connect(path)  # the database as it was before the migration: HTML in every row
    with conn:
        conn.execute("DELETE FROM migrations WHERE name = 'issue15_2_texts_kept_once'")
        conn.execute("DROP INDEX outbox_html_ref")
        conn.execute("ALTER TABLE outbox DROP COLUMN html_ref")
        conn.execute("DROP TABLE texts")
        long_html = "<p>" + "Marengo " * 400 + "</p>"
        for to, html in (("anna@example.org", long_html), ("fred@example.org", long_html),
                         ("otto@example.org", "<p>short</p>")):
            conn.execute("INSERT INTO outbox (created, to_addr, subject, body, html, attachments, kind, status,"
                         " next_attempt_at) VALUES ('2026-01-01T00:00:00Z', ?, 'Report', 'text', ?, '[]', 'report',"
                         " 'queued', '2026-01-01T00:00:00Z')", (to, html))
    conn.close()
    store = Store(path)  # migrates
    rows = store.query("SELECT * FROM outbox ORDER BY id")  # as kept
    assert [r["html"] for r in rows] == [None, None, "<p>short</p>"]
    assert rows[0]["html_ref"] == rows[1]["html_ref"] and store.query_one("SELECT COUNT(*) AS n FROM texts")["n"] == 1
    for row in rows:
        html_part = next(p for p in build_email(row, texts=store.text).walk() if p.get_content_type() == "text/html")
        assert ("Marengo " * 400 if row["to_addr"] != "otto@example.org" else "short") in html_part.get_content()
    store.close()


# -- a long plain text kept once too (issue 15, migration issue15_3_bodies_kept_once) -------------------


def text_parts(folder) -> dict[str, str]:
    """Message-ID -> the plain text part of every mail in the maildir ``folder``."""
    return {msg["Message-ID"]: next(p for p in msg.walk() if p.get_content_type() == "text/plain")
            .get_payload(decode=True).decode() for msg in mailbox.Maildir(str(folder), create=False)}


def test_a_long_text_is_kept_once_compressed_read_whole_and_mailed_whole(tmp_path):
    from pbem.server.mail.outbox import Unsendable, build_email, queue

    store = Store(tmp_path / "pbem.sqlite3")
    text = "".join(f"Line {i}: the Austrians advance on Marengo.\n" for i in range(300))
    first = queue(store, "anna@example.org", "Report", text, kind="report")
    second = queue(store, "fred@example.org", "Report", text, kind="report")  # the same text again
    short = queue(store, "anna@example.org", "Note", "a short answer")
    kept = {r["id"]: r for r in store.query("SELECT * FROM outbox")}  # as kept
    assert kept[first]["body"] == "" and kept[first]["body_ref"] == kept[second]["body_ref"] is not None
    assert kept[short]["body"] == "a short answer" and kept[short]["body_ref"] is None  # a short one stays inline
    data = store.query("SELECT length(data) AS n FROM texts")
    assert len(data) == 1 and data[0]["n"] < len(text) / 4  # once, compressed
    read = {r["id"]: r for r in store.mails("ORDER BY id")}  # the reader gives the text back whole
    assert [read[i]["body"] for i in (first, second, short)] == [text, text, "a short answer"]
    assert store.mail("WHERE id = ?", (second,))["body"] == text and store.mail("WHERE id = 0") is None
    part = next(p for p in build_email(kept[second], texts=store.text).walk() if p.get_content_type() == "text/plain")
    assert "Line 299: the Austrians advance on Marengo." in part.get_content()
    with pytest.raises(Unsendable):
        build_email(kept[first])  # a text by reference is never mailed without it
    with pytest.raises(Unsendable):
        build_email(kept[first], texts=lambda digest: None)  # nor when it is lost
    store.close()


def test_a_database_mid_game_upgrades_its_bodies_and_sends_every_mail_as_before(tmp_path, finished):
    """Migration issue15_3: a database written before it (every body in its row), its mail not yet sent,
    is upgraded: the long bodies go to ``texts``, and every mail sent again says what it said."""
    site, game_id = finished
    before = text_parts(tmp_path / "maildir")
    whole = {r["id"]: r["body"] for r in site.store.mails()}
    assert any(len(body) > 1024 for body in whole.values()) and any(len(body) <= 1024 for body in whole.values())
    site.store.close()
    conn = sqlite3.connect(tmp_path / "pbem.sqlite3")  # as the outbox was written before: bodies inline
    with conn:
        for outbox_id, body in whole.items():
            conn.execute("UPDATE outbox SET body = ?, status = 'queued', next_attempt_at = created WHERE id = ?",
                         (body, outbox_id))
        conn.execute("DROP INDEX outbox_body_ref")
        conn.execute("ALTER TABLE outbox DROP COLUMN body_ref")
        conn.execute("DELETE FROM texts WHERE digest NOT IN (SELECT html_ref FROM outbox WHERE html_ref IS NOT NULL)")
        conn.execute("DELETE FROM migrations WHERE name = 'issue15_3_bodies_kept_once'")
    conn.close()
    store = Store(tmp_path / "pbem.sqlite3")  # migrates
    kept = store.query("SELECT id, body, body_ref FROM outbox")
    assert all((row["body"] == "") == (row["body_ref"] is not None) == (len(whole[row["id"]]) > 1024) for row in kept)
    assert {r["id"]: r["body"] for r in store.mails()} == whole  # nothing lost
    (tmp_path / "maildir").rename(tmp_path / "before")
    Sender(store, maildir=str(tmp_path / "maildir")).send_due()  # its own service: draws the maps again
    assert len(before) == len(whole) and text_parts(tmp_path / "maildir") == before  # the same texts, under the same Message-IDs
    store.close()


def test_the_footprint_prints_the_games_own_bytes_against_the_goal(tmp_path):
    """`pbem measure footprint` prints a finished game's own bytes (the database less an empty one of the
    same schema) as a ratio to the goal of 1 MB."""
    from pbem.tools.measure import Footprint, empty_size

    empty = empty_size(tmp_path / "empty.sqlite3")
    assert empty > 0 and list(tmp_path.iterdir()) == []  # measured, then removed
    text = str(Footprint(32, 1_110_000, 470_000, "pruned", {"log": 10_000}, {"log": 10_000}, 340_000))
    assert "the game's own bytes" in text and "0.77 MB, 0.77 of the goal of 1 MB (the whole file: 1.11)" in text


def test_a_kept_text_is_compressed_with_the_dictionary_and_older_plain_zlib_still_reads(tmp_path, monkeypatch):
    import hashlib
    import zlib

    from pbem.server import store as stores
    from pbem.server.store import TEXT_DICTIONARY, pack_text, put_text, unpack_text

    report = "".join(f"A{i}  Ott: column cavalry  cavalry  2  Cascina Orbicella  reserve  yes\n" for i in range(40))
    packed = pack_text(report)
    assert packed[0] == TEXT_DICTIONARY and unpack_text(packed) == report
    assert len(packed) < len(zlib.compress(report.encode(), 6))  # the dictionary's strings cost nothing
    assert unpack_text(zlib.compress(report.encode(), 6)) == report  # kept before the dictionaries
    store = Store(tmp_path / "pbem.sqlite3")
    with store.transaction():
        digest = put_text(store.db, report)
        store.db.execute("INSERT INTO texts (digest, data) VALUES ('old', ?)", (zlib.compress(b"an old text " * 200),))
    assert store.text(digest) == report and store.text("old") == "an old text " * 200
    assert digest == hashlib.sha256(report.encode()).hexdigest()  # kept once by the text's own digest
    store.close()
    changed = tmp_path / "changed.zdict"  # a dictionary file that is not the one recorded is refused
    changed.write_bytes(b"other strings")
    monkeypatch.setitem(stores.TEXT_DICTIONARIES, 9, (str(changed), hashlib.sha256(b"the first").hexdigest()))
    with pytest.raises(ValueError, match="not the dictionary"):
        unpack_text(b"\x09" + b"anything")


def test_the_admin_page_shows_a_mail_whose_text_is_kept_once_whole(finished):
    import html

    from websupport import ADMIN

    site, game_id = finished
    newest = site.store.mail("WHERE kind = 'report' ORDER BY id DESC LIMIT 1")
    kept = site.store.query_one("SELECT body, body_ref FROM outbox WHERE id = ?", (newest["id"],))
    assert kept["body"] == "" and kept["body_ref"] and len(newest["body"]) > 1024  # kept once, read whole
    outbox = site.client(ADMIN).get("/admin").text.split('id="outbox"')[1].split("</table>")[0]  # not the maildir's
    shown = html.unescape(outbox.split(f"<td>{newest['id']}</td>")[1].split("<pre>")[1].split("</pre>")[0])
    assert shown == newest["body"]
