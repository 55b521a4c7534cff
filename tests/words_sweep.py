"""Ids where a name belongs: whole games played through the real server (a SQLite file, players' mail in by
SMTP, the outbox out by SMTP to a relay on loopback, the web site over HTTP), every mail and page each seat
gets collected, and searched for the rulesets' ids (places, unit kinds, sides, scenarios) standing as bare
words in what a player reads (tests/test_words_sweep.py; the long run: ``python tests/words_sweep.py``)."""

from __future__ import annotations

import email
import email.policy
import logging
import random
import re
import sys
from datetime import datetime, timezone
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from conftest import Clock  # noqa: E402
from i18n_post import PostOffice  # noqa: E402

from pbem.games import ruleset as ruleset_named  # noqa: E402
from pbem.server.web.auth import make_login_token  # noqa: E402

logging.getLogger("werkzeug").setLevel(logging.ERROR)  # the web server's request lines

GAMES = ("marengo", "triomphe", "napoleon1815", "dba")
LANGUAGES = ("en", "fr", "ru", "uk", "zh")


class Reading(HTMLParser):
    """What a reader reads of a page or an SVG map: its text nodes and the attributes read aloud (title, alt,
    aria-label, placeholder); never the markup's own names (classes, ids, links, data attributes), which
    no reader sees, nor scripts and styles, nor the game log's records (an audit entry's ``side=red
    scenario=dba-meeting.toml``: the record's keys and values, as the log keeps them)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style") or (tag == "span" and dict(attrs).get("class") == "detail"):
            self.skip += 1
        for name, value in attrs:
            if name in ("title", "alt", "aria-label", "placeholder") and value:
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "span") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.texts.append(data)


def read(markup: str) -> str:
    parser = Reading()
    parser.feed(markup)
    return "\n".join(parser.texts)


def ids_of(game: str) -> tuple[dict[str, str], set[str]]:
    """({id: what it names}, the proper names) of ``game``'s rulesets' data. The ids must never stand where a
    name belongs: its places (a place whose id reads as its name, "marengo" for Marengo, is its name in lower
    case, which no text writes), unit kinds, sides and scenarios. Block and element ids (F1, blue-1-1) are
    names players write in orders and read in reports: not among them. The proper names (of blocks, elements,
    brigades, commanders, places) are the game's data, written as the scenario names them in every language
    ("Consular Guard infantry", "Lannes' light cavalry"): a kind's word inside one is the name's, not a kind's."""
    rules = ruleset_named(game)
    ids: dict[str, str] = {}
    names: set[str] = set()
    for scenario_id, path in rules.scenarios().items():
        ids[scenario_id] = "scenario"
        scenario = rules.load_scenario(path)
        for seat in rules.seats(scenario, {}):
            ids[seat.id] = "side"
        if game in ("marengo", "triomphe"):
            ids.update({locale.id: "place" for locale in scenario.board.locales.values()})
            ids.update({cell: "waiting cell" for cell in getattr(scenario, "cells", {})})
            names.update(locale.name for locale in scenario.board.locales.values())
            ids.update({block.type: "unit kind" for block in scenario.blocks})
            ids.update({block.side: "side" for block in scenario.blocks})
            names.update(block.name for block in scenario.blocks)
        elif game == "napoleon1815":
            ids.update({town.id: "place" for town in scenario.board.towns.values()})
            names.update(town.name for town in scenario.board.towns.values())
            ids.update({block.type: "unit kind" for block in scenario.blocks.values()})
            ids.update({block.army: "side" for block in scenario.blocks.values()})
            names.update(block.name for block in scenario.blocks.values())
        else:
            table = scenario.table
            ids.update({side: "side" for side in scenario.sides})
            names.update(scenario.sides.values())
            ids.update({element.troop: "unit kind" for element in table.elements.values()})
            ids.update({element.side: "side" for element in table.elements.values()})
            names.update(element.name for element in table.elements.values() if element.name)
            names.update(brigade.name for brigade in table.brigades.values())
            names.update(commander.name for commander in table.commanders.values())
            names.update(table.places)
    return ids, {name for name in names if name}


