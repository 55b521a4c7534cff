"""A plain SVG map of a Triomphe view: locales, roads, blocks and discs.

# family: a stopgap until the Marengo family's drawing (marengo/render) moves to
# pbem/games/simmons; it draws from the view alone, so it shows only what the
# reader may see: its own blocks with ids and strengths, the enemy's as bars
# (with type and strength when revealed), disorganised blocks hatched grey,
# committed discs as dots, the objective line's locales edged.
"""

from __future__ import annotations

from html import escape

from .scenario import Scenario

COLOUR = {"austria": "#c0392b", "france": "#2c5aa0"}


def render_svg(scenario: Scenario, view: dict, title: str | None = None) -> str:
    board = scenario.board
    w, h = board.width, board.height
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 -40 {w:.0f} {h + 40:.0f}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect x="0" y="-40" width="{w:.0f}" height="{h + 40:.0f}" fill="#f7f3e8"/>']
    if title:
        out.append(f'<text x="10" y="-15" font-size="18">{escape(title)}</text>')
    seen = set()
    for (a, b) in board.approaches:
        if (b, a) in seen:
            continue
        seen.add((a, b))
        la, lb = board.locales[a], board.locales[b]
        out.append(f'<line x1="{la.x}" y1="{la.y}" x2="{lb.x}" y2="{lb.y}" stroke="#ddd3bb" stroke-width="1"/>')
    for road in board.roads.values():
        points = " ".join(f"{board.locales[l].x},{board.locales[l].y}" for l in road.path)
        width = 4 if road.main else 2
        out.append(f'<polyline points="{points}" fill="none" stroke="#a0825a" stroke-width="{width}"/>')
    for lid, loc in board.locales.items():
        edge = "#000" if lid in scenario.terrain.east_of_line else "#8a7d63"
        out.append(f'<circle cx="{loc.x}" cy="{loc.y}" r="26" fill="#fffdf6" stroke="{edge}"/>')
        out.append(f'<text x="{loc.x}" y="{loc.y + 40}" text-anchor="middle">{escape(loc.name)} '
                   f'({loc.capacity})</text>')
    placed: dict[tuple, int] = {}

    def spot(lid, facing):
        loc = board.locales[lid]
        if facing is None:
            return loc.x, loc.y
        other = board.locales[facing]
        return loc.x + (other.x - loc.x) * 0.3, loc.y + (other.y - loc.y) * 0.3

    def block(lid, facing, side, label, disorganised):
        x, y = spot(lid, facing)
        k = placed.get((lid, facing), 0)
        placed[(lid, facing)] = k + 1
        y += -14 + 9 * k
        fill = "#999" if disorganised else COLOUR[side]
        out.append(f'<rect x="{x - 16}" y="{y}" width="32" height="8" fill="{fill}" stroke="{COLOUR[side]}"/>')
        if label:
            out.append(f'<text x="{x}" y="{y + 7}" text-anchor="middle" fill="#fff" font-size="7">'
                       f'{escape(label)}</text>')

    for b in view["blocks"]:
        if b["status"] == "map":
            block(b["locale"], b["facing"], b["side"], f"{b['id']} {b['type'][0]}{b['strength']}", b["disorganised"])
    for e in view["enemy"]:
        r = e["revealed"]
        block(e["locale"], e["facing"], e["side"], f"{r['type'][0]}{r['strength']}" if r else "", e["disorganised"])
    for side, offset in (("austria", -1), ("france", 1)):
        for lid, n in view["committed"][side].items():
            loc = board.locales[lid]
            for i in range(n):
                out.append(f'<circle cx="{loc.x + offset * (20 + 6 * i)}" cy="{loc.y - 22}" r="3" '
                           f'fill="{COLOUR[side]}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
