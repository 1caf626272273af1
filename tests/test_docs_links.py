"""Every relative link of the README and docs/*.md (and the documents they are in: CHANGELOG,
CONTRIBUTING) leads somewhere: the file exists, and a ``#anchor`` is a heading of it, slugged
as GitHub slugs them."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([*ROOT.glob("*.md"), *(ROOT / "docs").glob("*.md")])

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^()\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped (letters,
    numbers, marks, '-' and '_' stay), each space a '-'.

    >>> slug("RL environments: `python benchmarks/rl.py`")
    'rl-environments-python-benchmarksrlpy'
    >>> slug("People: chat relay and the archive (issue 15)")
    'people-chat-relay-and-the-archive-issue-15'
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = re.sub(r"<[^>]+>", "", text).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of ``path``'s headings (a repeated one gets -1, -2 ... as on GitHub)."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    for line in FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        found = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not found:
            continue
        base = slug(found.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def links(path: Path) -> list[str]:
    """The relative targets of ``path``'s links and images (code blocks and spans left out)."""
    text = CODE.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    targets = [m.group(1) for m in LINK.finditer(text)] + [m.group(1) for m in IMAGE.finditer(text)]
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t)]  # not http:, mailto:


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(path: Path) -> None:
    broken = []
    for target in links(path):
        file, _, anchor = target.partition("#")
        goal = (path.parent / unquote(file)).resolve() if file else path
        if not goal.exists():
            broken.append(f"{target}: no such file")
        elif anchor and goal.suffix == ".md" and unquote(anchor) not in anchors(goal):
            broken.append(f"{target}: no heading with the anchor #{anchor} in {goal.name}")
    assert not broken, "\n".join(broken)


def test_the_check_finds_a_broken_anchor(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Speed: `bench.py`\n\n## People {#people}\n", encoding="utf-8")
    assert anchors(tmp_path / "a.md") == {"speed-benchpy", "people-people"}
    (tmp_path / "b.md").write_text(
        "See [a](a.md#speed-benchpy), [p](a.md#people) and `[x](y.md)`.\n", encoding="utf-8"
    )
    assert links(tmp_path / "b.md") == ["a.md#speed-benchpy", "a.md#people"]
