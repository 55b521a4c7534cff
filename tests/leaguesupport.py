"""What the league tests through the service share (test_league.py, test_league_double.py, test_league_games.py,
test_league_ratings.py, test_league_repair.py, test_league_web.py): a league of numbered players (the site is
tests/conftest.py's fixture)."""

from __future__ import annotations

from websupport import SMALL

from pbem.server.leagues.service import Leagues

ORG = "org@example.org"


def league_of(site, count, **rules):
    """A league of the small scenario organised by ORG, its members p01@example.org ... (named P01 ...):
    (the league service, the league's id, the members' addresses). Its games' settings: 48 hours a day,
    a missed day forfeits, over any ``settings`` in ``rules``."""
    leagues = Leagues(site.service)
    league_id = leagues.create_league("Club", ORG, rules={"scenario": SMALL, **rules,
                                                          "settings": {"hours": 48, "miss_policy": "forfeit",
                                                                       "miss_limit": 1, **rules.pop("settings", {})}})
    emails = [f"p{n:02}@example.org" for n in range(1, count + 1)]
    for email in emails:
        leagues.join(league_id, email, email[:3].upper())
    return leagues, league_id, emails
