"""Write the reply mails of tests/reply_corpus (run again after changing it).

    .venv/bin/python tests/reply_corpus/make_corpus.py

Each mail is a player's answer to one of the server's mails, laid out the way
a real mail program writes a reply, after that program's documented or
commonly seen format: where the new text goes, the attribution line or header
block in the program's language, the quoting (``>``, a blockquote, none), the
footer a phone or app adds. The player's new text is an orders block; the
quoted part is a mail the server really sends (welcome, acknowledgement,
refusal, turn report), drawn by the server itself, with its marker lines.
``expected.json`` holds, for each file, its style (the family of issue 19
it belongs to) and the orders the player meant.

Dates, names and keys are fixed so that running this again gives the same files.
"""

from __future__ import annotations

import html as htmllib
import json
import re
import sys
import tempfile
import textwrap
from datetime import datetime, timezone
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from conftest import Clock  # noqa: E402

from pbem.server.mail.reply import mark_html, mark_text  # noqa: E402
from pbem.server.service import Service  # noqa: E402
from pbem.server.store import Store  # noqa: E402

KEY = "Zk3v9Qh2Lp"
HEAD = f"GAME 1 SIDE Austria TURN 6AM KEY {KEY}"
PBEM = "pbem <pbem@games.example.org>"
PBEM_ADDR = "pbem@games.example.org"
PLAYER = "Anna Zach <anna@example.org>"
SUBJECT = "[pbem 1] Orders accepted"
# The orders a player sends on the first day (all valid for Austria at 6AM).
ORDERS = [
    "ENTER A1 A2 A3 BY ROAD\nENTER A4 BY PONTOON",
    "ENTER A2 A3 BY ROAD -> Pedrabona\nFINAL",
    "ENTER A5 BY ROAD # the Grenzer first\nSTANDING PURSUE STRONG",
    "# the pontoon first\nENTER A4 BY PONTOON\nENTER A1 BY ROAD -> Pedrabona -> Marengo",
    "ENTER A1 BY ROAD\nENTER A4 BY PONTOON\nSTANDING LOSSES WEAKEST\nFINAL",
    "enter a2 a3 by road\nenter a4 by pontoon",
]


# -- the server's mails, as it sends them --------------------------------------------------------


def server_mails() -> dict[str, tuple[str, str | None]]:
    """name -> (text, html) of the server's mails that players reply to, with their markers."""
    clock = Clock(datetime(2024, 6, 3, 7, 30, tzinfo=timezone.utc))
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "corpus.sqlite3", clock=clock)
        service = Service(store, clock=clock)
        game_id, keys = service.create_game("Corpus", {"austria": "anna@example.org", "france": "fred@example.org"},
                                            seed=3, settings={"hours": 48})
        welcome = store.mail("WHERE to_addr = 'anna@example.org'")["body"]
        welcome = welcome.replace(keys["austria"], KEY)
        welcome = re.sub(r"\b[0-9a-f]{64}\b", "5" * 64, welcome)  # the seed's commitment has a random salt
        ack = service.submit(game_id, "austria", f"{HEAD}\nENTER A6 A7 BY ROAD\nSTANDING BLOCK ALL ALWAYS\n").message()
        refused = service.submit(game_id, "austria", f"{HEAD}\nENTER A6 BY RAOD\n").message()
        service.resolve_next(game_id, ask=False)
        report = service.report(game_id, 0, "austria", "")
        store.close()
    return {
        "welcome": (mark_text(welcome), None),
        "ack": (mark_text(ack), None),
        "refused": (mark_text(refused), None),
        "report": (mark_text(report.text), mark_html(report.html)),
    }


MAILS = server_mails()


def quoted_text(name: str) -> str:
    return MAILS[name][0].rstrip("\n")


def quoted_html(name: str) -> str:
    """The server's mail as the replying program holds it: its HTML body, or its text in <div>s."""
    text, html = MAILS[name]
    if html:
        inner = html.split("<body>", 1)[-1].rsplit("</body>", 1)[0]
        return inner
    return "".join(f"<div>{htmllib.escape(line) if line.strip() else '<br>'}</div>" for line in text.splitlines())


def gt(text: str, prefix: str = "> ") -> str:
    return "\n".join((prefix + line) if line.strip() else prefix.rstrip() for line in text.splitlines())


def html_lines(text: str) -> str:
    return "".join(f"<div>{htmllib.escape(line) if line.strip() else '<br>'}</div>" for line in text.splitlines())


# -- the mails -----------------------------------------------------------------------------------


CASES: list[dict] = []


def case(name: str, style: str, orders: str, text: str | None = None, html: str | None = None, **extra) -> None:
    CASES.append(dict(name=name, style=style, orders=orders, text=text, html=html, **extra))


def orders(n: int) -> str:
    return f"{HEAD}\n{ORDERS[n % len(ORDERS)]}"


# 0. What already worked: ">" quoting under an attribution, Outlook's "Original Message" and rule.

