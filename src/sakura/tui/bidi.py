"""Right-to-left text for a terminal that lays cells out left to right.

A Persian line must be shaped (``arabic-reshaper``: each letter in its joined form), put in
visual order (the Unicode bidi algorithm, UAX #9) and have its mirrored characters mirrored
(rule L4: a ``(`` inside right-to-left text is drawn as ``)``). python-bidi 0.6's
``get_display`` resolves the levels (with bracket pairs and isolates, in Rust) and reorders,
but does not mirror, so ``[1/F]`` came out as ``]F/1[``. Here the levels are taken from
python-bidi and the line is reordered (L1, L2) and mirrored (L4) from them; a test holds the
order to ``get_display``'s.

Order matters: a paragraph is wrapped to the width in logical order first and each line is
put in visual order after, so that its first words stay on its first line; text is joined
(sentences, a list of names) in logical order and shaped once, at the end. :class:`Paragraph`
does both for a widget, at whatever width it is drawn.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Iterable, Iterator

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

# Bidi_Mirroring_Glyph for the mirrored characters a message may hold (BidiMirroring.txt);
# python-bidi's own table, where it has one, covers the rest.
_PAIRS = "()[]{}<>«»‹›⁅⁆⁽⁾₍₎≤≥"
MIRROR: dict[str, str] = {a: b for a, b in zip(_PAIRS[::2], _PAIRS[1::2], strict=True)}
MIRROR.update({b: a for a, b in MIRROR.items()})
try:  # pragma: no branch
    from bidi.mirror import MIRRORED as _MIRRORED

    MIRROR = {**_MIRRORED, **MIRROR}
except ImportError:  # pragma: no cover
    pass

_LEVEL = re.compile(r"Level\(\s*(\d+),?\s*\)")
_RESET_BEFORE = frozenset({"S", "B"})  # L1: whitespace before these, and at the end, resets
_RESETTABLE = frozenset({"WS", "FSI", "LRI", "RLI", "PDI", "BN"})


def levels(line: str) -> list[int]:
    """The resolved embedding level of each character of ``line`` in a right-to-left
    paragraph (odd: right to left), as python-bidi's Rust algorithm resolves them.

    >>> levels("کارت 5")
    [1, 1, 1, 1, 1, 2]
    """
    from bidi import get_display

    debug = str(get_display(line, base_dir="R", debug=True))
    found = [int(n) for n in _LEVEL.findall(debug.split("paragraphs:", 1)[0])]
    by_byte = iter(found)
    out = []
    for ch in line:  # the Rust levels are one a UTF-8 byte
        size = len(ch.encode("utf-8"))
        chunk = [next(by_byte, 1) for _ in range(size)]
        out.append(chunk[0])
    if len(found) != len(line.encode("utf-8")):  # pragma: no cover (another python-bidi)
        return _python_levels(line)
    return out


def _python_levels(line: str) -> list[int]:  # pragma: no cover (python-bidi without Rust)
    from bidi import algorithm

    storage = algorithm.get_empty_storage()
    storage["base_level"], storage["base_dir"] = 1, "R"
    algorithm.get_embedding_levels(line, storage)
    algorithm.explicit_embed_and_overrides(storage)
    algorithm.resolve_weak_types(storage)
    algorithm.resolve_neutral_types(storage, False)
    algorithm.resolve_implicit_levels(storage, False)
    return [int(c["level"]) for c in storage["chars"]]


def _line_levels(line: str, resolved: list[int], base: int = 1) -> list[int]:
    """Rule L1: separators, and whitespace before them or at the end of the line, take the
    paragraph's level."""
    out = list(resolved)
    trailing = True
    for i in range(len(line) - 1, -1, -1):
        kind = unicodedata.bidirectional(line[i])
        if kind in _RESET_BEFORE:
            out[i], trailing = base, True
        elif kind in _RESETTABLE and trailing:
            out[i] = base
        else:
            trailing = False
    return out


def visual(line: str) -> str:
    """One line (no newline) of logical text in the order a left-to-right terminal draws
    it, in a right-to-left paragraph, with the mirrored characters of its right-to-left
    runs mirrored. Not reshaped: see :func:`shape_line`.

    >>> visual("کارت [1] (5)")
    '(5) [1] تراک'
    """
    if not line:
        return line
    level = _line_levels(line, levels(line))
    chars = [MIRROR.get(ch, ch) if lv % 2 else ch for ch, lv in zip(line, level, strict=True)]
    order = list(range(len(chars)))
    lowest_odd = min(lv for lv in level if lv % 2) if any(lv % 2 for lv in level) else max(level) + 1
    for lv in range(max(level), lowest_odd - 1, -1):  # L2: reverse every run at lv or above
        i = 0
        while i < len(order):
            if level[order[i]] >= lv:
                j = i
                while j < len(order) and level[order[j]] >= lv:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return "".join(chars[k] for k in order)


def reshape(text: str) -> str:
    import arabic_reshaper

    return str(arabic_reshaper.reshape(text))


ISOLATES = str.maketrans("", "", "\u2066\u2067\u2068\u2069")  # LRI RLI FSI PDI


def drawn(line: str) -> str:
    """A line in visual order without its isolates: they did their work in the ordering
    (LRI 1-5 PDI keeps a key range left to right in a Persian sentence, where a number after
    Persian words would read ``5-1``) and a terminal need not draw them."""
    return line.translate(ISOLATES)


def shape_line(line: str) -> str:
    """A finished line of right-to-left text, shaped and in visual order."""
    return drawn(visual(reshape(line)))


def wrap(text: str, width: int) -> list[str]:
    """``text`` (logical order, ``\\n`` between lines) cut into lines of at most ``width``
    cells at spaces, in logical order; a line's leading spaces (an indented award) stay.

    >>> wrap("one two three\\n  four", 8)
    ['one two', 'three', '  four']
    """
    out: list[str] = []
    for line in text.split("\n"):  # textwrap keeps a paragraph's leading spaces
        out.extend(textwrap.wrap(line, max(1, width), break_on_hyphens=False) or [""])
    return out


def shape_wrapped(text: str, width: int) -> list[str]:
    """A paragraph of logical right-to-left text as terminal lines of at most ``width``
    cells: reshaped, wrapped in logical order, then each line put in visual order."""
    return [drawn(visual(line)) for line in wrap(reshape(text), width)]


class Paragraph:
    """A Rich renderable of logical text, drawn at the width it is given: in a
    right-to-left language wrapped first and put in visual order line by line (aligned
    right, where its reader starts); otherwise plain wrapped text."""

    def __init__(self, text: str, style: str = "", *, rtl: bool, justify: str | None = None) -> None:
        self.text, self.style, self.rtl = text, style, rtl
        self.justify = justify or ("right" if rtl else "left")

    def __repr__(self) -> str:
        return f"Paragraph({self.text!r}, {self.style!r}, rtl={self.rtl})"

    def lines(self, width: int) -> list[str]:
        return shape_wrapped(self.text, width) if self.rtl else self.text.split("\n")

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not self.rtl:
            yield Text(self.text, style=self.style, justify=self.justify)  # type: ignore[arg-type]
            return
        yield Text(
            "\n".join(self.lines(options.max_width)),
            style=self.style,
            justify=self.justify,  # type: ignore[arg-type]
            no_wrap=True,
            overflow="crop",
        )

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, Text(reshape(self.text) if self.rtl else self.text))


def paragraphs(lines: Iterable[tuple[str, str]], *, rtl: bool) -> Iterator[Paragraph]:
    for text, style in lines:
        yield Paragraph(text, style, rtl=rtl)
