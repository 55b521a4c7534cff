"""No id where a name belongs (issue 33, item 6): a day of each game in each of the five languages played through
the real server (SQLite, players' orders and HELP by SMTP, the outbox by SMTP to a relay on loopback, the pages over
HTTP), every mail and page each seat got searched for the rulesets' ids (places, waiting cells, unit kinds, sides,
scenarios) standing as bare words where a reader reads (tests/words_sweep.py says what is read and what is
legitimate: an id that is its English name, a word of the language, the English orders form's SIDE token).

The long run, every scenario of every game to its end in every language:
``.venv/bin/python tests/words_sweep.py`` (``--days N`` cuts each game; ``--game``, ``--lang`` choose)."""

from __future__ import annotations

import pytest
from words_sweep import GAMES, LANGUAGES, ids_in, ids_of, read, swept

CASES = [(game, None, lang) for game in GAMES for lang in LANGUAGES] + [("dba", "dba-quatre-bras", "en")]


@pytest.mark.parametrize("game,scenario,lang", CASES, ids=[f"{g}-{s or 'first'}-{lang}" for g, s, lang in CASES])
def test_no_id_where_a_name_belongs(tmp_path, game, scenario, lang):
    found = swept(game, lang, 1, tmp_path, scenario)
    assert not found, f"{len(found)} ids where a name belongs; the first: " + "\n".join(sorted(set(found))[:12])


def test_the_sweep_finds_the_ids_the_issue_names_and_leaves_names_alone():
    """What issue 33 saw, put in a text, is found; the names and the legitimate forms are not."""
    ids, names = ids_of("dba")
    assert ids_in("initiative: 3 against 1: red chooses; red is A, blue is B", ids, names, "en")
    assert ids_in("blue-1-1  light_infantry  skirmish", ids, names, "en")
    assert ids_in("allies: 3 brigades", ids, names, "en")
    assert ids_in("red-3-1 : cuirassiers, ligne", ids, names, "uk")  # an English kind in a Ukrainian text
    assert not ids_in("red-3-1 : cuirassiers, ligne", ids, names, "fr")  # a French word as well
    assert not ids_in("Blue chooses; Blue is A, Red is B; blue-1-1 light infantry; 1st Blue brigade", ids, names,
                      "en")
    assert not ids_in("GAME 3 SIDE red KEY <your-key>\nhttp://127.0.0.1/games/3?side=red", ids, names, "en")
    ids, names = ids_of("triomphe")
    assert ids_in("Austria, alessandria (from 6AM): 17 blocks", ids, names, "en")
    assert not ids_in("Austria, Alessandria (from 6AM); France, 4PM: 3", ids, names, "en")
    assert ids_in("France, 4PM : 3", ids, names, "fr")
    assert not ids_in("Consular Guard infantry (infanterie 3)", *ids_of("marengo"), "fr")  # a block's own name
    assert not ids_in("A14 Austrian artillery\n     reserve", *ids_of("marengo"), "fr")  # wrapped in a mail
    ids, names = ids_of("napoleon1815")
    assert ids_in("Bataille de quatre_bras", ids, names, "fr") and not ids_in("Bataille de Quatre Bras", ids, names,
                                                                            "fr")


def test_what_a_page_reader_reads():
    page = ('<html><head><style>.red{}</style><script>var side="red"</script></head><body class="red">'
            '<a href="/games/1?side=red" title="Red division">Red</a><img alt="map of red">'
            '<span class="detail">side=red</span> <p>blue</p></body></html>')
    assert read(page).splitlines() == ["Red division", "Red", "map of red", "blue"]
