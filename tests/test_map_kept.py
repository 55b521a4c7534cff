"""Issue 35, item 1: a Marengo-family map keeps what depends on its board alone.

A drawing worker draws the maps of many games of one scenario (a tournament round: every seat of every
game, in the reader's language). What is printed -- the locale polygons, the approaches' slots and
marks, the names, roads and rivers, the washed boards -- depends on the board and the language, not on
the day: it is worked out once a board (pbem.games.simmons.render.layout.Layout.kept) and a map only
puts the pieces together. These tests check that a map drawn that way, after many others of the same
board, is byte for byte the map drawn from a board loaded afresh, and that the geometry is not
worked out again."""

from __future__ import annotations

import pytest

import pbem.games.simmons.render.layout as layout
from pbem.games import ruleset
from pbem.render import render_png
from pbem.tools.selfplay import play_game, simple_players

LANGS = ("en", "fr", "ru", "uk", "zh")


def fresh(rules):
    """The game's first scenario, loaded now: a board that has drawn nothing."""
    return rules.load_scenario(next(iter(rules.scenarios().values())))


def views(rules, scenario) -> list[tuple[str, dict]]:
    """(what, view) of every seat and the moderator, at the start and after 2, 4 and 6 days
    (seeds 3, 5 and 7): blocks moved, held, washed, arrows drawn."""
    out = []
    for days, seed in ((0, 3), (2, 7), (4, 5), (6, 3)):
        game = play_game(rules, scenario, seed, simple_players(rules, scenario, {}), days=days, options={})
        for seat in [*game.seats(), None]:
            out.append((f"day {days}, {seat or 'moderator'}", game.view(seat)))
    return out


def documents(svg) -> list[str]:
    """The map's SVG and every layer it carries (the board, each washed variant and the regions it
    shows in, the regions, the overlay)."""
    layers = svg.layers
    return [str(svg), layers.board, *[v for v, _ in layers.variants], repr([shown for _, shown in layers.variants]),
            layers.regions, layers.overlay]


@pytest.mark.parametrize("game", ["marengo", "triomphe"])
def test_a_map_drawn_after_others_of_its_board_is_the_map_drawn_afresh(game):
    rules = ruleset(game)
    kept = fresh(rules)
    seen = views(rules, kept)
    drawn = 0
    for n, (what, view) in enumerate(seen):
        # every language on the kept board, in turn; one of them (a different one each view) afresh
        for lang in LANGS:
            warm = rules.render_svg(kept, view, title="Game 12", lang=lang)
            if lang == LANGS[n % len(LANGS)]:
                cold = rules.render_svg(fresh(rules), view, title="Game 12", lang=lang)
                assert documents(warm) == documents(cold), (game, what, lang)
                drawn += 1
    assert drawn == len(seen) >= 12
    # the PNG mailed is drawn from those documents: the same bytes too
    what, view = seen[-1]
    assert render_png(rules.render_svg(kept, view, title="Game 12", lang="fr")) == \
        render_png(rules.render_svg(fresh(rules), view, title="Game 12", lang="fr"))


@pytest.mark.parametrize("game", ["marengo", "triomphe"])
def test_the_board_s_geometry_is_worked_out_once_a_board(game, monkeypatch):
    polygons_of, borders = [], []
    polygons, segment = layout.locale_polygons, layout.approach_segment

    def counted_polygons(board):
        polygons_of.append(id(board))
        return polygons(board)

    def counted_segment(board, polygons, a, b):
        borders.append((id(board), a, b))
        return segment(board, polygons, a, b)

    monkeypatch.setattr(layout, "locale_polygons", counted_polygons)
    monkeypatch.setattr(layout, "approach_segment", counted_segment)
    rules = ruleset(game)
    scenario = fresh(rules)
    seen = views(rules, scenario)
    for what, view in seen:
        for lang in ("en", "ru"):
            rules.render_svg(scenario, view, title="Game 1", lang=lang)
    # every day, seat and language of the board found its polygons and borders worked out
    assert polygons_of == [id(scenario.board)]
    assert len(borders) >= len(scenario.board.approaches) // 2 and len(set(borders)) == len(borders)
    # a board loaded afresh works them out again (what is kept is the board's, not the process's)
    other = fresh(rules)
    rules.render_svg(other, seen[0][1], title="Game 1", lang="en")
    assert polygons_of == [id(scenario.board), id(other.board)]
