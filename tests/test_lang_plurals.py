"""Each count in a sentence takes its own plural form (issue 17; Russian and Ukrainian have three: 1, 2, 5, and 21
like 1): a sentence with two counts reads the second as a plural Text of its own. Napoleon 1815's skirmishes,
battles, broken armies and limits; Triomphe's discs, orders spent and minor victory; DBA's problems not listed."""

from __future__ import annotations

import re

import pytest

from pbem.lang import say_plural

FORMS = {"ru": ("one", "few", "many", "one"), "uk": ("one", "few", "many", "one"), "fr": ("one", "other", "other", "other"),
         "zh": ("other",) * 4}
COUNTS = (1, 2, 5, 21)


@pytest.mark.parametrize("lang, forms", [
    ("ru", {1: "1 союзный блок", 2: "2 союзных блока", 5: "5 союзных блоков", 21: "21 союзный блок"}),
    ("uk", {1: "1 союзний блок", 2: "2 союзні блоки", 5: "5 союзних блоків", 21: "21 союзний блок"}),
    ("fr", {1: "1 bloc allié", 2: "2 blocs alliés", 5: "5 blocs alliés", 21: "21 blocs alliés"}),
])
def test_napoleon_1815s_counts_take_their_plural_in_each_language(lang, forms):
    """Each count of a sentence chooses its own form (Russian and Ukrainian three): a skirmish, a battle (the
    attackers' verb agrees), an army that breaks, a road's limit."""
    from pbem.games.napoleon1815.words import tongue
    t = tongue(lang)
    for n, words in forms.items():
        said = t.say(say_plural("Skirmish at %(town)s: %(num)s French against %(dfd)s",
                                "Skirmish at %(town)s: %(num)s French against %(dfd)s", 3, town="Thuin",
                                dfd=say_plural("%(num)s Allied block", "%(num)s Allied blocks", n)))
        assert said.endswith(words), (n, said)
    battle = {n: t.say(say_plural("Battle of %(town)s: %(num)s French block attacks %(dfd)s.",
                                  "Battle of %(town)s: %(num)s French blocks attack %(dfd)s.", n, town="Namur",
                                  dfd="x")) for n in (1, 2, 5, 21)}
    forms_of = {re.sub(r"\d+", "N", battle[n]) for n in (1, 2, 5)}
    assert len(forms_of) == (3 if lang in ("ru", "uk") else 2), forms_of
    assert (battle[21].replace("21", "1") == battle[1]) == (lang in ("ru", "uk"))  # 21: one in Russian, not in French
    lost = {n: t.say(say_plural("The Prussian army breaks: %(num)s block lost (§11: %(most)s)",
                                "The Prussian army breaks: %(num)s blocks lost (§11: %(most)s)", n, most=5))
            for n in (1, 2, 5, 21)}
    assert (lost[21].replace("21", "1") == lost[1]) == (lang in ("ru", "uk")) and lost[1] != lost[5].replace("5", "1")


def test_a_played_games_skirmishes_and_battles_say_each_count_in_its_form():
    """A whole game (tests/test_lang_napoleon1815.py's two-player campaign): its skirmishes and battles as the
    engine wrote them, read in French and Russian: one block is "1 bloc allié", "1 союзный блок", never "1 blocs"."""
    from test_lang_napoleon1815 import campaign

    from pbem.games.napoleon1815.words import tongue

    said = [e.said for day in campaign("two").days for e in day.events
            if e.kind in ("skirmish", "battle") and e.said is not None]
    ones = [s for s in said if re.search(r"\b1 (Allied|French) block\b", str(s))]
    assert ones, "the game has no skirmish or battle against one block"
    assert not [s for s in said if re.search(r"\b1 (Allied|French) blocks\b", str(s))]
    for text in ones:
        french, russian = tongue("fr").say(text), tongue("ru").say(text)
        assert re.search(r"\b1 bloc (allié|français)\b", french) and not re.search(r"\b1 blocs\b", french), french
        assert re.search(r"\b1 (союзный|французский) блок\b", russian), russian


