"""The report as a document: its parts (headings, paragraphs, lists, tables, code),
rendered to Markdown, to plain text and to HTML, and the Report that carries the three forms."""

from __future__ import annotations

import html as html_lib
import re
import textwrap
from dataclasses import dataclass, field
from functools import cached_property

import markdown as markdown_lib


# -- the result -----------------------------------------------------------------


@dataclass
class Report:
    """One reader's report of one day: the same content in three forms.

    ``html`` is made when first read (it is the slow one), from the Markdown
    the report was built with: changing ``markdown`` afterwards does not change it.
    """

    side: str | None  # None: moderator or spectator
    day: int
    subject: str
    markdown: str
    text: str
    template: str = ""  # the orders template (also inside the report); "" when there is none
    spectator: bool = False
    title: str = ""
    source: str = field(default="", repr=False, compare=False)  # the Markdown ``html`` is made from

    @cached_property
    def html(self) -> str:
        return to_html(self.source or self.markdown, self.title or self.subject)

    def __str__(self) -> str:
        return self.text


# -- the document model: rendered to Markdown and to plain text -------------------


@dataclass
class Heading:
    level: int
    text: str


@dataclass
class Para:
    text: str
    strong: str = ""  # a bold lead-in ("Next:")


@dataclass
class Bullets:
    items: list[str]
    wrap: bool = True  # in plain text; events are not wrapped, one line each


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]


@dataclass
class Code:
    text: str


@dataclass
class Document:
    title: str
    parts: list = field(default_factory=list)

    def add(self, *parts) -> None:
        self.parts.extend(parts)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]])")


def md_escape(text: str) -> str:
    """Text for Markdown: emphasis and link characters escaped, raw HTML defused."""
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return text.replace("&", "&amp;").replace("<", "&lt;")


def md_cell(text: str) -> str:
    return md_escape(text).replace("|", "\\|") or " "


def to_markdown(doc: Document) -> str:
    out = [f"# {md_escape(doc.title)}", ""]
    for part in doc.parts:
        if isinstance(part, Heading):
            out += ["#" * part.level + " " + md_escape(part.text), ""]
        elif isinstance(part, Para):
            lead = f"**{md_escape(part.strong)}** " if part.strong else ""
            out += [lead + md_escape(part.text), ""]
        elif isinstance(part, Bullets):
            out += [f"- {md_escape(item)}" for item in part.items] + [""]
        elif isinstance(part, Table):
            out.append("| " + " | ".join(md_cell(h) for h in part.headers) + " |")
            out.append("|" + "|".join("---" for _ in part.headers) + "|")
            out += ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in part.rows]
            out.append("")
        elif isinstance(part, Code):
            out += ["```text", part.text.rstrip("\n"), "```", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def to_text(doc: Document) -> str:
    """Plain text: underlined headings, aligned tables, the template between cut lines."""
    out = [doc.title, "=" * min(len(doc.title), 78), ""]
    for part in doc.parts:
        if isinstance(part, Heading):
            rule = "-" if part.level <= 2 else "."
            out += [part.text, rule * min(len(part.text), 78), ""]
        elif isinstance(part, Para):
            lead = f"{part.strong} " if part.strong else ""
            out += textwrap.wrap(lead + part.text, 78, break_long_words=False, break_on_hyphens=False) or [""]
            out.append("")
        elif isinstance(part, Bullets):
            for item in part.items:
                if part.wrap:
                    out += textwrap.wrap(f"- {item}", 78, subsequent_indent="  ", break_long_words=False,
                                         break_on_hyphens=False)
                else:
                    out.append(f"- {item}")
            out.append("")
        elif isinstance(part, Table):
            rows = [part.headers] + part.rows
            widths = [max(len(r[i]) for r in rows) for i in range(len(part.headers))]

            def line(row):
                return "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()

            out.append(line(part.headers))
            out.append("  ".join("-" * w for w in widths))
            out += [line(r) for r in part.rows]
            out.append("")
        elif isinstance(part, Code):
            out += ["-------- cut here --------", part.text.rstrip("\n"), "-------- cut here --------", ""]
    return "\n".join(out).rstrip("\n") + "\n"


CSS = """
body { font-family: Georgia, 'Times New Roman', serif; color: #222; background: #fff; }
.report { max-width: 46em; margin: 0 auto; padding: 0.5em 1em; line-height: 1.4; }
h1 { font-size: 1.35em; border-bottom: 2px solid #7a1f1f; padding-bottom: 0.2em; }
h2 { font-size: 1.15em; color: #7a1f1f; margin-top: 1.4em; }
h3 { font-size: 1em; margin-bottom: 0.3em; }
table { border-collapse: collapse; margin: 0.4em 0 1em 0; font-size: 0.92em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #eee6d8; }
pre { background: #f6f3ec; border: 1px solid #ccc; padding: 0.6em; font-size: 0.88em; overflow-x: auto; }
code { font-family: Menlo, Consolas, 'DejaVu Sans Mono', monospace; }
ul { padding-left: 1.4em; }
"""

# inline styles as well, for mail clients that drop <style>
_INLINE = {
    "<table>": '<table style="border-collapse:collapse;margin:0.4em 0 1em 0;font-size:0.92em">',
    "<th>": '<th style="border:1px solid #bbb;padding:0.2em 0.5em;text-align:left;background:#eee6d8">',
    "<td>": '<td style="border:1px solid #bbb;padding:0.2em 0.5em;text-align:left;vertical-align:top">',
    "<pre>": '<pre style="background:#f6f3ec;border:1px solid #ccc;padding:0.6em;font-size:0.88em">',
}


def to_html(md: str, title: str) -> str:
    body = markdown_lib.markdown(md, extensions=["tables", "fenced_code", "sane_lists"], output_format="html")
    for plain, styled in _INLINE.items():
        body = body.replace(plain, styled)
    return (
        "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html_lib.escape(title)}</title>\n<style>{CSS}</style>\n</head>\n"
        "<body>\n<div class=\"report\" style=\"max-width:46em;font-family:Georgia,serif;line-height:1.4\">\n"
        f"{body}\n</div>\n</body>\n</html>\n"
    )

