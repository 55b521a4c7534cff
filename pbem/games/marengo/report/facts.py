"""What a Marengo report is built from: the family's Facts (pbem.games.simmons.report.facts),
and the rule numbers Marengo's report and orders form quote."""

from __future__ import annotations

from pbem.games.simmons.report.facts import NO_DEADLINE, Facts, hour_label, natural, side_name  # noqa: F401

COMMAND_LIMIT = 3  # 003 §8, "la limite de commandement"
ROAD_CAPACITY = 3  # 003 §8: three blocks may cross one approach along one road in a turn
ROAD_ENTRIES = 3  # blocks that may enter by one road entry point in a day (003 §8, rules notes V4)