ATTRIBUTIONS = {  # language -> attribution line (Gmail and Apple Mail wording, with the verb)
    "en": f"On Mon, 3 Jun 2024 at 09:30, {PBEM} wrote:",
    "fr": f"Le lun. 3 juin 2024 à 09:30, {PBEM} a écrit :",
    "it": f"Il giorno lun 3 giu 2024 alle ore 09:30 {PBEM} ha scritto:",
    "es": f"El lun, 3 jun 2024 a las 9:30, pbem (<{PBEM_ADDR}>) escribió:",
    "sv": f"Den mån 3 juni 2024 kl 09:30 skrev {PBEM}:",
    "pl": "W dniu 3.06.2024 o 09:30, pbem pisze:",
}
for n, (lang, attribution) in enumerate(ATTRIBUTIONS.items()):
    body = orders(n)
    style = "3 attribution" if lang in ("sv", "pl") else "0 already worked"  # the verb first; a verb not known before
    case(f"works_gt_{lang}", style, body, text=f"{body}\n\n{attribution}\n\n{gt(quoted_text('ack'))}\n")
case("works_original_message", "0 already worked", orders(1), text=(
    f"{orders(1)}\n\n-----Original Message-----\nFrom: {PBEM}\nSent: Monday, June 3, 2024 9:30 AM\n"
    f"To: {PLAYER}\nSubject: {SUBJECT}\n\n{quoted_text('ack')}\n"))
case("works_outlook_rule", "0 already worked", orders(2), text=(
    f"{orders(2)}\n\n________________________________\nFrom: {PBEM}\nSent: Monday, June 3, 2024 9:30 AM\n"
    f"To: {PLAYER}\nSubject: {SUBJECT}\n\n{quoted_text('welcome')}\n"))
case("works_signature", "0 already worked", orders(3), text=(
    f"{orders(3)}\n\n-- \nAnna Zach\n\n{ATTRIBUTIONS['en']}\n{gt(quoted_text('ack'))}\n"))
case("works_bottom_posting", "0 already worked", orders(4), text=(
    f"{ATTRIBUTIONS['en']}\n{gt(quoted_text('ack'))}\n\n{orders(4)}\n"))
case("works_interleaved", "0 already worked", orders(5), text=(
    f"{ATTRIBUTIONS['fr']}\n{gt(quoted_text('refused'))}\n\n{HEAD}\n\n> {quoted_text('refused').splitlines()[3]}\n\n"
    f"{ORDERS[5]}\n\n>> older\n"))
case("works_gmail_html", "0 already worked", orders(0), html=(
    f'<div dir="ltr">{html_lines(orders(0))}</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
    f'{htmllib.escape(ATTRIBUTIONS["en"])}<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;'
    f'border-left:1px solid rgb(204,204,204);padding-left:1ex">{quoted_html("report")}</blockquote></div>'))
case("works_thunderbird_html", "0 already worked", orders(1), html=(
    f'<html><body><p>{"<br>".join(htmllib.escape(x) for x in orders(1).splitlines())}</p>'
    f'<div class="moz-cite-prefix">On 03/06/2024 09:30, pbem wrote:<br></div>'
    f'<blockquote type="cite" cite="mid:pbem.7.20240603073000@games.example.org">{quoted_html("ack")}'
    f'</blockquote></body></html>'))


# 1. Outlook-style header blocks with no separator line.

HEADER_BLOCKS = {  # name -> (labels: from, sent, to, subject; date text)
    "en": (("From", "Sent", "To", "Subject"), "Monday, June 3, 2024 9:30 AM"),
    "fr": (("De", "Envoyé", "À", "Objet"), "lundi 3 juin 2024 09:30"),
    "fr_le": (("De", "Envoyé le", "À", "Objet"), "lundi 3 juin 2024 09:30"),
    "de": (("Von", "Gesendet", "An", "Betreff"), "Montag, 3. Juni 2024 09:30"),
    "nl": (("Van", "Verzonden", "Aan", "Onderwerp"), "maandag 3 juni 2024 09:30"),
    "it": (("Da", "Inviato", "A", "Oggetto"), "lunedì 3 giugno 2024 09:30"),
    "ru": (("От", "Отправлено", "Кому", "Тема"), "3 июня 2024 г. 9:30"),
    "uk": (("Від", "Надіслано", "Кому", "Тема"), "понеділок, 3 червня 2024 р. 09:30"),
    "es": (("De", "Enviado el", "Para", "Asunto"), "lunes, 3 de junio de 2024 9:30"),
    "pl": (("Od", "Wysłano", "Do", "Temat"), "poniedziałek, 3 czerwca 2024 09:30"),
    "zh": (("发件人", "发送时间", "收件人", "主题"), "2024年6月3日 9:30"),
    "da": (("Fra", "Sendt", "Til", "Emne"), "3. juni 2024 09:30"),
    "sv": (("Från", "Skickat", "Till", "Ämne"), "den 3 juni 2024 09:30"),
    "cs": (("Od", "Odesláno", "Komu", "Předmět"), "pondělí 3. června 2024 9:30"),
    "mac": (("From", "Date", "To", "Subject"), "Monday, 3 June 2024 at 09:30"),
}


def header_block(labels, date, bold=False, colon=":") -> str:
    b = "*" if bold else ""
    values = (PBEM, date, PLAYER, SUBJECT)
    space = " " if colon == " :" else ""
    return "\n".join(f"{b}{label}{space}{colon.strip()}{b} {value}" for label, value in zip(labels, values))


for n, (lang, (labels, date)) in enumerate(HEADER_BLOCKS.items()):
    colon = " :" if lang.startswith("fr") else ":"
    body = orders(n)
    which = ("ack", "welcome", "refused", "report")[n % 4]
    case(f"outlook_{lang}", "1 header block", body,
         text=f"{body}\n\n{header_block(labels, date, colon=colon)}\n\n{quoted_text(which)}\n")
