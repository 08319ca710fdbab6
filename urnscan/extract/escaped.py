"""URNs whose ":" are escaped with a backslash.

Java's ``Properties.store`` writes every ":", "=", "#" and "!" of a key or
a value with a backslash before it, and ``Properties.load`` reads each
back without it (java.util.Properties, store(Writer, String) and
load(Reader)): a URN kept in a .properties file that a program wrote (a
Spring or SAML configuration, an IDE's settings) reads
``admin.teamname=urn\\:collab\\:group\\:dev.example.nl\\:nl\\:admins``.
Lucene's query syntax escapes ":" the same way (``id:urn\\:isbn\\:0451450523``).
A reader sees the URN; a ``urn:`` finder does not.  This module finds
them: a ``urn\\:`` (any case) that no letter, digit or mark runs into,
then a NID (RFC 8141 section 2: 2 to 32 letters, digits and hyphens),
``\\:`` and a letter or digit, opens a run of URN characters and the
escapes ``\\:``, ``\\=``, ``\\#`` and ``\\!``; a backslash at the end of a
line goes on on the next one, its leading blanks left out (a logical line
continued, as ``Properties.load`` reads it: rule ``fold:rfc8792``, as for
a name not escaped); a "," or ";" before the next ``urn\\:`` ends it (a
list: ``cut:list``).  The URN reported is the run with those backslashes
left out (``raw`` keeps them), a "." "," or ";" at its end trimmed as a
sentence's; the hit keeps the rule ``decode:escaped-colon``.

What is a pattern stays none: a run that ends at another escape (a
regular expression's ``\\d``, ``\\-``, ``\\.``: ``^urn\\:nbn\\:de\\:\\d+``), or
before a placeholder or a character class (``urn\\:btih\\:[0-9a-f]{40}``,
``{0}``), or that holds a placeholder, is no URN, as for a ``urn:``
(:func:`.code.is_template`); neither is one after ``^`` (an anchor) or
inside a path (after "/").
"""
from __future__ import annotations

from typing import List, Tuple

from ..lazyre import LazyPattern
from .chars import ALNUM, next_prefix
from .code import has_placeholder
from .reading import Candidate
from .rules import Rule

#: the prefix, a NID and its escaped ":", then a letter or digit -- bounded
_START = LazyPattern(rb"[uU][rR][nN]\\:[A-Za-z0-9][A-Za-z0-9-]{0,31}\\:[A-Za-z0-9]")
#: a run of URN characters (RFC 8141 section 2: pchar, "/", "?", "#"; no
#: quote, which closes a literal around it) and the escapes read; a "," or
#: ";" before the next ``urn\\:`` ends it, a list's separator (cut:list)
_RUN = LazyPattern(rb"(?:[A-Za-z0-9\-._~!$()*+=:@/?#%]|[,;](?![uU][rR][nN]\\:)|\\[:=#!])*")
#: an escape read: its backslash left out
_ESCAPE = LazyPattern(rb"\\([:=#!])")
#: a logical line continued: a backslash, the line break, the next line's
#: leading blanks (java.util.Properties, load(Reader))
_CONTINUED = LazyPattern(rb"\\\r?\n[ \t\f]*")
#: what runs into a "urn" before it: a word, a mark of a path or a pattern
_RUNS_INTO = ALNUM | frozenset(b"\\/^%_-.+")
#: a placeholder or a character class right after the run: a template's
_PLACEHOLDER_NEXT = frozenset(b"{<[$")
#: marks of the sentence, not of the URN, at its end
_TRAILING = b".,;"
#: how far the next line of a continued one is looked for
_INDENT_REACH = 80
DECODE_ESCAPED = Rule.DECODE_ESCAPED_COLON.value
ESCAPED_RULES = (DECODE_ESCAPED,)
FOLDED_RULES = (DECODE_ESCAPED, Rule.FOLD_RFC8792.value)
LIST_RULES = (Rule.CUT_LIST.value,)
_SEPARATORS = (b",", b";")
_LINE_ENDS = (b"\r", b"\n")


def _prefix_at(buf: bytes, at: int) -> bool:
    """Whether the backslash at ``at`` ends a ``urn\\:`` (any case)."""
    return buf[at + 1:at + 2] == b":" and buf[at - 3:at].lower() == b"urn"


def may_hold_escaped(buf: bytes, lo: int, hi: int) -> bool:
    """Whether a URN with escaped colons may start in ``buf[lo:hi]``: a
    ``\\:`` after ``urn`` in any case."""
    return next_prefix(buf, b"\\:", lo + 3, hi + 4, _prefix_at) >= 0


def _run(buf: bytes, p: int, limit: int) -> List[Tuple[int, int]]:
    """The pieces of the run from ``p``: one, or the lines of a logical
    line continued with a backslash at the end of each."""
    e = _RUN.match(buf, p, limit).end()
    pieces = [(p, e)]
    while True:
        m = _CONTINUED.match(buf, e, min(limit, e + _INDENT_REACH))
        if m is None or m.end() >= limit:
            return pieces
        q = m.end()
        if _START.match(buf, q, limit) is not None:
            return pieces  # the next name of a list, on the next line
        e = _RUN.match(buf, q, limit).end()
        if e == q:
            return pieces
        pieces.append((q, e))


def escaped_urns(buf: bytes, lo: int, hi: int, cap: int, code: bool = True) -> List[Candidate]:
    """The URNs with escaped colons starting in ``buf[lo:hi]``, each read
    at most ``cap`` bytes on.  Where one starts and ends depends on the
    text from there on alone, so whatever ``lo`` and ``hi`` cut, the same
    are found."""
    found: List[Candidate] = []
    size = len(buf)
    at = next_prefix(buf, b"\\:", lo + 3, hi + 4, _prefix_at)
    while at >= 0:
        p = at - 3
        limit = min(size, p + cap)
        if (p > 0 and buf[p - 1] in _RUNS_INTO) or _START.match(buf, p, limit) is None:
            at = next_prefix(buf, b"\\:", at + 1, hi + 4, _prefix_at)
            continue
        pieces = _run(buf, p, limit)
        e = pieces[-1][1]
        at = next_prefix(buf, b"\\:", e, hi + 4, _prefix_at)
        after = buf[e:e + 1]
        if (e == limit < size or (after == b"\\" and buf[e + 1:e + 2] not in _LINE_ENDS)
                or (code and after and after[0] in _PLACEHOLDER_NEXT)):
            continue  # over-long, or another escape (a pattern's) or a placeholder after it
        joined = b"".join(buf[a:b] for a, b in pieces)
        name = joined.rstrip(_TRAILING)
        if name.endswith(b")") and b"(" not in name:
            name = name[:-1].rstrip(_TRAILING)  # a parenthesis opened before it
        urn = _ESCAPE.sub(rb"\1", name)
        if code and has_placeholder(urn):
            continue
        end = e - (len(joined) - len(name))
        folded = len(pieces) > 1
        literal = urn + joined[len(name):]
        rules = FOLDED_RULES if folded else ESCAPED_RULES
        if after in _SEPARATORS:
            rules += LIST_RULES
        found.append(Candidate(p, end, "bare", folded, False, urn.decode("ascii"), literal.decode("ascii"),
                               buf[p:end].decode("ascii"), rules))
    return found
