"""Suspected URNs whose ``urn:`` is written with fullwidth forms.

An input method for Chinese, Japanese or Korean types ASCII's letters,
digits and punctuation as their fullwidth forms (U+FF01-U+FF5E: each is its
ASCII character + 0xFEE0), so a URN in such text can read ``ｕｒｎ：ｉｓｂｎ：…``
or ``URN：ISBN:…``.  It is no URN (RFC 8141 section 2: ASCII only), but a
reader sees one: namespaces.md section 3.7 asks for it to be reported as a
suspected URN, never repaired nor merged with the URN it looks like.  The
hit keeps the text as written; its judgement says ``confusable``, with the
ASCII reading in the message (:mod:`urnscan.diagnosis`).

A ``urn:`` in ASCII is the reading rules' (:func:`.reading.read_at`); this
module takes the prefixes that hold at least one fullwidth character.
"""
from __future__ import annotations

import heapq
import re
from typing import Iterator, List, Optional

from ..diagnosis import FULLWIDTH_OFFSET, fullwidth_as_ascii
from ..lazyre import LazyPattern
from .entity import REFERENCE
from .reading import Candidate
from .rules import Rule

_FULLWIDTH_LEAD = (b"\xef\xbc", b"\xef\xbd")  # the first two bytes of U+FF00-U+FF7F in UTF-8
#: where a suspected prefix is looked for: at a fullwidth "u" (U+FF55, U+FF35),
#: and one byte before an ASCII "rn" then a fullwidth colon (U+FF1A), the
#: forms an input method leaves ("ｕｒｎ：", "URN："); a fullwidth colon alone
#: is everywhere in Chinese and Japanese text, a fullwidth "u" is not
_FULLWIDTH_U = (b"\xef\xbd\x95", b"\xef\xbc\xb5")
_RN_FULLWIDTH_COLON = tuple(rn.encode() + b"\xef\xbc\x9a" for rn in ("rn", "RN", "Rn", "rN"))


def _fullwidth(ascii_char: str) -> bytes:
    """The fullwidth form of a printable ASCII character, in UTF-8."""
    return chr(ord(ascii_char) + FULLWIDTH_OFFSET).encode("utf-8")


def _either(ascii_char: str) -> bytes:
    """A regex alternative of an ASCII character (both cases for a letter)
    and its fullwidth forms."""
    forms = {ascii_char.lower(), ascii_char.upper()}
    return b"(?:" + b"|".join(re.escape(f.encode()) + b"|" + re.escape(_fullwidth(f)) for f in sorted(forms)) + b")"


_PREFIX = LazyPattern(_either("u") + _either("r") + _either("n") + _either(":"))
_R_FIRST = (b"r", b"R")
_R_FULLWIDTH = (_fullwidth("r"), _fullwidth("R"))

#: what goes on the name after the prefix: ASCII's URN characters (RFC 8141
#: section 2's pchar, "/", "?", "#") and their fullwidth forms, letters and
#: digits of which stay inside, punctuation only where more of the name follows
_ASCII_NAME = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/%?#")
_FULLWIDTH_NAME = frozenset(_fullwidth(chr(c)) for c in _ASCII_NAME)
#: marks that end a sentence or close a bracket, not a name, at its end
_TRAILING = ".,;:!?)'\""


def _name_char(buf: bytes, i: int, hi: int) -> int:
    """The length of the name character at ``buf[i]``, or 0."""
    b = buf[i]
    if b < 0x80:
        return 1 if b in _ASCII_NAME else 0
    return 3 if i + 3 <= hi and buf[i:i + 3] in _FULLWIDTH_NAME else 0


def _before_is_word(buf: bytes, p: int) -> bool:
    """Whether ``buf[p]`` continues a word: after an ASCII letter or digit,
    or a fullwidth one (namespaces.md §3.8, as for ``urn:``)."""
    if p == 0:
        return False
    if buf[p - 1] < 0x80:
        return chr(buf[p - 1]).isalnum()
    if p >= 3 and buf[p - 3:p - 1] in _FULLWIDTH_LEAD:
        return buf[p - 3:p].decode("utf-8", "replace").isalnum()
    return False