ENGLISH_WORDS = re.compile(r"[a-z]+")
"""An id that is one English word (infantry, cavalry, leader, lancers) is its English name too, written in lower
case inside an English sentence ("2 infantry blocks"): an id in English texts only when it is not one (places,
sides and compound kinds are: "alessandria", "light_infantry", "allies:" never read as English)."""


class Table:
    """One game played by mail through the post office, its players' addresses each in ``lang``: everything
    each address read kept in ``read`` (address -> [(where, text)]), mails and pages."""

    def __init__(self, office: PostOffice, game: str, lang: str, options: dict | None = None, seed: int = 7,
                 scenario: str | None = None):
        self.office, self.game, self.lang = office, game, lang
        service = office.service
        self.rules = ruleset_named(game)
        path = self.rules.scenarios()[scenario] if scenario else next(iter(self.rules.scenarios().values()))
        scenario = service.scenario(game, path.name)
        seats = [s.id for s in self.rules.seats(scenario, options or {})]
        # one address for two seats where the game has a third (Napoleon 1815's Allies in a two-player game)
        self.email = {seat: f"player{min(i, 1)}.{lang}@example.org" for i, seat in enumerate(seats)}
        for address in set(self.email.values()):
            office.store.set_language(address, lang)
        self.game_id, self.keys = service.create_game(f"Sweep {lang}", self.email, seed=seed, scenario=path.name,
                                                      settings={"hours": 48}, game=game, options=options)
        self.read: dict[str, list[tuple[str, str]]] = {a: [] for a in set(self.email.values())}
        self.browsers = {a: self._signed_in(a) for a in self.read}
        self.seen = {a: 0 for a in self.read}
        self.rng = random.Random(seed)

    def _signed_in(self, address: str):
        browser = self.office.browser()
        token = make_login_token(self.office.store, address, self.office.service.now())
        browser.sign_in(f"/login/{token}")
        return browser

    def play(self, days: int) -> int:
        """Up to ``days`` days (0: to the end) of the game's bot orders, each seat's by mail with FINAL, then a
        HELP mail from each address; every mail and page read after each day. Returns the days played."""
        service, played = self.office.service, 0
        self.collect(-1)
        bot = self.rules.bots()["bot"]
        while not service.game(self.game_id).over and (not days or played < days):
            state = service.game(self.game_id)
            for seat in state.turn().seats:
                orders = bot.orders(state.scenario, state.view(seat), self.rng.randrange(10**6))
                self.office.send(self.email[seat], f"GAME {self.game_id} KEY {self.keys[seat]}\n{orders}\nFINAL\n")
            if service.game(self.game_id).day == state.day:
                service.resolve_next(self.game_id, ask=False)
            played += 1
            self.collect(service.game(self.game_id).day - 1)
        for address in self.read:
            seat = next(s for s, a in self.email.items() if a == address)
            self.office.send(address, f"GAME {self.game_id} KEY {self.keys[seat]}\nHELP\n")
        self.collect(service.game(self.game_id).day - 1)
        return played

    def collect(self, day: int) -> None:
        """The new mails of each address (subject, every text part, the text attachments; the JSON ones are data)
        and its pages of ``day`` (the last resolved, -1 for none): the home page listing his games, the game page and
        report of each of its seats, the day's map."""
        for address, texts in self.read.items():
            rows = self.office.read(address)
            for subject, body, raw in rows[self.seen[address]:]:
                msg = email.message_from_bytes(raw, policy=email.policy.default)
                parts = [subject, body]
                for part in msg.walk():
                    if part.get_content_type() == "text/html":
                        parts.append(read(part.get_content()))
                    elif part.get_filename() and part.get_content_type() == "text/plain":
                        parts.append(part.get_content())
                    elif part.get_filename() and part.get_content_type() == "image/svg+xml":
                        parts.append(read(part.get_content()))
                texts.append((f"mail {subject!r}", "\n".join(parts)))
            self.seen[address] = len(rows)
            browser = self.browsers[address]
            status, page = browser.get("/")  # his games, listed
            assert status == 200, ("/", status, page[:500])
            texts.append(("page /", read(page)))
            for seat in (s for s, a in self.email.items() if a == address):
                where = f"?side={seat}"
                for path in (f"/games/{self.game_id}{where}", f"/games/{self.game_id}/reports/{day}{where}",
                             f"/games/{self.game_id}/map/{day}.svg{where}"):
                    if day < 0 and "/games/{}/".format(self.game_id) in path:  # no report nor map before a day
                        continue
                    status, page = browser.get(path)
                    assert status == 200, (path, status, page[:500])
                    texts.append((f"page {path}", read(page)))


