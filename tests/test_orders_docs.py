"""Every orders example of the order docs, played verbatim on the position it is written for (issue 33 item 4).

Each fenced block of docs/orders.md, docs/triomphe-orders.md and docs/napoleon1815-orders.md says what it is by its
info string: ```orders (an orders text a player may send), ```header (header lines), ```text (what the server
answers), ```syntax (an order's grammar), ```toml. A block with none fails here, so a new example is picked up.

An ```orders block has a marker on the line above it naming its position::

    <!-- orders: SEAT HOUR [, seed N] [, after NAME ...] [, option K=V] [, each line] [, refused]
                 [; BLOCKS PLACE]... [; play SEAT ORDERS]... -->
    <!-- orders NAME: ... -->   (the same, and later examples may be played ``after`` it)

- ``SEAT HOUR``: whose orders, on which day (``austria 7AM``; Napoleon 1815: ``french turn 2``);
- ``seed N``: the shipped scenario as that seed deals it (Napoleon 1815: the historical setup, its setup turns
  played without orders); ``after NAME``: then the named examples played, a day each, in order;
- else the position is set up on the shipped scenario (seed 1 for what it draws): ``BLOCKS PLACE`` puts the
  blocks named there, every other block is off the map (reinforcements still waiting); a flag before the place:
  ``asleep`` (Marengo, not activated), ``disorganised`` (Triomphe), ``bombarding`` (declared a bombardment last
  day at the locale the approach faces); ``discs N LOCALE`` (Triomphe: the seat's discs committed there);
  ``play SEAT ORDERS [& SEAT ORDERS]`` (Napoleon 1815) then resolves a turn with those seats' orders (`` / ``
  between two lines; ``play -``: none), e.g. to reach a battle's deployment or round sub-turn;
- ``option K=V``: a game option (``battle=live``, ``bid=auction``, ``players=3``);
- ``each line``: every order line is sent alone (under the block's header, if it has one): the lines are
  alternatives (a table's ``example`` column is always so);
- ``refused``: the text is refused, and a ```text block right after it that follows "answered" is the answer,
  word for word. In ``each line``, a line whose comment starts with "refused" is refused (for the reason it
  quotes, ``# refused: "..."``, if it quotes one). A text whose comments say "with a warning" is accepted with
  one (an order whose fate depends on the enemy).

The text goes through the ruleset's check_orders, as the server's service.check_orders does for a mail or the web
form (the header's SIDE and TURN are checked there; the GAME number is the server's, and is not checked here).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pbem.core.chance import Chance
from pbem.core.game import Game
from pbem.core.orders import OrdersError, parse_header
from pbem.games import ruleset

ROOT = Path(__file__).resolve().parent.parent
DOCS = {"marengo": "docs/orders.md", "triomphe": "docs/triomphe-orders.md",
        "napoleon1815": "docs/napoleon1815-orders.md"}
KINDS = {"orders", "header", "text", "syntax", "toml"}
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
MARKER = re.compile(r"<!-- orders(?: ([\w-]+))?: (.*?) -->\s*$", re.S)
BLOCK_ID = re.compile(r"^[A-Z]+(-[A-Z0-9]+)*\d*$|^[A-Z]\d+$")
EXAMPLE_COLUMN = re.compile(r"^\|.*\| example \|$")  # a table whose last column is "example": orders, each alone
FLAGS = {"asleep", "disorganised", "bombarding"}


@dataclass
class Example:
    doc: str
    line: int  # of the fence, in the doc
    kind: str
    text: str
    marker: str | None
    name: str | None = None
    answer: str | None = None  # the ```text answer after a refused example
    spec: dict = field(default_factory=dict)
    table: bool = False  # the examples of a table's "example" column, each sent alone

    def __str__(self):
        return f"{self.doc}:{self.line}"


def blocks(game: str) -> list[Example]:
    path = DOCS[game]
    text = (ROOT / path).read_text(encoding="utf-8")
    found = []
    for m in BLOCK.finditer(text):
        before = text[:m.start()].rstrip().rsplit("\n", 1)[-1]
        marker = MARKER.search(before)
        found.append(Example(path, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2),
                             marker.group(2) if marker else None, marker.group(1) if marker else None))
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if line.startswith("|") and not lines[n - 1].startswith("|") and EXAMPLE_COLUMN.match(line):
            marker = MARKER.search(lines[n - 1])
            rows = []
            for row in lines[n + 2:]:
                if not row.startswith("|"):
                    break
                rows += re.findall(r"`([^`]+)`", row.rstrip(" |").rsplit("|", 1)[-1])
            found.append(Example(path, n + 1, "orders", "\n".join(rows) + "\n", marker.group(2) if marker else None,
                                 marker.group(1) if marker else None, table=True))
    for example, after in zip(found, found[1:]):
        gap = text.split("\n")[example.line + example.text.count("\n") + 1:after.line - 1]
        if example.kind == "orders" and after.kind == "text" and "answered" in " ".join(gap):
            example.answer = after.text.strip()
    return found


def orders_examples(game: str) -> list[Example]:
    return [e for e in blocks(game) if e.kind == "orders"]


def read_marker(example: Example) -> dict:
    """The marker's parts: seat, hour or turn, seed, after, options, each line, refused, the placed blocks."""
    head, *groups = [part.strip() for part in example.marker.split(";")]
    seat_hour, *parts = [p.strip() for p in head.split(",")]
    words = seat_hour.split()
    spec = {"seat": words[0], "when": " ".join(words[1:]), "seed": 1, "after": [], "options": {},
            "each": False, "refused": False, "groups": [], "dealt": False, "discs": {}, "play": []}
    for part in parts:
        key, _, value = part.partition(" ")
        if key == "seed":
            spec["seed"], spec["dealt"] = int(value), True
        elif key == "after":
            spec["after"], spec["dealt"] = value.split(), True
        elif key == "option":
            k, _, v = value.partition("=")
            spec["options"][k.strip()] = v.strip()
        elif part == "each line":
            spec["each"] = True
        elif part == "refused":
            spec["refused"] = True
        elif key == "discs":  # Triomphe: discs of the seat's committed in a locale, "discs 1 Marengo"
            count, _, where = value.partition(" ")
            spec["discs"][where] = int(count)
        else:
            raise AssertionError(f"{example}: the marker's {part!r} is not a part of a position")
    for group in groups:
        if group.startswith("play "):
            spec["play"].append(group[len("play "):])
            continue
        tokens = group.split()
        ids = []
        while tokens and BLOCK_ID.match(tokens[0]) and tokens[0] not in FLAGS:
            ids.append(tokens.pop(0))
        flags = set()
        while tokens and tokens[0] in FLAGS:
            flags.add(tokens.pop(0))
        assert ids and tokens, f"{example}: {group!r} is not BLOCKS [FLAGS] PLACE"
        spec["groups"].append((ids, flags, " ".join(tokens)))
    return spec


