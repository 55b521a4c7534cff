"""The Marengo family: what Bonaparte at Marengo and Triomphe à Marengo share.

Both games by Bowen Simmons are played on the same map system: locales, their
approaches, roads through them, entry points, hidden blocks; and they write
their orders, turns, reports and maps alike. This package holds that once:
the board, clock and sides; the scenario file's common fields; the order
values, the standing orders and the reading of an order text; one side's turn
in progress and its decisions; the road-step ledger; the ranking of retreats;
the view's frame; the self-play invariants; the report frame; the map
drawing; the ruleset members answered alike; the case runner's frame. Each
game's package subclasses or calls these and adds only its own rules
(docs/architecture.md, "The Marengo family package").
"""
