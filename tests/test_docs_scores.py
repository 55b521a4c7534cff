"""docs/testing.md's table of the last mutation scores says what the groups in pyproject.toml hold.

A scripted edit once wrote the visibility rows between every character of docs/testing.md (15 MB): the table
then held each row 38,208 times, and nothing failed. Here each row of the "Last scores" table is one module
(or one narrowed part of one) of the group it names, no row appears twice, and every module of those groups
has its row.
"""
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE_HEAD = "| group | module | mutants | killed | survived | no tests | not run | score |"


def last_scores() -> list[tuple[str, str]]:
    """(group, module cell) of each row of the "Last scores" table."""
    lines = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(TABLE_HEAD) + 2  # past the head and its |---| line
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows.append((cells[0], cells[1]))
    return rows


def groups() -> dict[str, list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pbem-mutation"]
    return {name: spec["modules"] for name, spec in config.items()}


def test_the_table_holds_each_row_once():
    rows = last_scores()
    assert rows, "docs/testing.md has no Last scores table"
    repeated = sorted({row for row in rows if rows.count(row) > 1})
    assert not repeated, f"rows written more than once: {repeated}"


def test_each_row_names_a_module_of_its_group_and_each_module_has_a_row():
    known = groups()
    rows = last_scores()
    for group, cell in rows:
        assert group in known, f"a row of a group pyproject.toml does not have: {group}"
        module = cell.split("`")[1]
        assert module in known[group], f"{group}'s row names {module}, not one of its modules"
    for group in {group for group, _cell in rows}:
        shown = {cell.split("`")[1] for g, cell in rows if g == group}
        missing = [module for module in known[group] if module not in shown]
        assert not missing, f"the {group} group's modules without a row in docs/testing.md: {missing}"
