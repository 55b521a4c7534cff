"""Who goes on in an elimination tournament: a knockout round's winners, a double elimination's bracket and the
matches ready in it, and whether the tournament is decided. Mixed into ``Tournaments`` (tournaments.py), whose
``results`` and ``tournament`` it uses; the bracket's rules are ``elimination.py``'s (pure)."""

from __future__ import annotations

from pbem.server.service import ServiceError

from . import elimination, pairing


class Brackets:

    def bracket(self, t: dict) -> elimination.Bracket:
        """A double elimination's bracket with the matches decided so far (by their pairings' results)."""
        numbers = t["numbers"]
        paired = {p["slot"]: (numbers[p["first"].lower()], numbers[p["second"].lower()] if p["second"] else None)
                  for p in t["pairings"] if p.get("slot")}
        won = {slot: elimination.winner_of(*paired[slot], p["result"])
               for p in t["pairings"] if (slot := p.get("slot")) and p["result"] is not None}
        return elimination.Bracket(len(t["entries"]), won, paired)

    def double_elimination_round(self, t: dict, history: dict[int, pairing.Player]) -> tuple[list, list[str]]:
        """The matches of the bracket ready to be played (both players known, not paired yet), as boards, and
        each one's match; the first seat to whoever of the two has had it less (the better seed on a tie)."""
        played = {p["slot"] for p in t["pairings"] if p.get("slot")}
        boards, slots = [], []
        for match_id, a, b in self.bracket(t).ready(played):
            boards += [(a, None)] if b is None else pairing.knockout_next([a, b], history)
            slots.append(match_id)
        if not boards:
            raise ServiceError("%(name)s has no match ready to be played", name=t["name"])
        return boards, slots

    def finished_by_bracket(self, t: dict) -> bool:
        """Whether an elimination tournament is decided: a knockout's last round has one winner; a double
        elimination's grand final (and its reset, if played) is over."""
        if t["format"] == "double_elimination":
            return self.bracket(t).over()
        return t["format"] == "knockout" and len(self.knockout_winners(t, t["round"])) < 2

    def knockout_winners(self, t: dict, round_no: int) -> list[int]:
        """The winners of a knockout round, in board order (a draw: the better seed goes on)."""
        out = []
        for r in self.results(t):
            if r.round != round_no:
                continue
            if r.result in ("first", "bye"):
                out.append(r.first)
            elif r.result == "second":
                out.append(r.second)
            else:
                out.append(min(r.first, r.second))
        return out