for n, lang in enumerate(("en", "fr", "de", "ru")):
    labels, date = HEADER_BLOCKS[lang]
    body = orders(n + 2)
    case(f"outlook_bold_{lang}", "1 header block", body,
         text=f"{body}\n\n{header_block(labels, date, bold=True, colon=' :' if lang == 'fr' else ':')}\n\n"
              f"{quoted_text('ack')}\n")


def outlook_html(labels, date, quoted, style: str) -> str:
    rows = "<br>".join(f"<b>{label}:</b> {htmllib.escape(value)}"
                       for label, value in zip(labels, (PBEM, date, PLAYER, SUBJECT)))
    if style == "2003":
        head = (f'<div><div class=OutlookMessageHeader lang=en-us dir=ltr align=left><hr tabindex=-1>'
                f'<font face=Tahoma size=2>{rows}<br></font><br></div>')
        return head + quoted + "</div>"
    if style == "2010":
        return (f"<div><div style='border:none;border-top:solid #B5C4DF 1.0pt;padding:3.0pt 0cm 0cm 0cm'>"
                f"<p class=MsoNormal><b><span lang=EN-US>{labels[0]}:</span></b><span lang=EN-US> "
                f"{htmllib.escape(PBEM)}<br><b>{labels[1]}:</b> {date}<br><b>{labels[2]}:</b> "
                f"{htmllib.escape(PLAYER)}<br><b>{labels[3]}:</b> {SUBJECT}<o:p></o:p></span></p></div></div>"
                f"<p class=MsoNormal><o:p>&nbsp;</o:p></p>{quoted}")
    if style == "owa":
        return (f'<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">'
                f'<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" '
                f'color="#000000">{rows}</font><div>&nbsp;</div></div>{quoted}')
    if style == "windows_mail":
        return (f'<div style="padding-top: 5px; border-top-color: rgb(229, 229, 229); border-top-width: 1px; '
                f'border-top-style: solid;"><div><font face="Calibri"><b>{labels[0]}:</b>&nbsp;<a href="mailto:'
                f'{PBEM_ADDR}">pbem</a><br><b>{labels[1]}:</b>&nbsp;{date}<br><b>{labels[2]}:</b>&nbsp;'
                f'<a href="mailto:anna@example.org">Anna Zach</a></font></div></div><div><br></div>'
                f'<div dir="">{quoted}</div>')
    if style == "hotmail":
        return (f'<hr id="stopSpelling">Date: Mon, 3 Jun 2024 09:30:00 +0200<br>From: {PBEM_ADDR}<br>'
                f'To: anna@example.org<br>Subject: {SUBJECT}<br><br>{quoted}')
    if style == "zimbra":
        return (f'<hr id="zwchr"><div style="color:#000;font-weight:normal;font-style:normal;text-decoration:none;'
                f'font-family:Helvetica,Arial,sans-serif;font-size:12pt;"><b>{labels[0]}: </b>"pbem" '
                f'&lt;{PBEM_ADDR}&gt;<br><b>{labels[2]}: </b>"Anna Zach" &lt;anna@example.org&gt;<br>'
                f'<b>{labels[1]}: </b>{date}<br><b>{labels[3]}: </b>{SUBJECT}<br></div><br>{quoted}')
    raise ValueError(style)


for n, (style, lang, which) in enumerate((
        ("2003", "en", "ack"), ("2003", "de", "report"), ("2010", "en", "report"), ("2010", "fr", "welcome"),
        ("2010", "ru", "ack"), ("owa", "en", "report"), ("owa", "nl", "ack"), ("owa", "it", "refused"),
        ("windows_mail", "ru", "ack"), ("windows_mail", "en", "welcome"), ("hotmail", "en", "ack"),
        ("hotmail", "en", "report"), ("zimbra", "en", "ack"), ("zimbra", "fr", "report"))):
    labels, date = HEADER_BLOCKS[lang]
    body = orders(n)
    case(f"outlook_html_{style}_{lang}_{which}", "1 header block", body,
         html=(f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head><body>'
               f'<div style="font-family:Calibri">{html_lines(body)}</div><div><br></div>'
               f'{outlook_html(labels, date, quoted_html(which), style)}</body></html>'))


# 2. Phone and app footers without "-- ".

