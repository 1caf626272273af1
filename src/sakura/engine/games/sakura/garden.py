"""The Emperor's garden: spaces from the gate, read from data, laid out for a player count.

>>> g = default_layout().for_players(4)
>>> g.torii, g.sakuras, g.last_space
(4, (11, 21, 33), 33)
>>> g = default_layout().for_players(6)
>>> g.torii, g.sakuras
(6, (13, 25, 41))
>>> g.spaces[:8]
'G..BBBT.'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TypeVar

from sakura.engine.errors import InvalidDataError

_T = TypeVar("_T")

GATE, PATH, BRIDGE, TORII, SAKURA = "G", ".", "B", "T", "S"


@dataclass(frozen=True, slots=True)
class Garden:
    """The garden for one player count. ``spaces[i]`` is the symbol of space ``i``."""

    spaces: str
    bridge_length: int
    awards: tuple[int, ...]
    last_awards: tuple[int, ...]

    @property
    def torii(self) -> int:
        return self.spaces.index(TORII)

    @property
    def sakuras(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.spaces) if s == SAKURA)

    @property
    def last_space(self) -> int:
        return len(self.spaces) - 1

    def bridges(self) -> tuple[tuple[int, ...], ...]:
        """The spaces of each bridge, in order from the gate."""
        cells = [i for i, s in enumerate(self.spaces) if s == BRIDGE]
        k = self.bridge_length
        return tuple(tuple(cells[i : i + k]) for i in range(0, len(cells), k))


@dataclass(frozen=True, slots=True)
class GardenLayout:
    """The garden as printed: symbols, bridge lengths and awards by player-count range."""

    path: str
    bridge_lengths: tuple[tuple[int, int, int], ...]
    awards: tuple[tuple[int, int, tuple[int, ...]], ...]
    last_first_award: int

    def for_players(self, players: int) -> Garden:
        """The garden for ``players`` painters' players (the court painter is not counted)."""
        length = _lookup(self.bridge_lengths, players, "bridge")
        spaces = "".join(BRIDGE * length if s == BRIDGE else s for s in self.path)
        awards: tuple[int, ...] = _lookup(self.awards, players, "awards")
        last = (self.last_first_award, *awards[1:])
        return Garden(spaces, length, awards, last)

    def text(self) -> str:
        """The data-file form; ``parse_layout(layout.text()) == layout``."""
        lines = ["path: " + " ".join(self.path)]
        lines += [f"bridge {lo}-{hi}: {n}" for lo, hi, n in self.bridge_lengths]
        lines += [f"awards {lo}-{hi}: " + " ".join(map(str, a)) for lo, hi, a in self.awards]
        lines.append(f"last sakura first award: {self.last_first_award}")
        return "\n".join(lines) + "\n"


def _lookup(table: tuple[tuple[int, int, _T], ...], players: int, what: str) -> _T:
    for lo, hi, value in table:
        if lo <= players <= hi:
            return value
    raise InvalidDataError(f"the garden has no {what} line for {players} players")


def _range(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)


def parse_layout(text: str, source: str = "garden") -> GardenLayout:
    """Read a garden file (see ``data/garden.txt``); errors name ``source`` (the file) and the line."""
    path = ""
    bridges: list[tuple[int, int, int]] = []
    awards: list[tuple[int, int, tuple[int, ...]]] = []
    last = 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise InvalidDataError(f"{source} line {lineno}: expected 'key: value', got {raw.strip()!r}")
        key, value = key.strip(), value.strip()
        try:
            if key == "path":
                path = "".join(value.split())
            elif key.startswith("bridge "):
                lo, hi = _range(key[7:].strip())
                if int(value) < 1:
                    raise ValueError("a bridge is at least one space long")
                bridges.append((lo, hi, int(value)))
            elif key.startswith("awards "):
                lo, hi = _range(key[7:].strip())
                values = tuple(int(v) for v in value.split())
                if not values or min(values) < 0:
                    raise ValueError("an awards line lists one or more awards, none negative")
                awards.append((lo, hi, values))
            elif key == "last sakura first award":
                last = int(value)
            else:
                raise InvalidDataError(f"unknown key {key!r}")
        except ValueError as exc:
            raise InvalidDataError(f"{source} line {lineno}: {raw.strip()!r}: {exc}") from None
    _check_path(path)
    if not bridges or not awards:
        raise InvalidDataError("the garden needs bridge and awards lines")
    return GardenLayout(path, tuple(bridges), tuple(awards), last or awards[0][2][0])


def _check_path(path: str) -> None:
    if not path or set(path) - {GATE, PATH, BRIDGE, TORII, SAKURA}:
        raise InvalidDataError("the path is made of the symbols G . B T S")
    if path[0] != GATE or path.count(GATE) != 1:
        raise InvalidDataError("the path starts with the gate, and has only one")
    if path.count(TORII) != 1 or path.index(TORII) < 1:
        raise InvalidDataError("the path has exactly one torii, beyond the gate")
    if SAKURA not in path or path[-1] != SAKURA or path.index(SAKURA) < path.index(TORII):
        raise InvalidDataError("the path ends at the last sakura, and every sakura lies beyond the torii")


@cache
def default_layout() -> GardenLayout:
    """The garden of the published game."""
    text = resources.files(__package__).joinpath("data/garden.txt").read_text(encoding="utf-8")
    return parse_layout(text)
