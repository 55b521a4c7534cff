"""Napoleon 1815, the three-player game: nothing a seat may not see reaches it (§3.2, §6.24, §12).

Random three-player campaigns are played in every battle mode (doctrine, hybrid, live). After
every day, every output of every seat — its report (Markdown, text, HTML, title, the orders
template), its view as the JSON mailed with it, and the SVG of its map — is searched for the
ids and names of blocks the seat may not see. A block of an army the seat does not see may be
named only on a day when the seat took part in a fight near where that block was: a battle
or skirmish town of the day where the seat had a block before or after it, or that its blocks
moved into or out of, and the block was there or next to it (docs/rules-notes.md
("Napoleon 1815"), "§12 the three-player game and what each Allied seat sees"). A seat with no
part in any fight of the day may read no such block at all: the uninvolved Allied seat reads
only that a fight took place and who won it.

Games: ``PBEM_N1815_SIGHT_GAMES`` campaigns a mode (default 1).
"""

from __future__ import annotations

import html
import json
import os
import re

import pytest

from pbem.core.events import events_for
from pbem.games import ruleset
from pbem.games.napoleon1815.sight import visible_armies
from pbem.tools.selfplay import chooser, play_game, simple_players

RULES = ruleset("napoleon1815")
SCENARIO = RULES.load_scenario(RULES.scenarios()["napoleon1815"])
GAMES = int(os.environ.get("PBEM_N1815_SIGHT_GAMES", "1"))
SEATS = ("french", "anglo-dutch", "prussian")
TAG = re.compile(r"<[^>]*>")


def near(board, moves, block_before, block_after, town, joined=frozenset()) -> bool:
    """Whether a block was at ``town`` this day, marched into it (its army moved by the road
    from where it stood), joined a battle from next to it, or moved in or out of its neighbourhood."""
    before, after = block_before.town, block_after.town
    if town in (before, after) or (block_after.army, before, town) in moves:
        return True
    around = set(board.adjacent(town))
    if block_after.id in joined and before in around:
        return True
    return before != after and (before in around or after in around or after is None)


def allowed_hidden(result, seat: str) -> set[str]:
    """The blocks of armies ``seat`` does not see that it may read of this day."""
    board = SCENARIO.board
    before, after = result.before, result.after
    mine = visible_armies(after.players, seat)
    moves = {(army, a, b) for army, a, b, _ in after.last_moves}
    joined = {e.data["block"] for e in result.events if e.kind == "reinforce"}  # a fact of the day, as played
    out = set()
    for town in after.last_battles:
        if any(b.army in mine and near(board, moves, before.blocks[b.id], b, town, joined) for b in after.blocks.values()):
            out |= {b.id for b in after.blocks.values()
                    if b.army not in mine and near(board, moves, before.blocks[b.id], b, town, joined)}
    return out


def outputs(game, day: int, seat: str) -> dict[str, str]:
    view = game.view(seat, day)
    mine = visible_armies(game.days[day].after.players, seat)
    assert all(b["army"] in mine for b in view["blocks"])  # the seat's own blocks in full, no others
    rest = {k: v for k, v in view.items() if k != "blocks"}
    report = RULES.report(game, day, seat, deadline="Monday 18:00 UTC", game_label="g1", game_id="g1")
    return {"markdown": report.markdown, "text": report.text, "subject": report.subject,
            "html": html.unescape(TAG.sub(" ", report.html)),
            "template": report.template, "view": json.dumps(rest, ensure_ascii=False),
            "svg": RULES.render_svg(SCENARIO, view, "g1")}


def token(text: str) -> re.Pattern:
    return re.compile(r"(?<![\w-])" + re.escape(text) + r"(?![\w-])")


IDS = {bid: token(bid) for bid in SCENARIO.blocks}
NAMES = {bid: token(spec.name) for bid, spec in SCENARIO.blocks.items()}


def leaks(game, day: int, seat: str) -> list[str]:
    result = game.days[day]
    mine = visible_armies(result.after.players, seat)
    allowed = allowed_hidden(result, seat)
    own = sorted((spec.name for spec in SCENARIO.blocks.values() if spec.army in mine), key=len, reverse=True)
    own_ids = sorted((bid for bid, spec in SCENARIO.blocks.items() if spec.army in mine), key=len, reverse=True)
    found = []
    for where, text in outputs(game, day, seat).items():
        text = text.replace("Napoleon 1815", " ")  # the game's title
        for name in own:  # an own block's name may hold another block's id ("III Corps")
            text = text.replace(name, " ")
        for bid in own_ids:
            text = token(bid).sub(" ", text)
        for bid, spec in SCENARIO.blocks.items():
            if spec.army in mine or bid in allowed:
                continue
            for what, pattern in (("id", IDS[bid]), ("name", NAMES[bid])):
                hit = pattern.search(text)
                if hit:
                    found.append(f"day {day}, {seat}, {where}: the {what} of {bid} "
                                 f"({spec.army}): …{text[max(0, hit.start() - 60):hit.end() + 40]}…")
    return found


def three_player_game(seed: int, battle: str):
    options = {"players": "3", "battle": battle}
    return play_game(RULES, SCENARIO, seed, simple_players(RULES, SCENARIO, options),
                     choose=lambda g: chooser(seed, g.day), check=True, options=options)


@pytest.mark.parametrize("battle", ["doctrine", "hybrid", "live"])
def test_no_seat_reads_what_it_may_not_see(battle):
    found, uninvolved, fights = [], 0, 0
    for seed in range(GAMES):
        game = three_player_game(100 + seed, battle)
        assert game.over
        for day, result in enumerate(game.days):
            if not result.after.last_battles:
                continue
            fights += 1
            for seat in SEATS:
                found += leaks(game, day, seat)
                if seat != "french" and not allowed_hidden(result, seat):
                    uninvolved += 1
                    told = [e["text"] for e in events_for(result.events, seat)]
                    assert all("Battle of" not in t or "is over" in t or "attack" in t or "still open" in t
                               for t in told), told
    assert not found, "\n".join(found[:20])
    assert fights > 5 and uninvolved > 0  # the games had fights, and an Allied seat out of some of them
