"""The map of a view as SVG: roads (major thick, minor thin, river crossings marked),
towns, and the blocks standing in them -- the viewer's own with type and strength,
the others as plain blocks of their army's colour with their count."""

from __future__ import annotations

from collections import defaultdict
from html import escape

NAME = {"french": "French", "anglo": "Anglo-Dutch", "prussian": "Prussian"}
COLOUR = {"french": "#2a4d9b", "anglo": "#b22222", "prussian": "#222222"}
W, H, PAD = 1100, 900, 40
RIGHT, BOTTOM = 130, 110  # room for the stacks of the east and south towns


def render_svg(scenario, view: dict, title: str | None = None) -> str:
    board = scenario.board
    xs = [t.at[0] for t in board.towns.values()]
    ys = [t.at[1] for t in board.towns.values()]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)

    def pos(town):
        lon, lat = board.towns[town].at
        return (PAD + (lon - x0) / (x1 - x0) * (W - PAD - RIGHT),
                PAD + 30 + (y1 - lat) / (y1 - y0) * (H - PAD - 30 - BOTTOM))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">',
           f'<rect width="{W}" height="{H}" fill="#f3ead2"/>']
    if title:
        out.append(f'<text x="{PAD}" y="24" font-family="serif" font-size="18">{escape(title)}</text>')
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
        out.append(f'<text x="{x + 8:.1f}" y="{y - 8:.1f}" font-family="serif" font-size="12">'
                   f'{escape(town.name)}</text>')
    stacks = defaultdict(list)
    for b in view.get("blocks", []):
        stacks[b["town"]].append((b["army"], f'{b["id"]} {b["strength"]}'))
    for h in view.get("hidden", []):
        stacks[h["town"]].append((h["army"], f'{h["count"]} block{"s" if h["count"] > 1 else ""}'))
    for town, items in stacks.items():
        x, y = pos(town)
        for k, (army, label) in enumerate(items[:8]):
            bx, by = x + 10 + (k // 4) * 74, y + 4 + (k % 4) * 13
            out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="70" height="12" fill="{COLOUR[army]}"/>')
            out.append(f'<text x="{bx + 2:.1f}" y="{by + 10:.1f}" font-family="sans-serif" font-size="9" '
                       f'fill="#fff">{escape(label)}</text>')
        if len(items) > 8:
            out.append(f'<text x="{x + 10:.1f}" y="{y + 66:.1f}" font-size="9">+{len(items) - 8} more</text>')
    lost = view.get("lost", {})
    if lost:
        line = "Blocks lost: " + ", ".join(f"{NAME[a]} {n}" for a, n in lost.items())
        if view.get("turn_label"):
            line = f"Next: {view['turn_label']}. " + line
        out.append(f'<text x="{PAD}" y="{H - 14}" font-family="serif" font-size="14">{escape(line)}</text>')
    for town in view.get("last_battles", []):
        x, y = pos(town)
        out.append(f'<text x="{x - 6:.1f}" y="{y + 5:.1f}" font-size="16" fill="#c00">✕</text>')
    out.append("</svg>")
    return "\n".join(out)
