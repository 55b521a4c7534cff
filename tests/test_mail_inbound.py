import email.policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from bounds import no_hang
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.server.mail.commands import Command, read
from pbem.server.mail.inbound import Inbound, html_to_text, parse_message, strip_reply

CORPUS = Path(__file__).parent / "mail_corpus"
ORDERS = "GAME 12 SIDE french TURN 3 KEY Zk3v9Qh2\nMOVE 2 3 Marengo -> Spinetta\nHOLD Alessandria"


def has_orders(text):
    return text.lstrip().startswith("GAME ")


# file -> (parse_message keyword arguments, expected attributes of the result).
# "text" is compared exactly; "text+" is what follows the three ORDERS lines.
EXPECTED = {
    "plain_utf8": ({}, {"text+": "HOLD Castel Ceriolo — Général, tenez bon ✓", "from_addr": "lannes@example.fr"}),
    "latin1_qp": ({}, {"text+": "HOLD Pozzolo Formigaro: Général Desaix arrivé, café à l'état-major"}),
    "windows1252": ({}, {"text+": "HOLD Torre Garofoli \u201cquoted\u201d \u2013 cost 5\u20ac"}),
    "koi8r_base64": ({}, {"text+": "HOLD Маренго: приказ генерала", "subject": "Приказы",
                          "from_addr": "bagration@example.ru"}),
    "gb18030": ({}, {"text+": "HOLD 马伦戈 命令 𠀋", "subject": "命令"}),
    "gb2312": ({}, {"text+": "HOLD 马伦戈 命令"}),
    "mislabelled_ascii": ({}, {"text+": "HOLD Général"}),
    "html_only": ({}, {"text": ORDERS + "\nHOLD Bosco & Fréugarolo\nHOLD Novi"}),
    "alternative": ({}, {"text": ORDERS}),
    "flowed": ({}, {"text": "GAME 12 SIDE french TURN 3 KEY Zk3v9Qh2\nMOVE 2 3 Marengo -> Spinetta IF BLOCKED STAY"}),
    "reply_top": ({}, {"text": ORDERS, "subject": "Re: Game 12, day 2"}),
    "reply_bottom": ({}, {"text": ORDERS}),
    "reply_outlook": ({}, {"text": ORDERS}),
    "reply_to": ({}, {"text": ORDERS, "reply_to": "jean.home@example.net", "answer_to": "jean.home@example.net"}),
    "txt_attachment": ({"has_orders": has_orders}, {"text": ORDERS, "attachments": [("orders.txt", ORDERS)]}),
    "txt_only": ({}, {"text": ORDERS}),
    "autoreply": ({}, {"auto": True, "auto_reason": "Auto-Submitted: auto-replied"}),
    "vacation": ({}, {"auto": True, "auto_reason": "X-Autoreply header"}),
    "bounce": ({}, {"auto": True, "auto_reason": "empty Return-Path", "from_addr": "mailer-daemon@mx.example.fr"}),
    "bounce_plain": ({}, {"auto": True, "auto_reason": "sent by mailer-daemon@mail.example.com"}),
    "bulk": ({}, {"auto": True, "auto_reason": "Precedence: bulk"}),
    "mailing_list": ({}, {"auto": True, "auto_reason": "List-Id header"}),
    "broken_boundary": ({}, {"text": "", "problem": "MIME structure is broken", "from_addr": "lannes@example.fr"}),
    "oversized": ({"limit_bytes": 20_000}, {"too_big": True, "text": "", "from_addr": "lannes@example.fr"}),
}
NOT_AUTO = {"auto": False, "auto_reason": "", "too_big": False, "problem": ""}


