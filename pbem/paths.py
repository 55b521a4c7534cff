"""Where pbem finds its data files: maps and scenarios, page templates, the style sheet.

In a source checkout (or an editable install) they are the folders beside the
package; a plain ``pip install .`` puts them under ``<prefix>/share/pbem``
(pyproject.toml's data-files), and pbem reads them there.
"""

import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent
INSTALLED = Path(sys.prefix) / "share" / "pbem"
ROOT = SOURCE if (SOURCE / "maps").is_dir() else INSTALLED
MAPS = ROOT / "maps"
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
