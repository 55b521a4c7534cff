"""Where pbem finds its data files."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"
TEMPLATES = ROOT / "templates"
