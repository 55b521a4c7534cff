"""Every table of the pages scrolls sideways when it is wider than the screen (pbem.css gives tables
``display: block; overflow-x: auto``), so each must take the keyboard's focus and have a name: axe's
scrollable-region-focusable fails a table only when it overflows, which depends on the fonts of the machine
(CI's overflowed /leagues/1 at 375 px where this machine's did not). This checks every template, whatever
its content's width."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_every_table_of_a_page_is_focusable_and_named():
    tables = [(path.name, tag) for path in sorted(TEMPLATES.glob("*.html"))
              for tag in re.findall(r"<table\b[^>]*>", path.read_text(encoding="utf-8"))]
    assert len(tables) > 10, "the templates' tables were not found"
    wrong = [(name, tag) for name, tag in tables
             if 'tabindex="0"' not in tag or not re.search(r'aria-label(ledby)?="[^"]+"', tag)]
    assert not wrong, wrong
