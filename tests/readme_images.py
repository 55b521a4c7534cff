"""README's map images: drawn by the `pbem render` commands the README itself gives, and a record
of what was drawn (docs/images/drawn.json: each image's command, the SHA-256 of the SVG it drew
and of the PNG kept). ``scripts/images`` redraws them (and the game page's screenshots);
tests/test_docs_examples.py draws the SVGs again and says when the kept images are out of date.

    python tests/readme_images.py --write     # redraw the maps into docs/images, write drawn.json
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
RECORD = IMAGES / "drawn.json"


def commands() -> dict[str, list[str]]:
    """image name -> the words of the README's `pbem render` command that draws it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    out = {}
    for command in re.findall(r"`(pbem render [^`]+)`", " ".join(readme.split())):
        words = shlex.split(command)
        out[Path(words[words.index("--out") + 1]).name] = words
    return out


def draw(name: str, words: list[str], folder: Path) -> Path:
    """Run the command with its --out moved into ``folder``; returns the .svg written."""
    from pbem.cli import main

    words = list(words)
    words[words.index("--out") + 1] = str(folder / name)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(words[1:]) == 0, f"{shlex.join(words)} failed"
    return folder / f"{name}.svg"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write() -> None:
    record = {}
    for name, words in commands().items():
        svg = draw(name, words, IMAGES)
        record[f"{name}.png"] = {"command": shlex.join(words), "svg_sha256": sha256(svg),
                                 "png_sha256": sha256(IMAGES / f"{name}.png")}
        svg.unlink()  # the PNG is what the README shows; the SVG's digest is kept
        print(f"drew docs/images/{name}.png ({shlex.join(words)})")
    RECORD.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    write()