# -- the positions --------------------------------------------------------


def played(game: str, spec: dict, named: dict[str, Example]):
    """(rules, scenario, state) of the shipped scenario at ``spec``'s seed, after the named examples."""
    rules = ruleset(game)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    match = Game(rules, scenario, spec["seed"], options=spec["options"])
    for name in spec["after"]:
        earlier = named[name]
        match.submit(earlier.spec["seat"], earlier.text)
        match.advance()
    if game == "napoleon1815":  # the setup turns played without orders: every block at its historical town
        while match.state.turn < int(spec["when"].split()[1]):
            match.advance()
    return rules, scenario, match.state


def simmons_day(scenario, seat: str, hour: str) -> int:
    from pbem.games.simmons.clock import parse_hour

    sides = ("austria", "france")
    return (parse_hour(hour) - scenario.first_hour) * len(sides) + sides.index(seat)


def placed_simmons(game: str, spec: dict, example: Example):
    """Marengo and Triomphe: the shipped scenario, the blocks named where the marker puts them, the others off
    the map (reinforcements still waiting), on the seat's day at the marker's hour."""
    from pbem.games.simmons.cases import place

    rules = ruleset(game)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    state = rules.setup(scenario, spec["options"], Chance(spec["seed"]))
    for block in state.blocks.values():
        if block.status == "map":
            block.status, block.locale, block.facing = "eliminated", None, None
        if hasattr(block, "activated"):
            block.activated = True
        if hasattr(block, "disorganised"):
            block.disorganised = False
    state.day = simmons_day(scenario, spec["seat"], spec["when"])
    for ids, flags, where in spec["groups"]:
        locale, facing = place(scenario.board, where)
        assert locale, f"{example}: no place {where!r}"
        for bid in ids:
            block = state.blocks[bid]
            block.status, block.locale, block.facing = "map", locale, facing
            if "asleep" in flags:
                block.activated = False
            if "disorganised" in flags:
                block.disorganised = True
            if "bombarding" in flags:
                block.bombard, block.bombard_days = facing, (state.day - 2,)
    for where, count in spec["discs"].items():
        state.committed[spec["seat"]][scenario.board.find_locale(where)] = count
        state.received[spec["seat"]] += count
    return rules, scenario, state