def test_every_corpus_message_has_an_expected_outcome():
    assert {p.stem for p in CORPUS.glob("*.eml")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus(name):
    kwargs, expected = EXPECTED[name]
    raw = (CORPUS / f"{name}.eml").read_bytes()
    result = parse_message(raw, **kwargs)
    assert isinstance(result, Inbound)
    assert result.message_id == f"<{name}@corpus.example>"
    want = {**NOT_AUTO, **expected}
    if "text+" in want:
        want["text"] = ORDERS + "\n" + want.pop("text+")
    for attribute, value in want.items():
        if attribute == "problem" and value:
            assert value in result.problem
        else:
            assert getattr(result, attribute) == value, attribute


def test_oversized_message_is_still_checked_for_robots():
    raw = (CORPUS / "bounce.eml").read_bytes()
    result = parse_message(raw, limit_bytes=100)
    assert result.too_big and result.auto and result.text == ""


def test_delivery_report_is_recognised_by_its_structure_alone():
    raw = (CORPUS / "bounce.eml").read_bytes()
    raw = raw.replace(b"Return-Path: <>\r\n", b"").replace(b"MAILER-DAEMON@", b"mail@")
    result = parse_message(raw)
    assert result.auto and result.auto_reason == "multipart/report"


def test_body_with_orders_wins_over_attachment():
    raw = (CORPUS / "txt_attachment.eml").read_bytes().replace(b"Here are my orders.", b"GAME 1 SIDE x")
    assert parse_message(raw, has_orders=has_orders).text == "GAME 1 SIDE x"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig"])
def test_txt_attachment_with_a_byte_order_mark(encoding):
    msg = EmailMessage()
    msg["From"] = "lannes@example.fr"
    msg.set_content("")
    msg.add_attachment(("\r\n".join(ORDERS.split("\n")) + "\r\nHOLD Général").encode(encoding),
                       maintype="application", subtype="octet-stream", filename="orders.txt")
    assert parse_message(msg.as_bytes()).text == ORDERS + "\nHOLD Général"


def test_a_failing_has_orders_is_not_fatal():
    def broken(text):
        raise RuntimeError("bug")

    result = parse_message((CORPUS / "plain_utf8.eml").read_bytes(), has_orders=broken)
    assert result.problem == "" and result.text.startswith("GAME 12")


def test_auto_submitted_no_is_a_person():
    raw = (CORPUS / "plain_utf8.eml").read_bytes().replace(b"Subject:", b"Auto-Submitted: no\r\nSubject:")
    assert not parse_message(raw).auto


def test_garbage_is_a_problem_not_an_exception():
    for raw in (b"", b"\r\n\r\n", b"\xff\xfe\x00garbage", b"From: <<<@@@>>>\r\n\r\nhello"):
        result = parse_message(raw)
        assert isinstance(result, Inbound)


def test_strip_reply():
    text = (
        "HOLD A\n\nOn Sun, 2 Jun 2024 at 18:00, Server <s@x.org> wrote:\n> report\n>\n> more\n"
        "HOLD B\n-- \nsignature\nHOLD C\n"
    )
    assert strip_reply(text) == "HOLD A\n\nHOLD B"
    # attribution followed by an unquoted copy of the previous message: drop the rest
    assert strip_reply("HOLD A\nOn Sun, X wrote:\nold report\nold orders") == "HOLD A"
    assert strip_reply("HOLD A\n-----Original Message-----\nFrom: x") == "HOLD A"


def test_html_to_text():
    html = "<div>a<div>b</div><div><br></div><div>c&nbsp;&lt;d&gt;</div></div><blockquote>q<br>r</blockquote>"
    assert html_to_text(html) == "a\nb\n\nc <d>\n> q\n> r"
    assert html_to_text("<blockquote><blockquote>deep</blockquote></blockquote>x") == "> deep\nx"
    assert html_to_text("<style>x{}</style><script>y()</script><p>z</p>") == "z"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("HELP", ("HELP", ())),
        ("  status  ", ("STATUS", ())),
        ("report", ("REPORT", ())),
        ("Orders", ("ORDERS", ())),
        ("VACATION FROM 2024-06-01 TO 2024-06-10", ("VACATION", ("FROM", "2024-06-01", "TO", "2024-06-10"))),
        ("vacation", ("VACATION", ())),
        ("HELP me please", ("HELP", ("me", "please"))),  # the caller decides what arguments a command takes
        ("congé du 2024-06-01 au 2024-06-10", ("VACATION", ("FROM", "2024-06-01", "TO", "2024-06-10"))),
        ("ETAT", ("STATUS", ())),
        ("Nulle accepter", ("DRAW", ("ACCEPT",))),
        ("ОТЧЕТ", ("REPORT", ())),  # ОТЧЁТ without its accent
        ("ничья отклонить", ("DRAW", ("DECLINE",))),
        ("Принять ничью", ("DRAW", ("ACCEPT",))),
        ("ВІДПУСТКА З 2024-06-01 ПО 2024-06-10", ("VACATION", ("FROM", "2024-06-01", "TO", "2024-06-10"))),
        ("ПОВІДОМЛЕННЯ усім", ("PRESS", ("ALL",))),
        ("休假5", ("VACATION", ("5",))),
        ("休假从2024-06-01到2024-06-10", ("VACATION", ("FROM", "2024-06-01", "TO", "2024-06-10"))),
        ("和棋接受", ("DRAW", ("ACCEPT",))),
        ("接受和棋", ("DRAW", ("ACCEPT",))),
        ("语言fr", ("LANGUAGE", ("fr",))),
        ("幫助", ("HELP", ())),  # the traditional script of the Chinese rule book
        ("ＨＥＬＰ", ("HELP", ())),  # full-width letters
        ("联赛3加入", ("LEAGUE", ("3", "JOIN"))),
        ("TOURNOI 5 s'inscrire", ("TOURNAMENT", ("5", "ENTER"))),
        ("GAME 12 SIDE french", None),
        ("HELPME", None),
        ("Ordres :", ("ORDERS", (":",))),  # the caller decides (ORDERS takes nothing: orders after all)
        ("Ordres:", None),  # a heading over orders, not the command
        ("", None),
    ],
)
def test_a_command_line_is_read_in_every_language(text, expected):
    command = read(text)
    assert (command if command is None else (command.name, command.args)) == expected


