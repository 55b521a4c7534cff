"""pbem.lang.Text kept as JSON data (``to_dict``/``from_dict``): what a game keeps of what it said (a DBA report's
news, in its state) is rebuilt into a Text that reads the same in every language."""

from __future__ import annotations

import json

import pytest

from pbem.games.dba.lang import joined, term, tongue
from pbem.lang import Text, say, say_plural

LANGS = ("en", "fr", "ru", "uk", "zh")


def test_a_text_with_nested_texts_lists_and_a_plural_is_rebuilt_from_its_json_and_reads_the_same_everywhere():
    said = say_plural("report %(seq)s from %(sender)s, sent turn %(turn)s (%(num)d enemy element known): %(news)s",
                      "report %(seq)s from %(sender)s, sent turn %(turn)s (%(num)d enemy elements known): %(news)s",
                      3, seq=2, sender=term("Colonel Bleu"), turn=4,
                      news=joined(say("%(element)s forms %(formation)s", element="B1a", formation=term("line")),
                                  say("%(element)s unlimbers", element="B1c"), sep="; "))
    listed = say("%(elements)s", elements=("B1a", term("line"), None, 1.5))
    for text in (said, listed):
        data = json.loads(json.dumps(text.to_dict(), sort_keys=True))  # plain JSON, through and back
        again = Text.from_dict(data)
        assert again.to_dict() == text.to_dict()
        for lang in LANGS:
            assert tongue(lang).say(again) == tongue(lang).say(text)
    assert str(Text.from_dict(said.to_dict())) == ("report 2 from Colonel Bleu, sent turn 4 (3 enemy elements "
                                                   "known): B1a forms line; B1c unlimbers")
    assert tongue("ru").say(Text.from_dict(said.to_dict())).startswith(
        "донесение 2 (отправитель: полковник Блё, ход 4; 3 известных элемента противника): B1a перестраивается")
    assert said.to_dict()["values"]["sender"] == {"message": "Colonel Bleu"}
    assert "plural" not in listed.to_dict() and listed.to_dict()["values"]["elements"][1] == {"message": "line"}


def test_the_same_text_is_kept_as_the_same_data():
    def build():
        return say("%(a)s %(b)s", b=term("line"), a=say("%(x)s", x=[1, "two"]))
    assert json.dumps(build().to_dict(), sort_keys=True) == json.dumps(build().to_dict(), sort_keys=True)


def test_what_cannot_be_rebuilt_is_refused_not_kept_wrong():
    from pbem.games.simmons.clock import Clock

    with pytest.raises(TypeError, match="Clock"):
        say("at %(hour)s", hour=Clock(7)).to_dict()  # it writes 7AM in English: a plain Text would not
    with pytest.raises(TypeError, match="object"):
        say("%(x)s", x=object()).to_dict()
