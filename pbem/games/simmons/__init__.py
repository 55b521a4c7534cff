"""The Marengo family: what Bonaparte at Marengo and Triomphe à Marengo share.

Both games by Bowen Simmons are played on the same map system: locales, their
approaches, roads through them, entry points, hidden blocks. This package
holds that system once (the map format and board, and, as the second game
lands, the drawing and the parts of the order language and the report they
share); each game's own package adds only its rules.
"""
