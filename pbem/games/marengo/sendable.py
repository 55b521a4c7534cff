"""Orders a side may send, from what it sees: for the bots and the orders template.

The day's check (checks.py) reads only what a side may see, so it can run on a
position rebuilt from the side's view (:func:`state_seen`). A bot keeps to the
orders the server will accept (:func:`keep_accepted`); the orders template
suggests only orders accepted without a warning (:func:`useful_order`).
"""

from __future__ import annotations

import dataclasses

from pbem.core.orders import OrdersError

from .checks import accepted_without, check_day
from .orders import Orders
from .parse import parse_orders
from .scenario import Scenario
from .state import Block, State


def state_seen(scenario: Scenario, view: dict) -> State:
    """A position built from a side's view: its own blocks in full, each enemy block where it
    stands (of unknown type and strength, which the checks never read).

    A check rebuilds some thirty blocks for each reading: each is made as the dataclass's ``__init__``
    would make it (every field, by name), at a third of the cost."""
    new = object.__new__
    blocks = {}
    for b in view["blocks"]:
        if b.keys() == SHOWN:  # the view's own block (view.block_dict): its fields, but a tuple of entries
            block = blocks[b["id"]] = new(Block)
            block.__dict__ = fields = dict(b)
            fields["entries"] = tuple(fields["entries"])
            fields["bombard_days"] = ()
        else:
            blocks[b["id"]] = Block(b["id"], b["side"], b["name"], b["type"], b["strength"], b["locale"],
                                    b["facing"], b["status"], b["arrives"], tuple(b.get("entries", ())),
                                    b["activated"], b.get("bombard"))
    for i, e in enumerate(view["enemy"], 1):
        shown = e.get("revealed") or {}
        block = blocks[f"?{i}"] = new(Block)
        block.__dict__ = {"id": f"?{i}", "side": e["side"], "name": "", "type": shown.get("type", "infantry"),
                          "strength": shown.get("strength", 1), "locale": e["locale"], "facing": e["facing"],
                          "status": "map", "arrives": None, "entries": (), "activated": True, "bombard": None,
                          "bombard_days": ()}
    st = State(day=view["day"], blocks=blocks, morale=dict(view["morale"]),
               demoralised=dict(view["demoralised"]), bonus_due={s: False for s in view["morale"]})
    st.french_start = list(french_starts(scenario.board))
    return st


SHOWN = {f.name for f in dataclasses.fields(Block)} - {"bombard_days"}  # what a view shows of its side's blocks
_FRENCH_STARTS: dict[int, tuple] = {}  # id(board) -> (board, its locales French at the start)


def french_starts(board) -> tuple[str, ...]:
    """The locales of ``board`` French at the start (003 §6 step 6), found once for each board."""
    kept = _FRENCH_STARTS.get(id(board))
    if kept is None or kept[0] is not board:
        if len(_FRENCH_STARTS) >= 16:  # a scenario's board, or a case's: a few
            _FRENCH_STARTS.clear()
        kept = _FRENCH_STARTS[id(board)] = (board, tuple(lid for lid, loc in board.locales.items() if loc.french_start))
    return kept[1]


def keep_accepted(scenario: Scenario, view: dict, text: str, tries: int = 12, written: Orders | None = None) -> str:
    """``text`` without the orders the day's check refuses (a bot's orders, before it sends them).

    A refused line becomes a comment; from an ENTER refused for some of its blocks
    (``A5: Bormida bridgehead is full``), only those blocks are taken out, as the
    day would have left them waiting.

    The orders are read and checked once: when every refused line becomes a comment,
    the check has said already how the orders without them fare (checks.accepted_without),
    and it remembers that answer for the check of the orders when they are sent. Only an
    ENTER cut down to some of its blocks, or a refusal the check cannot answer so, is
    read and checked again.

    ``written``: the orders ``text`` reads as, when the caller wrote the text from them (the
    bot: each order's text as the parser writes it, one order a line, at its line), so the
    first check takes them as they are instead of reading the text back."""
    side = view["viewer"]
    own = {b["id"] for b in view["blocks"]}
    lines = text.split("\n")
    for _ in range(tries):
        state = state_seen(scenario, view)  # the check plays the day on it (spare): one for each reading
        try:
            orders = written if written is not None else parse_orders(scenario, state, side, "\n".join(lines),
                                                                      checks=False)
        except OrdersError as exc:  # what the start of the day does not decide: read again once mended
            problems, orders = exc.problems, None
        else:
            if side != scenario.side_of_day(state.day):
                return "\n".join(lines)
            problems = sorted(check_day(scenario, state, orders, spare=True), key=lambda p: (p.line, p.column))
            if not problems:
                return "\n".join(lines)
        written = None  # the lines change now: what they read as is read from them
        cut = set()  # ENTERs cut down to some of their blocks: changed orders, checked again
        for problem in problems:
            n = problem.line - 1
            if not 0 <= n < len(lines):
                return text
            line = lines[n]
            words = line.split()
            bid = problem.message.split(":", 1)[0]
            if words[:1] == ["ENTER"] and bid in words[1:] and len(own.intersection(words[1:])) > 1:
                lines[n] = " ".join(w for w in words if w != bid)
                cut.add(n)
            else:
                lines[n] = "# (refused) " + line
        if orders is not None and all(lines[n].startswith("#") for n in cut) and accepted_without(orders, problems):
            return "\n".join(lines)
    return "\n".join(lines)


def useful_order(scenario: Scenario, view: dict, line: str) -> str | None:
    """One order ``line`` as the day's check would take it, for suggesting it to a player:
    the line (an ENTER trimmed to the blocks that can enter), or None when it would be
    refused, or accepted only with a warning (it may not be carried out, or does nothing)."""
    line = keep_accepted(scenario, view, line)
    if line.startswith("#"):
        return None
    try:
        orders = parse_orders(scenario, state_seen(scenario, view), view["viewer"], line)
    except OrdersError:
        return None
    return None if orders.warnings else line
