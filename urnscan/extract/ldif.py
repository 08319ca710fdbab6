"""LDIF lines folded anywhere: RFC 2849, note 2 ("Any non-empty line,
including comment lines, in an LDIF file MAY be folded by inserting a line
separator (SEP) and a SPACE.  Folding MUST NOT occur before the first
character of the line.  In other words, folding a line into two lines,
the first of which is empty, is not permitted.  Any line that begins with
a single space MUST be treated as a continuation of the previous
(non-empty) line.").  ldapsearch and the LDIF writers of LDAP libraries
fold long values at a fixed width, so a URN held in an attribute's value
(``eduPersonEntitlement: urn:mace:...``) goes on after such a break with
no separator.

A line of an LDIF record is told by its form: an attribute description
(RFC 4512 section 2.5: a descriptor or an OID, options after ";") at the
line's start, then ":"; or a continuation, one space first.  The name's
line and those before it within :data:`~.chars.LOOKBACK` are all such
lines (or comments), and one of them names the record's distinguished
name, its change type or its object classes (``dn:``, ``changetype:``,
``objectClass:``), which every LDIF record or entry holds: a YAML mapping
or a header of another format holds no ``dn:``, and a YAML plain scalar
goes on after a line break with a blank (YAML 1.2 section 6.5).
"""
from __future__ import annotations

import re

from ..lazyre import LazyPattern
from .chars import LOOKBACK, line_break_after

#: an attrval-spec's head at a line's start (RFC 2849: AttributeDescription
#: then ":", "::" before base64, ":<" before a URL), or a comment
_RECORD_LINE = LazyPattern(rb"(?:[A-Za-z][A-Za-z0-9-]*|[0-9]+(?:\.[0-9]+)+)(?:;[A-Za-z0-9-]+)*:|#")
#: an attribute every LDIF record names (RFC 2849: dn-spec, changerecord;
#: RFC 4512 section 2.4.1: every entry's objectClass)
_RECORD_KEY = LazyPattern(rb"(?:dn|changetype|objectclass)::?[ <]", re.IGNORECASE)


def in_ldif_record(buf: bytes, p: int) -> bool:
    """Whether the line holding ``buf[p]`` is a line of an LDIF record: it
    and each line before it, back to one naming the record's ``dn``, its
    ``changetype`` or its ``objectClass``, start with an attribute
    description and ":", a comment's "#", or one space (a continuation),
    all within :data:`~.chars.LOOKBACK` bytes.  One pass over that reach."""
    floor = max(0, p - LOOKBACK)
    if p == floor or buf[p - 1] in b"\r\n":
        return False  # the name starts its line: no value holds it
    lines = buf[floor:p].splitlines()
    whole = floor == 0 or buf[floor - 1] in b"\r\n"  # the window starts a line
    last = len(lines) - 1
    for i in range(last, -1, -1):
        if i == 0 and not whole:
            return False  # the line starts further back than may be read
        line = lines[i]
        if line[:1] == b" ":
            if len(line) == 1 and i < last or line[1:2] in (b" ", b"\t"):
                return False  # not a continuation: an empty line's blanks, an indentation
        elif _RECORD_LINE.match(line) is None:
            return False
        elif _RECORD_KEY.match(line) is not None:
            return True
    return False


def folded_ldif_line(buf: bytes, e: int, hi: int) -> bool:
    """Whether the line ends at ``e`` and the next starts with one space
    and more text, but for a URN of its own (a value holds one name; one
    folded at a blank between two goes on with the blank): a continuation
    of the line as LDIF's, the compiled reading's cue to leave the
    candidate to the rules."""
    q = line_break_after(buf, e, hi)
    return (0 <= q and q + 1 < hi and buf[q] == 0x20 and buf[q + 1] not in b" \t\r\n"
            and buf[q + 1:q + 5].lower() != b"urn:")
