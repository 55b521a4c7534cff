"""Triomphe à Marengo's order words in each language (words.toml), which the orders read as the
English ones (pbem.games.simmons.words); its texts' catalogs are still to come (the family's frame
is translated)."""

from __future__ import annotations

from pathlib import Path

from pbem.games.simmons.words import OrderWords

WORDS = OrderWords(Path(__file__).parent / "words.toml")
