"""Which cases pin which section of a rule book: the tables of docs/rules-coverage/.

Each game's rule book is listed section by section in docs/rules-coverage/<game>.sections.toml (its book's
number, and each section's id and title as the book prints them; a section that holds no rule to test says
why, and a section with a rule that no case pins yet says so with ``todo``). Every case under
tests/cases/<game>/ names in its ``rule`` field the sections it pins: ``rule = "002 §6.34, §7"`` for a book
with numbered sections, ``rule = "004 «Стрельба»"`` for a book whose passages have only headings. The
table docs/rules-coverage/<game>.md is written from these two sources alone (``pbem coverage``), and
tests/test_rules_coverage.py checks that it is current, that every section a case names exists, and that
every section with a rule has a case unless its ``todo`` says it has none yet.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"
DOCS = ROOT / "docs" / "rules-coverage"
GAMES = ("marengo", "triomphe", "napoleon1815", "dba")

_BOOK = re.compile(r"\b(00\d)\b")
_NUMBER = re.compile(r"§\s*(\d+(?:\.\d+)*)")
_HEADING = re.compile(r"«([^»]+)»")


@dataclass
class Section:
    id: str
    title: str
    why: str = ""           # the section holds no rule to test: why
    todo: str = ""          # the section holds a rule that no case pins yet: what is missing
    cases: list[str] = field(default_factory=list)

    @property
    def has_rule(self) -> bool:
        return not self.why


@dataclass
class Coverage:
    game: str
    book: str
    sections: list[Section]
    unknown: list[tuple[str, str]]    # (case file, section it names that the book does not have)
    unnamed: list[str]                # case files whose rule field names no section of the book

    def section(self, ident: str) -> Section | None:
        return next((s for s in self.sections if s.id == ident), None)

    @property
    def gaps(self) -> list[Section]:
        """Sections with a rule and no case."""
        return [s for s in self.sections if s.has_rule and not s.cases]


def _normal(number: str) -> str:
    """A section number as the tables write it: '5.0' and '5' are one section, '6.34' stays."""
    return re.sub(r"(?:\.0)+$", "", number)


def named_sections(rule: str, book: str) -> list[str]:
    """The sections of ``book`` that a case's rule field names.

    The field is read part by part (parts split at ';'); a part that names another book, or follows one
    that did, is not this book's. ``§5, §5.3`` gives ['5', '5.3']; ``«Стрельба», «Бегство»`` gives both
    headings. A part naming no book belongs to the last book named (the field's first book by default).
    """
    found: list[str] = []
    current = None
    for part in rule.split(";"):
        books = _BOOK.findall(part)
        if books:
            current = books[0]
        if current not in (None, book):
            continue
        if current is None and not books:
            continue
        for number in _NUMBER.findall(part):
            found.append(_normal(number))
        for heading in _HEADING.findall(part):
            found.append(heading.strip())
    seen: list[str] = []
    for ident in found:
        if ident not in seen:
            seen.append(ident)
    return seen


def load_sections(game: str, docs: Path = DOCS) -> tuple[str, list[Section]]:
    data = tomllib.loads((docs / f"{game}.sections.toml").read_text(encoding="utf-8"))
    sections = [Section(id=str(s["id"]), title=s["title"], why=s.get("why", ""), todo=s.get("todo", ""))
                for s in data["section"]]
    return data["book"], sections


def coverage(game: str, cases: Path = CASES, docs: Path = DOCS) -> Coverage:
    book, sections = load_sections(game, docs)
    by_id = {s.id: s for s in sections}
    unknown: list[tuple[str, str]] = []
    unnamed: list[str] = []
    for path in sorted((cases / game).glob("*.toml")):
        case = tomllib.loads(path.read_text(encoding="utf-8")).get("case", {})
        names = named_sections(case.get("rule", ""), book)
        if not names:
            unnamed.append(path.name)
        for ident in names:
            if ident in by_id:
                by_id[ident].cases.append(path.name)
            else:
                unknown.append((path.name, ident))
    return Coverage(game, book, sections, unknown, unnamed)


def _label(book: str, section: Section) -> str:
    return f"«{section.id}»" if not section.id[0].isdigit() else f"§{section.id}"


def markdown(cov: Coverage) -> str:
    """The table of docs/rules-coverage/<game>.md."""
    with_rule = [s for s in cov.sections if s.has_rule]
    pinned = [s for s in with_rule if s.cases]
    lines = [
        f"# Rule book {cov.book} ({cov.game}): the cases that pin each section",
        "",
        "Written by `pbem coverage` from each case's `rule` field (tests/cases/"
        f"{cov.game}/) and the book's sections (docs/rules-coverage/{cov.game}.sections.toml);",
        "tests/test_rules_coverage.py checks that it is current. Do not edit it by hand.",
        "",
        f"**{len(pinned)} of {len(with_rule)} sections with a rule are pinned by a case**; "
        f"{len(cov.sections) - len(with_rule)} sections hold no rule to test.",
        "",
        "| section | title | cases |",
        "|---|---|---|",
    ]
    for s in cov.sections:
        if not s.has_rule:
            what = f"no rule to test: {s.why}"
        elif s.cases:
            what = f"{len(s.cases)}: " + ", ".join(
                f"[{name.removesuffix('.toml')}](../../tests/cases/{cov.game}/{name})" for name in s.cases)
        else:
            what = f"**none yet**: {s.todo}" if s.todo else "**none yet**"
        lines.append(f"| {_label(cov.book, s)} | {s.title} | {what} |")
    if cov.unnamed:
        lines += ["", "Cases whose `rule` field names no section of the book:", ""]
        lines += [f"- {name}" for name in cov.unnamed]
    return "\n".join(lines) + "\n"


def write(games=GAMES, cases: Path = CASES, docs: Path = DOCS) -> list[Path]:
    written = []
    for game in games:
        path = docs / f"{game}.md"
        path.write_text(markdown(coverage(game, cases, docs)), encoding="utf-8")
        written.append(path)
    return written


def stale(games=GAMES, cases: Path = CASES, docs: Path = DOCS) -> list[str]:
    """The games whose table differs from what the cases and sections give now."""
    out = []
    for game in games:
        path = docs / f"{game}.md"
        if not path.exists() or path.read_text(encoding="utf-8") != markdown(coverage(game, cases, docs)):
            out.append(game)
    return out
