"""The map of a view as SVG: roads (major thick, minor thin, river crossings marked),
towns, and the blocks standing in them -- the viewer's own with type and strength,
the others as plain blocks of their army's colour with their count; under it the
turn track (scenario data: day and night turns, whose turn, the one to come), and,
while battles wait for a sub-turn, each battle board the viewer fights on: its
positions and terrain, the viewer's own blocks in them and how many others stand
there -- drawn from the viewer's view alone."""

from __future__ import annotations

from html import escape

from pbem.lang import say
from pbem.render.layers import Layers, LayeredSVG

from .labels import view_label
from .layout import (BAR_H, BAR_W, BOARD, BOARD_COLUMN, BOARD_ROWS, BOTTOM, H, INSET_LEFT, LEGEND,  # noqa: F401
                     PAD, RIGHT, TRACK, W, board_cell, board_top, cell_bar, layout, map_height, stacks,
                     town_positions)
from .words import ARMY_SAID, MARKER_SAID, SIDE_ID_SAID, date_said, tongue, turn_said

COLOUR = {"french": "#2a4d9b", "anglo": "#b22222", "prussian": "#222222"}
HALO = 'stroke="#f3ead2" stroke-width="3.5" stroke-linejoin="round" paint-order="stroke"'
SETUP_RING = {"west": COLOUR["anglo"], "east": COLOUR["prussian"], "france": COLOUR["french"]}


