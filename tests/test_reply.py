"""The player's own text in a reply (pbem/server/mail/reply.py), rule by rule.

The corpus (test_reply_corpus.py) shows every mail program's layout; these
pin down each rule and the cases where a rule must not fire.
"""


import pytest
from bounds import no_hang

from pbem.server.mail.inbound import html_to_text, parse_message
from pbem.server.mail.reply import MARK, MARK_END, Cut, mark_html, mark_text, new_text, summary

WORDS = ("ENTER", "MOVE", "STANDING", "FINAL")  # a ruleset's mail words (Marengo's, in part)
HEAD = "GAME 1 SIDE Austria TURN 6AM KEY k3y"
SERVER = "Orders accepted for game 1.\n\n  ENTER A6 BY ROAD\n  STANDING BLOCK ALL ALWAYS"


def read(text, words=WORDS):
    return new_text(text, words).text


def test_the_marker_cuts_the_servers_mail_under_any_attribution():
    quoted = mark_text(SERVER)
    assert quoted.startswith(MARK) and quoted.rstrip().endswith(MARK_END)
    # an attribution no rule knows, the mail unquoted: the marker still cuts, with the line above it
    text = f"{HEAD}\nENTER A1 BY ROAD\n\nZzz 3/6 q. pbem kirjutas midagi\n{quoted}"
    reply = new_text(text, WORDS)
    assert reply.text == f"{HEAD}\nENTER A1 BY ROAD"
    assert [c.kind for c in reply.cuts] == ["pbem mail"]
    assert reply.cuts[0].first.startswith("Zzz")


def test_text_after_the_end_marker_is_the_players_again():
    text = f"From: pbem <p@x.org>\nSent: Monday\nTo: anna\nSubject: re\n\n{mark_text(SERVER)}\n{HEAD}\nENTER A1 BY ROAD"
    assert read(text) == f"{HEAD}\nENTER A1 BY ROAD"


def test_mark_html_puts_visible_markers_inside_the_body():
    html = mark_html("<html><body><p>Report</p></body></html>")
    assert html.index(MARK) < html.index("Report") < html.index(MARK_END) < html.index("</body>")
    assert html_to_text(html).splitlines()[0].startswith(MARK)
    assert MARK in mark_html("<p>no body</p>")


def test_header_blocks_in_many_languages():
    for block in ("From: pbem\nSent: Monday\nTo: Anna\nSubject: x",
                  "*From:* pbem\n*Sent:* Monday\n*To:* Anna",
                  "De : pbem\nEnvoyé le : lundi\nÀ : Anna\nObjet : x",
                  "Von: pbem\nGesendet: Montag\nAn: Anna\nBetreff: x",
                  "От: pbem\nОтправлено: 3 июня\nКому: Анна\nТема: x",
                  "Від: pbem\nНадіслано: 3 червня\nКому: Ганна\nТема: x",
                  "发件人: pbem\n发送时间: 2024年6月3日\n收件人: Anna\n主题: x",
                  "Date: Mon, 3 Jun 2024\nFrom: pbem@x.org\nTo: anna"):
        assert read(f"{HEAD}\nENTER A1 BY ROAD\n\n{block}\n\n{SERVER}") == f"{HEAD}\nENTER A1 BY ROAD", block


def test_one_header_like_line_is_no_header_block():
    # "From:" alone, with no second header line, is not Outlook's block
    assert read(f"{HEAD}\n# From: the north\nENTER A1 BY ROAD") == f"{HEAD}\n# From: the north\nENTER A1 BY ROAD"


@pytest.mark.parametrize("attribution", [
    "2024-06-03 9:30 GMT+02:00 pbem <p@x.org>:",
    '03.06.2024, 09:30, "pbem" <p@x.org>:',
    "pbem <p@x.org> 于2024年6月3日周一 09:30写道：",
    "пн, 3 черв. 2024 р. о 09:30 pbem <p@x.org> пише:",
    "Am Mo., 3. Juni 2024 um 09:30 Uhr schrieb pbem <p@x.org>:",
    "On Mon, 3 Jun 2024 at 09:30, pbem <\np@x.org> wrote:",
    "pbem <p@x.org> ezt írta (időpont: 2024. jún. 3., H, 9:30):",
])
def test_attributions(attribution):
    for quote in (SERVER, "> " + SERVER.replace("\n", "\n> ")):
        reply = new_text(f"{HEAD}\nENTER A1 BY ROAD\n\n{attribution}\n{quote}", WORDS)
        assert reply.text == f"{HEAD}\nENTER A1 BY ROAD"
        assert "ENTER A6" not in reply.text


