"""The docs name everything a user can set: every command and option of `pbem` (README.md
or docs/), every server setting (docs/operations.md's settings table), every game setting
(its table of game settings) and every option of every game with its choices."""

import argparse
import dataclasses
import re
from pathlib import Path

from pbem.cli import build_parser
from pbem.server.config import Config

ROOT = Path(__file__).parent.parent
DOCS = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])


def commands(parser, prefix="pbem"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, f"{prefix} {name}")
    yield prefix, parser


def test_every_command_and_option_is_documented():
    missing = []
    for name, parser in commands(build_parser()):
        if name != "pbem" and name not in DOCS:
            missing.append(name)
        for action in parser._actions:
            for flag in action.option_strings:
                if flag.startswith("--") and flag != "--help" and flag not in DOCS:
                    missing.append(f"{name} {flag}")
    assert missing == []


def test_every_setting_is_in_the_settings_table():
    operations = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in operations.splitlines() if line.startswith("| `"))
    named = set(re.findall(r"`([a-z_]+)`", table))
    assert {f.name for f in dataclasses.fields(Config)} - named == set()


def test_the_page_of_commands_is_what_the_parser_says():
    from pbem.cli import commands_markdown

    assert (ROOT / "docs" / "commands.md").read_text(encoding="utf-8") == commands_markdown(), \
        "docs/commands.md is out of date: write it again with pbem.cli.commands_markdown()"


def test_every_game_setting_is_in_the_game_settings_table():
    from pbem.server.deadlines import DEFAULTS

    operations = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in operations.splitlines() if line.startswith("| "))
    named = set(re.findall(r"`([a-z_]+)(?: = [^`]*)?`", table))
    assert set(DEFAULTS) - named == set()


def test_every_game_option_and_its_choices_are_documented():
    from pbem.games import rulesets

    missing = []
    for game, rules in rulesets().items():
        for option in rules.options():
            for choice in option.choices:
                if f"`{option.name} = {choice}`" not in DOCS and not (
                        choice == option.default and f"`{option.name}`" in DOCS):
                    missing.append(f"{game}: {option.name} = {choice}")
    assert missing == []
