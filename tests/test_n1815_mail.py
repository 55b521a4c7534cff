"""Napoleon 1815's mails as a player reads them (issue 29, §4): each report's subject names the
seat's army (in the two-player game one player gets two, one an army), the orders form carries
the KEY line as Bonaparte at Marengo's does, an ASK that would do nothing in the game's battle mode
is refused with the reason, and no English text says "A Allied block"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.core.game import Game
from pbem.core.orders import OrdersError
from pbem.games import ruleset
from pbem.server.service import Service
from pbem.server.store import Store

RULES = ruleset("napoleon1815")
SCENARIO = RULES.load_scenario(next(iter(RULES.scenarios().values())))
FRED, ANNA = "fred@example.org", "anna@example.org"
FAST = {"hours": 0, "seconds": 600, "reminders": [], "early": True}
ARMIES = {"french": "France (Napoleon)", "anglo-dutch": "Anglo-Dutch army (Wellington)",
          "prussian": "Prussian army (Blücher)"}


def test_each_report_mail_names_the_army_of_its_seat(tmp_path):
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    service.rasterise = lambda svg: b"png"
    game_id, _ = service.create_game("Mail", {"french": FRED, "anglo-dutch": ANNA, "prussian": ANNA},
                                     scenario="napoleon1815.toml", seed=5, game="napoleon1815",
                                     options={"players": "2"}, settings=FAST)
    for seat in ("anglo-dutch", "prussian"):
        assert service.submit(game_id, seat, "FINAL\n").ok
    assert service.resolve_next(game_id) == 0
    service.run_jobs()
    reports = service.store.mails("WHERE game_id = ? AND kind = 'report' ORDER BY id", (game_id,))
    by_seat = {}
    for mail in reports:
        side = re.search(r"SIDE (\S+)", mail["body"])[1]
        by_seat.setdefault(side, []).append(mail)
    assert set(by_seat) == set(ARMIES)
    for side, mails in by_seat.items():
        for mail in mails:
            assert mail["subject"].endswith(" — " + ARMIES[side]), mail["subject"]
            assert all(army not in mail["subject"] for other, army in ARMIES.items() if other != side)
    anna = [m["subject"] for m in reports if m["to_addr"] == ANNA]
    assert len(set(anna)) == len(anna)  # her two seats' mails told apart by their subjects


@pytest.mark.parametrize("lang, word", [("en", "KEY"), ("fr", "CLÉ"), ("ru", "КЛЮЧ"), ("uk", "КЛЮЧ"),
                                        ("zh", "密钥")])
def test_the_orders_form_carries_the_key_line_and_is_read_back_with_the_key_filled_in(lang, word):
    game = Game(RULES, SCENARIO, 1)
    form = RULES.orders_template(game, "anglo-dutch", deadline=None, game_label="g", game_id="7", lang=lang)
    first = form.splitlines()[0]
    assert first.split()[-2] == word and first.split()[-1].startswith("<")
    filled = form.replace(first, first.rsplit(" ", 1)[0] + " s3cret", 1)
    orders = RULES.check_orders(SCENARIO, game.state, "anglo-dutch", filled, lang=lang)
    assert (orders.header.game, orders.header.key) == ("7", "s3cret")


@pytest.mark.parametrize("mode, reason", [("doctrine", "fought by the doctrine"),
                                          ("live", "already a sub-turn")])
def test_an_ask_that_does_nothing_in_the_battle_mode_is_refused_with_the_reason(mode, reason):
    game = Game(RULES, SCENARIO, 1, options={"battle": mode})
    with pytest.raises(OrdersError) as err:
        game.check_orders("prussian", "DOCTRINE WITHDRAW 30\nASK ROUT")
    (problem,) = err.value.problems
    assert (problem.line, problem.column) == (2, 1) and reason in problem.message
    hybrid = Game(RULES, SCENARIO, 1, options={"battle": "hybrid"})
    assert hybrid.check_orders("prussian", "ASK ROUT").asks == ["ROUT"]


def test_no_english_text_puts_a_before_a_vowel():
    pot = Path(__file__).resolve().parent.parent / "pbem/games/napoleon1815/locale/napoleon1815.pot"
    ids = re.findall(r'^msgid "(.*)"$', pot.read_text(), re.M)
    assert [i for i in ids if re.search(r"(^|\s)A [AEIOU]", i)] == []
