"""Issue 15, engine: an event given as a Text writes its English sentence when first read, not when it is
made (a replay makes thousands nobody reads); what it says is the same as when written at once. No timing
is asserted: `pbem bench` prints them."""

from __future__ import annotations

import pytest

from pbem.core.events import Event, events_for
from pbem.core.game import Game
from pbem.games import ruleset
from pbem.lang import say
from pbem.tools.selfplay import play


def test_an_event_said_as_a_text_reads_its_english_when_asked():
    said = say("%(block)s moved from %(place)s.", block="Lannes", place="Marengo")
    seen = say("%(num)s blocks moved.", num=2)
    event = Event("move", data={"a": 1}, owner="france", seen_data={"b": 2}, said=said, seen_said=seen)
    assert "_text" in vars(event) and vars(event)["_text"] == ""  # nothing written yet
    assert (event.text, event.seen) == ("Lannes moved from Marengo.", "2 blocks moved.")
    eager = Event("move", "Lannes moved from Marengo.", {"a": 1}, owner="france", seen="2 blocks moved.",
                  seen_data={"b": 2}, said=said, seen_said=seen)
    assert event == eager and repr(event) == repr(eager) and event.to_dict() == eager.to_dict()
    assert events_for([event], "austria") == [{"kind": "move", "text": "2 blocks moved.", "data": {"b": 2}}]
    assert Event("x", "as given", said=said).text == "as given"  # a text given is kept
    assert Event("x", said=said, seen="told").seen == "told" and Event("x").seen is None
    changed = Event("x", said=said)
    changed.text = "rewritten"
    assert changed.text == "rewritten"


@pytest.mark.parametrize("name", ["marengo", "triomphe"])
def test_a_replayed_game_says_what_the_played_game_said(name):
    rules = ruleset(name)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    played = play(rules, scenario, 4)  # decisions by default: the replay tells them as the game did
    replayed = Game(rules, scenario, 4, played.log)
    assert len(replayed.days) == len(played.days) > 0
    said = 0
    for first, again in zip(played.days, replayed.days):
        assert [e.to_dict() for e in again.events] == [e.to_dict() for e in first.events]
        said += sum(e.said is not None for e in again.events)
    assert said > 100  # most of what a day says is a Text
