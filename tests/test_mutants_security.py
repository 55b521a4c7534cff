"""The security group's last survivors killed (scripts/mutation security; docs/testing.md).

Each test asserts what a person sees: the status and the words of a refusal, who may act.
"""

from __future__ import annotations

from pbem.server.web import security

from websupport import FRED, MOD, OTTO, SMALL, csrf

from test_mut_security import error_of


def test_a_moderator_holding_a_seat_of_the_running_game_is_refused_saying_which_seat(site):
    game_id, _ = site.game(seats={"austria": MOD, "france": FRED}, moderator=MOD)
    mod = site.client(MOD)
    refused = mod.get(f"/games/{game_id}?side=france")
    assert refused.status_code == 403
    assert error_of(refused) == (
        f"You play Austria in game {game_id}, which is still running: while it runs, a player sees only his "
        f"own seat's views, whatever his roles, so the moderator console, the other seats' views and both "
        f"sides together are closed to you here. Another moderator (or the site admin, if you are not the "
        f"admin) must act for this game; everything opens when the game ends.")
    assert mod.get(f"/games/{game_id}?side=austria").status_code == 200


def test_a_moderator_holding_two_seats_of_three_is_refused_naming_both(site):
    game_id, _ = site.service.create_game("Three", {"french": FRED, "anglo-dutch": MOD, "prussian": MOD},
                                          game="napoleon1815", seed=3, moderator=MOD)
    mod = site.client(MOD)
    refused = mod.get(f"/games/{game_id}?side=french")
    assert refused.status_code == 403
    assert error_of(refused).startswith(
        f"You play Anglo-Dutch army (Wellington) and Prussian army (Blücher) in game {game_id}, which is still running:")
    assert mod.get(f"/games/{game_id}/moderate").status_code == 403


def test_a_hot_seat_moderator_holding_every_seat_moderates_the_running_game(site):
    game_id, _ = site.game(seats={"austria": MOD, "france": MOD}, moderator=MOD)
    mod = site.client(MOD)
    assert mod.get(f"/games/{game_id}/moderate").status_code == 200
    assert mod.get(f"/api/games/{game_id}").status_code == 200  # both sides: he hides nothing from himself
    assert mod.get(f"/games/{game_id}?side=france").status_code == 200


def test_a_seated_moderator_is_no_moderator_until_the_game_ends(site):
    game_id, _ = site.game(seats={"austria": MOD, "france": FRED}, moderator=MOD,
                           settings={"hours": 48, "miss_limit": 1, "miss_policy": "forfeit"})
    other = site.game(seats={"austria": FRED, "france": OTTO}, moderator=MOD)[0]
    with site.app.test_request_context(f"/games/{game_id}"):
        mod = security.User(email=MOD)
        assert security.seated_while_running(mod, game_id) == ["austria"]
        assert not security.is_moderator(mod, game_id)
        assert security.seated_while_running(mod, other) == []
        assert security.is_moderator(mod, other)  # his seat in one game closes only that one
        site.service.missed(game_id, "france", 1)  # France forfeits: the game is over
        assert security.is_finished(game_id)
        assert security.seated_while_running(mod, game_id) == [] and security.is_moderator(mod, game_id)


def test_a_seated_moderator_asking_for_both_sides_is_told_why(site):
    game_id, _ = site.game(seats={"austria": MOD, "france": FRED}, moderator=MOD)
    refused = site.client(MOD).get(f"/games/{game_id}?side=")
    assert refused.status_code == 403
    assert error_of(refused).startswith(f"You play Austria in game {game_id}, which is still running:")


def test_an_error_whose_description_is_not_words_gets_its_title(site):
    from flask import g
    from werkzeug.exceptions import BadRequest, NotFound

    with site.app.test_request_context("/api/x"):
        g.user = None
        for exc, words in ((BadRequest(["not", "words"]), "Bad request."), (NotFound({"a": 1}), "There is no such page.")):
            body, code = security.handle_http(exc)
            assert (code, body.json) == (exc.code, {"error": words, "status": exc.code})


def test_a_proven_key_is_answered_from_memory_without_the_slow_hash(site):
    """ServiceBase.check_key: a key once proven is remembered (a fast hash in memory), so the next
    mail does not pay scrypt again; the stored hash is not read for it (service.set_key, the one way
    a key changes, forgets it)."""
    game_id, keys = site.game()
    service = site.service
    assert service.check_key(game_id, "austria", keys["austria"])
    site.store.execute("UPDATE seats SET key_hash = NULL WHERE game_id = ?", (game_id,))
    assert service.check_key(game_id, "austria", keys["austria"])  # from memory
    assert not service.check_key(game_id, "austria", "wrong")
    assert not service.check_key(game_id, "france", keys["france"])  # never proven: the store says no


