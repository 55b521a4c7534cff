"""Who plays whom in a round, and which seat each takes. Pure functions of the history.

A two-seat game is played like a chess game: the *first* player takes the
ruleset's first seat (in Bonaparte at Marengo, Austria) as White would, the
*second* the other. Sides alternate the way colours do:

- round robin: the Berger tables of FIDE C.05 Annex 1 (pairing-core's ``round_robin``),
  which balance colours over the cycle;
- Swiss: the FIDE Dutch system (C.04.3, the rules in force until 2026), by py4swiss's Dutch
  engine, which pairs within score groups, never twice the same pair, gives at most one
  bye a player, and honours colour (here: side) preferences and floats from each player's
  history;
- knockout: seeds 1 against N, 2 against N-1 ... (byes to the top seeds up to a power of
  two); then the winners of boards 1 and 2 meet, 3 and 4, and so on; the player who has
  had the first seat less often takes it (the better seed on a tie).

Three-seat games (one seat against two of one side): a Swiss of groups of three
(``groups_of_three``) or a round robin in groups of three with the seats rotated
(``round_robin_of_three``); no knockout (one game cannot send one player on when two win).

A ``Player`` is one entrant's history: pairing number (1 = best seed), points, seat
history (``"F"`` first, ``"S"`` second, ``"-"`` a round without a game), opponents'
numbers, each round's result, and whether a bye was had.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class PairingFailed(ValueError):
    """No pairing of the round exists under the rules (e.g. every pair has met)."""


@dataclass
class Player:
    number: int
    points: float = 0.0
    seats: str = ""  # "F" first seat, "S" second, "-" no game (bye or absent), one letter a round
    opponents: list[int] = field(default_factory=list)
    had_bye: bool = False
    rating: int = 0
    results: str = ""  # one letter a round (RESULT_POINTS): "1" won, "=" drew, "0" lost, "U" the bye ...


Board = tuple[int, int | None]  # (first seat, second seat); (n, None) is a bye


def round_robin(count: int, round_no: int, double: bool = False) -> list[Board]:
    """The boards of round ``round_no`` (1-based) for pairing numbers 1..count (Berger tables)."""
    from pairing_core import round_robin as berger

    schedule = berger(count, double=double)
    if not 1 <= round_no <= len(schedule):
        raise PairingFailed(f"a round robin of {count} has {len(schedule)} rounds, not {round_no}")
    return [(first, second) for first, second in schedule[round_no - 1]]


def round_robin_rounds(count: int, double: bool = False) -> int:
    return (count if count % 2 else count - 1) * (2 if double else 1)


def swiss(players: list[Player], round_no: int, total_rounds: int = 9, absent: tuple[int, ...] = ()) -> list[Board]:
    """Round ``round_no`` of a Swiss tournament by the FIDE Dutch system (C.04.3, the rules in force
    until 31 January 2026), by py4swiss's Dutch engine. Byes come last, as ``(n, None)``.

    ``players``: every entrant's history (``results`` one letter a round, ``seats`` and ``opponents``
    of the games played); ``absent``: the pairing numbers not to pair this round. The history is
    handed over as a FIDE tournament report (TRF-16, ``trf``), the engine's input. Checked against
    the FIDE Technical Commission's worked example *Mastering the Dutch* (tests/test_league.py).
    pairing-core's Dutch kernel, used before, gave pairings the Dutch system does not (a score
    group paired against its players' colour preferences where an exchange satisfies them all), and
    its 2026 kernel ran out of steps on fifteen players."""
    from py4swiss.engines import DutchEngine
    from py4swiss.engines.common import PairingError
    from py4swiss.trf import TrfParser
    from py4swiss.trf.exceptions import ConsistencyError, LineError, ParsingError

    try:
        trf = TrfParser.parse(_Text(trf_text(players, round_no, total_rounds, absent)))
        pairings = DutchEngine.generate_pairings(trf)
    except (PairingError, ConsistencyError, LineError, ParsingError, ValueError) as exc:
        raise PairingFailed(f"round {round_no} cannot be paired: {exc}") from None
    boards = [(p.white, p.black) for p in pairings if p.white and p.black]
    return boards + [(p.white or p.black, None) for p in pairings if not (p.white and p.black)]


RESULT_POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "H": 0.5, "Z": 0.0}
"""A round's result letter in ``Player.results`` (TRF-16's) and what it scores: a game won, drawn or
lost; a game won or lost by forfeit (not played: it counts for no colour and the two may meet
again); the pairing-allocated bye (a point); a half-point bye; no game (absent)."""


def trf_text(players: list[Player], round_no: int, total_rounds: int, absent=()) -> str:
    """The players' history as a FIDE TRF-16 report (the 001 lines, the rounds' number and the
    first board's colour): what a pairing program reads. An absent player has a zero-point bye
    in the round being paired, so that he is left out of it."""
    lines = ["012 pbem tournament", f"XXR {max(total_rounds, round_no)}", "XXC white1"]
    for p in sorted(players, key=lambda p: p.number):
        if len(p.results) != round_no - 1 or len(p.seats) != len(p.results):
            raise PairingFailed(f"player {p.number} has {len(p.results)} results before round {round_no}")
        opponents = iter(p.opponents)
        cells = []
        for seat, result in zip(p.seats, p.results):
            if seat == "-":
                cells.append("0000 - " + (result if result in "UHZ" else "Z"))
            else:
                cells.append(f"{next(opponents):4d} {'w' if seat == 'F' else 'b'} {result}")
        if p.number in absent:
            cells.append("0000 - Z")
        points = sum(RESULT_POINTS[r] for r in p.results)
        lines.append(f"001 {p.number:4d}      {'Entrant ' + str(p.number):<33} {0:4d}{'':28}{points:4.1f} {p.number:4d}"
                     + "".join("  " + cell for cell in cells))
    return "\n".join(lines) + "\n"


class _Text:
    """A TRF text where py4swiss's parser expects a file: it only opens it to read."""

    def __init__(self, text: str):
        self.text = text

    def open(self, *args, **kwargs):
        import io

        return io.StringIO(self.text)


