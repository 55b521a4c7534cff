"""The leak oracle: what each seat of a game may know, computed without the view code.

The view modules (``pbem/games/*/view.py``) decide what a seat is shown; this
module decides, on its own, what a seat may know, and tests/test_leak_oracle.py
checks every output of the real server against it. It reads only the rules'
own record of the game (``pbem.core.game.Game``: the states before and after
each day and the events of each day with their visibility: owner, witnesses,
the seen text, read here by ``told``, not by the server's ``Event.for_side``)
and the rule books' few statements of who owns what:

- a seat knows its own blocks (Marengo, Triomphe: the blocks of its side;
  Napoleon 1815: the blocks of its army, and in the two-player game the Allied
  player commands both Allied armies);
- it learns another block's id, name, type and strength only from an event
  it was told (the event's ``owner``/``witnesses``); in Napoleon 1815 only
  from the narrative of a battle its own army fought in (002 §3.2: «силу и тип
  вашей конкретной части противник может увидеть, только вступив с ней в
  бой»), which is the one expectation stricter than the events' own
  visibility today (``Knowledge.gap``: see ``KnownGap``);
- Napoleonic DBA: a seat knows its side's elements and an enemy element once its
  troops saw it (the table's line of sight, computed here) or an event named it
  (``_dba_knowledge``), in both ways of playing (one seat a side, one seat per
  commander: his own eyes, and what a subordinate's report brought him, which is
  what that subordinate could know when he sent it); in the kriegsspiel no enemy
  brigade or officer by name, nor an element of his side beside the place it
  stands at now unless his eyes or a report told him (DS7, DS8) — each looked
  for as every language writes it (the dba catalog's names and sentences, the
  reports' way of writing a place), not in English only;
- it sees an enemy block's type and strength face up only while the rules
  turn it face up (Marengo 003 §10, Triomphe 000 §10: an artillery block with
  a bombardment declared; Triomphe 000 §15: the Austrian artillery held in
  its waiting cell).

Nothing here imports a view module; the check is by text, over every id and
name a seat may not know, and over the full text of every event it was not
told.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from pbem.core.game import Game

# Napoleon 1815: who commands what (the rule book's seats; scenario data, not the view)
N1815_SEAT_ARMY = {"french": "french", "anglo-dutch": "anglo", "prussian": "prussian"}
N1815_BATTLE_KINDS = {"battle", "skirmish", "regroup", "reinforce", "retreat", "rout", "eliminated"}
N1815_HEADER = re.compile(r"^(?:Battle of|Skirmish at) (.+?)(?::|,| is over| still open|$)")
N1815_DIE = re.compile(r"(?:battle of|skirmish at) (.+?): \d+$")
ID_WORD = re.compile(r"\w+(?:-\w+)*")
JSON_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
DATA_URI = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=\s]+")
TOKEN = re.compile(r"(?=[\w-]*\d)(?=[\w-]*[a-z])(?=[\w-]*[A-Z])[\w-]{16,}")  # keys, CSRF tokens, nonces


class KnownGap(AssertionError):
    """A leak the oracle expects to find only because of the known gap in 3-player Napoleon 1815:
    the Allied seat that is not in a battle reads its narrative (fixed on the n1815 branch)."""


@dataclass
class Knowledge:
    """What one seat may not know after a given day."""

    seat: str
    forbidden: dict[str, str] = field(default_factory=dict)  # token -> why (an id or a name)
    gap: set[str] = field(default_factory=set)  # tokens forbidden only by the n1815 battle expectation
    unseen: list[str] = field(default_factory=list)  # full texts of events the seat was not told
    face_up: Counter = field(default_factory=Counter)  # (type, strength) of blocks shown face up without id
    own: set[str] = field(default_factory=set)
    allowed: set[str] = field(default_factory=set)  # the ids it may know: its own and those it was told of
    ids: set[str] = field(default_factory=set)  # every block id of the game
    heard: set[str] = field(default_factory=set)  # Napoleonic DBA: the texts it was told (a report carries them)
    names: dict[str, str] = field(default_factory=dict)  # Napoleonic DBA: names in another language -> why
    places: dict[str, set[str]] = field(default_factory=dict)  # Napoleonic DBA kriegsspiel: own element -> where it
    # stands, written in each language ("(14", 25.6")", "（14"，25.6"）"), when the seat may not know it stands there
    learned: set[str] = field(default_factory=set)  # Napoleonic DBA: the enemy elements it knows of (their ids)
    public: list[str] = field(default_factory=list)  # texts every seat may read, taken out before the check


def _ids_in(text: str, ids) -> set[str]:
    words = set(re.findall(r"\w+(?:-\w+)*", text))  # "P-III-A" is one id, not "III"
    return {i for i in ids if i in words}


def _all_blocks(game: Game) -> dict:
    """Every block the game has had, by id (a state may drop eliminated ones)."""
    out = {}
    for state in [game.initial] + [d.after for d in game.days]:
        for bid, block in state.blocks.items():
            out[bid] = block
    return out


def _name(game: Game, bid: str, block) -> str:
    name = getattr(block, "name", None)
    if name is None:
        spec = getattr(game.scenario, "blocks", {}).get(bid)
        name = getattr(spec, "name", None)
    return name or ""


def own_blocks(game: Game, seat: str, blocks: dict | None = None) -> set[str]:
    """The blocks the seat commands (the rule books' ownership, not the view)."""
    blocks = _all_blocks(game) if blocks is None else blocks
    if game.ruleset.name == "napoleon1815":
        armies = {N1815_SEAT_ARMY[seat]}
        if str(game.options.get("players")) == "2" and seat != "french":
            armies = {"anglo", "prussian"}
        return {bid for bid, b in blocks.items() if b.army in armies}
    return {bid for bid, b in blocks.items() if b.side == seat}


def _n1815_contexts(game: Game, day) -> list[str | None]:
    """For each event of a Napoleon 1815 day, the name of the battle (town) it tells of, or None."""
    out, town = [], None
    for event in day.events:
        m = N1815_HEADER.match(event.text)
        if event.kind in ("battle", "skirmish") and m:
            town = m.group(1)
        elif event.kind == "roll":  # "Die for P-III-A fires, skirmish at Dinant: 5"
            die = N1815_DIE.search(event.text)
            out.append(die.group(1) if die else None)
            continue
        elif event.kind not in N1815_BATTLE_KINDS:
            town = None
        out.append(town if event.kind in N1815_BATTLE_KINDS else None)
    return out


def _n1815_involved(game: Game, day, town: str, contexts, blocks: dict) -> set[str]:
    """The armies in the battle at ``town`` on ``day``: every army a block of which its narrative
    names, or which stood in the town before or after the day."""
    armies = set()
    for event, ctx in zip(day.events, contexts):
        if ctx == town:
            armies |= {blocks[b].army for b in _ids_in(event.text, blocks)}
    board = game.scenario.board
    for state in (day.before, day.after):
        for b in state.blocks.values():
            if getattr(b, "town", None) is not None and board.name(b.town) == town:
                armies.add(b.army)
    return armies


def all_ids(game: Game) -> set[str]:
    """Every block's (Napoleonic DBA: element's) id the game has had."""
    if game.ruleset.name == "dba":
        return set(game.scenario.table.elements) | set(game.scenario.waiting)
    return set(_all_blocks(game))


def _dba_sees(game: Game, state, seat: str, side: str) -> set[str]:
    """The enemy elements the seat's troops see at the end of a turn, by the table's line of sight
    (``Table.sees``: the rules' geometry, D24-D26), looked for here, not through sight.py or view.py. A
    kriegsspiel seat looks with his own eyes only: he and the brigade he leads himself (DS2); what the
    brigades under him see reaches him by report (DS6, ``_dba_reported``)."""
    scenario = game.scenario
    table = state.table(scenario)
    chain = {seat} if seat not in scenario.sides else None
    brigades = None if chain is None else {b.id for b in state.brigades.values() if b.commander in chain}
    eyes = [e for e in table.on_table(side) if not e.fleeing and (brigades is None or e.brigade in brigades)]
    eyes += [c for c in table.commanders.values() if c.side == side and c.alive and c.present
             and (chain is None or c.id in chain)]
    spotting = scenario.settings.spotting
    return {t.id for t in table.on_table() if t.side != side and any(table.sees(o, t, spotting) for o in eyes)}


_DBA_SAID: dict[tuple, list[str]] = {}


def _dba_said(game: Game, event, seen: bool) -> list[str]:
    """An event's full (or seen) description in every language a seat may read (pbem.lang.LANGUAGES), as the
    dba catalog reads its ``said``/``seen_said`` (pbem/core/events.py): the English sentence, then the others
    (remembered by its English words: a long game reads each event once per language, not once per seat and
    turn)."""
    from pbem.games.dba.lang import tongue
    from pbem.lang import LANGUAGES

    memo = _DBA_SAID  # by the event's words: a game read again each turn (the server's) reads them once
    key = (event.kind, event.text, event.seen, seen)
    if key not in memo:
        said = event.seen_said if seen else event.said
        english = (event.seen or "") if seen else event.text
        memo[key] = [english] + ([tongue(code).say(said) for code in LANGUAGES if code != "en"]
                                 if said is not None else [])
    return memo[key]


def dba_names_in_every_language(english: str) -> list[str]:
    """A scenario's name (a brigade's, an officer's) as each language's dba catalog spells it, English left out
    (the catalog is where the reports take them from; a hand-written list would miss a new spelling)."""
    from pbem.games.dba.lang import tongue
    from pbem.lang import LANGUAGES

    return sorted({tongue(code).gettext(english) for code in LANGUAGES if code != "en"} - {english})


def dba_known_positions(game: Game, seat: str, days=None) -> dict[str, set[tuple[int, int]]]:
    """DS7, computed here from the rules' record (the states after each turn and the reports' record), not from
    view.py: where the kriegsspiel commander ``seat`` may know each element of his side to stand — where it
    deployed, where it stood at the end of a turn when he or the brigade he leads could see it (the table's line
    of sight), and where it stood when a report that has reached him was sent by the commander of its brigade."""
    scenario = game.scenario
    spotting = scenario.settings.spotting
    days = game.days if days is None else days
    out: dict[str, set] = {}
    for e in game.initial.elements.values():
        out.setdefault(e.id, set()).add((e.x, e.y))
    states = [d.after for d in days]
    last = states[-1] if states else game.initial
    got = [r for r in last.reports.reports if r.recipient == seat and r.delivered is not None]
    for n, state in enumerate(states):
        table = state.table(scenario)
        eyes = [x for x in table.on_table() if x.brigade in {b.id for b in state.brigades.values()
                                                              if b.commander == seat} and not x.fleeing]
        me = state.commanders[seat]
        if me.alive and me.present:
            eyes.append(me)
        sent_then = {r.sender for r in got if r.sent == n + 1}
        for e in table.on_table():
            b = state.brigades[e.brigade]
            if e.side != me.side:
                continue
            if b.commander in sent_then or any(o is not e and table.sees(o, e, spotting) for o in eyes):
                out.setdefault(e.id, set()).add((e.x, e.y))
    return out


def _dba_hidden_places(game: Game, seat: str, days) -> dict[str, set[str]]:
    """Each element of the kriegsspiel seat's side, outside the brigade he leads, that stands where he cannot know
    it stands (dba_known_positions): that place as a report writes it in every language."""
    from pbem.games.dba.elements import in_inches
    from pbem.games.dba.lang import tongue
    from pbem.lang import LANGUAGES, say

    state = days[-1].after if days else game.initial
    me = state.commanders[seat]
    lead = {b.id for b in state.brigades.values() if b.commander == seat}
    known = dba_known_positions(game, seat, days)
    out = {}
    for e in state.table(game.scenario).on_table():
        if e.side == me.side and e.brigade not in lead and (e.x, e.y) not in known.get(e.id, ()):
            where = say('(%(x)s", %(y)s")', x=in_inches(e.x), y=in_inches(e.y))
            out[e.id] = {tongue(code).say(where) for code in LANGUAGES}
    return out


def _dba_knowledge(game: Game, seat: str, days) -> Knowledge:
    """Napoleonic DBA (issue 12 §4: "a commander's report never mentions an enemy element his troops cannot
    see"): a seat may know its side's elements, and an enemy element only once its troops saw it — at the end
    of a turn by the table's line of sight, or during one as the rules recorded it (the state's sightings of
    the side, or of the kriegsspiel seat) — or an event it was told named it. Dice (public "roll" events) teach
    nothing: their purposes name elements, and no output may show a seat the purpose of a die about an enemy
    it did not see. The order of battle (brigades, commanders) is the scenario's, public."""
    scenario = game.scenario
    ids = all_ids(game)
    side = seat if seat in scenario.sides else scenario.table.commanders[seat].side
    side_of = {e.id: e.side for e in list(scenario.table.elements.values()) + list(scenario.waiting.values())}
    own = {i for i in ids if side_of[i] == side}
    fog = seat not in scenario.sides  # kriegsspiel: the enemy by the army's own ids for it (DS8)
    real_of = {v: k for k, v in game.initial.enemy_ids.get(side, {}).items()} if fog else {}
    learned, heard, unseen = set(), set(), []
    for day in days:
        for event in day.events:
            known = told(event, seat)
            if known is None:
                unseen.extend(t for t in _dba_said(game, event, False) if _long(t))
                continue
            full = known[0] == event.text and (event.owner is None or seat in event.owners())
            heard.update(_dba_said(game, event, not full))
            if not full:
                unseen.extend(t for t in _dba_said(game, event, False) if _long(t))
            if event.kind != "roll":
                learned |= _ids_in(known[0], ids) - own
                learned |= {real_of[v] for v in _ids_in(known[0], real_of)}
        if seat in scenario.sides:  # mid-turn sightings, as the rules recorded them for the side
            learned |= set(day.after.memory.get(seat, {}))
        else:  # a kriegsspiel seat: what reports brought him
            ids_, texts = _dba_reported(game, day, seat)
            learned |= ids_
            heard |= texts
        learned |= _dba_sees(game, day.after, seat, side)
    out = Knowledge(seat, own=own, allowed=own | learned, ids=ids, heard=heard, learned=learned)
    for eid in sorted(ids - own - learned):
        out.forbidden[eid] = f"the id of {eid}, an enemy element {seat}'s troops never saw and no event named"
    if fog:  # DS8: no enemy element's own id, nor its brigade, nor its officers; its army's id once it is known
        view_of = game.initial.enemy_ids[side]
        out.allowed = own | {view_of[e] for e in learned}
        for eid in sorted(ids - own):
            if eid in learned:
                out.forbidden[eid] = f"the real id of {eid} (a kriegsspiel seat reads {view_of[eid]})"
            else:
                out.forbidden[view_of[eid]] = f"{view_of[eid]}, the id of {eid}, which {seat} never saw nor was told of"
        # the enemy's order of battle is public (its seats' titles name its officers and their brigades, and are
        # taken out of a text first: Knowledge.public); an enemy brigade or officer named anywhere else tells
        # which brigade an element the seat reads of belongs to
        # -- in every language: the catalog's spelling of each name (out.names, read whatever the case)
        for b in scenario.table.brigades.values():
            if b.side != side:
                out.forbidden[b.id] = out.forbidden[b.name] = f"the enemy brigade {b.id} ({b.name})"
                for name in dba_names_in_every_language(b.name):
                    out.names[name] = f"the enemy brigade {b.id} ({b.name}), as {name!r}"
        for c in scenario.table.commanders.values():
            if c.side != side:
                out.forbidden[c.name] = f"the enemy officer {c.id} ({c.name})"
                for name in dba_names_in_every_language(c.name):
                    out.names[name] = f"the enemy officer {c.id} ({c.name}), as {name!r}"
        from pbem.core.ruleset import seat_title_in
        from pbem.lang import LANGUAGES

        out.public = sorted({seat_title_in(game.ruleset, s, code) for s in game.ruleset.seats(scenario, game.options)
                             for code in LANGUAGES}, key=len, reverse=True)
        out.places = _dba_hidden_places(game, seat, days)
    out.unseen = [t for t in unseen if t not in heard]
    return out


def _dba_reported(game: Game, day, seat: str) -> tuple[set[str], set[str]]:
    """DS6: a report of a commander under ``seat``, delivered on this day's turn, tells him whatever its sender
    could know when he sent it (all the sender's troops saw, or were told, or had reported, up to the end of
    the turn it was sent): the rules' record of the reports (who, to whom, sent, delivered) is read, what each
    could carry is the oracle's own."""
    got, texts = set(), set()
    turn = day.before.turn
    for r in day.after.reports.reports:
        if r.recipient != seat or r.status != "delivered" or r.delivered != turn:
            continue
        assert r.sent < r.delivered, f"report {r.seq} delivered on turn {r.delivered}, sent on turn {r.sent}"
        memo = game.__dict__.setdefault("_oracle_dba_sent", {})  # what a sender could know, by (sender, turn)
        if (r.sender, r.sent) not in memo:
            memo[(r.sender, r.sent)] = _dba_knowledge(game, r.sender, game.days[:r.sent])
        sender = memo[(r.sender, r.sent)]
        got |= sender.learned
        texts |= sender.heard
    return got, texts


def knowledge(game: Game, seat: str, through: int | None = None) -> Knowledge:
    """What ``seat`` may not know once days 0..``through`` (default: all) are resolved."""
    days = game.days if through is None else game.days[:through + 1]
    if game.ruleset.name == "dba":
        return _dba_knowledge(game, seat, days)
    blocks = _all_blocks(game)
    ids = set(blocks)
    own = own_blocks(game, seat, blocks)
    n1815 = game.ruleset.name == "napoleon1815"
    armies = {blocks[b].army for b in own} if n1815 else set()
    learned, learned_by_gap, heard = set(), set(), set()
    unseen = []
    for day in days:
        contexts = _n1815_contexts(game, day) if n1815 else [None] * len(day.events)
        involved = {}
        for event, ctx in zip(day.events, contexts):
            known = told(event, seat)
            if known is None:
                if len(event.text) >= 24:
                    unseen.append(event.text)
                continue
            text = known[0]
            heard.add(text)
            if known[0] != event.text and len(event.text) >= 24:
                unseen.append(event.text)
            named = _ids_in(text, ids) - own
            if ctx is not None:
                if ctx not in involved:
                    involved[ctx] = _n1815_involved(game, day, ctx, contexts, blocks)
                if not (involved[ctx] & armies):
                    learned_by_gap |= named
                    continue
            learned |= named
    out = Knowledge(seat, own=own, allowed=own | learned, ids=ids)
    specs = getattr(game.scenario, "blocks", {})
    # words its own blocks carry (Napoleon 1815: the Prussian "III" corps beside the French block "III")
    own_words = {getattr(specs.get(b), "corps", None) for b in own} if isinstance(specs, dict) else set()
    for bid, block in blocks.items():
        if bid in own or bid in learned:
            continue
        if bid not in own_words:
            out.forbidden[bid] = f"the id of {bid}, a block {seat} does not command and was not told of"
        name = _name(game, bid, block)
        public = f"{game.ruleset.title} {getattr(game.scenario, 'name', '')}"  # on every page and mail
        if name and name not in public and not any(name == _name(game, o, blocks[o]) for o in own):
            out.forbidden[name] = f"the name of {bid}"
        if bid in learned_by_gap:
            out.gap.add(bid)
            if name:
                out.gap.add(name)
    out.unseen = [t for t in unseen if t not in heard]
    state = days[-1].after if days else game.initial
    for bid, block in state.blocks.items():
        if (bid not in own and getattr(block, "bombard", None) is not None) or _waiting_face_up(game, state, block):
            out.face_up[(block.type, block.strength)] += 1
    return out


def told(event, seat: str) -> tuple[str, dict] | None:
    """What ``seat`` was told of ``event``: (text, data), or None. Read from the event's fields as
    pbem/core/events.py documents them, not by calling ``Event.for_side`` (which the server uses):
    the owners know the full text; with ``witnesses``, only they see the ``seen`` text; without,
    every other seat does; an event with no owner is public."""
    owners = () if event.owner is None else ((event.owner,) if isinstance(event.owner, str) else tuple(event.owner))
    if not owners or seat in owners:
        return event.text, event.data
    if event.seen is None or (event.witnesses is not None and seat not in event.witnesses):
        return None
    return event.seen, event.seen_data or {}


def _waiting_face_up(game: Game, state, block) -> bool:
    """Triomphe 000 §15: «Австрійська артилерія не може увійти у гру до раунду о 7:00 ранку. До цього
    раунду вона залишається горілиць в австрійській комірці очікування.» A block waiting in a cell
    that opens before it may enter stands face up there until it may."""
    if game.ruleset.name != "triomphe" or getattr(block, "status", None) != "waiting" or block.arrives is None:
        return False
    scenario = game.scenario
    opens = scenario.cells[block.cell].hour if block.cell in scenario.cells else 0
    hour = scenario.hour(min(state.day, scenario.days - 1))
    return opens < block.arrives and hour < block.arrives


def clean(text: str) -> str:
    """An output as a reader reads it (HTML entities and JSON's ``\\u`` escapes decoded: a page's script data
    writes «полковник» as ``\\u043f…``), without what cannot carry a game's secret but may look like one:
    embedded images (base64) and random tokens (keys, CSRF tokens)."""
    text = JSON_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), html.unescape(text))
    return TOKEN.sub(" ", DATA_URI.sub(" ", text))


