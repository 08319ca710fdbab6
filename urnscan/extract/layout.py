"""Layout around a candidate: YAML mapping keys, the terms of definition
lists, a sentence's colon before an example, and a QName's separator."""
from __future__ import annotations

from typing import Optional

from ..lazyre import LazyPattern
from .chars import ALNUM, ALPHA, INDENT_LIMIT, LOOKBACK, blanks_end, line_break_after, line_start
from .quoting import marks_of, next_text
from .rules import Rule

_YAML_LEAD = LazyPattern(rb"[ \t]*(?:- )?")
#: YAML 1.2 sections 7.3 and 8.2: "- item", "key:", "'key':", '"key":'
#: (a plain key may hold ":" not followed by a blank: "sub:key: value")
_YAML_ENTRY = LazyPattern(rb"-[ \t\r\n]|[^\s:#'\"](?:[^\s:#]|:(?=[^\s])| (?=[^\s#]))*:(?:[ \t\r\n]|$)"
                          rb"|(['\"])[^\r\n]*?\1:")
#: a word, blanks and more: a definition, not a name broken over lines
_PROSE = LazyPattern(rb"[A-Za-z][^\s]*[ \t]+[^\s]")
_KEY_LIMIT = 256
_WHITE = LazyPattern(rb"[ \t\r\n]*")


def key_colon(buf: bytes, p: int, end: int, hi: int) -> Optional[Rule]:
    """The rule by which the ":" ending the candidate ``buf[p:end]`` is
    the syntax of a key, not part of the name, or None.  The candidate
    stands alone at the start of its line (or after "- "), the line ends
    there, and the next non-empty line is indented deeper and is

    * YAML (1.2 section 8.2.2): a mapping entry ``key:`` or a sequence
      entry ``- ``: ``trim:yaml-key``;
    * prose, a word and more after a blank: the term of a definition list,
      its definition below (``urn:ietf:params:acme:error:badNonce:`` over
      "The client sent an unacceptable anti-replay nonce."):
      ``trim:term``.

    A name alone on the next line is neither: it is the rest of a URN
    broken after ":" (:mod:`.fold`).  The term of a hanging list has its
    definition on the same line instead, a capitalised sentence after
    blanks, which ends there or goes on on lines indented deeper (RFC
    7591 section 2: ``urn:ietf:params:oauth:grant-type:jwt-bearer: The JWT
    Bearer Token``): ``trim:term`` too.  Words of another kind after the
    ":" leave it, as a prefix's (RFC 5141: ``urn:iso:std:iso:9999:-1:ed-1:en:
    corresponds to``).  In a quoted reply the lines are read past their
    marks (RFC 3676 section 4.5), the next line carrying as many."""
    ls = line_start(buf, p)
    if ls is None:
        return None
    depth, ls = marks_of(buf, ls, p)
    if not _YAML_LEAD.fullmatch(buf, ls, p):
        return None
    indent = len(buf[ls:p]) - len(buf[ls:p].lstrip(b" \t"))
    w = blanks_end(buf, end, hi)
    if end < w < hi and buf[w] not in b"\r\n":
        if _hanging_definition(buf, w, hi, indent, depth):
            return Rule.TRIM_TERM
        if depth or _DATA_VALUE.match(buf, w, min(hi, w + _LINE_LIMIT)) is None:
            return None  # words after the ":": a prefix before prose (RFC 5141), not a key's value
        return Rule.YAML_KEY if _beside_entry(buf, ls, ls + indent, end, hi) else None
    nl = line_break_after(buf, w, hi)
    if nl < 0:
        return None
    if depth:
        line, q = next_text(buf, nl, hi, depth, min(hi, nl + _KEY_LIMIT))
    else:
        q = _WHITE.match(buf, nl, hi).end()  # the first character of the next non-empty line
        line = max(buf.rfind(b"\n", nl - 1, q), buf.rfind(b"\r", nl - 1, q)) + 1
    if q < 0 or q >= hi:
        return None
    if q - line <= indent:
        return None
    if _YAML_ENTRY.match(buf, q, min(hi, q + _KEY_LIMIT)) is not None:
        return Rule.YAML_KEY
    if _PROSE.match(buf, q, min(hi, q + _KEY_LIMIT)) is not None:
        return Rule.TRIM_TERM
    return None