def test_a_command_knows_the_language_of_its_word():
    assert read("AIDE") == Command("HELP", (), "AIDE", "fr")
    assert read("帮助").lang == "zh" and read("ДОПОМОГА").lang == "uk" and read("help").lang == "en"


# -- fuzzing ------------------------------------------------------------------

SAMPLES = sorted(p.read_bytes() for p in CORPUS.glob("*.eml"))
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_bounded(raw):
    with no_hang("parse_message", show=False):
        result = parse_message(raw, limit_bytes=64 * 1024)
    assert isinstance(result, Inbound)
    assert isinstance(result.text, str) and isinstance(result.problem, str)


@FUZZ
@given(st.binary(max_size=4096))
def test_fuzz_random_bytes(raw):
    check_bounded(raw)


@st.composite
def mutated(draw):
    raw = bytearray(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(raw)))
        kind = draw(st.sampled_from(["replace", "insert", "delete", "duplicate", "truncate"]))
        chunk = draw(st.binary(min_size=1, max_size=16) | st.sampled_from(
            [b"\r\n", b"\r\n\r\n", b"--", b"=", b"?=", b"=?utf-8?b?", b">", b"<", b"\x00", b"boundary=",
             b"Content-Type: multipart/mixed\r\n", b"charset=koi8-r", b"base64", b"<html><p>"]))
        if kind == "replace":
            raw[at:at + len(chunk)] = chunk
        elif kind == "insert":
            raw[at:at] = chunk
        elif kind == "delete":
            del raw[at:at + draw(st.integers(1, 64))]
        elif kind == "duplicate":
            raw[at:at] = raw[at:at + draw(st.integers(1, 256))] * draw(st.integers(1, 50))
        else:
            del raw[at:]
    return bytes(raw)


@FUZZ
@given(mutated())
def test_fuzz_mutated_corpus(raw):
    check_bounded(raw)