FOOTERS = {
    "iphone": "Sent from my iPhone",
    "ipad_fr": "Envoyé de mon iPad",
    "iphone_de": "Von meinem iPhone gesendet",
    "iphone_ru": "Отправлено с iPhone",
    "iphone_zh": "发自我的iPhone",
    "iphone_it": "Inviato da iPhone",
    "blackberry": "Sent from my BlackBerry 10 smartphone on the Rogers network.",
    "blackberry_att": "Sent via BlackBerry by AT&T",
    "verizon": "Sent from my Verizon, Samsung Galaxy smartphone",
    "tmobile": "Sent from my T-Mobile 4G LTE Device",
    "outlook_ios": "Get Outlook for iOS<https://aka.ms/o0ukef>",
    "outlook_ios_fr": "Obtenir Outlook pour iOS<https://aka.ms/o0ukef>",
    "outlook_ios_de": "Outlook für iOS<https://aka.ms/o0ukef> beziehen",
    "outlook_android_fr": "Télécharger Outlook pour Android<https://aka.ms/AAb9ysg>",
    "yahoo_android": "Sent from Yahoo Mail on Android",
    "windows_mail": "Sent from Mail for Windows",
    "mailru_mobile": "Отправлено из мобильной Почты Mail.ru",
    "yandex_mobile": "Отправлено из мобильной Яндекс Почты",
    "ukr_iphone": "Надіслано з iPhone",
    "proton": "Sent with Proton Mail secure email.",
}
for n, (name, footer) in enumerate(FOOTERS.items()):
    body = orders(n)
    if name.startswith("outlook_"):
        labels, date = HEADER_BLOCKS["fr" if "fr" in name else "de" if "de" in name else "en"]
        colon = " :" if "fr" in name else ":"
        text = (f"{body}\n\n{footer}\n________________________________\n{header_block(labels, date, colon=colon)}"
                f"\n\n{quoted_text('ack')}\n")
    elif name.startswith("blackberry"):
        text = (f"{body}\n{footer}\n  Original Message  \nFrom: {PBEM}\nSent: Monday, 3 June 2024 09:30\n"
                f"To: {PLAYER}\nSubject: {SUBJECT}\n\n{quoted_text('welcome')}\n")
    elif name in ("verizon", "tmobile"):
        text = (f"{body}\n\n\n\n{footer}\n\n\n-------- Original message --------\nFrom: {PBEM}\n"
                f"Date: 6/3/24 09:30 (GMT+01:00)\nTo: {PLAYER}\nSubject: {SUBJECT}\n\n{quoted_text('ack')}\n")
    elif n % 2:
        text = f"{body}\n\n{footer}\n\n> On 3 Jun 2024, at 09:30, {PBEM} wrote:\n> \n{gt(quoted_text('ack'))}\n"
    else:  # the quote below the footer without ">" (the phone sent it as HTML, the text part was made from it)
        text = f"{body}\n\n{footer}\n\nOn 3 Jun 2024, at 09:30, {PBEM} wrote:\n\n{quoted_text('report')}\n"
    case(f"footer_{name}", "2 footer", body, text=text)
for n, signature in enumerate(("---\nAnna Zach\nVienna", "__\nAnna", "----------\nAnna Zach | Wien\n+43 1 234 5678",
                               "———\nA. Zach")):
    body = orders(n + 1)
    case(f"footer_dashes_{n}", "2 footer", body,
         text=f"{body}\n\n{signature}\n\n{ATTRIBUTIONS['en']}\n\n{quoted_text('ack')}\n")
case("footer_iphone_html", "2 footer", orders(2), html=(
    f'<html><body><div dir="ltr">{html_lines(orders(2))}</div><div dir="ltr"><br><div>Sent from my iPhone</div>'
    f'</div><div dir="ltr"><br><blockquote type="cite">On 3 Jun 2024, at 09:30, pbem &lt;{PBEM_ADDR}&gt; wrote:'
    f'<br><br></blockquote></div><blockquote type="cite"><div dir="ltr">{quoted_html("ack")}</div></blockquote>'
    f'</body></html>'))
case("footer_outlook_ios_html", "2 footer", orders(3), html=(
    f'<html><body><div dir="auto">{html_lines(orders(3))}</div><div dir="auto"><br></div>'
    f'<div id="ms-outlook-mobile-signature"><div dir="auto">Get <a href="https://aka.ms/o0ukef">Outlook for iOS</a>'
    f'</div></div>{outlook_html(HEADER_BLOCKS["en"][0], HEADER_BLOCKS["en"][1], quoted_html("ack"), "owa")}'
    f'</body></html>'))


# 3. Attribution lines without a verb, with a verb the old rules did not know, the verb first, wrapped.

VERBLESS = {
    "yandex": f'03.06.2024, 09:30, "pbem" <{PBEM_ADDR}>:',
    "mailru": f"Понедельник, 3 июня 2024, 9:30 +02:00 от pbem <{PBEM_ADDR}>:",
    "gmail_ru": f"пн, 3 июн. 2024 г. в 09:30, pbem <{PBEM_ADDR}>:",
    "gmail_iso": f"2024-06-03 9:30 GMT+02:00 pbem <{PBEM_ADDR}>:",
    "gmail_ja": f"2024年6月3日(月) 9:30 pbem <{PBEM_ADDR}>:",
    "hu": f"pbem <{PBEM_ADDR}> ezt írta (időpont: 2024. jún. 3., H, 9:30):",
    "fi": f"ma 3.6.2024 klo 9.30 pbem ({PBEM_ADDR}) kirjoitti:",
    "pt": f"Em seg., 3 de jun. de 2024 às 09:30, {PBEM} escreveu:",
    "pl": f"pon., 3 cze 2024 o 09:30 {PBEM} napisał(a):",
    "ru_wrote": f"3 июня 2024 г., в 9:30, pbem <{PBEM_ADDR}> написал(а):",
    "ru_writes": f"Понедельник, 3 июня 2024, 09:30 +02:00 от pbem <{PBEM_ADDR}> пишет:",
    "uk": f"пн, 3 черв. 2024 р. о 09:30 {PBEM} пише:",
    "zh": f"{PBEM} 于2024年6月3日周一 09:30写道：",
    "zh_tw": f"{PBEM} 於 2024年6月3日 週一 上午9:30寫道：",
    "de_am": f"Am Mo., 3. Juni 2024 um 09:30 Uhr schrieb {PBEM}:",
    "nl_op": f"Op ma 3 jun 2024 om 09:30 schreef {PBEM}:",
    "da": f"Den man. 3. jun. 2024 kl. 09.30 skrev {PBEM}:",
    "cs": f"po 3. 6. 2024 v 9:30 odesílatel {PBEM} napsal:",
    "tr": f"{PBEM}, 3 Haz 2024 Pzt, 09:30 tarihinde şunu yazdı:",
    "el": f"Στις Δευ 3 Ιουν 2024 στις 9:30 π.μ., ο/η {PBEM} έγραψε:",
    "ko": f"2024년 6월 3일 (월) 오전 9:30, {PBEM}님이 작성:",
}
for n, (lang, attribution) in enumerate(VERBLESS.items()):
    body = orders(n)
    which = ("ack", "report", "welcome")[n % 3]
    if n % 3 == 2:  # the quote without ">" (an HTML mail's text part, or a client that does not mark quotes)
        text = f"{body}\n\n{attribution}\n\n{quoted_text(which)}\n"
    else:
        text = f"{body}\n\n{attribution}\n\n{gt(quoted_text(which))}\n"
    case(f"attribution_{lang}", "3 attribution", body, text=text)