#: an entry of a block mapping with its value on its line (YAML 1.2
#: section 8.2.2, "key: value"), maybe a sequence's item ("- "): a plain
#: key without blanks (it may hold ":" not followed by a blank, as a URN
#: does), ":", blanks and the value; the key a URN or starting as a data
#: file's do (a lower-case letter, a digit, "_", "$", "@", "."), not a
#: capitalised word, the field of a registration template or a header
#: beside prose ("Note: ...", "Contact: ...")
_ENTRY_WITH_VALUE = LazyPattern(rb"(?:- )?(?:[Uu][Rr][Nn]:|[a-z0-9_$@.])(?:[^\s:]|:(?=[^\s]))*:[ \t]+[^\s#]")
#: the value of a data file's entry, after the key's ":" and blanks: a flow
#: collection, a quoted scalar, or one token to the end of the line (a
#: sentence, "corresponds to", is prose after a prefix's ":")
_DATA_VALUE = LazyPattern(rb"[\[{'\"]|[^\s#]+[ \t]*(?:#|\r|\n|\Z)")


def _beside_entry(buf: bytes, ls: int, k: int, end: int, hi: int) -> bool:
    """Whether the line before or after the one starting at ``ls``, whose
    key starts at ``k`` after its indentation and ends at ``end``, is an
    entry of the same block mapping, its value on its line: indented
    alike (YAML 1.2 section 8.2.1: a mapping's entries share an
    indentation), ``key: value`` (``urn:oid:2.5.4.3: [Lars L]`` over
    ``urn:oid:2.5.4.42: [Lars]``).  A sentence after a name's ":" beside
    lines of prose keeps the ":" (RFC 5141: ``urn:iso:std:iso:9999:-1:ed-1:en:
    corresponds to``).  Looks back at most LOOKBACK bytes before the key,
    and forward through at most two lines of :data:`_LINE_LIMIT` bytes."""
    lead = buf[ls:k]
    if ls > 0:
        e = ls - 2 if ls >= 2 and buf[ls - 2:ls] == b"\r\n" else ls - 1
        before = line_start(buf, e, LOOKBACK - (k - e)) if k - e < LOOKBACK else None
        if before is not None and _entry_at(buf, before, lead, e):
            return True
    eol = _EOL.search(buf, end, min(hi, end + _LINE_LIMIT))
    return eol is not None and _entry_at(buf, eol.end(), lead, min(hi, eol.end() + _LINE_LIMIT))


def _entry_at(buf: bytes, at: int, lead: bytes, limit: int) -> bool:
    """Whether the line starting at ``at`` (and ending by ``limit``) is
    indented by ``lead`` and goes on with :data:`_ENTRY_WITH_VALUE`."""
    k = at + len(lead)
    return (buf.startswith(lead, at, limit) and k < limit and buf[k] not in b" \t"
            and _ENTRY_WITH_VALUE.match(buf, k, limit) is not None)


#: the start of a definition: a capitalised word ("The", "Used")
_DEFINITION_START = LazyPattern(rb"[A-Z][a-z]+[ \t,]")
#: how far a hanging list's definition line is looked through for its end
_LINE_LIMIT = 1024


def _hanging_definition(buf: bytes, w: int, hi: int, indent: int, depth: int) -> bool:
    """Whether the text at ``w``, after a term's ":" and blanks, is its
    definition in a hanging list: a capitalised sentence, then the end of
    the text, an empty line, or a line indented deeper than ``indent``
    (past ``depth`` quote marks, the term's line's; a line with other marks
    ends the quoted text)."""
    if _DEFINITION_START.match(buf, w, min(hi, w + 32)) is None:
        return False
    limit = min(hi, w + _LINE_LIMIT)
    eol = _EOL.search(buf, w, limit)
    if eol is None:
        return limit == hi
    nl = eol.end()
    if nl >= hi:
        return True
    marks, text = marks_of(buf, nl, hi) if depth else (0, nl)
    if marks != depth:
        return True
    q = blanks_end(buf, text, hi)
    return q >= hi or buf[q] in b"\r\n" or q - text > indent


_EOL = LazyPattern(rb"\r\n?|\n")

#: a name ending in a version number, then ":" (``urn:xmpp:mam:2:``)
_VERSION_COLON = LazyPattern(rb":[0-9]+(?:\.[0-9]+)*:\Z")


#: a line break written as an escape in a string literal (JSON, JavaScript,
#: Python: a notebook's cell, a source map's embedded sources), then the
#: blanks and further such breaks before the next line's text
_ESCAPED_BREAKS = LazyPattern(rb"(?:(?:\\r)?\\n|\\r)(?:[ \t]|\\[rn])*")


#: the close of a comment whose text ends at the ":" (XML's ``-->``, C's
#: ``*/``), blanks before it
_COMMENT_CLOSE = LazyPattern(rb"[ \t]*(?:-->|\*/)")


