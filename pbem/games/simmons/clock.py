"""The Marengo family's clock: the hours of the printed time track, written and read."""

from __future__ import annotations

import re

from pbem.lang import Text


def hour_label(hour: int) -> str:
    """6 -> '6AM', 12 -> '12PM', 13 -> '1PM' (the printed time track)."""
    suffix = "AM" if hour < 12 else "PM"
    return f"{hour % 12 or 12}{suffix}"


_NATIVE_HOUR = re.compile(r"(\d{1,2})(?:H|Ч|时|点)(?:00)?")


def parse_hour(text: str) -> int:
    """'7AM', '7:00 AM', '1PM', '13' or '13:00' -> 24 h hour, and the hour as each language writes it
    (:class:`Clock`: '13 h', '13h00', '13 ч', '13时', '13点'); ValueError otherwise."""
    t = str(text).strip().upper().replace(" ", "").replace(".", "")
    native = _NATIVE_HOUR.fullmatch(t)
    if native:
        t = native.group(1)
    suffix = ""
    if t.endswith(("AM", "PM")):
        t, suffix = t[:-2], t[-2:]
    if t.endswith(":00"):
        t = t[:-3]
    if not t.isdigit():
        raise ValueError(f"{text!r} is not an hour (write it like 7AM or 1PM)")
    h = int(t)
    if suffix:
        if not 1 <= h <= 12:
            raise ValueError(f"{text!r} is not an hour")
        h = h % 12 + (12 if suffix == "PM" else 0)
    if not 0 <= h <= 23:
        raise ValueError(f"{text!r} is not an hour")
    return h


class Clock(Text):
    """An hour of the time track, read as each language writes it: 7AM in English, "%(hour)d:00"
    from the catalog in the others."""

    def __init__(self, hour: int):
        super().__init__("%(hour)d:00", {"hour": hour})

    def read_in(self, tongue) -> str:
        return hour_label(self.values["hour"]) if tongue.lang == "en" else super().read_in(tongue)
