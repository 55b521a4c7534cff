"""pbem: a play-by-email and web turn server for Napoleonic block wargames."""

__version__ = "0.1.0"