for n, (lang, lines) in enumerate({
        "en_2": f"On Mon, 3 Jun 2024 at 09:30, pbem server <\n{PBEM_ADDR}> wrote:",
        "en_3": f"On Mon, Jun 3, 2024 at 9:30 AM\npbem server\n<{PBEM_ADDR}> wrote:",
        "de_2": f"Am Mo., 3. Juni 2024 um 09:30 Uhr schrieb pbem server\n<{PBEM_ADDR}>:",
        "fr_2": f"Le lun. 3 juin 2024 à 09:30, pbem server <{PBEM_ADDR}> a\nécrit :",
        "nl_2": f"Op ma 3 jun 2024 om 09:30 schreef pbem server <\n{PBEM_ADDR}>:",
}.items()):
    body = orders(n + 1)
    tail = gt(quoted_text("ack")) if n % 2 == 0 else quoted_text("ack")
    case(f"attribution_wrapped_{lang}", "3 attribution", body, text=f"{body}\n\n{lines}\n\n{tail}\n")
for n, (lang, attribution) in enumerate((("yandex", VERBLESS["yandex"]), ("mailru", VERBLESS["mailru"]),
                                         ("gmail_ru", VERBLESS["gmail_ru"]), ("zh", VERBLESS["zh"]))):
    body = orders(n + 3)
    if lang == "mailru":
        html = (f'<html><body><p>{"<br>".join(htmllib.escape(x) for x in body.splitlines())}</p><br><br><br>'
                f'{htmllib.escape(attribution)}<br><blockquote style="border-left:1px solid #0857A6; margin:10px; '
                f'padding:0 0 0 10px;"><div id="">{quoted_html("report")}</div></blockquote><br></body></html>')
    elif lang == "yandex":
        html = (f'<div>{"</div><div>".join(htmllib.escape(x) for x in body.splitlines())}</div><div>&nbsp;</div>'
                f'<div>&nbsp;</div><div>{htmllib.escape(attribution)}</div><blockquote>{quoted_html("ack")}'
                f'</blockquote>')
    else:
        html = (f'<div dir="ltr">{html_lines(body)}</div><br><div class="gmail_quote"><div dir="ltr" '
                f'class="gmail_attr">{htmllib.escape(attribution)}<br></div><blockquote class="gmail_quote" '
                f'style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">'
                f'{quoted_html("ack")}</blockquote></div>')
    case(f"attribution_html_{lang}", "3 attribution", body, html=html)
case("attribution_yahoo_html", "3 attribution", orders(4), html=(
    f'<html><body><div class="ydp" style="font-family:Helvetica">{html_lines(orders(4))}</div>'
    f'<div id="yahoo_quoted_123" class="yahoo_quoted"><div style="font-family:Helvetica;font-size:13px;'
    f'color:#26282a;"><div>On Monday, June 3, 2024, 09:30:00 AM GMT+2, pbem &lt;{PBEM_ADDR}&gt; wrote:</div>'
    f'<div><br></div><div><br></div><div><div id="yiv1234">{quoted_html("ack")}</div></div></div></div>'
    f'</body></html>'))


# 4. Other separators.

case("separator_danish", "4 separator", orders(0), text=(
    f"{orders(0)}\n\n-------- Oprindelig besked --------\nFra: {PBEM}\nDato: 03.06.2024 09:30\n"
    f"Til: {PLAYER}\nEmne: {SUBJECT}\n\n{quoted_text('ack')}\n"))
case("separator_gmail_forward", "4 separator", orders(1), text=(
    f"{orders(1)}\n\n---------- Forwarded message ---------\nFrom: {PBEM}\nDate: Mon, 3 Jun 2024 at 09:30\n"
    f"Subject: {SUBJECT}\nTo: {PLAYER}\n\n\n{quoted_text('report')}\n"))
case("separator_equals", "4 separator", orders(2), text=(
    f"{orders(2)}\n\n==========\n{quoted_text('ack')}\n"))
case("separator_equals_original", "4 separator", orders(3), text=(
    f"{orders(3)}\n\n======= Original Message =======\n\n{quoted_text('welcome')}\n"))
case("separator_zoho", "4 separator", orders(4), text=(
    f"{orders(4)}\n\n\n---- On Mon, 03 Jun 2024 09:30:00 +0200 pbem <{PBEM_ADDR}> wrote ----\n\n"
    f"{quoted_text('ack')}\n"))
