"""Couriers («Затем приказ доставляется курьером в штаб подразделения (лично в руки командиру подразделения)»):
a dispatch rides from where its sender is to where its recipient is, turn by turn, and is delivered once.

The text gives no courier speed and no chance of loss (DO3, DO4). The defaults come from public kriegsspiel
practice (../game-facts.md): a galloping rider, 10" a turn, which is also the text's move for «Штаб и прочее»
(10"); at least one turn on the road; none lost unless the scenario says so (the envoy tool's preset loses
about 2%, a scenario may set ``loss`` to 2).

    post = Post(speed=100, loss=0)             # tenths of an inch a turn; percent lost
    post.send(order, turn=3, start=(200, 100))   # where the sender is when he writes it
    post.ride(4, where, chance)                  # each turn: every courier rides; the deliveries of the turn

``where(commander_id)`` is the recipient's position now (tenths), or None when he is gone (dead, taken): a
courier rides towards where the recipient is each turn, so a moving commander is caught up with. A courier
rides in a straight line (no terrain, no enemy; DO3). Every die goes through ``chance`` and is recorded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .elements import in_inches
from .orders import Order
from .lang import Text, term
from .lang import say as T  # a Text: read in each seat's language

SPEED = 100  # tenths of an inch a turn (10")
LOSS = 0  # percent of dispatches lost
RIDING, DELIVERED, LOST = "riding", "delivered", "lost"


class CourierError(ValueError):
    """A courier handled against the rules of the post (delivered twice, sent from nowhere)."""


@dataclass
class Courier:
    """One dispatch on its way: ``seq`` numbers it in the game; ``x``, ``y`` is where the rider is (tenths)."""

    seq: int
    order: Order
    sent: int  # the turn it set out
    x: int
    y: int
    status: str = RIDING
    delivered: int | None = None  # the turn it was delivered (or lost)
    ridden: int = 0  # tenths ridden so far

    @property
    def recipient(self) -> str:
        return self.order.recipient.id

    @property
    def sender(self) -> str:
        return self.order.sender.id

    @property
    def text(self) -> str:
        """One line for a report: the dispatch, and where it is."""
        head = f"dispatch {self.seq}, {self.order.sender.name} to {self.order.recipient.name}, sent turn {self.sent}"
        if self.status == RIDING:
            return f"{head}: on the road ({self.ridden / 10:g}\" ridden)"
        return f"{head}: {self.status} on turn {self.delivered}"

    @property
    def said(self) -> Text:
        """:attr:`text` read in each language."""
        head = T("dispatch %(seq)s, %(sender)s to %(recipient)s, sent turn %(sent)s", seq=self.seq,
                 sender=term(self.order.sender.name), recipient=term(self.order.recipient.name), sent=self.sent)
        if self.status == RIDING:
            return T("%(head)s: on the road (%(inches)s\" ridden)", head=head, inches=in_inches(self.ridden))
        return T("%(head)s: %(status)s on turn %(turn)s", head=head, status=term(self.status), turn=self.delivered)

    def to_dict(self) -> dict:
        return {"seq": self.seq, "order": self.order.to_dict(), "sent": self.sent, "x": self.x, "y": self.y,
                "status": self.status, "delivered": self.delivered, "ridden": self.ridden}

    @classmethod
    def from_dict(cls, data: dict) -> "Courier":
        return cls(data["seq"], Order.from_dict(data["order"]), data["sent"], data["x"], data["y"], data["status"],
                   data["delivered"], data["ridden"])


def step_towards(x: int, y: int, tx: int, ty: int, reach: int) -> tuple[int, int, int, bool]:
    """From (x, y) towards (tx, ty) at most ``reach`` tenths: (x, y, tenths gone, arrived). Whole tenths, the
    same on every machine (a square root is correctly rounded in IEEE arithmetic)."""
    dx, dy = tx - x, ty - y
    d2 = dx * dx + dy * dy
    if d2 <= reach * reach:
        return tx, ty, math.isqrt(d2) + (0 if math.isqrt(d2) ** 2 == d2 else 1), True
    d = math.sqrt(d2)
    return x + round(dx * reach / d), y + round(dy * reach / d), reach, False


def ride_one(rider, target, speed: int, loss: int, chance, who: str) -> str | None:
    """One turn's ride of a courier or a report (``rider``: x, y, ridden) towards ``target``, its recipient's
    position (None: he is gone, and the rider with him): LOST, DELIVERED on arriving (or LOST on the post's roll of
    ``loss`` or less on a d100, named after ``who``), or None while it is still on the road."""
    if target is None:
        return LOST
    rider.x, rider.y, gone, arrived = step_towards(rider.x, rider.y, int(target[0]), int(target[1]), speed)
    rider.ridden += gone
    if not arrived:
        return None
    if loss and chance.roll(f"{who}: lost on a roll of {loss} or less", sides=100) <= loss:
        return LOST
    return DELIVERED


def end(rider, status: str, turn: int) -> None:
    """A courier or a report delivered or lost on ``turn``: once."""
    if rider.status != RIDING:
        raise CourierError(f"{type(rider).__name__.lower()} {rider.seq} was already {rider.status} on turn "
                           f"{rider.delivered}")
    rider.status, rider.delivered = status, turn


@dataclass
class Post:
    """Every courier of a game (both sides), plain data saved with the game's state."""

    speed: int = SPEED
    loss: int = LOSS
    couriers: list[Courier] = field(default_factory=list)

    def __post_init__(self):
        if self.speed <= 0:
            raise CourierError(f"a courier's speed must be more than 0 (tenths of an inch a turn), not {self.speed}")
        if not 0 <= self.loss <= 100:
            raise CourierError(f"the chance of losing a dispatch is a percent from 0 to 100, not {self.loss}")

    def send(self, order: Order, turn: int, start: tuple[int, int]) -> Courier:
        """A courier sets out on ``turn`` with ``order`` from ``start`` (the sender's position, tenths)."""
        if order.initiative:
            raise CourierError("an initiative order is the commander's own: it needs no courier")
        if start is None:
            raise CourierError(f"{order.sender.name} is not on the table: he cannot send a courier")
        courier = Courier(len(self.couriers) + 1, order, turn, int(start[0]), int(start[1]))
        self.couriers.append(courier)
        return courier

    def ride(self, turn: int, where, chance) -> list[Courier]:
        """Every courier that set out before ``turn`` rides one turn towards its recipient; those that reach
        him are delivered (or, with a chance of loss, may be lost on arriving). Returns the couriers delivered
        on ``turn``, each delivered once, in the order they were sent."""
        delivered = []
        for courier in self.couriers:
            if courier.status != RIDING or courier.sent >= turn:
                continue
            status = ride_one(courier, where(courier.recipient), self.speed, self.loss, chance,
                              f"courier {courier.seq} ({courier.order.sender.name} to {courier.order.recipient.name})")
            if status is not None:
                end(courier, status, turn)
            if status == DELIVERED:
                delivered.append(courier)
        return delivered

    def deliver(self, courier: Courier, turn: int) -> None:
        """Mark ``courier`` delivered on ``turn`` (a moderator's ruling); a courier is delivered once."""
        end(courier, DELIVERED, turn)

    def riding(self) -> list[Courier]:
        return [c for c in self.couriers if c.status == RIDING]

    def of(self, commander: str) -> list[Courier]:
        """The couriers ``commander`` sent or received (delivered), for his report."""
        return self.seen_by((commander,))

    def seen_by(self, commanders) -> list[Courier]:
        """What the seat of ``commanders`` (ids) knows of the post: the couriers they sent, wherever they are, and
        those delivered to them. Nobody learns of another's courier on the road, nor what it carries."""
        mine = set(commanders)
        return [c for c in self.couriers if c.sender in mine or (c.recipient in mine and c.status == DELIVERED)]

    def check(self) -> list[str]:
        """Self-play's invariant: each courier numbered once, delivered at most once and never before it set
        out; what is wrong, or []."""
        wrong = []
        seqs = [c.seq for c in self.couriers]
        if len(set(seqs)) != len(seqs):
            wrong.append("two couriers share a number")
        for c in self.couriers:
            if c.status not in (RIDING, DELIVERED, LOST):
                wrong.append(f"courier {c.seq} is {c.status!r}")
            if (c.status == RIDING) != (c.delivered is None):
                wrong.append(f"courier {c.seq} is {c.status} with delivery turn {c.delivered}")
            if c.delivered is not None and c.delivered <= c.sent:
                wrong.append(f"courier {c.seq} sent on turn {c.sent} ended on turn {c.delivered}")
        return wrong

    def to_dict(self) -> dict:
        return {"speed": self.speed, "loss": self.loss, "couriers": [c.to_dict() for c in self.couriers]}

    @classmethod
    def from_dict(cls, data: dict) -> "Post":
        return cls(data["speed"], data["loss"], [Courier.from_dict(c) for c in data["couriers"]])