def _squash(text: str) -> str:
    return " ".join(text.split())


def _cjk(char: str) -> bool:
    return "\u2e80" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"


CJK = re.compile("[\u2e80-\u9fff\uf900-\ufaff]")  # a character _cjk says is Chinese


def _long(sentence: str) -> bool:
    """A sentence long enough to be searched for whole (24 letters; 12 characters of Chinese, which says as much
    in half as many)."""
    return len(sentence) >= (12 if CJK.search(sentence) else 24)


@lru_cache(maxsize=None)  # each name and sentence is looked for in every output of its game: compiled once
def _bounded(words: str, flags: int = 0) -> re.Pattern:
    """``words`` standing on their own in a text: not inside a longer word, where their script writes words apart
    (Chinese writes none: a name there stands between any two characters)."""
    before = "" if _cjk(words[0]) else r"(?<![\w-])"
    after = "" if _cjk(words[-1]) else r"(?!\w)"
    return re.compile(before + re.escape(words) + after, flags)


def _without_told(flat: str, sentence: str, heard: set[str]) -> str:
    """``flat`` with every text the seat was told that holds ``sentence`` taken out: an untold event's sentence
    may stand inside a longer one the seat was told (a colonel's report to his general: "PIP die 4, 4 PIPs;
    units red-1-1, red-1-2, red-1-3, red-1-4" holds the untold "... units red-1-1, red-1-2, red-1-3")."""
    for told in sorted((_squash(h) for h in heard if sentence in _squash(h)), key=len, reverse=True):
        flat = flat.replace(told, " ")
    return flat