case("separator_zoho_html", "4 separator", orders(5), html=(
    f'<html><body><div style="font-family:Verdana">{html_lines(orders(5))}<div class="zmail_extra"><br>'
    f'<div id="Zm-_Id_-Sgn1">---- On Mon, 03 Jun 2024 09:30:00 +0200 <b>pbem &lt;{PBEM_ADDR}&gt;</b> wrote ----'
    f'<br></div><br><blockquote style="border-left: 1px solid rgb(204, 204, 204); padding-left: 6px; margin: 0px '
    f'0px 0px 5px;">{quoted_html("report")}</blockquote></div></div></body></html>'))
case("separator_ru_original", "4 separator", orders(0), text=(
    f"{orders(0)}\n\n-------- Исходное сообщение --------\nОт: {PBEM}\nДата: 03.06.2024 9:30\n"
    f"Кому: {PLAYER}\nТема: {SUBJECT}\n\n{quoted_text('ack')}\n"))
case("separator_de_original", "4 separator", orders(1), text=(
    f"{orders(1)}\n\n-----Ursprüngliche Nachricht-----\nVon: {PBEM}\nGesendet: Montag, 3. Juni 2024 09:30\n"
    f"An: {PLAYER}\nBetreff: {SUBJECT}\n\n{quoted_text('ack')}\n"))


# 5. Quoted lines hard-wrapped without ">".


def wrapped_quote(text: str, width: int = 72) -> str:
    """What a client does that quotes and then wraps at ``width`` without repeating the ">"."""
    out = []
    for line in text.splitlines():
        quoted = "> " + line if line.strip() else ">"
        if len(quoted) <= width:
            out.append(quoted)
        else:
            first, rest = textwrap.wrap(quoted, width)[0], quoted[len(textwrap.wrap(quoted, width)[0]):].strip()
            out += [first, rest]
    return "\n".join(out)


case("wrapped_quote_report", "5 wrapped quote", orders(2), text=(
    f"{orders(2)}\n\n{ATTRIBUTIONS['en']}\n{wrapped_quote(quoted_text('report'))}\n"))
case("wrapped_quote_welcome", "5 wrapped quote", orders(3), text=(
    f"{ATTRIBUTIONS['en']}\n{wrapped_quote(quoted_text('welcome'), 66)}\n\n{orders(3)}\n"))


# 6. The player's own earlier mail in the chain, and the server's orders form quoted without ">".

case("chain_own_orders", "6 old orders", orders(0), text=(
    f"{orders(0)}\n\nFrom: {PLAYER}\nSent: Monday, June 3, 2024 9:20 AM\nTo: {PBEM}\nSubject: orders\n\n"
    f"{HEAD}\nENTER A6 A7 BY ROAD\n\nFrom: {PBEM}\nSent: Monday, June 3, 2024 9:00 AM\nTo: {PLAYER}\n"
    f"Subject: [pbem 1] Welcome\n\n{quoted_text('welcome')}\n"))
case("chain_unknown_quote", "6 old orders", orders(1), text=(
    f"{orders(1)}\n\nxyz 3/6 pbem\n\n{HEAD}\nENTER A6 A7 BY ROAD\n"))
case("orders_form_unmarked", "6 old orders", orders(2), text=(
    f"{orders(2)}\n\n" + "\n".join(line for line in quoted_text("welcome").splitlines() if "[pbem-mail" not in line)
    + "\n"), markers=False)
case("bottom_unprefixed", "6 old orders", orders(3), text=(
    f"{header_block(HEADER_BLOCKS['en'][0], HEADER_BLOCKS['en'][1])}\n\n{quoted_text('ack')}\n\n{orders(3)}\n"))


# 7. What players write around their orders: a greeting, a sign-off, comments that look like mail.

case("around_greeting_sign_off_en", "7 around the orders", orders(0), text=(
    f"Hi,\n\n{orders(0)}\n\nThanks,\nAnna\n\n{ATTRIBUTIONS['en']}\n{gt(quoted_text('ack'))}\n"))
case("around_sign_off_fr", "7 around the orders", orders(1), text=(
    f"{orders(1)}\n\nCordialement,\nAnna\n\n{header_block(*HEADER_BLOCKS['fr'], colon=' :')}\n\n"
    f"{quoted_text('ack')}\n"))
case("around_sign_off_ru", "7 around the orders", orders(2), text=(
    f"{orders(2)}\n\nС уважением,\nАнна\n\n{VERBLESS['yandex']}\n{gt(quoted_text('ack'))}\n"))
case("around_greeting_de", "7 around the orders", orders(3), text=(
    f"Hallo,\nhier meine Befehle:\n\n{orders(3)}\n\nViele Grüße\nAnna\n\n{VERBLESS['de_am']}\n\n"
    f"{gt(quoted_text('welcome'))}\n"))
case("around_sign_off_uk_html", "7 around the orders", orders(4), html=(
    f'<div dir="ltr">{html_lines(orders(4) + chr(10) + chr(10) + "Дякую!" + chr(10) + "Ганна")}</div><br>'
    f'<div class="gmail_quote"><div dir="ltr" class="gmail_attr">{htmllib.escape(VERBLESS["uk"])}<br></div>'
    f'<blockquote class="gmail_quote">{quoted_html("ack")}</blockquote></div>'))
MAIL_LIKE_COMMENTS = (f"{HEAD}\n# From: the north, Sent: at dawn\n# On Monday, Melas wrote: hold fast\n"
                      f"ENTER A1 A2 A3 BY ROAD\n# -----\n# Sent from my tent\nENTER A4 BY PONTOON")