def test_a_line_ending_with_a_colon_is_no_attribution_without_a_sign_of_one():
    text = f"{HEAD}\n# plans for the morning:\nENTER A1 BY ROAD"
    assert read(text) == text
    assert read("Orders below:\n" + text) == text  # a greeting, left out (with mail words)


@pytest.mark.parametrize("footer", [
    "Sent from my iPhone", "Envoyé de mon iPhone", "Von meinem iPhone gesendet", "Отправлено с iPhone",
    "Надіслано з iPhone", "发自我的iPhone", "Get Outlook for iOS<https://aka.ms/o0ukef>",
    "Sent from my BlackBerry 10 smartphone.", "Sent from Yahoo Mail on Android",
])
def test_footers(footer):
    reply = new_text(f"{HEAD}\nENTER A1 BY ROAD\n\n{footer}\n\nOld text\nof the report", WORDS)
    assert reply.text == f"{HEAD}\nENTER A1 BY ROAD"
    assert f"the footer {footer!r}" in reply.summary()
    assert "2 quoted lines (from 'Old text')" in reply.summary()


def test_a_footer_with_orders_under_it_is_the_players_text():
    # the parser will point at the prose line: nothing is dropped silently, nothing old is taken
    text = f"{HEAD}\nSent from my tent, these:\nENTER A1 BY ROAD"
    assert read(text) == text
    text = f"{HEAD}\nENTER A1 BY ROAD\n\nSent from my iPhone\n\nOld text\n  ENTER A6 BY ROAD"
    assert read(text) == text
    text = f"{HEAD}\nENTER A1 BY ROAD\n-- \nENTER A4 BY PONTOON"
    assert read(text) == text.replace("-- ", "--")


def test_signature_under_a_rule_but_not_orders_under_it():
    assert read(f"{HEAD}\nENTER A1 BY ROAD\n---\nAnna Zach\nVienna") == f"{HEAD}\nENTER A1 BY ROAD"
    text = f"{HEAD}\nENTER A1 BY ROAD\n---\nENTER A4 BY PONTOON"
    assert read(text) == text


def test_a_second_orders_header_starts_the_quoted_form():
    form = "Welcome to game 1.\nA template:\n\nGAME 1 SIDE Austria TURN 6AM KEY <your-key>\n# ENTER A4 BY PONTOON"
    reply = new_text(f"{HEAD}\nENTER A1 BY ROAD\n\n{form}", WORDS)
    assert reply.text == f"{HEAD}\nENTER A1 BY ROAD"
    assert reply.cuts[-1].kind == "orders form"
    # without mail words the prose above it cannot be told from orders: it stays, the parser refuses it
    assert "Welcome to game 1." in read(f"{HEAD}\nENTER A1 BY ROAD\n\n{form}", words=())


def test_greeting_and_sign_off_only_with_mail_words():
    text = f"Hi Bob,\n\n{HEAD}\nENTER A1 BY ROAD\n\nThanks,\nAnna"
    reply = new_text(text, WORDS)
    assert reply.text == f"{HEAD}\nENTER A1 BY ROAD"
    assert reply.summary() == "the greeting 'Hi Bob,', the sign-off 'Thanks,' and 1 line under it"
    assert read(text, words=()) == text


def test_a_misspelt_last_order_is_never_a_sign_off():
    text = f"{HEAD}\nENTER A1 BY ROAD\nENTRE A4 BY PONTOON"
    assert read(text) == text


def test_an_order_written_between_quoted_lines_is_kept_a_wrapped_quote_is_not():
    long = "> " + "x" * 66
    assert read(f"{HEAD}\n{long}\nENTER A4 BY PONTOON\n> more") == f"{HEAD}\nENTER A4 BY PONTOON"
    assert read(f"{HEAD}\n{long}\nenter now)\n> more") == HEAD
    assert read(f"{HEAD}\n{long}\nof the report\n> more") == HEAD
    assert read(f"{HEAD}\n> short\nof the report\n> more") == f"{HEAD}\nof the report"