def test_pathological_inputs_are_fast():
    for raw in (
        b"Subject: x\r\n\r\n" + b"\n" * 500_000,
        b"Subject: x\r\n\r\n" + b"> " * 200_000,
        b"Content-Type: text/html\r\n\r\n" + b"<div>" * 100_000,
        b"Content-Type: text/html\r\n\r\n" + b"<blockquote>" * 50_000 + b"a<br>" * 50_000,
        b"Content-Type: text/plain; format=flowed\r\n\r\n" + b"a \n" * 100_000,
        b"From: " + b"(" * 50_000 + b"\r\n\r\nx",
        b"From: a@b.c\r\nReply-To: " + b"(" * 5_000 + b"\r\n\r\nx",
        b"X-Long: " + b"a" * 300_000 + b"\r\n\r\nx",
    ):
        with no_hang(f"parse_message of {len(raw):,} bytes ({raw[:24]!r}...)"):
            result = parse_message(raw)
        assert result.problem == "" or "too long" in result.problem


# -- the headers read as written (compat32), issue 15 ----------------------------------------------

ALL_MAIL = sorted(Path(__file__).parent.glob("**/*.eml"))


@pytest.mark.parametrize("path", ALL_MAIL, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_mail_read_as_written_gives_what_the_full_header_parse_gave(path):
    """The fast reading (compat32: headers as written) finds the same body, attachments, robot
    marks and problems as the full parse of every header (email.policy.default) did."""
    raw = path.read_bytes()
    for kwargs in ({}, {"has_orders": has_orders}):
        fast = parse_message(raw, **kwargs)
        full = parse_message(raw, policy=email.policy.default, **kwargs)
        assert fast == full


@pytest.mark.parametrize("header, field, expected", [
    ("Subject: =?utf-8?q?R=C3=A9ponse_automatique?= : absent", "subject", "Réponse automatique : absent"),
    ("Subject: =?utf-8?b?QXV0b21hdGljIHJlcGx5?=", "subject", "Automatic reply"),
    ("Subject: =?utf-8?q?Out_of?=\r\n =?utf-8?q?_office?=", "subject", "Out of office"),  # folded, two words
    ("Subject: =?iso-8859-1?q?caf=E9?= au lait", "subject", "café au lait"),
    ("Subject: =?x-unknown?q?abc?=", "subject", "abc"),
    ("Subject: =?utf-8?q?broken", "subject", "=?utf-8?q?broken"),  # kept as written
    ("Subject: =?utf-8?b?!!!?=", "subject", "=?utf-8?b?!!!?="),
    (b"Subject: \xc3\xa9t\xc3\xa9 Orders", "subject", "été Orders"),  # raw UTF-8, no encoded word
    (b"Subject: caf\xe9", "subject", "caf\ufffd"),  # raw bytes that are not UTF-8: replaced
    ("From: =?utf-8?q?J=C3=B6rg?= <Joerg@Example.org>", "from_addr", "joerg@example.org"),
    ("From: \"Lannes, Jean\" <lannes@example.fr>", "from_addr", "lannes@example.fr"),
])
def test_a_header_read_as_written_is_decoded_as_a_person_reads_it(header, field, expected):
    header = header.encode() if isinstance(header, str) else header
    raw = b"To: pbem@example.org\r\n" + header + b"\r\nFrom: x@example.org\r\n\r\nGAME 1\r\n"
    assert getattr(parse_message(raw), field) == expected


@pytest.mark.parametrize("subject", ["=?utf-8?q?Automatic_reply?=: away", "=?utf-8?b?T3V0IG9mIG9mZmljZQ==?=",
                                     "=?iso-8859-1?q?R=E9ponse_automatique?="])
def test_an_encoded_subject_of_an_automatic_answer_is_a_robots_mail(subject):
    raw = f"From: anna@example.org\r\nSubject: {subject}\r\n\r\nI am away.\r\n".encode()
    msg = parse_message(raw)
    assert msg.auto and msg.auto_reason == "the subject of an automatic answer"


def test_an_attachment_named_in_an_encoded_word_is_read_by_its_name():
    msg = EmailMessage()
    msg["From"] = "anna@example.org"
    msg.set_content("")
    msg.add_attachment(ORDERS.encode(), maintype="text", subtype="plain", filename="ordres.txt")
    raw = msg.as_bytes().replace(b'filename="ordres.txt"', b'filename="=?utf-8?q?ordres=2Etxt?="')
    assert parse_message(raw, has_orders=has_orders).attachments == [("ordres.txt", ORDERS)]