def render_svg(scenario, view: dict, title: str | None = None, *, lang: str = "en") -> str:
    t = tongue(lang)
    board = scenario.board
    at = town_positions(board)

    def pos(town):
        return at[town]

    boards = view.get("battles", [])
    stacked = stacks(view, lambda n: t.ngettext("%(num)d block", "%(num)d blocks", n))
    lay = layout(board, {town: len(items) for town, items in stacked.items()})
    height = map_height(lay, len(boards))
    bottom = H + LEGEND + lay.inset_height  # the turn track's top
    root = f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height:g}" viewBox="0 0 {W} {height:g}">'
    out = [root, f'<rect width="{W}" height="{height:g}" fill="#f3ead2"/>']
    printed = len(out)  # what is printed (the board) starts here: roads, rivers, towns
    if title:
        out.append(f'<text x="{PAD}" y="24" font-family="serif" font-size="18">{escape(title)}</text>')
    titled = len(out)
    for road in board.roads.values():
        (ax, ay), (bx, by) = pos(road.a), pos(road.b)
        width = 4 if road.kind == "major" else 1.5
        out.append(f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="#8b5a2b" '
                   f'stroke-width="{width}"/>')
        if road.river:
            mx, my = (ax + bx) / 2, (ay + by) / 2
            out.append(f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="5" fill="#4a7fc1"/>')
    for town in board.towns.values():
        x, y = pos(town.id)
        fill = "#fff" if town.country == "netherlands" else "#dde4f5"
        ring = 9 if town.supply else 6
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{ring}" fill="{fill}" stroke="#333"/>')
    pieces = len(out)  # the day's pieces start here
    setup = view.get("phase") in ("allied setup", "French setup")
    if setup:
        out += setup_marks(board, at)
    for inset in lay.insets:  # a stack too big to stand beside its town, whole, joined to it by a leader line
        x, y = pos(inset.town)
        name = t.place(board.name(inset.town))
        blocks = sum(item.count for item in stacked[inset.town])
        heading = t.ngettext("%(town)s: %(num)d block", "%(town)s: %(num)d blocks", blocks, town=name)
        out.append(f'<g class="inset" data-town="{escape(inset.town)}">'
                   f'<rect x="{PAD}" y="{inset.top + 2:.1f}" width="{W - 2 * PAD}" height="{inset.height - 4:.1f}" '
                   f'fill="#fbf6e6" stroke="#6b5a3a"/>'
                   f'<line x1="{x:.1f}" y1="{y + 6:.1f}" x2="{x:.1f}" y2="{inset.top + 2:.1f}" stroke="#6b5a3a" '
                   f'stroke-dasharray="3 3"/>'
                   f'<circle cx="{x + 14:.1f}" cy="{y + 10:.1f}" r="8" fill="#6b5a3a"/>'
                   f'<text x="{x + 14:.1f}" y="{y + 13:.1f}" font-family="sans-serif" font-size="9" fill="#fff" '
                   f'text-anchor="middle">{inset.count}</text>'
                   f'<text x="{PAD + 6}" y="{inset.top + 17:.1f}" font-family="serif" font-size="12">'
                   f'{escape(heading, quote=False)}</text></g>')
    for town, items in stacked.items():
        for k, item in enumerate(items):
            bx, by = lay.bars[(town, k)]
            out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="{BAR_W}" height="{BAR_H}" fill="{COLOUR[item.army]}"/>')
            out.append(f'<text x="{bx + 2:.1f}" y="{by + 10:.1f}" font-family="sans-serif" font-size="9" '
                       f'fill="#fff">{escape(item.label)}</text>')
    for town in board.towns.values():  # the names over the stacks, each on a halo that keeps it readable
        x, y = pos(town.id)
        out.append(f'<text x="{x + 8:.1f}" y="{y - 8:.1f}" font-family="serif" font-size="12" {HALO}>'
                   f'{escape(t.place(town.name))}</text>')
    lost = view.get("lost", {})
    if lost:
        line = t.gettext("Blocks lost: %(lost)s", lost=", ".join(f"{t.say(ARMY_SAID[a])} {n}" for a, n in lost.items()))
        if view.get("turn_label"):
            line = t.gettext("Next: %(turn)s. ", turn=t.say(view_label(scenario, view))) + line
        out.append(f'<text x="{PAD}" y="{H - 14}" font-family="serif" font-size="14">{escape(line)}</text>')
    for town in view.get("last_battles", []):
        x, y = pos(town)
        out.append(f'<text x="{x - 6:.1f}" y="{y + 5:.1f}" font-size="16" fill="#c00">✕</text>')
    out += legend(H, setup, t)
    out += turn_track(scenario, view, bottom, t)
    own = {b["id"]: b for b in view.get("blocks", [])}
    for k, battle in enumerate(boards):
        out += battle_board(scenario, battle, own, board_top(lay, k), t)
    out.append("</svg>")
    # the board: the paper, roads and towns (the same for every view and day of a scenario, at each
    # height); the overlay: the title and the day's pieces, the towns' names over them, transparent
    layers = Layers(board="\n".join(out[:printed] + out[titled:pieces] + ["</svg>"]), variants=(), regions="",
                    overlay="\n".join([root] + out[printed:titled] + out[pieces:]))
    return LayeredSVG("\n".join(out), layers)


def border_line(board, at, apart) -> list[tuple[float, float]]:
    """A line between the towns ``apart(a, b)`` says are on two sides of it: through the middles of
    the roads that cross it, in order along it (the map's data has no line of its own)."""
    points = [((at[r.a][0] + at[r.b][0]) / 2, (at[r.a][1] + at[r.b][1]) / 2) for r in board.roads.values()
              if apart(board.towns[r.a], board.towns[r.b])]
    return points


def setup_marks(board, at) -> list[str]:
    """At the setup (§4.1-4.2): the Franco-Dutch border, the Anglo-Prussian setup line, and a ring round
    each town in the colour of the army that may set up there."""
    out = []
    border = sorted(border_line(board, at, lambda a, b: (a.country == "france") != (b.country == "france")))
    setup = sorted(border_line(board, at, lambda a, b: {a.zone, b.zone} == {"west", "east"}), key=lambda p: p[1])
    for points, dash, what in ((border, "10 5", "border"), (setup, "2 4", "setup-line")):
        if len(points) > 1:
            out.append(f'<polyline class="{what}" points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}" '
                       f'fill="none" stroke="#7a1f5c" stroke-width="2.8" stroke-dasharray="{dash}"/>')
    for town in board.towns.values():
        zone = "france" if town.country == "france" else town.zone
        if zone in SETUP_RING:
            x, y = at[town.id]
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11" fill="none" stroke="{SETUP_RING[zone]}" '
                       f'stroke-width="2.5" data-setup="{zone}"/>')
    return out