case("around_mail_like_comments", "7 around the orders", MAIL_LIKE_COMMENTS, text=(
    f"{MAIL_LIKE_COMMENTS}\n\nSent from my iPhone\n\n> {ATTRIBUTIONS['en']}\n{gt(quoted_text('ack'))}\n"))
INTERLEAVED = f"{HEAD}\nENTER A1 A2 A3 BY ROAD\nENTER A4 BY PONTOON"
ack_lines = quoted_text("ack").splitlines()
case("around_interleaved_no_blank", "7 around the orders", INTERLEAVED, text=(
    f"{HEAD}\n\n{ATTRIBUTIONS['en']}\n> {ack_lines[2]}\nENTER A1 A2 A3 BY ROAD\n> {ack_lines[3]}\n"
    f">\n>   ENTER A6 A7 BY ROAD\nENTER A4 BY PONTOON\n>   STANDING BLOCK ALL ALWAYS\n>\n> {ack_lines[-1]}\n"))


# 8. The orders form filled in where it stands, in the server's mail.


def filled_form(name: str, key_line: str, uncomment: tuple[str, ...]) -> tuple[str, str]:
    """The server's mail ``name`` with its orders form filled in (the key written, some
    examples uncommented), and the form as the player meant it (header to the form's end)."""
    text = quoted_text(name).replace("KEY <your-key>", f"KEY {KEY}")
    for example in uncomment:
        text = text.replace(f"# {example}", example)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("GAME 1 SIDE"))
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].startswith("--") or "[pbem-mail" in lines[i]), len(lines))
    return text, "\n".join(lines[start:end])


text, meant = filled_form("welcome", HEAD, ("ENTER A4 BY PONTOON", "STANDING PURSUE STRONG"))
case("inplace_outlook_welcome", "8 form filled in place", meant, text=(
    f"See below.\n\n{header_block(*HEADER_BLOCKS['en'])}\n\n{text}\n"))
case("inplace_pasted_welcome", "8 form filled in place", meant, text=f"{text}\n")
text, meant = filled_form("report", HEAD, ("STANDING LOSSES WEAKEST",))
case("inplace_outlook_report_de", "8 form filled in place", meant, text=(
    f"{header_block(*HEADER_BLOCKS['de'])}\n\n{text}\n"))


# 9. Orders forwarded: sent from elsewhere or to the wrong address, then forwarded to the server.

WORK = "Anna Zach <anna@work.example>"
case("forward_gmail", "9 forwarded orders", orders(0), text=(
    f"Sent to the wrong address, sorry.\n\n---------- Forwarded message ---------\nFrom: {WORK}\n"
    f"Date: Mon, 3 Jun 2024 at 09:40\nSubject: Re: {SUBJECT}\nTo: <pbem@wrong.example>\n\n\n{orders(0)}\n\n"
    f"{ATTRIBUTIONS['en']}\n\n{gt(quoted_text('ack'))}\n"))
case("forward_apple", "9 forwarded orders", orders(1), text=(
    f"\n\nBegin forwarded message:\n\nFrom: {WORK}\nSubject: Re: orders\nDate: 3 June 2024 at 09:40:00 CEST\n"
    f"To: pbem@wrong.example\n\n{orders(1)}\n\nSent from my iPhone\n"))
case("forward_thunderbird_fr", "9 forwarded orders", orders(2), text=(
    f"\n\n\n-------- Message transféré --------\nSujet : Re: orders\nDate : Mon, 3 Jun 2024 09:40:00 +0200\n"
    f"De : {WORK}\nPour : pbem@wrong.example\n\n{orders(2)}\n\n{ATTRIBUTIONS['fr']}\n{gt(quoted_text('report'))}\n"))
case("forward_mailru", "9 forwarded orders", orders(3), text=(
    f"\n-------- Пересылаемое сообщение --------\n03.06.2024, 09:40, Анна <anna@work.example>:\n\n{orders(3)}\n\n"
    f"{VERBLESS['mailru']}\n{gt(quoted_text('ack'))}\n"))


# 10. More mail programs, by their documented or commonly seen layouts.

