"""Names that only look alike: which are refused, and the form they are compared in.

A person reads a name, not its code points: ``Аda67985`` with a Cyrillic ``А`` next to the
account ``ada67985`` is the same name to everyone who sees it, and a trailing zero-width joiner
makes a second "Ada" that is invisible as such. Three rules, from Unicode's security mechanisms
(UTS #39) and the joiner rules of IDNA (RFC 5892, CONTEXTJ):

* **One script a word** (:func:`mixed_script_word`): a word may mix a script with the common
  characters (digits, ``_``, ``.``) and the inherited ones (combining marks), and Han with the
  Japanese kana or Hangul or Bopomofo (UTS #39's "highly restrictive" sets), but not Latin with
  Cyrillic: that mix is what look-alikes are made of and no language writes it.
* **Joiners only where a script needs them** (:func:`bad_joiner`): Persian's zero-width
  non-joiner between two letters of a joining script (نگار‌ها), either joiner after a virama
  (Indic conjuncts); anywhere else (a trailing ZWJ, a ZWJ in Latin) it only hides a difference.
* **Unique after folding** (:func:`fold`): case-folded (NFKC), each character replaced by one
  representative of its class of confusables, joiners dropped. Two names whose folds are equal
  look alike: an account's username must not fold like another's, a seat's name not like
  another seat's at the same table.

The confusables come from ``confusable_homoglyphs``, which packages Unicode's own data
(``confusables.txt`` and the script of each code point) and is updated with it; it was chosen
over ``precis-i18n`` because PRECIS profiles refuse what is unsafe in protocols (and would take
spaces and most symbols out of display names) but say nothing about two names that look alike,
which is the hole here. Its classes are joined transitively here (so ``l``, ``1`` and ``I`` are one),
stricter than UTS #39's skeletons, which suits a uniqueness check: a person may have to pick
another name, nobody can pass for another. Not caught: look-alikes of several characters
(``rn`` and ``m``) and two scripts' letters that the data does not list as confusable.

>>> fold("Аda67985") == fold("ada67985"), fold("ADA") == fold("ada"), fold("Ada") == fold("Bob")
(True, True, False)
>>> mixed_script_word("Аda67985"), mixed_script_word("José"), mixed_script_word("نگار\u200cها")
(True, False, False)
>>> bad_joiner("Ada\u200d"), bad_joiner("نگار\u200cها")
(True, False)
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata

from confusable_homoglyphs import categories, confusables

_NEUTRAL = {"COMMON", "INHERITED"}
# Scripts one word may mix (UTS #39, highly restrictive): Han with the kana, Hangul or Bopomofo
_TOGETHER = (
    {"HAN", "HIRAGANA", "KATAKANA", "LATIN"},
    {"HAN", "HANGUL", "LATIN"},
    {"HAN", "BOPOMOFO", "LATIN"},
)
ZWNJ, ZWJ = "\u200c", "\u200d"
_VIRAMA = 9  # the canonical combining class of a virama
_JOINING = {"ARABIC", "SYRIAC", "NKO", "MONGOLIAN", "MANDAIC", "ADLAM", "HANIFI_ROHINGYA"}


def mixed_script_word(name: str) -> bool:
    """True when one word of ``name`` mixes scripts no language writes together."""
    for word in name.split():
        scripts = categories.unique_aliases(word) - _NEUTRAL
        if len(scripts) > 1 and not any(scripts <= allowed for allowed in _TOGETHER):
            return True
    return False


def bad_joiner(name: str) -> bool:
    """True when a zero-width joiner or non-joiner stands where no script needs it."""
    for i, ch in enumerate(name):
        if ch not in (ZWNJ, ZWJ):
            continue
        before = name[i - 1] if i > 0 else ""
        after = name[i + 1] if i + 1 < len(name) else ""
        if before and unicodedata.combining(before) == _VIRAMA:
            continue  # a conjunct's joiner (RFC 5892 A.1 and A.2)
        if ch == ZWNJ and _letter_of_joining_script(before) and _letter_of_joining_script(after):
            continue  # between two letters that would join (Persian's "نگار‌ها")
        return True
    return False


def _letter_of_joining_script(ch: str) -> bool:
    return bool(ch) and unicodedata.category(ch).startswith("L") and categories.alias(ch) in _JOINING


@functools.cache
def _representatives() -> dict[str, str]:
    """Each confusable character's class representative (an ASCII one when the class has one,
    else its smallest code point): the confusables' pairs joined into classes."""
    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        while parent.get(ch, ch) != ch:
            parent[ch] = parent.get(parent[ch], parent[ch])
            ch = parent[ch]
        return ch

    def rank(ch: str) -> tuple[bool, int]:
        return (not ch.isascii(), ord(ch))

    for ch, homoglyphs in confusables.confusables_data.items():
        for glyph in homoglyphs:
            other = glyph["c"].replace("\u200e", "").replace("\u200f", "")  # the data's LRM/RLM
            if len(ch) != 1 or len(other) != 1:
                continue  # several characters for one ("rn" for "m"): not folded here
            a, b = find(ch), find(other)
            if a != b:
                low, high = sorted((a, b), key=rank)
                parent[high] = low
    return {ch: find(ch) for ch in parent}


def fold(name: str) -> str:
    """The form look-alike names share (see the module docstring): a key, at most 64 characters.

    >>> fold("Negar") == fold("NEGAR") != fold("نگار")
    True
    """
    folded = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name).casefold())
    table = _representatives()
    skeleton = "".join(table.get(ch, ch) for ch in folded if ch not in (ZWNJ, ZWJ))
    skeleton = unicodedata.normalize("NFD", skeleton)
    if len(skeleton) <= 64:
        return skeleton
    return hashlib.sha256(skeleton.encode()).hexdigest()  # a long name's key: the same length