def swiss_rounds(count: int) -> int:
    """The usual length of a Swiss: enough rounds to find one winner (ceil(log2 count)), at least 3."""
    rounds = 0
    while 2 ** rounds < count:
        rounds += 1
    return max(3, rounds)


def knockout_rounds(count: int) -> int:
    rounds = 0
    while 2 ** rounds < count:
        rounds += 1
    return rounds


def knockout_first(count: int) -> list[Board]:
    """Round 1: seed 1 against the lowest, and so on, in bracket order so the best seeds meet last;
    a missing opponent (fewer entrants than a power of two) is a bye."""
    size = 2 ** knockout_rounds(count)
    order = [1]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, n - seed)]
    return [(a, b if b <= count else None) for a, b in zip(order[::2], order[1::2])]


def knockout_next(winners: list[int], players: dict[int, Player]) -> list[Board]:
    """The next round: winners of boards 1 and 2 meet, 3 and 4 ... (``winners`` in board order);
    the one who has had the first seat less often takes it, the better seed on a tie."""
    boards = []
    for a, b in zip(winners[::2], winners[1::2]):
        first_a, first_b = players[a].seats.count("F"), players[b].seats.count("F")
        if (first_a, a) <= (first_b, b):
            boards.append((a, b))
        else:
            boards.append((b, a))
    return boards


Group = tuple[int, int | None, int | None]  # (first seat, second, third); (n, None, None) is a bye


