"""The server's languages: its gettext catalogs, the reader's language, and translation outside
a web request (mails, the mail commands' answers).

    tr = i18n.translator("fr")
    tr.gettext("Orders received.")                     # "Ordres reçus."
    tr.ngettext("%(num)d game", "%(num)d games", 3)    # "3 parties"

Catalogs are ``pbem/locale/<code>/LC_MESSAGES/pbem.po`` with their compiled ``.mo`` committed
beside them (docs/translating.md: extract, update, compile). English is the source language:
its texts are the msgids. Plural forms come from each catalog's header, written by Babel from
its locale data (Russian and Ukrainian have three).

On the web, Flask-Babel picks the page's language (``select``): the signed-in user's choice
(kept in his player row), else the signed-out reader's cookie, else the browser's
Accept-Language, else English. A mail uses its recipient's language (``Store.language_of``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pbem.lang import DEFAULT, LANGUAGES, Text, Tongue, catalog, normalise

__all__ = ["DEFAULT", "LANGUAGES", "normalise", "translator", "translate", "translate_plural"]

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "pbem"
COOKIE = "pbem_lang"
HTML_LANG = {"zh": "zh-Hans"}  # <html lang>: the script said where a code alone leaves it open


def N_(message: str) -> str:
    """Marks a text for the catalog where it is defined; it is translated where it is shown."""
    return message


def babel_locale(lang: str | None) -> str:
    """The Babel locale of a language code (Chinese: simplified script)."""
    code = normalise(lang) or DEFAULT
    return "zh_Hans" if code == "zh" else code


def web_lang() -> str:
    """The language of the page being drawn (English outside a request)."""
    from flask import has_request_context

    if not has_request_context():
        return DEFAULT
    from flask_babel import get_locale

    locale = get_locale()
    return normalise(str(locale)) if locale else DEFAULT


@lru_cache(maxsize=256)
def best_match(accept_language: str | None) -> str | None:
    """The best of the server's languages in an Accept-Language header, or None. Remembered (a pure function
    of the header: every mail without a language of its own asks it twice, most often of nothing)."""
    if not accept_language:
        return None
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    accept = parse_accept_header(accept_language or "", LanguageAccept)
    for value, quality in sorted(accept, key=lambda item: -item[1]):
        code = normalise(value)
        if code and quality > 0:
            return code
    return None


def translator(lang: str | None) -> Tongue:
    """The server's texts in ``lang`` (one language's gettext, ``%(name)s`` filled from keywords as
    Flask-Babel does)."""
    return catalog(lang, (LOCALE_DIR, DOMAIN))


def labelled(tongue: Tongue, what: str, value: str) -> str:
    """"what: value" (a seat and its player, an answer's key and its words) as the language writes it: French
    with a space before the colon, Chinese with a full-width colon."""
    return tongue.gettext("%(what)s: %(value)s", what=what, value=value)


def translate(lang: str | None, message: str, /, **values) -> str:
    """``message`` in ``lang`` (extracted by its second argument: scripts/translations)."""
    return translator(lang).gettext(message, **values)


def translate_plural(lang: str | None, singular: str, plural: str, num: int, /, **values) -> str:
    return translator(lang).ngettext(singular, plural, num, **values)


class Refusal(ValueError):
    """A refusal meant for a person, in his language: ``Refusal("game %(game)s is over", game=3)``
    — a catalog entry (extracted by the subclass's name: scripts/translations) and its values;
    ``str()`` is the English sentence (logs, the audit, the CLI), ``in_(lang)`` the reader's. A
    value may be a :class:`pbem.lang.Text` (a word of the catalog), read in the same language."""

    def __init__(self, message, /, **values):
        self.text = message if isinstance(message, Text) else Text(str(message), values)
        super().__init__(str(self.text))

    def in_(self, lang: str | None) -> str:
        """The message in ``lang`` (English where the catalog has no translation)."""
        return translator(lang).say(self.text)


def refusal_text(exc: Exception) -> Text | str:
    """What to refuse with again, from another error: a Refusal's catalog entry, else its words."""
    if isinstance(exc, Refusal):
        return exc.text
    return str(exc.args[0] if exc.args else exc)


class Said(str):
    """An answer the service gives: the English sentence (a str: the CLI's, the tests', the audit's),
    with its catalog entry to read it in the asker's language (``in_``: his page, his mail)."""

    text: Text

    def __new__(cls, text: Text) -> Said:
        said = super().__new__(cls, str(text))
        said.text = text
        return said

    def in_(self, lang: str | None) -> str:
        return translator(lang).say(self.text)


def error_text(exc: Exception, lang: str | None) -> str:
    """A refusal in ``lang``: a ServiceError's own catalog entry (``in_``); any other error as it is."""
    in_ = getattr(exc, "in_", None)
    return in_(lang) if callable(in_) else str(exc)


# a game's status as pages show it (the value stays the stored word)
STATUS = {"open": N_("open"), "running": N_("running"), "paused": N_("paused"), "finished": N_("finished"),
          "signup": N_("sign-up"), "done": N_("done")}


def status_text(status: str) -> Text:
    """A game's or a tournament's status as a catalog word (a refusal's value, read in its reader's
    language)."""
    return Text(STATUS.get(status, status))


MISS = {"warn": N_("warn"), "alert": N_("alert the moderator"), "forfeit": N_("forfeit")}
FORMATS = {"swiss": N_("Swiss"), "round_robin": N_("round robin"), "knockout": N_("knockout"),
           "double_elimination": N_("double elimination")}
HOW = {"played": N_("played"), "forfeit": N_("forfeit"), "adjudicated": N_("adjudicated"),
       "resigned": N_("resigned"), "agreed": N_("draw by agreement"), "bye": N_("bye"),
       "overridden": N_("overridden by the organiser"), "annulled": N_("annulled")}
OUTCOMES = {"win": N_("won"), "draw": N_("drawn"), "loss": N_("lost"), "annulled": N_("annulled")}


# what static/game.js shows, by its English text ("{name}" filled in by the script): the page hands
# them over translated (templates/_js_texts.html), so the script holds no language of its own
JS_TEXTS = [
    N_("passed"), N_("in {time}"), N_("less than a minute"),
    N_("Checked, not yet submitted: carried out unless the enemy's actions prevent it. These depend on what "
       "happens during the day: {warnings}"),
    N_("Checked: these orders are good (not yet submitted)."), N_("Not possible here: {notes}"),
    N_("Chosen: {blocks} at {place}"), N_("to {places}"), N_("finding where they may go…"),
    N_("now click where they go"), N_("No block chosen."), N_("finding the orders they may take…"),
    N_("The orders could not be asked of the server: type them below."), N_("nowhere to go"),
    N_("The places could not be asked of the server."), N_("choose a place"), N_("no place possible"),
    N_("{order} to {place}: {why}"), N_("not possible"), N_("Your blocks on the map"), N_("{block} at {place}"),
    N_("The map's blocks could not be loaded: type your orders below."),
    # the chosen order's hint, what it waits for (static/game.js, next)
    N_("written below"), N_("click “{order}” to write it"), N_("written below: they go no farther"),
    N_("click “{order}” to write it: they go no farther"), N_("or click where they go next"),
    N_("or click the next place"),
]


def js_texts() -> dict:
    """The script's texts in the page's language, and its units' plural forms by CLDR category (the
    script picks one with the browser's Intl.PluralRules, from the same CLDR data as Babel's)."""
    from babel import Locale
    from flask_babel import get_locale
    from flask_babel import gettext as _
    from flask_babel import ngettext

    locale = get_locale() or Locale.parse(DEFAULT)
    samples: dict[str, int] = {}
    for n in range(0, 200):
        samples.setdefault(locale.plural_form(n), n)
    units = {
        "day": {cat: ngettext("%(num)d day", "%(num)d days", n).replace(str(n), "{n}", 1) for cat, n in samples.items()},
        "hour": {cat: ngettext("%(num)d hour", "%(num)d hours", n).replace(str(n), "{n}", 1)
                 for cat, n in samples.items()},
        "minute": {cat: ngettext("%(num)d minute", "%(num)d minutes", n).replace(str(n), "{n}", 1)
                   for cat, n in samples.items()},
    }
    return {**{key: _(key) for key in JS_TEXTS}, "units": units}


# -- the web ---------------------------------------------------------------------------------


def select() -> str:
    """The language of the page being drawn: the user's saved choice, else the cookie, else the
    browser's Accept-Language, else English."""
    from flask import current_app, g, has_request_context, request

    if not has_request_context():
        return DEFAULT
    user = getattr(g, "user", None)
    if user is not None and getattr(user, "email", None):
        saved = g.saved_language if "saved_language" in g else \
            current_app.extensions["pbem"]["service"].store.language_of(user.email, default=None)  # read with the session
        if saved:
            return saved
    g.language_negotiated = True  # the answer varies by the cookie and Accept-Language (web.security.headers)
    return negotiated(request.cookies.get(COOKIE), request.headers.get("Accept-Language"))


def negotiated(cookie: str | None, accept_language: str | None) -> str:
    """The language of a reader who saved none: his cookie's, else the browser's Accept-Language, else
    English (``select``; pbem.server.web.front reads it from the request as it arrives)."""
    return normalise(cookie) or best_match(accept_language) or DEFAULT


def init_app(app) -> None:
    """Flask-Babel on the app: our catalogs, our selector, ``_``/``ngettext`` in every template."""
    from flask_babel import Babel

    Babel(app, locale_selector=select, default_domain=DOMAIN,
          default_translation_directories=str(LOCALE_DIR))

    @app.context_processor
    def languages():
        from flask_babel import get_locale

        locale = get_locale()
        from flask_babel import gettext as _

        code = normalise(str(locale)) if locale else DEFAULT
        service = app.extensions["pbem"]["service"]

        def seats_text(game_id, seats) -> str:
            titles = [service.seat_title(int(game_id), seat, code) for seat in seats]
            return _(" and ").join(titles)

        return {"page_lang": code, "html_lang": HTML_LANG.get(code, code), "languages": LANGUAGES,
                "status_word": lambda status: _(STATUS.get(status, status)) if status in STATUS else status,
                "seats_text": seats_text, "js_texts": js_texts,
                "signup_word": lambda state: _("open") if state == "open" else _("closed"),
                "miss_word": lambda policy: _(MISS[policy]) if policy in MISS else policy,
                "format_word": lambda name: _(FORMATS[name]) if name in FORMATS else name.replace("_", " "),
                "how_word": lambda how: _(HOW[how]) if how in HOW else how,
                "outcome_word": lambda outcome: _(OUTCOMES[outcome]) if outcome in OUTCOMES else outcome or ""}


# -- the catalogs as files: compiling and checking them (scripts/translations, tests/test_catalogs.py) --------

PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|\{(\w+)\}")


def placeholders(text: str) -> set[str]:
    """The named placeholders of a text: ``%(name)s`` and ``{name}``."""
    return {match.group(0) for match in PLACEHOLDER.finditer(text or "")}


def read_catalog(po_path):
    from babel.messages.pofile import read_po

    with open(po_path, "rb") as handle:
        return read_po(handle)


def compile_po(po_path) -> bytes:
    """The .mo of a .po, as ``scripts/translations compile`` writes it (fuzzy entries left out)."""
    import io

    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, read_catalog(po_path), use_fuzzy=False)
    return out.getvalue()


def catalog_problems(po_path) -> list[str]:
    """What keeps a catalog from being complete: entries untranslated or fuzzy, placeholders that
    differ between msgid and msgstr, a plural with the wrong number of forms. Empty: complete."""
    catalog = read_catalog(po_path)
    problems = []
    forms = catalog.num_plurals
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        strs = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        where = f"{po_path}: {ids[0]!r}"
        if message.fuzzy:
            problems.append(f"{where} is fuzzy")
        if not all(strs):
            problems.append(f"{where} is not translated")
            continue
        if len(ids) > 1 and len(strs) != forms:
            problems.append(f"{where} has {len(strs)} plural forms, the language has {forms}")
        wanted = placeholders(ids[-1])
        for text in strs:
            if placeholders(text) != wanted and not (len(ids) > 1 and placeholders(text) == placeholders(ids[0])):
                problems.append(f"{where}: placeholders {sorted(placeholders(text))} in {text!r}, "
                                f"expected {sorted(wanted)}")
    return problems