def legend(top: float, setup: bool, t) -> list[str]:
    """The legend under the map: roads, river crossings, supply cities; at the setup the border, the
    setup line and where each army sets up."""
    y = top + 16
    out = [f'<g class="legend"><rect x="{PAD}" y="{top + 2}" width="{W - 2 * PAD}" height="{LEGEND - 4}" '
           f'fill="#fbf6e6" stroke="#6b5a3a"/>']
    x = PAD + 8
    items = [("major", t.gettext("major road")), ("minor", t.gettext("minor road")),
             ("river", t.gettext("river crossing")), ("supply", t.gettext("supply city"))]
    if setup:
        items += [("border", t.gettext("border")), ("setup-line", t.gettext("setup line")),
                  ("west", t.gettext("Anglo-Dutch set up")), ("east", t.gettext("Prussians set up")),
                  ("france", t.gettext("French set up"))]
    for key, words in items:
        if key in ("major", "minor"):
            out.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 22}" y2="{y - 4}" stroke="#8b5a2b" '
                       f'stroke-width="{4 if key == "major" else 1.5}"/>')
        elif key in ("border", "setup-line"):
            out.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 22}" y2="{y - 4}" stroke="#7a1f5c" stroke-width="2.8" '
                       f'stroke-dasharray="{"10 5" if key == "border" else "2 4"}"/>')
        elif key == "river":
            out.append(f'<circle cx="{x + 11}" cy="{y - 4}" r="5" fill="#4a7fc1"/>')
        elif key == "supply":
            out.append(f'<circle cx="{x + 11}" cy="{y - 4}" r="8" fill="#fff" stroke="#333"/>')
        else:
            out.append(f'<circle cx="{x + 11}" cy="{y - 4}" r="7" fill="none" stroke="{SETUP_RING[key]}" '
                       f'stroke-width="2.5"/>')
        out.append(f'<text x="{x + 26}" y="{y}" font-family="sans-serif" font-size="10">'
                   f'{escape(words, quote=False)}</text>')
        x += 34 + sum(10 if ord(c) > 0x2e80 else 5.6 for c in words)
    out.append("</g>")
    return out


SIDE_LETTER = {"F": say("F"), "A": say("A")}  # on the turn track: whose turn (French, Allied)


def turn_track(scenario, view: dict, top: float, t=None) -> list[str]:
    """The turn track (§2): a box a turn, dark for night turns, edged in the colour of the side
    that moves; the turns played are faded, the one to come is ringed."""
    t = t or tongue("en")
    track = scenario.track
    now = view.get("turn", 0) - 2  # the track index of the turn to come (negative: the setup)
    step = (W - 2 * PAD) / max(1, len(track))
    heading = t.gettext("Turn track (setup)") if now < 0 else t.gettext("Turn track")
    out = [f'<g class="turn-track"><text x="{PAD}" y="{top + 14:.1f}" font-family="serif" font-size="12">'
           f'{escape(heading, quote=False)}</text>']
    last_date = None
    for i, spec in enumerate(track):
        x, y = PAD + i * step, top + 24
        edge = COLOUR["french"] if spec.side == "F" else COLOUR["anglo"]
        fill = "#33334d" if spec.night else "#fffaf0"
        opacity = "0.45" if i < now else "1"
        ring = ' stroke-width="3"' if i == now else ' stroke-width="1.2"'
        out.append(f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{step - 2:.1f}" height="26" fill="{fill}" '
                   f'stroke="{edge}"{ring} opacity="{opacity}" data-turn="{i + 2}"><title>{escape(t.say(turn_said(spec)))}'
                   f'</title></rect>')
        out.append(f'<text x="{x + step / 2:.1f}" y="{y + 17:.1f}" font-family="sans-serif" font-size="9" '
                   f'text-anchor="middle" fill="{"#fff" if spec.night else "#333"}" opacity="{opacity}">'
                   f'{escape(t.say(SIDE_LETTER.get(spec.side, spec.side)), quote=False)}</text>')
        if spec.date != last_date:
            out.append(f'<text x="{x + 1:.1f}" y="{y + 40:.1f}" font-family="serif" font-size="10">'
                       f'{escape(t.say(date_said(spec.date)))}</text>')
            last_date = spec.date
        if i == now:
            out.append(f'<text x="{x + step / 2:.1f}" y="{y - 2:.1f}" font-size="10" text-anchor="middle">▼</text>')
    out.append("</g>")
    return out


POSITIONS = ("left", "centre", "right")


WHERE_SAID = {("att", "left"): say("attacker's left"), ("att", "centre"): say("attacker's centre"),
              ("att", "right"): say("attacker's right"), ("def", "left"): say("defender's left"),
              ("def", "centre"): say("defender's centre"), ("def", "right"): say("defender's right"),
              ("att", "reserve"): say("attacker's reserve"), ("def", "reserve"): say("defender's reserve")}


