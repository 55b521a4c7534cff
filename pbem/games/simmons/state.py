"""What both Marengo-family positions share: a block's place (on the map, in a locale's
reserve or on an approach) and a state's plain-data form and digest. Each game's
state.py holds its own Block and State dataclasses (Marengo's with an index of
where blocks are, Triomphe's with discs and disorganisation) and mixes these in."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from pbem.core import digest as digests


class Placed:
    """Mixed into a Block (fields ``status``, ``locale``, ``facing``)."""

    @property
    def on_map(self) -> bool:
        return self.status == "map"

    def where(self) -> tuple[str | None, str | None]:
        return (self.locale, self.facing)


@dataclass
class Piece(Placed):
    """What every block is: its id, side, name, type and strength, and where it is.
    Each game's Block adds its own fields after these."""

    id: str
    side: str
    name: str
    type: str  # infantry, cavalry, artillery
    strength: int
    locale: str | None = None  # None while off the map (waiting, or eliminated)
    facing: str | None = None  # None: in the reserve; else the locale its approach faces
    status: str = "map"  # "map", "waiting" (not yet entered), "eliminated"


class Saved:
    """Mixed into a State dataclass whose ``blocks`` are ``BLOCK`` dataclasses: the plain data
    the log and the export hold, read back, and the digest that pins a position."""

    BLOCK: type = object  # the game's Block

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict):
        data = dict(data)
        data["blocks"] = {k: cls.BLOCK(**{**v, "entries": tuple(v.get("entries", ())),
                                          "bombard_days": tuple(v.get("bombard_days", ()))})
                          for k, v in data["blocks"].items()}
        return cls(**data)

    def digest(self) -> str:
        """SHA-256 of ``to_dict()`` as sorted JSON (its first 16 hex digits), without the copy."""
        return digests.digest(self)
