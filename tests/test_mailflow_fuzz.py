"""The whole mail-in path under random input: no crash, no hang, no overlong reply."""

from email.message import EmailMessage
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.server import inbox
from pbem.server.service import Service
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
WORDS = ["GAME", "SIDE", "TURN", "KEY", "MOVE", "ASSAULT", "ENTER", "ROAD", "STANDING", "->", ">", "BY",
         "PONTOON", "Marengo", "Spinetta", "A1", "F1", "WITH", "LEAD", "STATUS", "HELP", "ANSWER", "VACATION",
         "REPORT", "ORDERS", "KEY", "FINAL", "#", ";", "1", "99", "Austria", "France"]

_setup = {}


def world(tmp_path_factory):
    if "service" not in _setup:
        path = tmp_path_factory.mktemp("fuzz") / "pbem.sqlite3"
        service = Service(Store(path))
        game_id, keys = service.create_game("Fuzz", {"austria": "a@example.org", "france": "f@example.org"},
                                            scenario=SMALL, seed=1)
        _setup.update(service=service, game_id=game_id, keys=keys)
    return _setup["service"], _setup["game_id"], _setup["keys"]


lines = st.lists(st.one_of(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join),
                           st.text(max_size=80)), max_size=30)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=lines, with_key=st.booleans(),
       subject=st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=40))
def test_any_mail_gets_a_bounded_answer_or_none(tmp_path_factory, body, with_key, subject):
    service, game_id, keys = world(tmp_path_factory)
    head = f"GAME {game_id} SIDE Austria KEY {keys['austria'] if with_key else 'nope'}"
    msg = EmailMessage()
    msg["From"] = "a@example.org"
    msg["To"] = "pbem@localhost"
    msg["Subject"] = subject
    msg.set_content("\n".join([head] + body))
    before = service.store.query_one("SELECT COALESCE(MAX(id), 0) AS n FROM outbox")["n"]
    inbound_id, _ = inbox.receive(service, msg.as_bytes(), "smtp")
    inbox.process(service, inbound_id)
    row = service.store.get_inbound(inbound_id)
    assert row["status"] in ("processed", "dropped")
    for answer in service.store.mails("WHERE id > ?", (before,)):
        assert len(answer["body"]) <= inbox.REPLY_LIMIT + 100