def groups_of_three(players: list[Player], round_no: int) -> list[Group]:
    """A Swiss round of three-seat games: groups of three by score, best first, no two players
    who met before in one group where that can be avoided; the lone first seat to whoever of
    the group has had it least (the better ranked on a tie), then the others by rank. One or
    two players left over have a bye: the lowest ranked who have had none (else the lowest)."""
    ranked = sorted(players, key=lambda p: (-p.points, p.number))
    spare = len(ranked) % 3
    byes: list[Player] = []
    for p in reversed(ranked):
        if len(byes) < spare and not p.had_bye:
            byes.append(p)
    for p in reversed(ranked):
        if len(byes) < spare and p not in byes:
            byes.append(p)
    left = [p for p in ranked if p not in byes]
    groups = []
    while left:
        head = left.pop(0)
        group = [head]
        for strict in (True, False):
            for p in list(left):
                if len(group) == 3:
                    break
                if not strict or not any(q.number in p.opponents for q in group):
                    group.append(p)
                    left.remove(p)
        if len(group) < 3:
            raise PairingFailed(f"round {round_no}: no group of three for player {head.number}")
        first = min(group, key=lambda p: (p.seats.count("F"), -p.points, p.number))
        rest = sorted((p for p in group if p is not first), key=lambda p: (-p.points, p.number))
        groups.append((first.number, rest[0].number, rest[1].number))
    return groups + [(p.number, None, None) for p in sorted(byes, key=lambda p: p.number)]


def round_robin_groups(count: int) -> list[Group]:
    """A round robin of three-seat games: the entrants in groups of three, by seed in snake order
    (with k groups, group g has seeds g, 2k+1-g and 2k+g), so the groups are alike in strength."""
    if count < 3 or count % 3:
        raise PairingFailed(f"a round robin of three-seat games plays in groups of three: it takes a multiple "
                            f"of three players, not {count}")
    k = count // 3
    return [(g, 2 * k + 1 - g, 2 * k + g) for g in range(1, k + 1)]


def round_robin_of_three(count: int, round_no: int) -> list[Group]:
    """Round ``round_no`` of a round robin of three-seat games: every group of three plays one game a
    round, the seats rotated so that in three rounds each player takes each seat once (a b c, then
    b c a, then c a b: the lone first seat once each, and each pair meets twice as opponents and
    once as partners). A second cycle (rounds 4 to 6) turns the second and third seats round."""
    if not 1 <= round_no <= 6:
        raise PairingFailed(f"a round robin of three-seat games has 3 rounds (6 with a second cycle), not {round_no}")
    turn = (round_no - 1) % 3
    out = []
    for group in round_robin_groups(count):
        a, b, c = group[turn:] + group[:turn]
        out.append((a, c, b) if round_no > 3 else (a, b, c))
    return out


def apply_bids(boards: list[Board], bids: dict[int, tuple[str, int]], first_seat: str) -> list[tuple[Board, int | None, int]]:
    """Side bidding over a round's boards. ``bids``: pairing number -> (seat wanted: "first" or
    "second", what the player would pay). Where the two players of a board want the same seat,
    the higher bid takes it and pays it (an equal bid leaves the board as paired); where they
    want different seats, or only one wants one, each gets his wish at no cost. Returns each
    board (perhaps turned round) with who paid (None) and how much."""
    del first_seat  # the seats are named "first" and "second" here, as on the boards
    out = []
    for first, second in boards:
        if second is None:
            out.append(((first, second), None, 0))
            continue
        a, b = bids.get(first), bids.get(second)
        want_a, want_b = (a[0] if a else None), (b[0] if b else None)
        if want_a and want_b and want_a == want_b:
            if a[1] == b[1]:
                out.append(((first, second), None, 0))
                continue
            winner, loser, price = (first, second, a[1]) if a[1] > b[1] else (second, first, b[1])
            board = (winner, loser) if want_a == "first" else (loser, winner)
            out.append((board, winner, price))
            continue
        if want_a == "second" or want_b == "first":
            out.append(((second, first), None, 0))
        else:
            out.append(((first, second), None, 0))
    return out