def leaks(text: str, known: list[Knowledge]) -> list[tuple[str, str]]:
    """What ``text`` (an output read by a player holding the seats ``known``) says that none of
    those seats may know: (token, why) pairs."""
    text = clean(text)
    for title in known[0].public:
        text = text.replace(title, " ")
    allowed = set().union(*(k.allowed for k in known))
    ids = known[0].ids
    # whole ids ("P-III-A": not "III"), and the parts of hyphenated words that are no id
    # ("block-F12" says F12); the ids it may know are left out first, whole
    words = set()
    for token in set(ID_WORD.findall(text)):
        if token in allowed:
            continue
        words.add(token)
        if "-" in token and token not in ids:
            words.update(token.split("-"))
    forbidden = set(known[0].forbidden)
    for k in known[1:]:
        forbidden &= set(k.forbidden)
    found = []
    for token in sorted(forbidden):
        if (" " in token and token in text) or (" " not in token and token in words):
            found.append((token, known[0].forbidden[token]))
    names = set(known[0].names)
    for k in known[1:]:
        names &= set(k.names)
    flat = _squash(text)
    for name in sorted(names):  # another language's spelling, capitalised or not ("Полковник Руж")
        if _bounded(_squash(name), re.IGNORECASE).search(flat):
            found.append((name, known[0].names[name]))
    found += _places_told(text, known)
    unseen = set(known[0].unseen)
    for k in known[1:]:
        unseen &= set(k.unseen)
    heard = set().union(*(k.heard for k in known))
    for sentence in sorted(unseen):  # the sentence itself, not the tail of a longer id's
        # ("II-A takes a hit" stands inside "P-II-A takes a hit", another block's line)
        words = _squash(sentence)
        if words not in flat:  # the pattern is these words with what may not stand beside them: no match
            continue
        pattern = _bounded(words)
        if pattern.search(flat) and pattern.search(_without_told(flat, words, heard)):
            found.append((sentence[:60], "the full text of an event this seat was not told"))
    return found