def battle_board(scenario, battle: dict, own: dict, top: float, t=None) -> list[str]:
    """One battle board (§6.2) as the viewer sees it: the defender's reserve and positions above,
    the attacker's below, position i of each facing the other's (the attacker's left faces the
    defender's right), terrain markers (§6.21) in their positions, the viewer's blocks by id and
    strength, and how many others stand in each place."""
    t = t or tongue("en")
    name = t.place(scenario.board.name(battle["town"]))
    stage = {"def": t.gettext("the defenders deploy"), "att": t.gettext("the attackers deploy")}.get(
        battle.get("stage")) or t.gettext("round %(n)s comes next", n=battle.get("round", 1))
    attacker = t.say(SIDE_ID_SAID.get(battle["sides"]["att"], battle["sides"]["att"]))
    heading = t.gettext("Battle of %(town)s: %(stage)s (the attacker: %(side)s)", town=name, stage=stage, side=attacker)
    out = [f'<g class="battle-board" data-town="{escape(battle["town"])}">',
           f'<rect x="{PAD}" y="{top + 6:.1f}" width="{W - 2 * PAD}" height="{BOARD - 12}" fill="#e8dfc4" '
           f'stroke="#6b5a3a"/>',
           f'<text x="{PAD + 8}" y="{top + 24:.1f}" font-family="serif" font-size="14">'
           f'{escape(heading)}</text>']
    board = battle.get("board") or {}
    counts = battle.get("defenders") or {}
    col = BOARD_COLUMN
    rows = {loc: top + dy for loc, dy in BOARD_ROWS.items()}
    for role in ("def", "att"):
        for i in range(3):
            loc = f"{role}{i}"
            x, y = PAD + 130 + i * col, rows[role]
            label = POSITIONS[i if role == "att" else 2 - i]
            marker = battle.get("terrain", {}).get(loc)
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{col - 8:.1f}" height="44" fill="'
                       f'{TERRAIN_FILL.get(marker, "#f7f1de")}" stroke="#6b5a3a" data-loc="{loc}"/>')
            out.append(f'<text x="{x + 4:.1f}" y="{y + 12:.1f}" font-family="serif" font-size="10">'
                       f'{escape(t.say(WHERE_SAID[(role, label)]), quote=False)}'
                       f'{" — " + escape(t.say(MARKER_SAID.get(marker, marker)), quote=False) if marker else ""}</text>')
            out += cell(board.get(loc), counts.get(loc), own, *board_cell(loc, top), t)
        for res in (f"res-{role}",):
            y = rows[res]
            out.append(f'<text x="{PAD + 8}" y="{y + 14:.1f}" font-family="serif" font-size="11">'
                       f'{escape(t.say(WHERE_SAID[(role, "reserve")]), quote=False)}</text>')
            out += cell(board.get(res), counts.get(res), own, *board_cell(res, top), t)
    waiting = [b for b in own.values() if b["town"] == battle["town"]] if not board else []
    if waiting:
        text = t.gettext("Your blocks to deploy: %(blocks)s", blocks=" ".join(b["id"] for b in waiting))
        out.append(f'<text x="{PAD + 8}" y="{top + BOARD - 14:.1f}" font-family="sans-serif" font-size="10">'
                   f'{escape(text)}</text>')
    out.append("</g>")
    return out


TERRAIN_FILL = {"woods": "#b9d3a5", "farm": "#ecd9a0", "stream": "#bcd6ee", "hill": "#d8c3a3"}


def cell(place: dict | None, count: int | None, own: dict, x: float, y: float, t=None) -> list[str]:
    """The blocks in one place of the board: the viewer's own, then a count of the others."""
    t = t or tongue("en")
    out = []
    items = [(own[bid]["army"], f'{bid} {own[bid]["strength"]}') for bid in (place or {}).get("own", [])
             if bid in own]
    others = (place or {}).get("others", 0) + (count or 0)
    if others:
        items.append((None, t.ngettext("%(num)d other", "%(num)d others", others)))
    for k, (army, label) in enumerate(items):  # every block of the place (a click target each: clicks.py)
        bx, by = cell_bar(x, y, k)
        out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="70" height="12" fill="{COLOUR.get(army, "#888")}"/>')
        out.append(f'<text x="{bx + 2:.1f}" y="{by + 10:.1f}" font-family="sans-serif" font-size="9" '
                   f'fill="#fff">{escape(label)}</text>')
    return out
