"""The DBA table's map for one seat (sight.seat_view, render.py): own elements drawn, an enemy seen now drawn solid, one
seen before dashed with its turn, one never seen not at all; and the SVG rasterises."""

import copy

from pbem.games.dba.render import render_svg
from pbem.games.dba.scenario import load_scenario
from pbem.games.dba.sight import seat_view
from pbem.paths import MAPS
from pbem.render import render_png


def test_a_seat_sees_its_own_and_what_its_troops_see():
    sc = load_scenario(MAPS / "dba-meeting.toml")
    table = copy.deepcopy(sc.table)
    view, memory = seat_view(table, "blue", sc.settings.spotting, {}, 1)
    assert {e["id"] for e in view["elements"]} == {e.id for e in table.on_table("blue")}
    assert view["enemy"] == []                        # 36" apart: nothing seen
    svg = render_svg(sc, view, "Mill bridge, 10:00 — blue")
    assert "blue-1-2" in svg and "red-" not in svg and "seen turn" not in svg

    table.elements["red-1-2"].x, table.elements["red-1-2"].y = 200, 150    # into the open, 14" off
    view, memory = seat_view(table, "blue", sc.settings.spotting, memory, 2)
    assert [(e["id"], e["turn"], e["now"]) for e in view["enemy"]] == [("red-1-2", 2, True)]
    table.elements["red-1-2"].x, table.elements["red-1-2"].y = 460, 460    # far away: last seen on turn 2
    view, memory = seat_view(table, "blue", sc.settings.spotting, memory, 3)
    assert [(e["turn"], e["now"]) for e in view["enemy"]] == [(2, False)]
    svg = render_svg(sc, view)
    assert "seen turn 2" in svg and ">T2<" in svg and 'stroke-dasharray="3 2"' in svg
    png = render_png(svg)
    assert png.startswith(b"\x89PNG")


def test_a_kriegsspiel_seat_sees_only_its_brigade():
    sc = load_scenario(MAPS / "dba-quatre-bras.toml")
    view, _ = seat_view(sc.fresh_table(), "allies", sc.settings.spotting, {}, 1, brigades={"bijlandt"},
                        commanders={"bijlandt"})
    assert {e["brigade"] for e in view["elements"]} == {"bijlandt"}
    assert [c["id"] for c in view["commanders"]] == ["bijlandt"]
    everyone, _ = seat_view(sc.fresh_table(), "allies", sc.settings.spotting, {}, 1)
    assert {c["id"] for c in everyone["commanders"]} == {"wellington", "orange", "bijlandt", "saxe-weimar"}
    assert [b["id"] for b in view["brigades"]] == ["bijlandt"]
    assert all(e["id"].split("-")[0] in ("husson", "gauthier", "campi", "jamin") for e in view["enemy"])
    svg = render_svg(sc, view, "Quatre Bras, 14:00 — Bijlandt")
    assert "saxe-weimar-2" not in svg and "Bois de Bossu" in svg