MORE = {
    "seznam_cs": f"---------- Původní e-mail ----------\nOd: {PBEM}\nKomu: {PLAYER}\nDatum: 3. 6. 2024 9:30:00\n"
                 f"Předmět: {SUBJECT}",
    "qq_zh": f"------------------ 原始邮件 ------------------\n发件人: \"pbem\"<{PBEM_ADDR}>;\n"
             f"发送时间: 2024年6月3日(星期一) 上午9:30\n收件人: \"Anna\"<anna@example.org>;\n主题: {SUBJECT}",
    "netease_zh": f"在 2024-06-03 09:30:00，\"pbem\" <{PBEM_ADDR}> 写道：",
    "outlook_ko": f"보낸 사람: {PBEM}\n보낸 날짜: 2024년 6월 3일 월요일 오전 9:30\n받는 사람: {PLAYER}\n제목: {SUBJECT}",
    "outlook_ja": f"差出人: {PBEM}\n送信日時: 2024年6月3日 9:30\n宛先: {PLAYER}\n件名: {SUBJECT}",
    "outlook_zh_tw": f"寄件者: {PBEM}\n寄件日期: 2024年6月3日 上午 09:30\n收件者: {PLAYER}\n主旨: {SUBJECT}",
    "outlook_bg": f"От: {PBEM}\nИзпратено: 3 юни 2024 г. 9:30\nДо: {PLAYER}\nОтносно: {SUBJECT}",
    "outlook_sk": f"Od: {PBEM}\nOdoslané: pondelok 3. júna 2024 9:30\nKomu: {PLAYER}\nPredmet: {SUBJECT}",
    "outlook_ro": f"De la: {PBEM}\nTrimis: luni, 3 iunie 2024 09:30\nCătre: {PLAYER}\nSubiect: {SUBJECT}",
    "outlook_tr": f"Kimden: {PBEM}\nGönderildi: 3 Haziran 2024 Pazartesi 09:30\nKime: {PLAYER}\nKonu: {SUBJECT}",
    "outlook_el": f"Από: {PBEM}\nΣτάλθηκε: Δευτέρα, 3 Ιουνίου 2024 9:30 πμ\nΠρος: {PLAYER}\nΘέμα: {SUBJECT}",
    "gmx_de": f"Gesendet: Montag, 03. Juni 2024 um 09:30 Uhr\nVon: \"pbem\" <{PBEM_ADDR}>\nAn: {PLAYER}\n"
              f"Betreff: {SUBJECT}",
    "tonline_de": f"-----Original-Nachricht-----\nBetreff: {SUBJECT}\nDatum: 2024-06-03T09:30:00+0200\n"
                  f"Von: \"pbem\" <{PBEM_ADDR}>\nAn: {PLAYER}",
    "laposte_fr": f"----- Mail original -----\nDe: \"pbem\" <{PBEM_ADDR}>\nÀ: {PLAYER}\nEnvoyé: Lundi 3 Juin 2024 09:30:00\n"
                  f"Objet: {SUBJECT}",
    "proton": f"------- Original Message -------\nOn Monday, June 3rd, 2024 at 09:30, pbem <{PBEM_ADDR}> wrote:",
    "tutanota": f"3 Jun 2024, 09:30 by {PBEM_ADDR}:",
    "ukrnet_uk": f"--- Оригінальне повідомлення ---\nВід: \"pbem\" <{PBEM_ADDR}>\nДата: 3 червня 2024, 09:30:00\n"
                 f"Тема: {SUBJECT}",
    "thunderbird_ru": "03.06.2024 9:30, pbem пишет:",
    "thunderbird_uk": "03.06.24 09:30, pbem пише:",
    "apple_uk": f"3 черв. 2024 р. о 09:30 pbem <{PBEM_ADDR}> написав(ла):",
}
for n, (name, intro) in enumerate(MORE.items()):
    body = orders(n)
    which = ("ack", "welcome", "report", "refused")[n % 4]
    quote = gt(quoted_text(which)) if n % 3 == 1 else quoted_text(which)
    case(f"more_{name}", "10 more programs", body, text=f"{body}\n\n{intro}\n\n{quote}\n")


# 11. Shapes found in other projects' corpora of real replies (issue 33): the player's own part ends in
# lines that are not orders and that no rule above read past.

case("found_em_dash_signature", "11 found elsewhere", orders(0), text=(
    f"{orders(0)}\n\n—\nAnna Zach\nLyon\n\n{ATTRIBUTIONS['en']}\n\n{gt(quoted_text('ack'))}\n"))
case("found_attribution_no_colon", "11 found elsewhere", orders(1), text=(
    f"{orders(1)}\n\nOn Mon, 3 Jun 2024 at 09:30, {PBEM} wrote\n\n{quoted_text('ack')}\n"))
case("found_equals_message_du", "11 found elsewhere", orders(2), text=(
    f"{orders(2)}\n\n========================================\n\nMessage du : 03/06/2024 09:30\n"
    f"De : {PBEM}\nA : {PLAYER}\nCopie à : \nObjet : {SUBJECT}\n\n{gt(quoted_text('welcome'))}\n"))
case("found_attribution_wrapped", "11 found elsewhere", orders(3), text=(
    f"{orders(3)}\n\nOn Mon, Jun 3, 2024 at 9:30 AM pbem\n<{PBEM_ADDR}> wrote:\n\n"
    f"{gt(quoted_text('report'))}\n"))
case("found_outlook_unquoted", "11 found elsewhere", orders(4), text=(
    f"{orders(4)}\n\nFrom: pbem\nSent: Monday, June 3, 2024 9:30 AM\nTo: Anna Zach\n"
    f"Subject: {SUBJECT}\n\n{quoted_text('ack')}\n"))


# -- writing -------------------------------------------------------------------------------------


def build(c: dict) -> bytes:
    msg = EmailMessage()
    msg["From"] = PLAYER
    msg["To"] = "orders@games.example.org"
    msg["Subject"] = "Re: " + SUBJECT
    msg["Date"] = "Mon, 03 Jun 2024 10:15:00 +0200"
    msg["Message-ID"] = f"<{c['name']}@reply-corpus.example>"
    msg["In-Reply-To"] = "<pbem.7.20240603073000@games.example.org>"
    if c["text"] is not None:
        msg.set_content(c["text"], charset="utf-8")
        if c["html"] is not None:
            msg.add_alternative(c["html"], subtype="html", charset="utf-8")
    else:
        msg.set_content(c["html"], subtype="html", charset="utf-8")
    return msg.as_bytes(policy=SMTP)


def main() -> None:
    for old in HERE.glob("*.eml"):
        old.unlink()
    expected = {}
    for c in CASES:
        (HERE / f"{c['name']}.eml").write_bytes(build(c))
        expected[c["name"]] = {"style": c["style"], "orders": c["orders"], "markers": c.get("markers", True)}
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(CASES)} mails written to {HERE}")


if __name__ == "__main__":
    main()
