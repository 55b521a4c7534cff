"""The table seen from above as SVG, for one seat: terrain, roads and streams, the lettered reference grid,
the seat's own elements in formation (front edge marked), its commanders, the enemy it sees now (solid) and the
enemy last seen earlier (dashed, with the turn). Drawn from the terrain (public) and a seat's view
(sight.seat_view) alone; the PNG for mail is pbem.render's. Over it all, the names an order may use
(labels.py): every place, feature, road and stream of the table, the seat's own brigades and its commanders who
command no brigade; an enemy element is named by nothing (not its brigade: the seat sees only its type).

    svg = render_svg(scenario, view, title="Quatre Bras, 15:00 — Bijlandt")
"""

from __future__ import annotations

from html import escape

from pbem.render.layers import Layers, LayeredSVG

from .lang import colon, term, tongue
from .labels import Placer, along, around, beside
from .names import LETTERS, centre_of

W, PAD, TOP = 1100, 34, 30
COLOUR = ("#2a4d9b", "#b22222")     # the scenario's first side, its second
FILL = {"woods": "#7fa36b", "rough": "#c9b98f", "town": "#b08c6a", "fieldworks": "#8d7b68", "marsh": "#9fb8a8",
        "water": "#7fa7d6", "hill": "#d9c9a0"}
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


def render_svg(scenario, view: dict, title: str | None = None, lang: str = "en") -> str:
    t = tongue(lang)
    table = scenario.table
    scale = (W - 2 * PAD) / table.width
    height = round(TOP + PAD + table.depth * scale + PAD)

    def xy(x, y):
        return PAD + x * scale, TOP + PAD + (table.depth - y) * scale

    def points(coords):
        return " ".join(f"{a:.1f},{b:.1f}" for a, b in (xy(x, y) for x, y in coords))

    sides = list(scenario.sides)
    mine = COLOUR[sides.index(view["side"])] if view["side"] in sides else "#333"
    theirs = COLOUR[1 - sides.index(view["side"])] if view["side"] in sides else "#777"
    root = f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" viewBox="0 0 {W} {height}">'
    out = [root, f'<rect width="{W}" height="{height}" fill="#efe6cc"/>']
    x0, y0 = xy(0, table.depth)
    x1, y1 = xy(table.width, 0)
    out.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" fill="#e4dcb8" '
               'stroke="#555"/>')
    printed = len(out)  # the board: the paper, the table, its terrain, roads, streams, grid and places
    if title:
        out.append(f'<text x="{PAD}" y="22" {FONT} font-size="17">{escape(title)}</text>')
    titled = len(out)
    terrain = table.terrain
    for f in sorted(terrain.features, key=lambda f: (f.kind != "hill", f.level)):
        dash = ' stroke-dasharray="4 3"' if f.kind == "hill" else ""
        out.append(f'<polygon points="{points(f.shape.exterior.coords)}" fill="{FILL[f.kind]}" '
                   f'fill-opacity="{0.45 + 0.15 * f.level if f.kind == "hill" else 0.85}" stroke="#6b5b45"{dash}>'
                   f'<title>{escape(t.say(term(f.name or f.kind)))}</title></polygon>')
    for s in terrain.streams:
        out.append(f'<polyline points="{points(s.line.coords)}" fill="none" stroke="#4a7fc1" stroke-width="3"/>')
    for r in terrain.roads:
        out.append(f'<polyline points="{points(r.line.coords)}" fill="none" stroke="#8b5a2b" '
                   f'stroke-width="{max(2, 10 * scale):.1f}" stroke-opacity="0.8"/>')
    grid = table.grid
    for c in range(grid.columns + 1):
        gx, _ = xy(min(c * grid.size, table.width), 0)
        out.append(f'<line x1="{gx:.1f}" y1="{y0:.1f}" x2="{gx:.1f}" y2="{y1:.1f}" stroke="#000" stroke-opacity="0.12"/>')
        if c < grid.columns:
            lx, _ = xy(c * grid.size + grid.size / 2, 0)
            out.append(f'<text x="{lx:.1f}" y="{y0 - 6:.1f}" {FONT} font-size="13" text-anchor="middle">{LETTERS[c]}</text>')
    for r in range(grid.rows + 1):
        _, gy = xy(0, max(table.depth - r * grid.size, 0))
        out.append(f'<line x1="{x0:.1f}" y1="{gy:.1f}" x2="{x1:.1f}" y2="{gy:.1f}" stroke="#000" stroke-opacity="0.12"/>')
        if r < grid.rows:
            _, ly = xy(0, table.depth - r * grid.size - grid.size / 2)
            out.append(f'<text x="{x0 - 6:.1f}" y="{ly + 4:.1f}" {FONT} font-size="13" text-anchor="end">{r + 1}</text>')
    for name, geom in sorted(table.places.items()):
        if geom.geom_type == "Point":
            px, py = xy(geom.x, geom.y)
            out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="#333"/>')
    pieces = len(out)  # the seat's elements and commanders, the enemy it sees
    for e in view.get("enemy", []):
        dash = "" if e["now"] else ' stroke-dasharray="3 2" fill-opacity="0.25"'
        seen = t.gettext("%(troop)s, seen turn %(turn)s", troop=t.say(term(e["troop"].replace("_", " "))),
                         turn=e["turn"])
        when = t.gettext("T%(turn)s", turn=e["turn"])  # the turn last seen, on the map
        out.append(f'<polygon points="{points(e["corners"])}" fill="{theirs}" stroke="{theirs}"{dash}>'
                   f'<title>{escape(seen)}</title></polygon>')
        if not e["now"]:
            cx = sum(p[0] for p in e["corners"]) / 4
            cy = sum(p[1] for p in e["corners"]) / 4
            tx, ty = xy(cx, cy)
            out.append(f'<text x="{tx + 8:.1f}" y="{ty:.1f}" {FONT} font-size="9" fill="{theirs}">{escape(when)}</text>')
    for e in view.get("elements", []):
        troop = e["troop"].replace("_", " ")
        stroke = "#c00" if e["fleeing"] else "#ff0" if e["disorganised"] or e["shaken"] else "#fff"
        out.append(f'<polygon points="{points(e["corners"])}" fill="{mine}" stroke="#222" stroke-width="0.6">'
                   f'<title>{escape(t.say(colon(e["id"], [term(troop), term(e["formation"])])))}</title>'
                   '</polygon>')
        out.append(f'<polyline points="{points(e["front"])}" stroke="{stroke}" stroke-width="2"/>')
    for c in view.get("commanders", []):
        cx, cy = xy(c["x"], c["y"])
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="#fff" stroke="{mine}" stroke-width="2">'
                   f'<title>{escape(t.say(term(c["name"])))}</title></circle>')
    out.extend(label.svg() for label in names(table, view, t, xy, (x0, y0, x1, y1), mine))
    out.append("</svg>")
    # the board is the same for every view and turn of a scenario; the title (above the table, where
    # nothing else is drawn) and the pieces are the overlay, drawn over it
    layers = Layers(board="\n".join(out[:printed] + out[titled:pieces] + ["</svg>"]), variants=(), regions="",
                    overlay="\n".join([root] + out[printed:titled] + out[pieces:]))
    return LayeredSVG("\n".join(out), layers)