def _places_told(text: str, known: list[Knowledge]) -> list[tuple[str, str]]:
    """Napoleonic DBA, kriegsspiel (DS7): an element of the seat's own side written with the place it stands at
    now, which the seat cannot know (``Knowledge.places``): the place after the element's id, before the next
    element's id (a row of a report's table, a line), in any language."""
    places = dict(known[0].places)
    for k in known[1:]:
        places = {e: p for e, p in places.items() if e in k.places}
    if not places:
        return []
    ids = known[0].ids
    alternatives = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    every = re.compile(r"(?<![\w-])(" + alternatives + r")(?![\w-])")
    found = []
    marks = list(every.finditer(text))
    for n, m in enumerate(marks):
        if m.group(1) not in places:
            continue
        end = marks[n + 1].start() if n + 1 < len(marks) else len(text)
        row = text[m.end():min(end, m.end() + 300)]
        told = [p for p in places[m.group(1)] if p in row]
        if told:
            found.append((f"{m.group(1)} {told[0]}", f"where {m.group(1)} stands now, which no eye nor report of "
                                                     f"{known[0].seat} has told him"))
    return found


def check(what: str, text: str, known: list[Knowledge]) -> None:
    """Raise if ``text`` leaks: AssertionError, or KnownGap when every leak is the known gap."""
    found = leaks(text, known)
    if not found:
        return
    gap = set.intersection(*(k.gap for k in known))
    lines = "\n".join(f"  {token!r}: {why}" for token, why in found[:12])
    message = f"{what} for {'/'.join(k.seat for k in known)} says what that seat may not know:\n{lines}"
    if all(token in gap for token, _ in found):
        raise KnownGap("known gap (3-player Napoleon 1815, battle narratives to the uninvolved seat): " + message)
    raise AssertionError(message)