def shapes(read, lang: str) -> list[str]:
    """The sentence ``read(n)`` gives for 1, 2, 5 and 21, its number written N: one shape a plural form."""
    return [re.sub(r"\d+", "N", read(n)) for n in COUNTS]


def same_as_forms(found: list[str], lang: str) -> bool:
    """The shapes differ exactly where the language's plural forms differ (and 21 reads as 1 in Russian)."""
    forms = FORMS[lang]
    return all((found[i] == found[j]) == (forms[i] == forms[j]) for i in range(4) for j in range(4))


@pytest.mark.parametrize("lang", ["ru", "uk", "fr", "zh"])
def test_triomphes_counts_take_their_plural(lang):
    from pbem.games.triomphe.words import triomphe_tongue

    t = triomphe_tongue(lang)
    reads = [
        lambda n: t.ngettext("%(num)d disc in hand", "%(num)d discs in hand", n),
        lambda n: t.ngettext("%(side)s: %(hand)s, %(num)d committed", "%(side)s: %(hand)s, %(num)d committed", n,
                             side="X", hand="Y"),
        lambda n: t.ngettext("%(num)d of %(orders)d orders were spent in the turn just played (000 §6).",
                             "%(num)d of %(orders)d orders were spent in the turn just played (000 §6).", n, orders=3),
        lambda n: t.say(say_plural("%(place)s (%(num)d disc)", "%(place)s (%(num)d discs)", n, place="Marengo")),
        lambda n: t.say(say_plural(
            "Austria wins a minor victory: %(num)d Austrian block stands east of the objective line at 9 PM.",
            "Austria wins a minor victory: %(num)d Austrian blocks stand east of the objective line at 9 PM.", n)),
    ]
    for read in reads:
        found = shapes(read, lang)
        assert same_as_forms(found, lang), found


def test_triomphes_map_margin_says_one_disc_in_french():
    from pbem.games.triomphe.words import triomphe_tongue

    t = triomphe_tongue("fr")
    line = t.ngettext("%(side)s: %(hand)s, %(num)d committed", "%(side)s: %(hand)s, %(num)d committed", 1,
                      side="Autriche", hand=t.ngettext("%(num)d disc in hand", "%(num)d discs in hand", 1))
    assert line == "Autriche : 1 disque en main, 1 engagé"


@pytest.mark.parametrize("lang", ["ru", "uk", "fr", "zh"])
def test_dbas_problems_not_listed_take_their_plural(lang):
    """More problems than a refusal lists: the count of the others in the seat's language, its plural chosen."""
    from pbem.core.orders import Problem
    from pbem.games.dba.problems import in_language

    def read(n):
        said = say_plural("%(num)s more problem not listed", "%(num)s more problems not listed", n)
        return in_language(Problem(9, 1, str(said), said=said), lang).message

    found = shapes(read, lang)
    assert same_as_forms(found, lang), found
    assert "problems not listed" not in read(5)


@pytest.mark.parametrize("lang, said", [("en", "1 more problem not listed"), ("ru", "ещё 1 проблема не показана"),
                                        ("fr", "1 autre problème non listé")])
def test_dbas_refusal_counts_the_problems_it_leaves_out_in_the_seats_language(lang, said):
    from pbem.core.orders import OrdersError
    from pbem.core.ruleset import options_of
    from pbem.games import ruleset
    from pbem.games.dba.parse import MAX_PROBLEMS

    rules = ruleset("dba")
    scenario = rules.load_scenario(list(rules.scenarios().values())[0])
    seat = rules.seats(scenario, options_of(rules, {}))[0].id
    from pbem.core.chance import Chance

    state = rules.setup(scenario, options_of(rules, {}), Chance(3))
    with pytest.raises(OrdersError) as refused:
        rules.check_orders(scenario, state, seat, "\n".join(["FOO BAR"] * (MAX_PROBLEMS + 1)), lang=lang)
    assert str(refused.value).splitlines()[-1].endswith(said)