URL = re.compile(r"https?://\S+|\S+@\S+")


HOUR = re.compile(r"\d{1,2}(AM|PM)")

WORDS_OF = {"fr": {"marche", "cuirassiers"}}
"""Ids that are words of a language (French "marche", walks, works, and Marche the town's id; French writes
cuirassiers as English does): in that language's texts they are its words."""

HEADER = re.compile(r"^[#>\s]*GAME \S+ SIDE \S+", re.M)
"""An orders form's first line, where English names the seat by its id (GAME 3 SIDE french KEY ...): the token the
header reads, as a player writes it (other languages write the seat's name: PARTIE 3 CAMP France (Napoléon))."""


@lru_cache(maxsize=8)
def names_pattern(names: frozenset[str]) -> re.Pattern:
    """The proper names, longest first, a name's words apart by any space (a mail's text wraps a long name:
    "Austrian artillery\nreserve")."""
    return re.compile("|".join(r"\s+".join(re.escape(w) for w in name.split())
                               for name in sorted(names, key=len, reverse=True)))


def ids_in(text: str, ids: dict[str, str], names: set[str], lang: str) -> list[str]:
    """The ids of ``ids`` standing as bare words in ``text`` (links, addresses and the game's proper names
    aside; in English, an id that is an English word only when it names a place or a side)."""
    text = names_pattern(frozenset(names)).sub(" ", HEADER.sub(" ", URL.sub(" ", text)))
    found = []
    for id_, what in ids.items():
        if lang == "en" and what in ("unit kind", "scenario") and ENGLISH_WORDS.fullmatch(id_):
            continue
        if lang == "en" and what == "waiting cell" and HOUR.fullmatch(id_):
            continue  # the French cells are named by their hour, which English writes as the board prints it
        if id_ in WORDS_OF.get(lang, ()) or id_ not in text:  # (the pattern is the id with lookarounds)
            continue
        for m in re.finditer(r"(?<![\w/#.-])" + re.escape(id_) + r"(?![\w/-]|\.\w)", text):
            start, end = text.rfind("\n", 0, m.start()) + 1, text.find("\n", m.end())
            found.append(f"{what} {id_!r} in: {text[start:end if end >= 0 else None].strip()[:200]}")
    return found


def swept(game: str, lang: str, days: int, folder: Path, scenario: str | None = None) -> list[str]:
    """Every id where a name belongs in what the players of one game read, ``days`` days of it (0: to its end),
    each with its reader and where."""
    ids, names = ids_of(game)
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    office = PostOffice(folder, clock, web=True)
    try:
        table = Table(office, game, lang, scenario=scenario)
        table.play(days)
        return [f"{address} {where}: {f}" for address, texts in table.read.items() for where, text in texts
                for f in ids_in(text, ids, names, lang)]
    finally:
        office.close()


def sweep(games=GAMES, languages=LANGUAGES, days: int = 0) -> dict:
    """{(game, scenario, lang): [every id found, with where]} over ``days`` days of each scenario of each game in
    each language."""
    import tempfile

    out = {}
    for game in games:
        for scenario in ruleset_named(game).scenarios():
            for lang in languages:
                with tempfile.TemporaryDirectory() as tmp:
                    out[game, scenario, lang] = swept(game, lang, days, Path(tmp), scenario)
                print(f"{game} {scenario} {lang}: {len(out[game, scenario, lang])} ids where a name belongs",
                      flush=True)
    return out


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--days", type=int, default=0, help="days per game (0: each game to its end)")
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--lang", action="append", choices=LANGUAGES)
    args = parser.parse_args()
    result = sweep(args.game or GAMES, args.lang or LANGUAGES, args.days)
    for key, found in result.items():
        for line in sorted(set(found)):
            print(" ".join(key), line)
    sys.exit(1 if any(result.values()) else 0)
