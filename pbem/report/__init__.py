"""The report document every game's report is written in: headings, paragraphs,
tables and code blocks, rendered to Markdown, plain text and HTML for mail and
the web (``document.py``). Each ruleset composes its own report from these.
"""