def test_the_owners_notice_ends_with_his_own_deadline_or_with_the_words_once_the_game_is_over(site):
    from pbem.server import inbox

    service = site.service
    game_id, keys = service.create_game("Zones", {"austria": MOD, "france": FRED}, scenario=SMALL, seed=3,
                                        timezones={"austria": "Asia/Tokyo"},
                                        settings={"hours": 48, "miss_limit": 1, "miss_policy": "forfeit"})
    own, utc = service.deadline_for(game_id, "austria"), service.deadline_for(game_id, None)
    assert own != utc  # Tokyo's time, not the moderator's UTC
    assert not inbox.authenticate(service, game_id, "austria", "wrong", "x@example.org", {"id": 1})
    notice = site.store.mail("WHERE dedupe_key = 'answer:1:owner'")["body"]
    assert notice.endswith(f"the game's log lists every attempt.\n\nDeadline: {own}.")
    over, _ = service.create_game("Over", {"austria": MOD, "france": FRED}, scenario=SMALL, seed=3,
                                  settings={"hours": 48, "miss_limit": 1, "miss_policy": "forfeit"})
    service.missed(over, "france", 1)  # France forfeits: the game is over, no deadline
    assert not inbox.authenticate(service, over, "austria", "wrong", "x@example.org", {"id": 2})
    notice = site.store.mail("WHERE dedupe_key = 'answer:2:owner'")["body"]
    assert notice.endswith("with a wrong key since the last notice (the latest from x@example.org). All were "
                           "refused; your key is unchanged, and nothing needs doing if you have it. You are told at "
                           "most once every 6 hours; the game's log lists every attempt.")


def test_an_error_page_is_titled_and_headed_by_its_code(site):
    page = site.client(FRED).get("/no/such/page")
    assert page.status_code == 404
    assert "<title>404 · pbem</title>" in page.text and "<h1>Not found</h1>" in page.text
    refused = site.client(FRED).get("/admin")
    assert "<title>403 · pbem</title>" in refused.text and "<h1>Not yours to see</h1>" in refused.text


def test_an_error_without_a_title_of_ours_gets_werkzeugs_name_and_one_without_a_code_is_a_500(site):
    from flask import g
    from werkzeug.exceptions import Conflict, HTTPException

    with site.app.test_request_context("/api/x"):
        g.user = None
        body, code = security.handle_http(Conflict())
        assert (code, body.json) == (409, {"error": "Conflict.", "status": 409})
        body, code = security.handle_http(HTTPException())
        assert (code, body.json) == (500, {"error": "Unknown Error.", "status": 500})


def test_a_failed_sign_in_is_kept_with_the_clients_address(site):
    client = site.client(ip="10.9.8.7")
    form = client.get("/login")
    client.post("/login", data={"csrf_token": csrf(form.text), "email": FRED, "password": "not it",
                                "action": "password"})
    assert site.store.query("SELECT email, ip, kind, ok FROM login_attempts") == [
        {"email": FRED, "ip": "10.9.8.7", "kind": "password", "ok": 0}]


def test_a_sign_in_link_carries_256_random_bits(site):
    from pbem.server.web.auth import make_login_token

    tokens = {make_login_token(site.store, FRED, site.service.now()) for _ in range(3)}
    assert len(tokens) == 3 and {len(t) for t in tokens} == {43}  # token_urlsafe(32): 43 characters


def test_a_path_with_the_delete_character_is_no_local_path():
    from pbem.server.web.redirects import local_path

    assert local_path("/games/3\x7f") is None and local_path("/games/3~") == "/games/3~"


def test_a_seat_key_may_hold_any_character_a_mail_can_carry(site):
    game_id, _ = site.game()
    store = site.store
    store.set_seat_key(game_id, "france", "clé \udcff")  # an undecodable byte of a mail, kept as a surrogate
    assert store.check_key(game_id, "france", "clé \udcff")
    assert not store.check_key(game_id, "france", "clé \udcfe") and not store.check_key(game_id, "france", "clé ")


