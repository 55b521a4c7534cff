"""How many corpus mails give exactly the player's orders, by style, for pbem's
reader and for the maintained libraries (if installed: ``pip install quotequail
mail-parser-reply``). Not a test: the figures for the README and docs/orders.md.

    .venv/bin/python tests/reply_corpus/evaluate.py

Each reader gets the body as pbem reads it (the text part, else the HTML part
turned into text with ``>`` for blockquotes; quotequail reads the HTML itself).
(Removing the ``>`` lines the libraries leave changes none of their figures.)
"unmarked" is the same mail with
the server's marker lines taken out (a mail sent before the markers, or a
program that dropped them).
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from collections import Counter
from pathlib import Path

from pbem.server.mail.inbound import html_to_text, parse_message

HERE = Path(__file__).parent
LANGUAGES = ["en", "de", "fr", "it", "nl", "pl", "sv", "da", "cs", "es", "ja", "ko", "zh", "ru", "uk"]


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def body_text(raw: bytes) -> str:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    part = msg.get_body(preferencelist=("plain", "html"))
    text = part.get_content()
    return html_to_text(text) if part.get_content_subtype() == "html" else text


def unmark(raw: bytes) -> bytes:
    """The mail with the server's marker lines left out (text and HTML alike)."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    for part in msg.walk():
        if part.get_content_maintype() != "text":
            continue
        content = part.get_content()
        if part.get_content_subtype() == "html":
            content = re.sub(r"<(p|div)\b[^>]*>[^<]*\[pbem-mail(?:-end)?\][^<]*</\1>", "", content)
        else:
            content = "\n".join(line for line in content.split("\n") if not MARKER_LINE.search(line))
        part.set_content(content, subtype=part.get_content_subtype(), charset="utf-8")
    return msg.as_bytes()


MARKER_LINE = re.compile(r"\[pbem-mail(?:-end)?\]|you write are read\.\s*$")  # with the end of a wrapped first line


def readers(words):
    yield "pbem", lambda raw: parse_message(raw, words=words).text
    yield "pbem, no mail words", lambda raw: parse_message(raw).text
    try:
        import quotequail
    except ImportError:
        pass
    else:
        def by_quotequail(raw):
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            part = msg.get_body(preferencelist=("plain", "html"))
            if part.get_content_subtype() == "html":  # the library's own HTML reading
                parts = quotequail.quote_html(part.get_content(), quote_intro_line=True)
                return html_to_text("".join(text for new, text in parts if new))
            parts = quotequail.quote(part.get_content(), quote_intro_line=True)
            return "\n".join(text for new, text in parts if new)
        yield "quotequail", by_quotequail
    try:
        from mailparser_reply import EmailReplyParser
    except ImportError:
        pass
    else:
        parser = EmailReplyParser(languages=LANGUAGES)

        def by_mail_parser_reply(raw):
            return parser.parse_reply(body_text(raw)) or ""
        yield "mail-parser-reply", by_mail_parser_reply


def main() -> None:
    from pbem.games import ruleset

    words = ruleset("marengo").mail_words
    expected = json.loads((HERE / "expected.json").read_text())
    styles = sorted({e["style"] for e in expected.values()}, key=lambda style: int(style.split()[0]))
    print(f"{len(expected)} mails; exact orders, by style ({', '.join(styles)})\n")
    for name, read in readers(words):
        for marked in (True, False):
            good, total = Counter(), Counter()
            for stem, e in expected.items():
                raw = (HERE / f"{stem}.eml").read_bytes()
                if not marked:
                    raw = unmark(raw)
                total[e["style"]] += 1
                try:
                    good[e["style"]] += lines(read(raw)) == lines(e["orders"])
                except Exception:  # a library that fails on a mail gets it wrong
                    pass
            figures = "  ".join(f"{good[s]}/{total[s]}" for s in styles)
            print(f"{name:40} {'marked' if marked else 'unmarked':9} {sum(good.values()):3}/{sum(total.values())}"
                  f"   {figures}")


if __name__ == "__main__":
    main()
