"""The Marengo family's turn report: what it is built from (facts.py: a side's view,
events and decisions, read from a game) and its frame (frame.py: heading, what
happened, decisions, standing orders, orders received, the orders form), which
each game's report fills with its own sections."""

from .facts import NO_DEADLINE, Facts, facts_of, hour_label, natural, opening_facts, side_name
from .frame import ReportFrame, answer

__all__ = ["NO_DEADLINE", "Facts", "ReportFrame", "answer", "facts_of", "hour_label", "natural", "opening_facts",
           "side_name"]
