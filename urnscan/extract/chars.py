"""Byte classes and small line helpers shared by the reading rules."""
from __future__ import annotations

import re
from typing import Callable, Optional

from .. import _abnf
from ..accel import COMPILED
from ..lazyre import LazyPattern

#: bytes looked at before a candidate for the rules that read its line
#: (YAML keys, table rows, openers): the streaming scanner keeps them
LOOKBACK = 256
#: "<" and ">" as a page showing text with markup writes them (XML section
#: 4.6: a mail archive's HTML, an RFC's HTML rendering): a 1995 wrapper's
#: brackets, a tag's, a quoted reply's marks
ESCAPED_LT = b"&lt;"
ESCAPED_GT = b"&gt;"
NID_SCAN_LIMIT = 64  # a NID-shaped token longer than this is no NID (max 32)
INDENT_LIMIT = 128  # blanks read at a line start or end

ALPHA = frozenset(_abnf.ALPHA.replace("A-Z", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
                  .replace("a-z", "abcdefghijklmnopqrstuvwxyz").encode())
ALNUM = ALPHA | frozenset(b"0123456789")
#: the marks a sentence may put right after a name (a period, a comma,
#: a closing parenthesis or quote, ...)
SENTENCE_MARKS = b".,;!?)'\""
#: PRODUCT section 1: the character before "urn:" is not a letter, digit,
#: "+", "-" or "." (so "return:" and "x.urn:" never start a candidate)
BOUNDARY_BYTES = ALNUM | frozenset(b"+-.")


def after_subfield_code(buf: bytes, p: int) -> bool:
    """Whether the letter or digit before p is the code of a MARC subfield
    whose delimiter precedes it (ISO 2709's 0x1F, shown as "$" in MARC's
    mnemonic text and as "‡"), so that a "urn:" at p starts the subfield's
    value: ``\x1faurn:nbn:de:...``, ``=024  7\\$aurn:nbn:de:...``."""
    return p >= 2 and (buf[p - 2] in _DELIMITERS or (p >= 4 and buf[p - 4:p - 1] == _DOUBLE_DAGGER))


def after_font_change(buf: bytes, p: int) -> bool:
    """Whether the letter or digit before p names the font of a roff font
    change (groff(7): ``\\fF``, ``\\f(FF``), so that a "urn:" at p starts
    the text set in it: ``\\fIurn:ietf:rfc:2141\\fR``, ``\\f(CWurn:x:y``."""
    return ((p >= 3 and buf[p - 3] == 0x5C and buf[p - 2] == 0x66)
            or (p >= 5 and buf[p - 5] == 0x5C and buf[p - 4] == 0x66 and buf[p - 3] == 0x28))


#: the one-letter escapes of a string literal that stand for a blank or a
#: line break (JSON, RFC 8259 section 7; C; JavaScript; Python; Java)
_BLANK_ESCAPES = frozenset(b"nrtfv")
_HEX_DIGITS = frozenset(b"0123456789ABCDEFabcdef")
#: what stands between a backslash and two hex digits: "x" (C, Python),
#: "'" (RTF)
_HEX_MARKS = frozenset(b"x'")


def after_escape(buf: bytes, p: int) -> bool:
    r"""Whether the letter or digit before p ends an escape of a string
    literal -- ``\n``, ``\t``, ``\r``, ``\f``, ``\v``, ``\uXXXX``
    (JSON, RFC 8259 section 7: ``"\u003curn:...\u003e"`` as Go's encoder
    writes a "<") or ``\xXX`` -- or RTF's ``\'hh``, a character of the
    document's code page by its value (RTF 1.9.1, "Special characters":
    ``\'84urn:...\'93`` is a German quote, ``\'ab\'a0urn:`` a French one
    with its no-break space, ``\'81\'75urn:`` Shift_JIS's "「") -- whose
    backslash is not itself escaped, so that a "urn:" at p starts a word of
    the string's text: ``"See\nurn:ietf:rfc:2141"``."""
    if p >= 2 and buf[p - 2] == 0x5C and buf[p - 1] in _BLANK_ESCAPES:
        at = p - 2
    elif p >= 6 and buf[p - 6] == 0x5C and buf[p - 5] == 0x75 and all(c in _HEX_DIGITS for c in buf[p - 4:p]):
        at = p - 6
    elif p >= 4 and buf[p - 4] == 0x5C and buf[p - 3] in _HEX_MARKS and all(c in _HEX_DIGITS for c in buf[p - 2:p]):
        at = p - 4
    else:
        return False
    return at == 0 or buf[at - 1] != 0x5C


def after_percent(buf: bytes, p: int) -> bool:
    """Whether a URL's percent-encoding (RFC 3986 section 2.1: ``%XX``)
    ends right before p: an encoded space, quote or bracket before a
    ``urn:`` written as it is (``scope=openid%20urn:...``,
    ``q=asset==%22urn:ngsi-ld:Building:1%22``)."""
    return p >= 3 and buf[p - 3] == 0x25 and buf[p - 2] in _HEX_DIGITS and buf[p - 1] in _HEX_DIGITS


#: how long a run of bytes 0x80-0xFF :func:`after_double_byte` reads back
#: (it and the byte before it are inside the LOOKBACK kept before "urn:")
DOUBLE_BYTE_REACH = LOOKBACK - 2


def after_double_byte(buf: bytes, p: int) -> bool:
    """Whether the letter or digit before p is the second byte of a
    double-byte character of Shift_JIS, Big5, GBK or Unified Hangul Code
    (their second bytes include 0x40-0x7E: Shift_JIS's "「" is 0x81 0x75,
    "、" 0x81 0x41, "：" 0x81 0x46; Big5's "「" 0xA1 0x75), so that a "urn:"
    at p follows a character of a script written without spaces, not a
    letter of a word: ``「urn:isbn:...」``.  It is so when the bytes 0x80-0xFF
    just before it are an odd number (such a run starts at a character's
    start, after an ASCII byte or a second byte, and holds whole
    characters then a first byte) and are not UTF-8 (``Àburn:`` in UTF-8
    stays a word).  A run longer than :data:`DOUBLE_BYTE_REACH` is not
    looked at."""
    if p < 2 or buf[p - 2] < 0x81 or buf[p - 2] == 0xFF:
        return False
    q = p - 2
    floor = max(0, p - 1 - DOUBLE_BYTE_REACH)
    while q > floor and buf[q - 1] >= 0x80:
        q -= 1
    if q > 0 and buf[q - 1] >= 0x80:
        return False  # too long a run to read
    if (p - 1 - q) % 2 == 0:
        return False
    try:
        buf[q:p - 1].decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def after_code(buf: bytes, p: int) -> bool:
    """Whether the letter or digit before p is a code the text before it
    marks as one (a MARC subfield's, a roff font's, a string literal's
    escape, a URL's percent-encoding), or the second byte of a double-byte
    character (:func:`after_double_byte`): a "urn:" at p starts a value,
    though a letter or digit stands before it."""
    return (after_subfield_code(buf, p) or after_font_change(buf, p) or after_escape(buf, p) or after_percent(buf, p)
            or after_double_byte(buf, p))


_DELIMITERS = frozenset(b"\x1f$")
#: a line of MARC's mnemonic text (MarcEdit's .mrk, "MARC breaker"): "=",
#: the tag or LDR, two spaces ("=856  40$uhttp://...$xResolving-System")
_MNEMONIC_LINE = LazyPattern(rb"=(?:LDR|[0-9A-Za-z]{3})  ")
#: a subfield's delimiter and code in such a line
_MNEMONIC_SUBFIELD = LazyPattern(rb"\$[a-z0-9]")


#: a subfield's delimiter and code where the value before it starts with
#: its own ("$0urn:..."): PICA+ codes are letters of either case and digits
_SUBFIELD = LazyPattern(rb"\$[A-Za-z0-9]")


def mnemonic_subfield_at(buf: bytes, p: int, lo: int, hi: int) -> int:
    """Where the next subfield starts in buf[lo:hi] ("$x"), when the name
    at p is a subfield's value: in a line of MARC mnemonic text, or right
    after a "$" and a subfield code of its own (PICA+, the DNB's format:
    ``004U $0urn:nbn:de:101:1-201209174957$S1``); else -1.  A "$"
    elsewhere may be part of a name (RFC 8141 section 2: sub-delims)."""
    if p >= 2 and buf[p - 2] == 0x24 and buf[p - 1] in ALNUM:
        found = _SUBFIELD.search(buf, lo, hi)
        return -1 if found is None else found.start()
    start = line_start(buf, p)
    if start is None or _MNEMONIC_LINE.match(buf, start) is None:
        return -1
    found = _MNEMONIC_SUBFIELD.search(buf, lo, hi)
    return -1 if found is None else found.start()


_DOUBLE_DAGGER = "\u2021".encode()
EOL = frozenset(b"\r\n")
HSPACE = frozenset(b" \t")
#: what ends the token a "urn:" is part of (white space, quotes, brackets)
TOKEN_STOP = frozenset(b" \t\r\n\"'<>()[]{}|\\^`")

NID_TOKEN = LazyPattern(rb"[A-Za-z0-9][A-Za-z0-9-]*:")
HSPACE_RUN = LazyPattern(rb"[ \t]*")
URL_START = LazyPattern(rb"[A-Za-z][A-Za-z0-9+.-]*://")

_REPERTOIRE = {
    "rfc8141": _abnf.RFC8141_REPERTOIRE,
    "rfc2141": _abnf.RFC2141_REPERTOIRE,
    "draft-2012": _abnf.DRAFT2012_REPERTOIRE,
    "draft-1995": _abnf.DRAFT1995_REPERTOIRE,
}


def _run(repertoire: str) -> LazyPattern:
    # the _abnf repertoires are character-class bodies ("A-Za-z0-9\\-._~...")
    return LazyPattern(b"[" + repertoire.encode("ascii") + b"]*")


#: per profile: a run of the characters an URN may hold (seed 000 section
#: 2.4: an URN ends at the first excluded character)
RUNS = {profile: _run(rep) for profile, rep in _REPERTOIRE.items()}
#: the same with white space, for a wrapper (seed 004 section 2)
WRAPPED_RUNS = {profile: _run(rep + " \t\r\n") for profile, rep in _REPERTOIRE.items()}
#: seed 000 section 2.4: the literal RFC 2141 extent
LITERAL_RUN = RUNS["rfc2141"]
#: the prefix of a string literal: Objective-C's "@", C's and C++'s "L",
#: "u", "u8" and "U" (``@"urn:ietf:params:xml:ns:" @"xmpp-stanzas"``),
#: Python's string and bytes prefixes but "f" (Python Language Reference
#: section 2.4.1: "r", "u", "b" and "br"/"rb" in either case; an
#: f-string's rest is a template)
LITERAL_PREFIX = rb"@|L|u8?|U|[bB][rR]?|[rR][bB]?"


def class_body(run: "re.Pattern[bytes]") -> bytes:
    """The character class body of a run pattern."""
    return run.pattern[1:-2]


def line_break_after(buf: bytes, i: int, hi: int) -> int:
    """Index after the line break at i (CRLF, LF or CR), or -1."""
    if i < hi and buf[i] == 0x0D:
        return i + 2 if i + 1 < hi and buf[i + 1] == 0x0A else i + 1
    if i < hi and buf[i] == 0x0A:
        return i + 1
    return -1


def blanks_end(buf: bytes, i: int, hi: int) -> int:
    """The end of the run of blanks (at most INDENT_LIMIT) at i."""
    return HSPACE_RUN.match(buf, i, min(hi, i + INDENT_LIMIT)).end()


#: RFC 4475 section 2.1: the lines between "<allOneLine>" and
#: "</allOneLine>" are one line, broken for the page anywhere (SIP
#: messages in the examples of RFC 4488, 4538, 5627...)
ONE_LINE_OPEN = b"<allOneLine>"
ONE_LINE_CLOSE = b"</allOneLine>"


def one_line_indent(buf: bytes, i: int) -> Optional[int]:
    """The indentation of the "<allOneLine>" line of the block that holds
    buf[i] (the tag in the LOOKBACK bytes before i, not closed since), or
    None outside one."""
    at = buf.rfind(ONE_LINE_OPEN, max(0, i - LOOKBACK), i)
    if at < 0 or buf.find(ONE_LINE_CLOSE, at, i) >= 0:
        return None
    ls = line_start(buf, at)
    return at - ls if ls is not None and not buf[ls:at].strip(b" \t") else None


def line_start(buf: bytes, i: int, reach: int = LOOKBACK) -> Optional[int]:
    """Start of the line holding buf[i], looking back at most ``reach``
    bytes (at most LOOKBACK); ``None`` when the line starts further back."""
    floor = max(0, i - reach)
    brk = max(buf.rfind(b"\n", floor, i), buf.rfind(b"\r", floor, i))
    if brk >= 0:
        return brk + 1
    # a buffer holding less than LOOKBACK bytes before i starts at the
    # input's start (the scanner keeps LOOKBACK bytes otherwise)
    return 0 if i < reach else None


#: the compiled search of next_prefix, or None where it is not built
_NEXT_MARKED_URN = getattr(COMPILED, "next_marked_urn", None)


def next_prefix(buf: bytes, mark: bytes, start: int, stop: int, at_prefix: Callable[[bytes, int], bool]) -> int:
    """Where ``mark`` is first found in ``buf[start:stop]`` with
    ``at_prefix(buf, at)`` true (a "urn" right before it: a prefix whose
    ":" is encoded or escaped), or -1.  Most text holds no such mark at
    all, which one search tells: the compiled one (a ``memchr`` for the
    mark's first byte, the mark's rest and the "urn" before it looked at
    where it stops) where it is built; ``bytes.find`` of a mark of two
    bytes or more reads text several times slower than that."""
    if _NEXT_MARKED_URN is not None:
        at = _NEXT_MARKED_URN(buf, mark, start, stop)
        while at >= 0 and not at_prefix(buf, at):
            at = _NEXT_MARKED_URN(buf, mark, at + 1, stop)
        return at
    at = buf.find(mark, start, stop)
    while at >= 0 and not at_prefix(buf, at):
        at = buf.find(mark, at + 1, stop)
    return at
