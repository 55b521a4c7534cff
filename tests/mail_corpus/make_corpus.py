"""Write the sample messages of tests/mail_corpus (run again after changing it).

    .venv/bin/python tests/mail_corpus/make_corpus.py

Each message is what a real mail program or robot sends, built with the
stdlib email package (hand-written bytes where the point is that it is
broken). tests/test_mail_inbound.py holds the expected outcome of each.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

HERE = Path(__file__).parent
ORDERS = "GAME 12 SIDE french TURN 3 KEY Zk3v9Qh2\nMOVE 2 3 Marengo -> Spinetta\nHOLD Alessandria\n"


def message(name: str, subject: str, sender: str = "Jean Lannes <lannes@example.fr>", **headers) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "orders@pbem.example.org"
    msg["Subject"] = subject
    msg["Date"] = "Mon, 03 Jun 2024 09:30:00 +0200"
    msg["Message-ID"] = f"<{name}@corpus.example>"
    for key, value in headers.items():
        msg[key.replace("_", "-")] = value
    return msg


def write(name: str, msg) -> None:
    data = msg if isinstance(msg, bytes) else msg.as_bytes(policy=SMTP)
    (HERE / f"{name}.eml").write_bytes(data)


def text_message(name, subject, text, charset, cte, **headers):
    msg = message(name, subject, **headers)
    msg.set_content(text, charset=charset, cte=cte)
    return msg


def main() -> None:
    write("plain_utf8", text_message(
        "plain_utf8", "Orders", ORDERS + "HOLD Castel Ceriolo — Général, tenez bon ✓\n", "utf-8", "8bit"))
    write("latin1_qp", text_message(
        "latin1_qp", "Ordres", ORDERS + "HOLD Pozzolo Formigaro: Général Desaix arrivé, café à l'état-major\n",
        "iso-8859-1", "quoted-printable"))
    write("windows1252", text_message(
        "windows1252", "Orders", ORDERS + "HOLD Torre Garofoli \u201cquoted\u201d \u2013 cost 5\u20ac\n",
        "windows-1252", "8bit"))
    write("koi8r_base64", text_message(
        "koi8r_base64", "Приказы", ORDERS + "HOLD Маренго: приказ генерала\n", "koi8-r", "base64",
        sender="Багратион <bagration@example.ru>"))
    write("gb18030", text_message(
        "gb18030", "命令", ORDERS + "HOLD 马伦戈 命令 𠀋\n", "gb18030", "base64", sender="张 <zhang@example.cn>"))
    write("gb2312", text_message(
        "gb2312", "命令", ORDERS + "HOLD 马伦戈 命令\n", "gb2312", "8bit", sender="张 <zhang@example.cn>"))

    msg = message("html_only", "Orders")
    msg.set_content(
        "<html><head><title>x</title><style>p {color: red}</style></head><body>"
        "<div>GAME 12 SIDE french TURN 3 KEY Zk3v9Qh2</div><p>MOVE 2 3 Marengo -&gt; Spinetta<br>"
        "HOLD Alessandria</p><ul><li>HOLD Bosco &amp; Fr&eacute;ugarolo</li><li>HOLD&nbsp;Novi</li></ul>"
        "<script>alert('no')</script></body></html>",
        subtype="html",
    )
    write("html_only", msg)

    msg = message("alternative", "Orders")
    msg.set_content(ORDERS)
    msg.add_alternative("<p>This HTML part must not be used</p>", subtype="html")
    msg.set_boundary("alt-boundary")
    write("alternative", msg)

    report = (
        "Day 2 report for game 12.\nThe Austrians attacked at Marengo.\n\n"
        "GAME 12 SIDE french TURN 2 KEY Zk3v9Qh2\nHOLD Marengo\n"
    )
    quoted = "".join(f"> {line}\n" if line else ">\n" for line in report.splitlines())
    write("reply_top", text_message(
        "reply_top", "Re: Game 12, day 2",
        ORDERS + "\nOn Sun, 2 Jun 2024 at 18:00, PBEM Server <orders@pbem.example.org>\nwrote:\n" + quoted
        + "\n-- \nJean Lannes\nDuc de Montebello\n",
        "utf-8", "quoted-printable", In_Reply_To="<report-2@pbem.example.org>"))
    write("reply_bottom", text_message(
        "reply_bottom", "Re: Game 12, day 2",
        "Le dim. 2 juin 2024 à 18:00, PBEM Server <orders@pbem.example.org> a écrit :\n" + quoted
        + "\n" + ORDERS + "\n--\nJL\n",
        "utf-8", "8bit"))
    write("reply_outlook", text_message(
        "reply_outlook", "RE: Game 12, day 2",
        ORDERS + "\n________________________________\nFrom: PBEM Server <orders@pbem.example.org>\n"
        "Sent: Sunday, June 2, 2024 6:00 PM\n\n" + report,
        "utf-8", "7bit"))
    write("flowed", text_message(
        "flowed", "Orders",
        "GAME 12 SIDE french TURN 3 KEY Zk3v9Qh2\nMOVE 2 3 Marengo -> Spinetta IF BLOCKED \nSTAY\n",
        "utf-8", "7bit"))
    raw = (HERE / "flowed.eml").read_bytes().replace(b"charset=\"utf-8\"", b"charset=\"utf-8\"; format=flowed")
    (HERE / "flowed.eml").write_bytes(raw)

    msg = message("txt_attachment", "Orders attached")
    msg.set_content("Here are my orders.\n\n-- \nJean\n")
    msg.add_attachment(ORDERS.encode("utf-8"), maintype="text", subtype="plain", filename="orders.txt")
    msg.set_boundary("mixed-boundary")
    write("txt_attachment", msg)

    msg = message("txt_only", "")
    msg.set_content("\n-- \nJean\n")
    msg.add_attachment(ORDERS.encode("utf-8"), maintype="application", subtype="octet-stream", filename="Orders.TXT")
    msg.set_boundary("mixed-boundary")
    write("txt_only", msg)

    write("autoreply", text_message(
        "autoreply", "Automatic reply: Game 12", "I am away until Monday.\n", "utf-8", "7bit",
        Auto_Submitted="auto-replied"))
    write("vacation", text_message(
        "vacation", "Out of office", "I am on vacation.\n", "utf-8", "7bit", X_Autoreply="yes"))
    write("bulk", text_message(
        "bulk", "Newsletter", "Buy our dice.\n", "utf-8", "7bit", Precedence="bulk", sender="news@dice.example"))
    write("mailing_list", text_message(
        "mailing_list", "[wargamers] Marengo", "Anyone for a game?\n", "utf-8", "7bit",
        List_Id="Wargamers <wargamers.lists.example>"))

    original = text_message("original", "Game 12, day 2", report, "utf-8", "7bit", sender="orders@pbem.example.org")
    write("bounce", (
        b"Return-Path: <>\r\nFrom: MAILER-DAEMON@mx.example.fr (Mail Delivery System)\r\n"
        b"To: orders@pbem.example.org\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        b"Message-ID: <bounce@corpus.example>\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/report; report-type=delivery-status; boundary="bounce-boundary"\r\n\r\n'
        b"--bounce-boundary\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n"
        b"I'm sorry to have to inform you that your message could not be delivered.\r\n\r\n"
        b"--bounce-boundary\r\nContent-Type: message/delivery-status\r\n\r\n"
        b"Reporting-MTA: dns; mx.example.fr\r\n\r\nFinal-Recipient: rfc822; gone@example.fr\r\n"
        b"Action: failed\r\nStatus: 5.1.1\r\n\r\n"
        b"--bounce-boundary\r\nContent-Type: message/rfc822\r\n\r\n"
        + original.as_bytes(policy=SMTP)
        + b"\r\n--bounce-boundary--\r\n"
    ))
    write("bounce_plain", text_message(
        "bounce_plain", "failure notice", "Hi. This is the qmail-send program.\n", "us-ascii", "7bit",
        sender="MAILER-DAEMON@mail.example.com"))

    write("broken_boundary", (
        b"From: Jean Lannes <lannes@example.fr>\r\nTo: orders@pbem.example.org\r\nSubject: Orders\r\n"
        b"Message-ID: <broken_boundary@corpus.example>\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="declared-boundary"\r\n\r\n'
        b"--other-boundary\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        + ORDERS.replace("\n", "\r\n").encode()
        + b"--other-boundary--\r\n"
    ))

    msg = message("oversized", "Orders with a big picture")
    msg.set_content(ORDERS)
    msg.add_attachment(bytes(range(256)) * 80, maintype="image", subtype="png", filename="map.png")
    msg.set_boundary("mixed-boundary")
    write("oversized", msg)

    write("mislabelled_ascii", (
        b"From: lannes@example.fr\r\nTo: orders@pbem.example.org\r\nSubject: Orders\r\n"
        b"Message-ID: <mislabelled_ascii@corpus.example>\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=us-ascii\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        + (ORDERS + "HOLD Général\n").replace("\n", "\r\n").encode("utf-8")
    ))
    write("reply_to", text_message(
        "reply_to", "Orders", ORDERS, "utf-8", "7bit", Reply_To="Jean <jean.home@example.net>"))


if __name__ == "__main__":
    main()
