"""docs/rules.md and the rules scenarios stay in step: every ruling names tests that exist,
every scenario quotes the sentence it checks, and every ruling a test quotes says, word for
word, what the test quotes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULES = HERE.parent.parent / "docs" / "rules.md"
REFERENCE = re.compile(r"`(test_rules_\w+\.py)::(test_\w+)`")
RULING = re.compile(r"^(\d+)\. \*\*", re.MULTILINE)
QUOTE = re.compile(r'Ruling (\d+): "(.*?)"(?=\s*(?:\(|Rulebook|Ruling|$))')


def _plain(text: str) -> str:
    return " ".join(text.replace("`", "").split())


def _rulings() -> dict[int, str]:
    """The numbered rulings of docs/rules.md: number -> text (up to the next one)."""
    text = RULES.read_text(encoding="utf-8").split("\n## Rulings\n", 1)[1]
    starts = list(RULING.finditer(text))
    return {
        int(m.group(1)): text[m.start() : starts[i + 1].start() if i + 1 < len(starts) else len(text)]
        for i, m in enumerate(starts)
    }


def _tests() -> dict[str, dict[str, str]]:
    """Scenario files -> test function name -> docstring."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted(HERE.glob("test_rules_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out[path.name] = {
            node.name: ast.get_docstring(node) or ""
            for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        }
    return out


def test_every_ruling_names_tests_that_exist() -> None:
    """The issue: "each ruling names the test that checks it (file::test name)"."""
    tests = _tests()
    rulings = _rulings()
    assert list(rulings) == list(range(1, len(rulings) + 1)), "rulings are numbered 1, 2, 3, ..."
    for number, text in rulings.items():
        refs = REFERENCE.findall(text)
        assert refs, f"ruling {number} names no test"
        for file, name in refs:
            assert name in tests.get(file, {}), f"ruling {number} names {file}::{name}, which does not exist"


def test_every_scenario_quotes_the_sentence_it_checks() -> None:
    """The issue: "A scenario test for every rule and ruling below, ... each quoting the sentence
    it checks." """
    tests = _tests()
    rulings = _rulings()
    for file, functions in tests.items():
        if file == Path(__file__).name:
            continue
        for name, doc in functions.items():
            assert '"' in doc, f"{file}::{name} quotes no sentence"
            for number, quote in QUOTE.findall(_plain(doc)):
                assert int(number) in rulings, f"{file}::{name} quotes ruling {number}, not in docs/rules.md"
                ruling = _plain(rulings[int(number)])
                for part in quote.split("..."):
                    words = part.strip(" .")
                    assert words in ruling, f"{file}::{name}: ruling {number} does not say {words!r}"
