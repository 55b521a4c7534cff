"""The server's sentences name a turn, a seat and a date in their reader's language (issue 17, the native
reading's "Left for the code"): the moderator's "resolve now" mail (the turn, and the deadline not yet
set), his new deadline (the date in words), the press mail (its PRESS line and its recipients), the list
of seats a wrong SIDE is told, a scheduled vacation's dates. Each read in French and Chinese through the
real mail path (SMTP in, the outbox, SMTP out to a relay), and in English as before. (The date's own
words, deadlines.LocalTime and moment_text, are pinned exactly in tests/test_mut_clocks.py.)"""

from __future__ import annotations

import html
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import Clock
from i18n_post import PostOffice
from websupport import MOD as WEB_MOD
from websupport import Site

from pbem.server import deadlines, i18n, notify
from pbem.server.mail import commands
from pbem.server.service.base import NOT_YET_SET

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
ANNA, FRED, MOD, EVE = "anna@example.org", "fred@example.org", "mod@example.org", "eve@example.net"


@pytest.fixture
def office(tmp_path):
    office = PostOffice(tmp_path, Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)))
    yield office
    office.close()


def a_game(office, lang):
    service = office.service
    for email in (ANNA, FRED, MOD):
        service.store.set_language(email, lang)
    game_id, keys = service.create_game("Words", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=2,
                                        moderator=MOD, settings={"press": "open"})
    office.flush()
    return service, game_id, keys


def mails(office, to, subject):
    """The bodies of the mails delivered to ``to`` whose subject holds ``subject``."""
    return [text.replace("\r\n", "\n") for got, text, _ in office.read(to) if subject in got]


def everything(office, to):
    """Every mail delivered to ``to``, its lines ended by \\n."""
    return "\n".join(text.replace("\r\n", "\n") for _, text, _ in office.read(to))


@pytest.mark.parametrize("lang", ["fr", "zh", "en"])
def test_resolve_now_names_the_turn_and_the_coming_deadline_in_the_readers_language(office, lang):
    service, game_id, _ = a_game(office, lang)
    game = service.game(game_id)
    day = game.day
    service.moderate(game_id, MOD, "resolve_now", "both asked")
    office.flush()
    tr = i18n.translator(lang)
    [body] = mails(office, FRED, tr.gettext("Moderator: %(action)s", action=tr.gettext("resolve now")))
    turn = game.turn_label(day, lang)
    assert tr.gettext("%(turn)s was resolved now; the reports follow.", turn=turn) in body
    assert tr.gettext("Deadline: %(deadline)s.", deadline=tr.gettext(NOT_YET_SET)) in body
    if lang == "en":  # English as before
        assert "6AM (Austria's day) was resolved now; the reports follow." in body
        assert "Deadline: (set when this day's reports are out)." in body
    else:
        assert game.turn_label(day) not in body and "set when" not in body
    if lang == "fr":
        assert "6 h (tour autrichien) a été résolu maintenant" in body
        assert "(fixée une fois envoyés les comptes rendus de ce tour)" in body
    if lang == "zh":
        assert "6时（奥军回合） 已立即结算" in body and "（本回合战报发出后设定）" in body


@pytest.mark.parametrize("lang, words", [("fr", "vendredi 6 novembre 2026, 18:00 UTC"),
                                         ("zh", "2026年11月6日星期五, 18:00 UTC"),
                                         ("en", "Friday 06 November 2026, 18:00 UTC")])
def test_a_new_deadline_is_dated_in_the_readers_words(office, lang, words):
    service, game_id, _ = a_game(office, lang)
    said = service.moderate(game_id, MOD, "deadline", "a fixed hour", when="2026-11-06 18:00")
    office.flush()
    assert said == "the deadline is now Friday 06 November 2026, 18:00 UTC (2026-11-06T18:00:00Z)."  # the audit's
    tr = i18n.translator(lang)
    [body] = mails(office, ANNA, tr.gettext("Moderator: %(action)s", action=tr.gettext("deadline")))
    assert tr.gettext("the deadline is now %(when)s (%(iso)s).", when=words, iso="2026-11-06T18:00:00Z") in body


def test_a_deadline_already_passed_is_refused_with_its_date_in_the_askers_words(office):
    service, game_id, _ = a_game(office, "fr")
    with pytest.raises(Exception) as refused:
        service.moderate(game_id, MOD, "deadline", "too late", when="2026-11-01 08:00")
    assert str(refused.value).startswith("Sunday 01 November 2026, 08:00 UTC has passed")
    assert refused.value.in_("fr").startswith("dimanche 1 novembre 2026, 08:00 UTC")
    assert refused.value.in_("zh").startswith("2026年11月1日星期日, 08:00 UTC")


@pytest.mark.parametrize("lang", ["fr", "zh", "en"])
def test_the_press_mail_names_the_seat_to_answer_in_the_readers_words(office, lang):
    service, game_id, keys = a_game(office, lang)
    office.send(ANNA, f"GAME {game_id} KEY {keys['austria']}\n{commands.words_in(lang)['PRESS']} France\nBonjour")
    austria, france = (service.seat_title(game_id, side, lang) for side in ("austria", "france"))
    tr = i18n.translator(lang)
    [body] = mails(office, FRED, tr.gettext("Message from %(seat)s", seat=austria))
    assert f"\n  {commands.words_in(lang)['PRESS']} {austria}\n" in body
    assert tr.gettext("Your message went to %(names)s.", names=france) in everything(office, ANNA)
    if lang == "fr":
        assert "\n  MESSAGE Autriche\n" in body
    if lang == "zh":
        assert "\n  通信 奥地利\n" in body
    if lang == "en":
        assert "\n  PRESS Austria\n" in body


