"""Break opportunities inside a name: where a page lets a long URN break
across lines without a hyphen, it puts an invisible mark between two of
its characters -- HTML's ``<wbr>`` element (HTML Living Standard section
4.5.29), a ZERO WIDTH SPACE (U+200B) or a SOFT HYPHEN (U+00AD, shown only
at a break).  ``urn:ietf:params:xml:ns:<wbr>yang:ietf-interfaces`` is one
name to a reader; the mark stands for nothing in it, as the same
characters written as references do (:mod:`.entity`: ``&shy;``,
``&#8203;``).  The span covers the marks; ``raw`` keeps them.
"""
from __future__ import annotations

import re
from typing import Callable, List, Optional, Tuple

from ..lazyre import LazyPattern

#: the invisible characters a page puts inside a long name where a line
#: may break: SOFT HYPHEN (U+00AD, shown only at a break) and ZERO WIDTH
#: SPACE (U+200B); written as references too (entity.py)
BREAK_CHARACTERS = frozenset((0xAD, 0x200B))
#: ``<wbr>``, ``<wbr/>`` or ``<wbr />`` (any case), or a break character in
#: UTF-8 (what every document is transcoded to)
_BREAK = LazyPattern(b"|".join([rb"<[Ww][Bb][Rr] ?/?>"]
                              + [re.escape(chr(c).encode()) for c in sorted(BREAK_CHARACTERS)]))
_URN_SCHEME = LazyPattern(rb"[Uu][Rr][Nn]:")
#: start and end tags of the phrasing elements that a word processor's
#: HTML wraps around the words its speller or a change of language marks
#: (``<span class=SpellE>``, ``<span lang=EN-US>``, ``</span>``, an
#: older writer's ``<font>``, a bookmark's ``<a name>``, ``<b>``,
#: ``<strong>``, ``<u>``): phrasing content is text, and such tags inside a
#: word leave it one word (HTML Living Standard section 3.2.5.2.5,
#: "Phrasing content"; section 13.1.2.3: attribute values quoted or not).
#: ``<i>``, ``<em>``, ``<var>``, ``<code>`` may set off a placeholder
#: (``urn:isbn:<i>n</i>``), ``<sup>`` a footnote's mark: none of them
_INLINE_TAG = (rb"</?(?:[Ss][Pp][Aa][Nn]|[Ff][Oo][Nn][Tt]|[Aa]|[Bb]|[Ss][Tt][Rr][Oo][Nn][Gg]|[Uu])"
               rb"(?:[ \t\r\n](?:[^<>\"']|\"[^<>\"]*\"|'[^<>']*'){0,%d})?>" % 400)
#: a run of them: at most 8, each at most 400 bytes long
_INLINE_TAG_RUN = b"(?:" + _INLINE_TAG + b"){1,8}"
_INLINE_TAGS = LazyPattern(_INLINE_TAG_RUN)
#: such a run closing a word of a name, the name going on after it with
#: ":" and a letter or digit (``urn:nbn:de:<span class=SpellE>gbv</span>:3:1-114513``):
#: what the fast paths leave to the reading rules
WORD_CLOSED_BEFORE_COLON = _INLINE_TAG_RUN + b":[A-Za-z0-9]"
_WORD_CLOSED = LazyPattern(WORD_CLOSED_BEFORE_COLON)


def over_markup(buf: bytes, e: int, hi: int) -> int:
    """Where the run of inline tags (:data:`_INLINE_TAGS`) at ``e`` ends,
    when the name before it ends in ":" (a word processor splits a name at
    its ":", where its speller's words end: ``urn:ietf:rfc:</span><span
    lang=EN-US>8141``, ``urn:isbn:<span class=GramE>0451450523</span>``)
    or when the name goes on after it with ":" and a letter or digit (the
    speller's word ends there: ``urn:nbn:de:<span class=SpellE>gbv</span>:3:1-114513``);
    -1 elsewhere, and where no such tag follows.  A name that ends in ":",
    or before such a run (:data:`WORD_CLOSED_BEFORE_COLON`), is left to
    the reading rules by the fast paths."""
    if e < 1 or e >= hi or buf[e] != 0x3C:
        return -1
    if buf[e - 1] == 0x3A:
        m = _INLINE_TAGS.match(buf, e, hi)
        return -1 if m is None else m.end()
    m = _WORD_CLOSED.match(buf, e, hi)
    return -1 if m is None else m.end() - 2


def joined_over_breaks(buf: bytes, segments: List[Tuple[int, int]], hi: int, run, max_end: int,
                       cut: Optional[Callable[[bytes, bool], bool]] = None,
                       markup: Optional[List[bool]] = None) -> List[Tuple[int, int]]:
    """``segments`` (a name up to the end of its run) with the run after
    each break opportunity that follows it, as segments of their own;
    ``segments`` itself when none follows.  A mark before another
    ``urn:``, or after which the name would go on past ``max_end``, ends
    the name, as other markup does (a chain of marks past the cap is no
    name a page broke for display).  ``cut(text, question)`` says whether
    the name is cut short inside a piece's text (a "?" before it or not):
    no piece after such a one is joined, as the name ends in it (each
    ``urn:`` of a chain of marks and references read it to the cap).
    Inline tags after a ":" (:func:`over_markup`) are such a mark too
    (but in a URL, where ``markup`` is None); ``markup`` gets True when
    one was joined over."""
    joined = segments
    question = False  # a "?" in the pieces so far

    def cut_inside(a: int, b: int) -> bool:
        nonlocal question
        if cut(buf[a:b], question):
            return True
        question = question or buf.find(b"?", a, b) >= 0
        return False

    if cut is not None:
        for a, b in segments:
            if cut_inside(a, b):
                return segments
    e = segments[-1][1]
    while e < hi:
        mark = _BREAK.match(buf, e, hi)
        tags = -1 if mark is not None or markup is None else over_markup(buf, e, hi)
        if mark is None and tags < 0:
            break
        after = mark.end() if mark is not None else tags
        rest = run.match(buf, after, min(hi, max_end + 1))
        if rest is None or rest.end() == after:
            break  # the mark ends the line or the text: nothing goes on
        if _URN_SCHEME.match(buf, after, rest.end()):
            break  # another name starts after it: a list the page lets break
        if rest.end() > max_end:
            break
        if joined is segments:
            joined = list(segments)  # (a copy, once: a list made anew per mark was quadratic in the marks)
        joined.append((after, rest.end()))
        if tags >= 0:
            markup.append(True)
        e = rest.end()
        if cut is not None and cut_inside(after, e):
            break
    return joined