def placed_napoleon1815(spec: dict, example: Example):
    """Napoleon 1815: the blocks named on the map at the turn named (every other block off it, as in its
    cases), then the turns ``play`` names resolved, each with one seat's orders (``-``: none)."""
    from pbem.core.decisions import Decider

    rules = ruleset("napoleon1815")
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    state = rules.setup(scenario, spec["options"], Chance(spec["seed"]))
    words = spec["when"].split()
    assert words[0] == "turn", f"{example}: Napoleon 1815 positions say 'SEAT turn N'"
    state.turn = int(words[1])
    for ids, _flags, where in spec["groups"]:
        town = scenario.board.find(where)
        assert town, f"{example}: no town {where!r}"
        for bid in ids:
            state.blocks[bid].town = town
    for played_turn in spec["play"]:
        orders = {}
        for part in played_turn.split(" & "):  # "play french ENGAGE C-PAJ / ENGAGE C-EXE & prussian FORM ..."
            seat, _, text = part.partition(" ")
            if seat != "-":
                orders[seat] = rules.parse_orders(scenario, state, seat, text.replace(" / ", "\n"))
        state, _events = rules.resolve(scenario, state, orders, Decider(), Chance(spec["seed"]))
    return rules, scenario, state


def position(game: str, example: Example, named: dict[str, Example]):
    """The marker's position: the shipped scenario as dealt (``seed``, ``after``), else a position set up."""
    spec = example.spec
    if not spec["dealt"]:
        return placed_napoleon1815(spec, example) if game == "napoleon1815" else placed_simmons(game, spec, example)
    rules, scenario, state = played(game, spec, named)
    if game == "napoleon1815":
        assert state.turn == int(spec["when"].split()[1]), f"{example}: the position played is not {spec['when']}"
    else:
        assert state.day == simmons_day(scenario, spec["seat"], spec["when"]), \
            f"{example}: the position played is not {spec['seat']}'s day at {spec['when']}"
    return rules, scenario, state


# -- the texts ------------------------------------------------------------


def texts(example: Example) -> list[tuple[str, bool]]:
    """(text, refused) to send: the block whole, or each of its order lines under its header."""
    if not (example.spec["each"] or example.table):
        return [(example.text, example.spec["refused"])]
    header, body = parse_header(example.text, [])
    lines = example.text.split("\n")
    top = lines[header.line - 1] + "\n" if header.line else ""
    out = []
    for _number, line in body:
        order, _, comment = line.partition("#")
        if order.strip():
            out.append((top + line, comment.strip().lower().startswith("refused")))
    return out


def said_refusal(text: str) -> str | None:
    """The words a line's comment quotes after "refused:", which the answer must hold."""
    found = re.search(r'#\s*refused:?\s*"([^"]+)"', text)
    return found.group(1) if found else None


def check(game: str, example: Example, named: dict[str, Example]) -> list[str]:
    """What is wrong with the example on its position: [] when it is answered as the doc says."""
    rules, scenario, state = position(game, example, named)
    wrong = []
    for text, refused in texts(example):
        try:
            orders = rules.check_orders(scenario, state, example.spec["seat"], text)
        except OrdersError as exc:
            answer = "\n".join(str(p) for p in exc.problems)
            if not refused:
                wrong.append(f"{text.strip()!r} refused:\n{answer}")
            elif example.answer is not None and answer != example.answer:
                wrong.append(f"{text.strip()!r}: refused, but not with the answer shown:\n{answer}")
            elif said_refusal(text) and said_refusal(text) not in answer:
                wrong.append(f"{text.strip()!r}: refused, but not for the reason its comment quotes:\n{answer}")
        else:
            if refused:
                wrong.append(f"{text.strip()!r} accepted, but the doc says it is refused")
            elif "with a warning" in text and not getattr(orders, "warnings", None):
                wrong.append(f"{text.strip()!r} accepted without the warning the doc says it gets")
    return wrong


def examples(game: str) -> list[Example]:
    found = orders_examples(game)
    for example in found:
        if example.marker is not None:
            example.spec = read_marker(example)
    return found


