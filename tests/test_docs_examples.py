"""The docs' examples, run: what docs/orders.md and docs/cases.md show is what the server does.

- docs/orders.md's first day of each side plays as written on the seed it
  names, and its refused orders get, word for word, the answer it shows;
- docs/cases.md's commands run and succeed.

(Also run elsewhere: every orders example of docs/orders.md, docs/triomphe-orders.md and
docs/napoleon1815-orders.md, each on the position its marker names, tests/test_orders_docs.py;
docs/cases.md's whole case, tests/test_cases.py; docs/triomphe-orders.md's first turns,
tests/test_triomphe_game.py; the first French turn of docs/napoleon1815-orders.md,
tests/test_napoleon1815.py; docs/commands.md, tests/test_docs.py.)
"""

from __future__ import annotations

import contextlib
import glob
import io
import re
import shlex
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.core.game import Game
from pbem.core.orders import OrdersError
from pbem.games import ruleset

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"```[a-z]*\n(.*?)```", re.S)


def doc(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def positions(game: str, days: int = 3) -> list[Game]:
    """The game of seed 1 at its first ``days`` days, each a Game of its own."""
    rules = ruleset(game)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    played = Game(rules, scenario, 1)
    out = []
    for _ in range(days):
        out.append(Game(rules, scenario, 1, log=list(played.log), options=played.options))
        played.advance()
    return out


def test_the_first_days_and_the_refused_orders_play_as_written():
    """docs/orders.md: Austria's and France's first days (seed 5, as the doc says) are accepted and
    played; the refused orders of 7AM get the answer the doc shows, line for line."""
    text = doc("docs/orders.md")
    assert "seed 5" in text.split("## A first day for each side")[1].split("## The orders")[0]
    austria, france = FENCE.findall(text.split("## A first day for each side")[1])[:2]
    refused, answer = FENCE.findall(text.split("## When orders are refused")[1])[:2]
    rules = ruleset("marengo")
    game = Game(rules, rules.load_scenario(rules.scenarios()["marengo"]), 5)
    assert {b.id for b in game.state.blocks.values() if b.locale == "marengo"} >= {"F4", "F6"}
    game.submit("austria", austria)
    first = game.advance()
    assert [b.id for b in first.after.blocks.values() if b.status == "map" and b.side == "austria"] == \
        ["A1", "A2", "A3", "A4"]
    assert any("A4" in e.text and "pontoon" in e.text for e in first.events)
    game.submit("france", france)
    second = game.advance()
    assert second.after.blocks["F4"].locale == "pedrabona"
    with pytest.raises(OrdersError) as refusal:
        game.check_orders("austria", refused)
    assert "\n".join(str(p) for p in refusal.value.problems) == answer.strip()


def test_retreat_takes_towns_separated_by_commas():
    """docs/napoleon1815-orders.md: «RETREAT TO Namur, Liège  # towns to retreat to, best first
    (commas between towns)». The tokenizer reads commas as spaces, and the order once looked up
    "Namur Liège" as one town and refused the documented line."""
    game = positions("napoleon1815", 1)[0]
    assert game.check_orders("prussian", "RETREAT TO Namur, Liège").retreat == ["namur", "liege"]
    assert game.check_orders("prussian", "RETREAT TO Quatre Bras, Namur").retreat == ["quatre_bras", "namur"]
    with pytest.raises(OrdersError, match="no town called 'Nowhere'"):
        game.check_orders("prussian", "RETREAT TO Namur, Nowhere")


def test_the_cases_doc_commands_run(monkeypatch):
    """docs/cases.md's first example: the commands, as written, from the project's folder."""
    monkeypatch.chdir(ROOT)
    block = FENCE.findall(doc("docs/cases.md"))[0]
    commands = [line.split("#")[0].split() for line in block.splitlines() if line.startswith("pbem ")]
    assert len(commands) == 2
    for words in commands:
        args = [found for word in words[1:] for found in (sorted(glob.glob(word)) if "*" in word else [word])]
        for arg in args:
            assert arg.startswith("-") or arg == "adjudicate" or Path(arg).exists(), f"{shlex.join(words)}: no {arg}"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(args)
        assert code == 0, f"{shlex.join(words)} exited {code}:\n{out.getvalue()[-2000:]}"
        assert out.getvalue().strip()


def test_the_readme_images_are_what_its_commands_draw(tmp_path):
    """README's map images are drawn by the `pbem render` commands it gives: drawn again here, the
    SVG must be the one recorded when the kept PNG was drawn (docs/images/drawn.json), and the PNG
    the one recorded. When the drawing changes, `scripts/images` draws them again."""
    import json

    import readme_images

    record = json.loads(readme_images.RECORD.read_text(encoding="utf-8"))
    commands = readme_images.commands()
    assert sorted(f"{name}.png" for name in commands) == sorted(record) == ["midgame-france.png",
                                                                             "opening-austria.png"]
    stale = []
    for name, words in commands.items():
        kept = record[f"{name}.png"]
        assert kept["command"] == shlex.join(words), f"{name}: the README's command changed; run scripts/images"
        assert readme_images.sha256(readme_images.IMAGES / f"{name}.png") == kept["png_sha256"], (
            f"docs/images/{name}.png is not the image scripts/images drew; run it again")
        if readme_images.sha256(readme_images.draw(name, words, tmp_path)) != kept["svg_sha256"]:
            stale.append(name)
    assert stale == [], f"out of date (the map is drawn differently now): {stale}; run scripts/images"