def test_the_form_filled_in_place_inside_the_servers_mail():
    mail = mark_text("Your report.\n\n-------- cut here --------\nGAME 1 SIDE Austria TURN 6AM KEY <your-key>\n"
                     "# ENTER A4 BY PONTOON\n-------- cut here --------\nMore report.")
    filled = mail.replace("<your-key>", "k3y").replace("# ENTER", "ENTER")
    reply = new_text(f"See below.\n\nFrom: pbem\nSent: Monday\nTo: Anna\n\n{filled}", WORDS)
    assert reply.text == f"{HEAD}\nENTER A4 BY PONTOON"
    assert "the note 'See below.'" in reply.summary()
    # not filled in (the placeholder key): nothing is taken from the server's mail
    assert read(f"See below.\n\n{mail}") == "See below."
    # the player's own orders above win
    assert read(f"{HEAD}\nENTER A1 BY ROAD\n\n{filled}") == f"{HEAD}\nENTER A1 BY ROAD"


def test_summary():
    cuts = [Cut("attribution", ["On Monday, pbem wrote:"]), Cut("quote", ["> a", ">", "> b"]),
            Cut("footer", ["Sent from my iPhone"])]
    assert summary(cuts) == "3 quoted lines (from 'On Monday, pbem wrote:'), the footer 'Sent from my iPhone'"
    assert summary([]) == ""


def test_hr_in_html_is_a_rule():
    assert html_to_text("<p>a</p><hr><p>b</p>") == "a\n" + "_" * 32 + "\nb"


def test_parse_message_passes_the_words_and_lists_the_cuts():
    raw = (f"From: a@example.org\r\nSubject: x\r\n\r\n{HEAD}\r\nENTER A1 BY ROAD\r\n\r\nThanks,\r\nAnna\r\n"
           f"\r\nSent from my iPhone\r\n").encode()
    msg = parse_message(raw, words=WORDS)
    assert msg.text == f"{HEAD}\nENTER A1 BY ROAD"
    assert [c.kind for c in msg.cuts] == ["sign-off", "footer"]


def test_pathological_replies_are_fast():
    for text in ("Sent from my iPhone\n" * 50_000, f"{MARK}\n" * 50_000, f"{HEAD}\n" * 50_000,
                 "From: a\nTo: b\n" * 50_000, f"{MARK}\nx\n{MARK_END}\n" * 30_000, "> " + "x" * 70 + "\nx\n" * 50_000):
        with no_hang(f"new_text of {len(text):,} characters ({text[:20]!r}...)"):
            new_text(text, WORDS)


def test_a_sign_off_takes_no_order_with_it():
    text = f"{HEAD}\nENTER A1 BY ROAD\nThanks\nENTRE A4 BY PONTOON"
    assert read(text) == text


def test_forwarded_orders_are_read_when_the_player_wrote_none():
    forwarded = (f"Wrong address, sorry.\n\n---------- Forwarded message ---------\nFrom: Anna <a@work.example>\n"
                 f"Date: Mon, 3 Jun 2024\nSubject: orders\n\n{HEAD}\nENTER A1 BY ROAD\n\nOn Monday, pbem <p@x.org> wrote:\n"
                 "> " + SERVER.replace("\n", "\n> "))
    reply = new_text(forwarded, WORDS)
    assert reply.text == f"{HEAD}\nENTER A1 BY ROAD"
    assert "the note 'Wrong address, sorry.'" in reply.summary()
    # orders of his own win over the forwarded ones
    own = read(f"{HEAD}\nENTER A4 BY PONTOON\n\n" + forwarded)
    assert own.startswith(f"{HEAD}\nENTER A4 BY PONTOON") and "ENTER A1" not in own
    # the server's own mail forwarded: its form (a placeholder key) is never taken
    form = mark_text("Report.\nGAME 1 SIDE Austria TURN 6AM KEY <your-key>\n# ENTER A4 BY PONTOON")
    assert read(f"FYI\n\n---------- Forwarded message ---------\nFrom: pbem\nDate: Monday\n\n{form}") == "FYI"


def test_a_rule_and_header_block_over_a_quote():
    text = (f"{HEAD}\nENTER A1 BY ROAD\n\n________________________________\nFrom: pbem\nSent: Monday\nTo: Anna\n\n"
            f"> {SERVER}".replace("\n  ", "\n>   "))
    assert read(text) == f"{HEAD}\nENTER A1 BY ROAD"