def cases():
    for game in sorted(DOCS):
        for example in examples(game):
            yield pytest.param(game, example, id=f"{game}-{example.line}")


@pytest.mark.parametrize("game", sorted(DOCS))
def test_every_block_says_what_it_is(game):
    untold = [f"{b}: ```{b.kind or ''}" for b in blocks(game) if b.kind not in KINDS]
    assert untold == [], f"blocks without one of the kinds {sorted(KINDS)}: {untold}"
    unmarked = [str(e) for e in orders_examples(game) if e.marker is None]
    assert unmarked == [], f"orders examples without a position marker (<!-- orders: ... -->) above: {unmarked}"
    assert len(orders_examples(game)) >= 10


@pytest.mark.parametrize("game,example", list(cases()))
def test_the_example_is_answered_as_the_doc_says(game, example):
    named = {e.name: e for e in examples(game) if e.name}
    wrong = check(game, example, named)
    assert wrong == [], f"{example}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("game", sorted(DOCS))
def test_the_header_lines_are_what_the_server_reads(game):
    """A header line in an example names the game (GAME) and, when it stands for a mail, carries a KEY, as the
    mail robot needs; SIDE and TURN are checked with the orders (above)."""
    for block in blocks(game):
        if block.kind not in ("orders", "header"):
            continue
        for line in block.text.split("\n"):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            header, _ = parse_header(line.split("#")[0], [])
            if block.kind == "header" or header.game is not None:
                assert header.line and header.game is not None and header.key is not None, \
                    f"{block}: {line!r} is a header without GAME and KEY, and a mail needs both"
            if block.kind == "orders":
                break


def header_spans(path: str):
    """(line, text) of every `code span` of a doc that is a header line naming a game by its number."""
    text = (ROOT / path).read_text(encoding="utf-8")
    for m in re.finditer(r"`([^`\n]+)`", text):
        header, _ = parse_header(m.group(1), [])
        if header.line and re.fullmatch(r"\d+", str(header.game or "").strip()):
            yield text.count("\n", 0, m.start()) + 1, m.group(1), header


SEATS_ON_THEIR_DAYS = {"marengo": [("austria", None), ("france", None)],
                       "napoleon1815": [("french", "turn 2"), ("anglo-dutch", "turn 3"), ("prussian", "turn 3")]}


@pytest.mark.parametrize("game,path", [("marengo", "docs/orders.md"), ("marengo", "docs/glossary-marengo.md"),
                                       ("napoleon1815", "docs/napoleon1815-orders.md")])
def test_the_headers_written_in_the_text_are_read_as_the_server_reads_them(game, path):
    """The headers in the prose, in any language (`PARTIE 17 CAMP Autriche TOUR 7:00 CLÉ 4f9c-2b71`): a
    game and a key, and a SIDE and TURN that a seat on its day accepts (Marengo: the day of the hour the
    header names; a header alone is an orders text with no orders)."""
    spans = list(header_spans(path))
    assert spans
    for line, span, header in spans:
        assert header.key is not None, f"{path}:{line}: {span!r} has no key, which a mail needs"
        if header.side is None and header.turn is None:
            continue
        refusals = []
        for seat, when in SEATS_ON_THEIR_DAYS[game]:
            example = Example(path, line, "orders", span, f"{seat} {when or str(header.turn).strip()}")
            example.spec = read_marker(example)
            rules, scenario, state = position(game, example, {})
            try:
                rules.check_orders(scenario, state, seat, span)
                break
            except OrdersError as exc:
                refusals.append(str(exc))
        else:
            raise AssertionError(f"{path}:{line}: {span!r} is refused by both seats: {refusals}")


def test_the_readmes_mail_has_a_header_the_server_reads():
    """README's smtplib snippet: its mail's first line names a game and carries a key."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (body,) = re.findall(r'set_content\("(.*?)"\)', text)
    header, rest = parse_header(body.replace("\\n", "\n"), [])
    assert header.line == 1 and header.game is not None and header.key is not None
    assert [line for _, line in rest if line.strip()] == ["STATUS"]


def test_every_orders_doc_is_played_here_or_in_dbas_own_test():
    """docs/*orders*.md: the three games' here; DBA's (written orders of another kind) in tests/test_dba_orders_docs.py."""
    found = {str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*orders*.md")}
    assert found == set(DOCS.values()) | {"docs/dba-orders.md"}