def json_blocks(value, path: str = "") -> list[tuple[str, dict]]:
    """Every dict inside a JSON value that describes a block (it has an id, or a type and strength)."""
    out = []
    if isinstance(value, dict):
        if "id" in value or ("type" in value and "strength" in value):
            out.append((path, value))
        for key, item in value.items():
            out.extend(json_blocks(item, f"{path}.{key}"))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.extend(json_blocks(item, f"{path}[{i}]"))
    return out


def check_view_json(what: str, view: dict, known: list[Knowledge], all_ids: set[str]) -> None:
    """A view as JSON: a block described by id must be one the player may know; a block described
    by type and strength without an id (an enemy block) only while the rules show it face up."""
    face_up = Counter()
    for k in known:
        face_up |= k.face_up
    pairs = Counter()
    for path, block in json_blocks(view):
        bid = block.get("id")
        if isinstance(bid, str) and bid in all_ids:
            assert not all(bid in k.forbidden for k in known), (
                f"{what}: {path} names {bid}, which {'/'.join(k.seat for k in known)} may not know")
        elif "type" in block and "strength" in block and "id" not in block:
            pairs[(block["type"], block["strength"])] += 1
    over = pairs - face_up
    assert not over, f"{what}: enemy blocks shown with type and strength the rules keep face down: {dict(over)}"
