"""Replies put together at random from the corpus's pieces: a greeting or not, the orders,
a sign-off, a footer, then the server's mail under any attribution, header block or
separator, quoted with ">", wrapped, or not at all, with the markers or without; or the
orders under the quoted mail.

Whatever the mix, the reading gives exactly the player's orders, and never a line of
the server's mail (whose old orders, ``ENTER A6 A7``, must never come through).
"""

from email.message import EmailMessage

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games import ruleset
from pbem.server.mail.inbound import parse_message
from reply_corpus import make_corpus as corpus

WORDS = ruleset("marengo").mail_words
GREETINGS = ["", "Hi,", "Bonjour,", "Hallo,\nhier meine Befehle:", "Привет!"]
SIGN_OFFS = ["", "Thanks,\nAnna", "Cordialement,\nAnna", "С уважением,\nАнна", "Дякую!", "谢谢"]
FOOTERS = [""] + list(corpus.FOOTERS.values()) + ["-- \nAnna Zach\nVienna", "---\nAnna Zach"]
ATTRIBUTIONS = list(corpus.ATTRIBUTIONS.values()) + list(corpus.VERBLESS.values())
HEADER_BLOCKS = [corpus.header_block(labels, date, colon=" :" if lang.startswith("fr") else ":")
                 for lang, (labels, date) in corpus.HEADER_BLOCKS.items()]
SEPARATORS = ["-----Original Message-----", "________________________________", "-------- Oprindelig besked --------",
              "---------- Forwarded message ---------", "=========="]


def unmarked(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "[pbem-mail" not in line)


@st.composite
def replies(draw):
    orders = corpus.orders(draw(st.integers(0, 5)))
    mail = draw(st.sampled_from(["ack", "refused", "welcome"]))
    marked = draw(st.booleans())
    quoted = corpus.quoted_text(mail) if marked else unmarked(corpus.quoted_text(mail))
    intro = draw(st.sampled_from(["attribution", "header block", "separator and block", "unknown"]))
    if intro == "unknown":  # an attribution no rule knows: only the marker tells where the mail starts
        marked = True
        quoted = corpus.quoted_text(mail)
        above = "3/6/2024 pbem kirjutas midagi"
    elif intro == "attribution":
        above = draw(st.sampled_from(ATTRIBUTIONS))
    elif intro == "header block":
        above = draw(st.sampled_from(HEADER_BLOCKS))
    else:
        above = draw(st.sampled_from(SEPARATORS)) + "\n" + draw(st.sampled_from(HEADER_BLOCKS))
    quoting = draw(st.sampled_from(["gt", "none", "wrapped"]))
    if quoting == "gt":
        quoted = corpus.gt(quoted)
    elif quoting == "wrapped":
        quoted = corpus.wrapped_quote(quoted, draw(st.sampled_from([66, 72, 76])))
    greeting = draw(st.sampled_from(GREETINGS))
    sign_off = draw(st.sampled_from(SIGN_OFFS))
    footer = draw(st.sampled_from(FOOTERS))
    bottom = draw(st.booleans()) and (quoting == "gt" or marked and quoting == "none")
    if bottom:  # the orders under the quoted mail (then no footer: it would end the text above them)
        parts = [above, quoted, greeting, orders, sign_off]
    else:
        parts = [greeting, orders, sign_off, footer, above, quoted]
    text = "\n\n".join(p for p in parts if p) + "\n"
    if draw(st.booleans()):  # the whole reply as an HTML mail, the quote in a blockquote when it had ">"
        return text, orders, True
    return text, orders, False


def build(text: str, html: bool) -> bytes:
    msg = EmailMessage()
    msg["From"] = corpus.PLAYER
    msg["Subject"] = "Re: orders"
    if html:
        from html import escape

        out, depth = [], 0
        for line in text.splitlines():
            level = len(line) - len(line.lstrip(">")) if line.startswith(">") else 0
            body = line.lstrip("> ") if level else line
            while depth < level:
                out.append("<blockquote>")
                depth += 1
            while depth > level:
                out.append("</blockquote>")
                depth -= 1
            out.append(f"<div>{escape(body) if body.strip() else '<br>'}</div>")
        out += ["</blockquote>"] * depth
        msg.set_content("<html><body>" + "".join(out) + "</body></html>", subtype="html")
    else:
        msg.set_content(text)
    return msg.as_bytes()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(replies())
def test_any_mix_gives_exactly_the_orders(reply):
    text, orders, html = reply
    got = parse_message(build(text, html), words=WORDS).text
    assert "A6 A7" not in got
    assert [line.rstrip() for line in got.splitlines() if line.strip()] == \
           [line for line in orders.splitlines() if line.strip()], text