def test_a_refused_operation_reads_in_the_readers_language(site):
    """handle_service_error: a ServiceError becomes a 400 in the language of whoever asked (here the API's
    Accept-Language), not in English."""
    from flask import g

    from pbem.server import i18n
    from pbem.server.service import ServiceError

    words = "game %(game)s is not over: its seed stays secret until it ends"
    for lang in ("fr", "zh"):
        with site.app.test_request_context("/api/x", headers={"Accept-Language": lang}):
            g.user = None
            body, code = security.handle_service_error(ServiceError(words, game=7))
            assert (code, body.json) == (400, {"error": i18n.translate(lang, words, game=7), "status": 400})
            assert body.json["error"] != "game 7 is not over: its seed stays secret until it ends"


def test_a_wrong_key_is_refused_in_the_strangers_language_and_told_in_the_owners(site):
    """inbox.authenticate: the stranger reads the refusal in the language his address chose (the seat's
    title and where a key is found, too), the seat's owner his notice in his own; English for neither."""
    from pbem.server import i18n, inbox

    service, store = site.service, site.store
    game_id, _ = site.game()
    stranger = "inconnu@example.org"
    store.set_language(stranger, "fr")
    store.set_language("anna@example.org", "uk")  # Austria's player
    store.execute("DELETE FROM outbox")
    assert not inbox.authenticate(service, game_id, "austria", "wrong", stranger, {"id": 9})
    refusal, notice = store.query("SELECT to_addr, subject, body FROM outbox ORDER BY id")
    assert refusal == {
        "to_addr": stranger, "subject": f"[pbem {game_id}] " + i18n.translate("fr", "Refused: wrong key"),
        "body": i18n.translate("fr", "The key in your mail is not the key of %(seat)s in game %(game)s; nothing was "
                               "done.", seat="Autriche", game=game_id)
        + "\n\n" + inbox.where_is_the_key(service, game_id, "fr")}
    assert refusal["body"].startswith("La clé") and inbox.where_is_the_key(service, game_id, "fr") != \
        inbox.where_is_the_key(service, game_id)
    assert notice["subject"] == f"[pbem {game_id}] " + i18n.translate("uk", "Someone used a wrong key for your seat")
    assert notice["body"] == (
        i18n.translate_plural("uk", "%(num)d mail tried to act for %(seat)s in game %(game)s with a wrong key since "
                              "the last notice (the latest from %(sender)s).",
                              "%(num)d mails tried to act for %(seat)s in game %(game)s with a wrong key since "
                              "the last notice (the latest from %(sender)s).", 1, seat="Австрія", game=game_id,
                              sender=stranger)
        + " " + i18n.translate_plural("uk", "All were refused; your key is unchanged, and nothing needs doing if you "
                                      "have it. You are told at most once every %(num)d hour; the game's log lists "
                                      "every attempt.",
                                      "All were refused; your key is unchanged, and nothing needs doing if you "
                                      "have it. You are told at most once every %(num)d hours; the game's log lists "
                                      "every attempt.", 6)
        + "\n\n" + service.deadline_line(game_id, "austria"))
    assert "Австрія" in notice["body"] and "All were refused" not in notice["body"]


def test_a_seated_moderator_is_refused_naming_his_seats_in_his_language(site):
    """seat_rule: the seats in the refusal are titled in the page's language, as the sentence is."""
    from pbem.server import i18n

    game_id, _ = site.game(seats={"austria": MOD, "france": FRED}, moderator=MOD)
    site.store.set_language(MOD, "fr")
    refused = site.client(MOD).get(f"/games/{game_id}?side=france")
    assert refused.status_code == 403
    words = i18n.translate("fr", "You play %(seats)s in game %(game)s, which is still running: while it runs, a "
                           "player sees only his own seat's views, whatever his roles, so the moderator console, "
                           "the other seats' views and both sides together are closed to you here. Another "
                           "moderator (or the site admin, if you are not the admin) must act for this game; "
                           "everything opens when the game ends.", seats="Autriche", game=game_id)
    assert error_of(refused) == words and words.startswith("Vous jouez Autriche")


def test_a_player_asking_for_the_other_seat_is_refused_naming_it_in_his_language(site):
    """side_for: "You do not play ..." titles the seat asked for in the reader's language."""
    from pbem.server import i18n

    game_id, _ = site.game()
    site.store.set_language(FRED, "uk")  # France's player
    refused = site.client(FRED).get(f"/api/games/{game_id}?side=austria")
    assert refused.status_code == 403
    assert error_of(refused) == i18n.translate("uk", "You do not play %(seat)s in game %(game)s.", seat="Австрія",
                                               game=game_id)
    assert "Австрія" in error_of(refused)
