"""What of a page is still English: the catalog's texts left untranslated in a page drawn in another
language (tests/test_i18n.py). A page's texts are its text nodes and the attributes a reader meets
(title, alt, aria-label, placeholder, the description); a text is left when it is, whole, a msgid of the
server's catalog whose translation differs, or holds a long one (a sentence) inside it."""

from __future__ import annotations

import html
import re
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

from pbem.server import i18n

ATTRIBUTES = ("title", "alt", "aria-label", "placeholder", "content")
SKIPPED = ("script", "style", "pre", "code", "textarea")  # data and the player's own text, not the page's words


class Texts(HTMLParser):
    """The visible texts of a page, and the attributes read aloud; outside the game's report (whose
    words are the game's: its own catalog, lang-games') and the player's data."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skip = 0
        self.report = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.report:
            if tag not in ("br", "img", "input", "meta", "link", "hr", "source", "col"):
                self.report += 1
            return
        if attrs.get("id") == "report" or "report-box" in (attrs.get("class") or ""):
            self.report = 1
            return
        if tag in SKIPPED:
            self.skip += 1
        for name in ATTRIBUTES:
            if attrs.get(name) and (name != "content" or attrs.get("name") == "description"):
                self.texts.append(attrs[name])

    def handle_endtag(self, tag):
        if self.report:
            self.report -= 1
            return
        if tag in SKIPPED and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and not self.report and data.strip():
            self.texts.append(data)


def english_left(page: str, lang: str) -> set[str]:
    """The catalog's English texts left in ``page`` drawn in ``lang``."""
    catalog = i18n.read_catalog(i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "pbem.po")
    whole, inside = set(), set()
    for message in catalog:
        if not message.id or isinstance(message.id, (tuple, list)) or message.string == message.id:
            continue
        plain = html.unescape(re.sub(r"<[^>]+>", "", message.id))
        if i18n.placeholders(plain) or "%%" in plain:
            for part in re.split(r"%\(\w+\)[sdr]|\{\w+\}", plain.replace("%%", "%")):
                if len(part.strip()) >= 30:
                    inside.add(part.strip())
            continue
        whole.add(plain.strip())
        if len(plain) >= 30:
            inside.add(plain.strip())
    parser = Texts()
    parser.feed(page)
    left = set()
    for text in parser.texts:
        flat = " ".join(text.split())
        if flat in whole:
            left.add(flat)
        left.update(part for part in inside if part in flat)
    return left


def english_in_mail(text: str, lang: str) -> set[str]:
    """The catalog's English sentences (a line of a msgid between its placeholders, 25 characters or
    more) found in a mail's ``text`` written in ``lang``."""
    catalog = i18n.read_catalog(i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "pbem.po")
    found = set()
    flat = " ".join(text.split())
    for message in catalog:
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        if not ids[0] or message.string == message.id:
            continue
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        kept = " ".join(" ".join(strings).split())  # what the translation keeps as it is (commands, codes)
        for msgid in ids:
            for line in msgid.splitlines():
                for part in re.split(r"%\(\w+\)[sdr]|\{\w+\}", line):
                    part = " ".join(part.split())
                    if len(part) >= 25 and part in flat and part not in kept:
                        found.add(part)
    return found


@lru_cache(maxsize=8)
def game_catalog_english(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """The English texts of every game's own catalog (pbem/games/*/locale) that ``lang`` writes otherwise:
    (the whole texts, the pieces looked for inside a text: a text of three words or more, a sentence of 30
    characters or more between placeholders)."""
    whole, inside, same = set(), set(), set()
    for po in sorted((Path(i18n.__file__).resolve().parents[2] / "pbem" / "games").glob(
            f"*/locale/{lang}/LC_MESSAGES/*.po")):
        for message in i18n.read_catalog(po):
            ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
            strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
            if not ids[0] or message.string == message.id or ids[0] in " ".join(strings):
                same.add(ids[0])  # a word the language writes as English does (France), in one game at least,
                continue          # or keeps inside its own (Тріумф під Маренго (Triomphe à Marengo))
            for msgid in ids:
                for part in re.split(r"%\(\w+\)[sdr]", msgid):
                    if len(part.strip()) >= 30:
                        inside.add(part.strip())
                if not i18n.placeholders(msgid):
                    whole.add(msgid.strip())
                    if len(msgid.split()) >= 3:
                        inside.add(msgid.strip())
    return frozenset(whole - same), frozenset(inside - same)


def game_english_in(texts, lang: str) -> set[str]:
    """The games' catalogs' English texts left in ``texts`` (strings read in ``lang``): a text that is one
    whole, or holds a sentence of one."""
    whole, inside = game_catalog_english(lang)
    left = set()
    for text in texts:
        flat = " ".join(str(text).split())
        if flat in whole:
            left.add(flat)
        left.update(part for part in inside if part in flat
                    and re.search(r"(?<!\w)" + re.escape(part) + r"(?!\w)", flat))
    return left


def game_english_left(page: str, lang: str) -> set[str]:
    """The games' catalogs' English texts left in ``page`` (its visible texts and the attributes read aloud,
    the report aside) drawn in ``lang``."""
    parser = Texts()
    parser.feed(page)
    return game_english_in(parser.texts, lang)
