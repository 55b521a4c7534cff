"""pbem's own mutation operator (scripts/mutation, OPERATORS): one condition of an `and` dropped.

Issue 31: a hand-made fault, `b.on_map and b.type == "cavalry"` losing `b.on_map` in the
Triomphe assault's step 7, survived the whole suite; mutmut's own operators swap `and` for `or`
and never make it. These tests make mutants with mutmut's own generator, the operator added as
scripts/mutation adds it, and look for that fault among them."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

import libcst as cst
from mutmut.mutation import mutators
from mutmut.mutation.file_mutation import create_mutations

ROOT = Path(__file__).resolve().parent.parent


def _operators() -> str:
    path = ROOT / "scripts" / "mutation"
    loader = importlib.machinery.SourceFileLoader("mutation_script", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("mutation_script", loader))
    loader.exec_module(module)
    return module.OPERATORS


def _mutated(code: str) -> set[str]:
    """The mutated nodes' code of every mutant mutmut makes of ``code``, with pbem's operators."""
    before = list(mutators.mutation_operators)
    try:
        exec(_operators(), {})
        _, mutations, _, _ = create_mutations("x.py", code)
    finally:
        mutators.mutation_operators[:] = before  # mutmut's list as it was, for any other test
    empty = cst.Module([])
    return {empty.code_for_node(m.mutated_node) for m in mutations}


def test_each_condition_of_an_and_is_dropped_once():
    code = "def f(b):\n    return sum(1 for c in b if c.on_map and c.type == 'cavalry')\n"
    mutated = _mutated(code)
    assert "c.type == 'cavalry'" in mutated  # the fault
    assert "c.on_map" in mutated


def test_a_longer_conjunction_and_parentheses():
    mutated = _mutated("def f(a, b, c):\n    return (a and b) and not c\n")
    assert "(a and b)" in mutated and "not c" in mutated
    mutated = _mutated("def f(a, b):\n    return (a and b)\n")
    assert "(a)" in mutated and "(b)" in mutated  # the kept side keeps the parentheses


def test_an_or_is_left_to_mutmut_s_swap():
    mutated = _mutated("def f(a, b):\n    return a or b\n")
    assert "a" not in mutated and "b" not in mutated
    assert "a and b" in mutated


def test_the_operator_is_added_once():
    before = list(mutators.mutation_operators)
    try:
        exec(_operators(), {})
        exec(_operators(), {})
        added = [op for _, op in mutators.mutation_operators if op.__name__ == "operator_drop_condition"]
        assert len(added) == 1
    finally:
        mutators.mutation_operators[:] = before