@pytest.mark.parametrize("lang", ["fr", "zh"])
def test_a_side_the_game_lacks_is_answered_with_the_sides_in_the_readers_words(office, lang):
    service, game_id, _ = a_game(office, lang)
    service.store.set_language(EVE, lang)
    office.send(EVE, f"GAME {game_id} SIDE Prussia KEY guess\nSTATUS")
    titles = i18n.translator(lang).listed(list(service.seat_titles(game_id, lang).values()))
    body = everything(office, EVE)
    assert i18n.translate(lang, "Your mail names a side game %(game)s does not have (the sides are %(sides)s); "
                                "nothing was done.", game=game_id, sides=titles) in body
    assert "Austria" not in body and ("Autriche, France" in body if lang == "fr" else "奥地利、法国" in body)


def test_a_wrong_key_is_refused_in_the_language_the_strangers_mail_program_says(office):
    service, game_id, _ = a_game(office, "en")
    office.send(EVE, f"GAME {game_id} SIDE Austria KEY guess\nSTATUS", Content_Language="fr")
    body = everything(office, EVE)
    assert i18n.translate("fr", "The key in your mail is not the key of %(seat)s in game %(game)s; nothing was done.",
                          seat="Autriche", game=game_id) in body


@pytest.mark.parametrize("lang, starts", [("fr", "dimanche 20 décembre 2026, 00:00 UTC (2026-12-20T00:00:00Z)"),
                                          ("zh", "2026年12月20日星期日, 00:00 UTC (2026-12-20T00:00:00Z)"),
                                          ("en", "Sunday 20 December 2026, 00:00 UTC (2026-12-20T00:00:00Z)")])
def test_a_scheduled_vacation_is_dated_in_the_readers_words(office, lang, starts):
    service, game_id, keys = a_game(office, lang)
    words = commands.words_in(lang)
    office.send(ANNA, f"GAME {game_id} KEY {keys['austria']}\n"
                      f"{words['VACATION']} {words['FROM']} 2026-12-20 {words['TO']} 2027-01-03")
    body = everything(office, ANNA)
    ends = deadlines.moment_text(datetime(2027, 1, 4, tzinfo=timezone.utc), "UTC", lang=lang)
    assert i18n.translate(lang, "Vacation scheduled for %(email)s, from %(starts)s to %(ends)s: in every game that "
                                "allows vacations, a deadline that passes without your orders meanwhile waits for "
                                "its end.", email=ANNA, starts=starts, ends=ends) in body


YOUR_TURN = {
    "fr": "À vous de jouer dans la partie #1 Words : 6 h (tour français) ; vos ordres pour mercredi 4 novembre 2026, "
          "09:00 UTC, dans 2 jours",
    "zh": "轮到你了：对局 #1 Words，6时（法军回合）；命令截止 2026年11月4日星期三, 09:00 UTC, 2 天后",
    "en": "Your turn in #1 Words: 6AM (France's day), orders due by Wednesday 04 November 2026, 09:00 UTC, in 2 days",
}


@pytest.mark.parametrize("lang, words", YOUR_TURN.items())
def test_your_turn_reaches_the_chat_in_the_players_language(office, lang, words):
    service, game_id, _ = a_game(office, lang)
    notify.set_settings(service.store, FRED, "every", "https://chat.example/fred", "discord")
    service.resolve_next(game_id)  # Austria's day; France owes the next once its reports are out
    service.run_jobs()
    [row] = service.store.query("SELECT text FROM webhook_outbox WHERE email = ?", (FRED,))
    assert row["text"] == f"[pbem {game_id}] {words}"


@pytest.mark.parametrize("lang", ["fr", "zh"])
def test_the_moderators_page_tells_what_was_done_in_his_language(tmp_path, lang):
    site = Site(tmp_path)
    game_id, _ = site.game()
    site.store.set_language(WEB_MOD, lang)
    mod = site.client(WEB_MOD)
    game = site.service.game(game_id)

    def act(action, **form):
        return mod.post(f"/games/{game_id}/moderate/{action}", data={"csrf_token": mod.csrf, **form})

    assert act("resolve_now", why="both agreed").status_code == 302
    page = html.unescape(mod.get(f"/games/{game_id}/moderate").text)
    assert i18n.translate(lang, "%(turn)s was resolved now; the reports follow.", turn=game.turn_label(0, lang)) in page
    assert game.turn_label(0) not in page
    year = site.service.now().year + 1
    assert act("deadline", when=f"{year}-01-10 09:00", zone="UTC", why="after the holidays").status_code == 302
    when = datetime(year, 1, 10, 9, 0, tzinfo=timezone.utc)
    page = html.unescape(mod.get(f"/games/{game_id}/moderate").text)
    assert i18n.translate(lang, "the deadline is now %(when)s (%(iso)s).",
                          when=deadlines.local_time(when, "UTC", lang=lang), iso=deadlines.iso(when)) in page
    refused = act("deadline", when="2001-01-01 09:00", zone="UTC", why="x")
    assert refused.status_code == 400
    assert deadlines.local_time(datetime(2001, 1, 1, 9, 0, tzinfo=timezone.utc), "UTC", lang=lang) in \
        html.unescape(refused.text)


@pytest.mark.parametrize("lang, line", [("fr", "\n  Autriche : anna@example.org\n  France : fred@example.org\n"),
                                        ("zh", "\n  奥地利：anna@example.org\n  法国：fred@example.org\n"),
                                        ("en", "\n  Austria: anna@example.org\n  France: fred@example.org\n")])
def test_the_moderator_reads_each_seat_and_its_player_as_his_language_writes_a_colon(office, lang, line):
    service, game_id, _ = a_game(office, lang)
    tr = i18n.translator(lang)
    [body] = mails(office, MOD, tr.gettext("You moderate game %(game)s", game=game_id))
    assert line in body