def pieces(view: dict, xy) -> list[tuple[float, float, float, float]]:
    """The box, in the map's units, of every piece render_svg draws: the seat's elements, the enemy it sees or saw,
    its commanders' rings (r 4 and the stroke)."""
    out = []
    for e in view.get("elements", []) + view.get("enemy", []):
        xs, ys = zip(*(xy(x, y) for x, y in e["corners"]))
        out.append((min(xs), min(ys), max(xs), max(ys)))
    for c in view.get("commanders", []):
        cx, cy = xy(c["x"], c["y"])
        out.append((cx - 5, cy - 5, cx + 5, cy + 5))
    return out


def names(table, view: dict, t, xy, bounds, mine: str) -> list:
    """The map's names (labels.py), set where they do not overlap: the table's places (points first, then
    areas, then roads and streams), then the seat's brigades, then its commanders who command no brigade."""
    placer = Placer(bounds, pieces(view, xy))
    shapes = sorted(table.places.items(), key=lambda kv: (("Point", "Polygon").index(kv[1].geom_type)
                                                          if kv[1].geom_type in ("Point", "Polygon") else 2, kv[0]))
    for name, geom in shapes:
        text = t.say(term(name))
        if geom.geom_type == "Point":
            placer.place(text, "place", beside(*xy(geom.x, geom.y), text, "place"))
        elif geom.geom_type == "Polygon":
            c = centre_of(geom)
            placer.place(text, "feature", around(*xy(c.x, c.y), text, "feature"))
        else:
            placer.place(text, "road", along([xy(x, y) for x, y in geom.coords], text, "road"))
    called = {b["id"]: b["name"] for b in view.get("brigades", [])}
    corners: dict[str, list] = {}
    for e in view.get("elements", []):
        corners.setdefault(e["brigade"], []).extend(xy(x, y) for x, y in e["corners"])
    for bid, pts in sorted(corners.items()):
        text = t.say(term(called.get(bid, bid)))
        left, right = min(p[0] for p in pts), max(p[0] for p in pts)
        top, bottom = min(p[1] for p in pts), max(p[1] for p in pts)
        cx = (left + right) / 2
        spots = [(cx, bottom + 15), (cx, top - 6)] + around(cx, bottom + 15, text, "brigade")[1:]
        placer.place(text, "brigade", spots, colour=mine)
    for c in view.get("commanders", []):
        if c.get("brigade"):
            continue  # his brigade's name names him
        text = t.say(term(c["name"]))
        cx, cy = xy(c["x"], c["y"])
        placer.place(text, "commander", beside(cx, cy, text, "commander"))
    return placer.labels