def _next_line(buf: bytes, end: int, hi: int) -> int:
    """Where the text of the next non-empty line starts (past a quoted
    reply's marks, as many as the line's), when the line
    ends at ``end`` (after blanks and a comment's close), or -1: a line
    break, or one escaped in a string literal (``"... urn:xmpp:omemo:2:\\n"``);
    ``<!-- If room supports urn:xmpp:mentions:0#channel: -->`` over the
    element it speaks of."""
    closed = _COMMENT_CLOSE.match(buf, end, min(hi, end + INDENT_LIMIT))
    w = blanks_end(buf, closed.end() if closed is not None else end, hi)
    nl = line_break_after(buf, w, hi)
    if nl >= 0:
        ls = line_start(buf, end)
        depth = marks_of(buf, ls, end)[0] if ls is not None else 0
        if depth:  # a quoted reply's: past the marks of its lines
            return next_text(buf, nl, hi, depth, min(hi, nl + _KEY_LIMIT))[1]
        return _WHITE.match(buf, nl, min(hi, nl + _KEY_LIMIT)).end()
    escaped = _ESCAPED_BREAKS.match(buf, w, min(hi, w + _KEY_LIMIT))
    return escaped.end() if escaped is not None else -1


def example_colon(buf: bytes, text: bytes, end: int, hi: int) -> bool:
    """Whether the ":" ending ``text`` (the candidate, ending at ``end`` in
    ``buf``) ends a sentence that introduces an example, rather than a URN
    prefix: after a version number (a prefix ends in a name:
    ``urn:ietf:params:xml:ns:yang:``, ``urn:nbn:fi:st:``) it ends the
    element's text (``...urn:xmpp:message-retract:1:</p>``) or the line;
    after a name it ends the line, the next non-empty line starting an
    element (``The ping namespace is urn:xmpp:ping:`` over ``<iq ...>``)
    or showing the name again, whole (``... should be urn:x:keystore:``
    over ``namespace "urn:x:keystore";``: a prefix would go on there)."""
    version = _VERSION_COLON.search(text) is not None
    if version and buf.startswith(b"</", end, hi):
        return True
    q = _next_line(buf, end, hi)
    if q < 0:
        return False
    if version:
        return True
    if q + 1 < hi and buf[q] == 0x3C and buf[q + 1] in ALPHA:
        return True
    return _shown_whole(buf, text[:-1], q, hi)


#: what goes on with a name after it ends: a prefix shown below is
#: followed by one of these ("urn:x:" in "urn:x:y"), a whole name is not
_NAME_GOES_ON = ALNUM | frozenset(b"-._~:%/")


def _shown_whole(buf: bytes, name: bytes, q: int, hi: int) -> bool:
    """Whether the line starting at ``q`` holds ``name`` ending there: not
    followed by a character that would go on with it.  Looks through at
    most :data:`_LINE_LIMIT` bytes of the line."""
    eol = _EOL.search(buf, q, min(hi, q + _LINE_LIMIT))
    limit = eol.start() if eol is not None else min(hi, q + _LINE_LIMIT)
    at = buf.find(name, q, limit)
    while at >= 0:
        after = at + len(name)
        if after >= hi or buf[after] not in _NAME_GOES_ON:
            return True
        at = buf.find(name, at + 1, limit)
    return False


#: a local name in quotes ("accessPoint"), and the quote closing the
#: namespace before a local name in CamelCase ("Issuer"), as quotes or
#: their character reference
_QUOTED_LOCAL = LazyPattern(rb'(?:"|&quot;)[A-Za-z_][A-Za-z0-9_.-]*(?:"|&quot;)')
_CLOSED_LOCAL = LazyPattern(rb'(?:"|&quot;)[A-Z][a-z]')
_LOCAL_REACH = 128


def qname_colon(buf: bytes, end: int, closer_at: int, hi: int) -> bool:
    """Whether the ":" ending a candidate (at ``end``) separates a namespace
    from the local name written right after it, as gSOAP's generated
    headers and documentation name XML elements: the name in quotes
    (``urn:uddi-org:api_v2:"accessPoint"``), or after the quote closing the
    namespace (``"urn:oasis:names:tc:SAML:2.0:assertion:"Issuer``, also with
    ``&quot;``)."""
    limit = min(hi, end + _LOCAL_REACH)
    if _QUOTED_LOCAL.match(buf, end, limit) is not None:
        return True
    return ((closer_at == end or buf.startswith(b"&quot;", end, limit))
            and _CLOSED_LOCAL.match(buf, end, limit) is not None)
