"""A battery that cannot follow its brigade says why, in its owner's words (issue 30, §4): «Труднопроходимую
местность не может пересечь артиллерия, которая должна воспользоваться дорогами». The case
tests/cases/dba/battery-cannot-follow-into-difficult-ground.toml (written from that passage) plays the turn; here its
line is read in each of the five languages: the ground named as the map names it, the rule quoted, no English left
(before the fix the owner read "no way around impassable ground", the wrong reason: the ground is passable to his
foot)."""

from __future__ import annotations

import re
from pathlib import Path

from test_lang_dba import LANGS, english_phrases

from pbem.games.dba.lang import term, tongue
from pbem.games.dba.ruleset import DBA_RULESET as RULES
from pbem.lang import Text

CASE = Path(__file__).parent / "cases" / "dba" / "battery-cannot-follow-into-difficult-ground.toml"


def the_line() -> Text:
    outcome = RULES.run_case(CASE)
    assert outcome.ok, outcome.failures
    (said,) = [s for s in outcome.said if "cannot follow its brigade" in str(s)]
    return said


def test_the_battery_says_why_it_stays_in_every_language():
    said = the_line()
    assert isinstance(said, Text)
    assert str(said).startswith("blue-2-4 cannot follow its brigade into the broken ground: guns may not cross "
                                "difficult ground off a road («Труднопроходимую местность")
    phrases = english_phrases() | {"cannot follow", "guns", "difficult ground", "off a road", "it holds",
                                   "the broken ground", "impassable"}
    for lang in LANGS:
        native = tongue(lang).say(said)
        left = [p for p in phrases if re.search(r"(?<![\w-])" + re.escape(p) + r"(?![\w-])", native)]
        assert not left, f"{lang}: {native!r} keeps {left}"
        assert "blue-2-4" in native and "«Труднопроходимую местность не может пересечь артиллерия" in native
    ru = tongue("ru").say(said)
    assert "не может последовать за своей бригадой" in ru and tongue("ru").say(term("the broken ground")) in ru