def _occurrences(buf: bytes, mark: bytes, first: int, last: int, shift: int = 0) -> Iterator[int]:
    """Where ``mark`` starts in ``buf``, from ``first`` to ``last``, plus
    ``shift``."""
    at = buf.find(mark, first, last + len(mark))
    while at >= 0:
        yield at + shift
        at = buf.find(mark, at + 1, last + len(mark))


def _prefix_starts(buf: bytes, lo: int, hi: int) -> Iterator[int]:
    """Where a suspected prefix may start in ``buf[lo:hi]``, in order (one
    position never starts both kinds; nothing is held but the next of each)."""
    return heapq.merge(*(_occurrences(buf, mark, lo, hi - 1) for mark in _FULLWIDTH_U),
                       *(_occurrences(buf, mark, lo + 1, hi, -1) for mark in _RN_FULLWIDTH_COLON))


def may_hold_suspects(buf: bytes, lo: int, hi: int) -> bool:
    """Whether a suspected URN may start in ``buf[lo:hi]`` (a fullwidth "u",
    or "rn" and a fullwidth colon).  Most text holds no byte 0xEF at all
    (the lead byte of U+F000-U+FFFF in UTF-8), which one pass of ``memchr``
    tells; the forms themselves are looked for only where it does."""
    at = buf.find(b"\xef", lo, hi + 4)
    if at < 0:
        return False
    return (any(buf.find(mark, at, hi - 1 + len(mark)) >= 0 for mark in _FULLWIDTH_U)
            or any(buf.find(mark, max(lo + 1, at - 2), hi + len(mark)) >= 0 for mark in _RN_FULLWIDTH_COLON))


def suspected_urns(buf: bytes, lo: int, hi: int, cap: int) -> List[Candidate]:
    """The suspected URNs starting in ``buf[lo:hi]`` whose ``urn:`` holds a
    fullwidth character, read at most ``cap`` bytes on (a name runs over
    ASCII's URN characters and their fullwidth forms; the marks that end a
    sentence are trimmed from its end)."""
    if not may_hold_suspects(buf, lo, hi):
        return []
    found: List[Candidate] = []
    end = lo
    for p in _prefix_starts(buf, lo, hi):
        if buf[p] == 0xEF and buf[p + 3:p + 4] not in _R_FIRST and buf[p + 3:p + 6] not in _R_FULLWIDTH:
            continue  # a fullwidth "u" that no "r" follows (a run of them costs a regex call each else)
        m = _PREFIX.match(buf, p)
        if p < end or m is None or m.end() - p == 4 or _before_is_word(buf, p):
            continue  # inside the last one, no prefix, all ASCII (the reading rules'), or inside a word
        limit = min(len(buf), p + cap)
        e = m.end()
        while e < limit:
            width = _name_char(buf, e, limit)
            if not width:
                break
            e += width
        # a character reference ends it (entity.py): none is decoded in one
        reference = REFERENCE.search(buf, m.end(), e)
        if reference is not None:
            e = reference.start()
        text = buf[p:e].decode("utf-8")
        trimmed = _trim(text)
        if len(fullwidth_as_ascii(trimmed)) <= 4:
            continue  # "ｕｒｎ：" and nothing of a name
        end = p + len(trimmed.encode("utf-8"))
        found.append(Candidate(p, end, "bare", False, False, trimmed, text, trimmed, (Rule.SUSPECT_LOOKALIKE,)))
    return found


def _trim(text: str) -> str:
    while text and fullwidth_as_ascii(text[-1]) in _TRAILING:
        text = text[:-1]
    return text


def merge(found: list, suspects: List[Candidate]) -> Optional[list]:
    """``found`` (candidates in buffer order, apart) with the ``suspects``
    (in order) that overlap none of them, in buffer order; None when none is
    added.  One pass over both."""
    out: list = []
    i, n = 0, len(found)
    added = False
    for s in suspects:
        while i < n and found[i][0] < s.start:
            out.append(found[i])
            i += 1
        if (out and out[-1][1] > s.start) or (i < n and found[i][0] < s.end):
            continue  # it overlaps the candidate before or after it
        out.append(s)
        added = True
    if not added:
        return None
    out.extend(found[i:])
    return out
