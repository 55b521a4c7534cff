"""Side bidding: each entrant's standing bid for a seat, read when a round is paired
(``pairing.apply_bids``); what a bid pays is the standings' last tie-break. Mixed into
``Tournaments``."""

from __future__ import annotations

from pbem.core.ruleset import seat_said, seat_title_in
from pbem.games import ruleset
from pbem.lang import LANGUAGES, say, say_plural
from pbem.server.i18n import Said
from pbem.server.service import ServiceError

BID_LIMIT = 10  # points a bid may offer


class Bidding:

    def bid(self, tid: int, email: str, seat: str, amount: int) -> str:
        """An entrant's standing bid for a seat (its id or title, or "none" to withdraw the bid),
        used from the next round paired: where both players of a board want the same seat, the
        higher bid takes it, and what it pays counts against him as the last tie-break."""
        from pbem.core.orders import fold

        t = self.tournament(tid)
        if not t["rules"].get("bidding"):
            raise ServiceError("%(name)s has no side bidding", name=t['name'])
        if not any(e["email"].lower() == email.strip().lower() for e in t["entries"]):
            raise ServiceError("you are not entered in %(name)s", name=t['name'])
        if t["status"] == "finished":
            raise ServiceError("%(name)s is finished", name=t['name'])
        seats = self.seats_of_rules(t["rules"])
        if len(seats) != 2:
            raise ServiceError("side bidding is for games of two seats")
        if fold(seat) == "none":
            self.store.execute("DELETE FROM league_bids WHERE tournament_id = ? AND email = ?", (tid, email.strip()))
            return Said(say("Your bid is withdrawn."))
        rules_of = ruleset(t["rules"]["game"])  # a seat named by its id or its title in any language
        names = [{fold(s.id)} | {fold(seat_title_in(rules_of, s, lang)) for lang in LANGUAGES} for s in seats]
        which = next((n for n, known in zip(("first", "second"), names) if fold(seat) in known), None)
        if which is None:
            raise ServiceError("the seats are %(title)s and %(title2)s, not %(seat)s",
                               title=seat_said(rules_of, seats[0]), title2=seat_said(rules_of, seats[1]),
                               seat=repr(seat))
        if not 0 <= int(amount) <= BID_LIMIT:
            raise ServiceError("a bid is 0 to %(limit)s points", limit=BID_LIMIT)
        with self.store.transaction():
            self.store.execute("INSERT OR REPLACE INTO league_bids (tournament_id, email, seat, bid, updated)"
                               " VALUES (?, ?, ?, ?, ?)", (tid, email.strip(), which, int(amount), self.store.now()))
            self.store.audit(email, "tournament_bid", detail={"tournament": tid, "seat": which, "bid": int(amount)})
        title = seat_said(rules_of, seats[0 if which == "first" else 1])  # read in the bidder's language
        return Said(say_plural("Your bid: %(seat)s, up to %(num)d point, from the next round paired.",
                               "Your bid: %(seat)s, up to %(num)d points, from the next round paired.", int(amount),
                               seat=title))

    def bids_by_number(self, t: dict) -> dict[int, tuple[str, int]]:
        numbers = t["numbers"]
        return {numbers[b["email"].lower()]: (b["seat"], b["bid"]) for b in self.store.query(
            "SELECT * FROM league_bids WHERE tournament_id = ?", (t["id"],)) if b["email"].lower() in numbers}
