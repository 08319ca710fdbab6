"""Folds: an URN broken over lines by layout, joined as a reader sees it.

A fold joins what a reader sees as one token broken by layout -- never a
code line continuation, never across an empty line into a heading or a
sentence:

* RFC 8792 section 7: a ``\\`` ending a line right after a name character,
  the next line's leading blanks (and a ``\\`` of the '\\\\' strategy)
  removed.  After an operator (``+ \\``, ``, \\``) it is code;
* RFC formatters break after ``-``, ``:``, ``.`` or ``/`` and go on on an
  indented line, or just before ``:``;
* a query folded before ``&``, or after ``?``, ``&`` or ``=``;
* an URN split over two rows of an ASCII table, in the same cell;
* a quoted string continued by adjacent literals in the same quotes (C,
  Python: ``"urn:ietf:params:" "xml:ns:x"`` is one string);
* RFC 4475 section 2.1: anywhere inside an ``<allOneLine>`` block.
"""
from __future__ import annotations

from typing import List, NamedTuple, Optional, Tuple, Union

from ..lazyre import LazyPattern
from .chars import (ALNUM, ALPHA, EOL, ESCAPED_GT, ESCAPED_LT, HSPACE, INDENT_LIMIT, LITERAL_PREFIX, LOOKBACK,
                    ONE_LINE_CLOSE, URL_START, blanks_end, line_break_after, line_start, one_line_indent)
from .pairing import Opener, pair_rule, paired_run
from .quoting import marks_of, past_quote_marks
from .rules import Rule

Segment = Tuple[int, int]


class Overflow(NamedTuple):
    """A URN joined over lines that goes on past its cap: an over-long
    candidate, never cut short.  ``last`` is where the piece that went past
    the cap starts: the candidate covers the lines up to it, and the run
    of URN characters from it (a ``urn:`` on those lines is inside it, as
    one inside an over-long run on a single line is; without that, a URN
    starting on each line of a long fold read the lines after it again up
    to the cap, each time)."""

    last: int


#: the characters after which a "\\" at the end of a line is RFC 8792
#: folding rather than a code line continuation
_NAME_LAST = ALNUM | frozenset(b"-._~:/%#?@")
#: what may follow the continuation of a fold on its line: the end of a
#: quote, bracket, tag or table cell
CLOSERS = frozenset(b"\"'<>)]}`|\\")
_TABLE_LAST = frozenset(b":-./")
_TABLE_ROW_LIMIT = 512
#: what the rest of a name broken inside a word holds, and a word alone in
#: the next row of its cell does not: a separator, or an underscore, which
#: no word of prose holds (``| ...:token-type:a |`` over ``| ccess_token |``)
_HARD_BREAK_REST = frozenset(b":./_")
_LIST_NUMBER = LazyPattern(rb"[0-9]{1,3}[.)]")
#: a capitalised word and its colon at the start of a line: the label of a
#: field (an IANA registration template's "Description:", "Reference:",
#: "XML:"; a mail or HTTP header's), not the rest of a name broken before it
_LABEL = LazyPattern(rb"[A-Z][A-Za-z]*:")
_SENTENCE_END = b".,;:!?"


def fold(buf: bytes, segments: List[Segment], hi: int, run, max_end: int, opener: Optional[Opener],
         rules: List[Rule]) -> Union[List[Segment], Overflow]:
    """Join the lines of a folded bare URN whose first line is
    ``segments[0]``; the rules that joined are added to ``rules``.  An
    :class:`Overflow` when it goes on past ``max_end``."""
    if len(segments) == 1:
        piece = stray_blank(buf, segments[0][0], segments[0][1], hi, run, opener)
        if piece is not None:
            if piece[1] > max_end:
                return Overflow(piece[0])
            rules.append(Rule.FOLD_STRAY_BLANK)
            return segments + [piece]
    in_query = any(buf.find(b"?", a, b) >= 0 for a, b in segments)
    while True:
        start, e = segments[-1]
        if e >= hi or e <= start:
            return segments
        nxt = continuation(buf, start, e, hi, run, opener, in_query)
        if nxt is None:
            return segments
        if nxt[1][1] > max_end:
            return Overflow(nxt[1][0])
        seg_end, piece, rule = nxt
        segments[-1] = (start, seg_end)
        segments.append(piece)
        in_query = in_query or buf.find(b"?", piece[0], piece[1]) >= 0
        if rule not in rules:
            rules.append(rule)


def stray_blank(buf: bytes, p: int, e: int, hi: int, run, opener: Optional[Opener]) -> Optional[Segment]:
    """The rest of the name ``buf[p:e]`` that ends with ":" before blanks
    on its line, when the name and that rest are all a value holds: a
    string in straight quotes opened right before "urn:" and closed right
    after the rest (``AttributeId="urn:oasis:names:tc:xacml:2.0:example:
    attribute:physician-id"``), or the text of an element, its tag closed
    before the name and an end tag after the rest, on the same or the next
    line (``<namespace>urn:ietf:params:xml:ns:yang: ietf-lsp-ping
    </namespace>``).  White space is not significant inside a URN (seed
    004 section 2), and the quotes or tags say where the value ends, as a
    wrapper's ``<`` and ``>`` do (``<URN: dns:x: y>``, wrapper.py): the
    blank is a typo, not the name's end, which would leave a name cut
    short at its ":".  ``None`` otherwise: a blank before more words, a
    placeholder, a quote or a tag."""
    if buf[e - 1] != 0x3A:
        return None
    w = blanks_end(buf, e, hi)
    if w == e or w >= hi or buf[w] not in ALNUM:
        return None
    t = _before_escaped_end_tag(buf, w, paired_run(buf, w, hi, run, opener)[0])
    if t >= hi or buf[w:w + 4].lower() == b"urn:" or URL_START.match(buf, w, t):
        return None
    if opener is Opener.DOUBLE_QUOTE or opener is Opener.SINGLE_QUOTE:
        return (w, t) if buf[t:t + 1] == opener.closer else None
    if opener is None and _element_text_before(buf, p) and _end_tag_after(buf, t, hi):
        return w, t
    return None


def _element_text_before(buf: bytes, p: int) -> bool:
    """Whether the text before ``buf[p]`` is a tag's closing ``>`` or
    ``&gt;`` (after a tag name's letter or an attribute's quote; a ``>``
    alone is a quoted reply's mark), then blanks, on the same line or the
    one before."""
    floor = max(0, p - LOOKBACK)  # what the streaming scanner keeps before a candidate
    i = p
    while i > floor and buf[i - 1] in HSPACE:
        i -= 1
    ls = line_start(buf, p)
    depth = 0
    if ls is not None and ls >= floor:
        depth, text = marks_of(buf, ls, p)
        if depth and text >= i:
            i = ls  # a quoted reply's marks alone before the name: the tag may end the line before
    if i > floor and buf[i - 1] in EOL:
        i -= 2 if i - 1 > floor and buf[i - 2:i] == b"\r\n" else 1
        before = line_start(buf, i)
        if depth and (before is None or marks_of(buf, before, i)[0] != depth):
            return False  # a line with other marks than the name's
        while i > floor and buf[i - 1] in HSPACE:
            i -= 1
    if i - 4 > floor and buf[i - 4:i] == ESCAPED_GT:
        i -= 3  # a page showing the markup as text: "&lt;namespace&gt;"
    elif i - 1 <= floor or buf[i - 1] != 0x3E:
        return False
    return buf[i - 2] in ALNUM or buf[i - 2] in b"\"'"


#: an end tag's "</" as a page showing markup as text writes it
ESCAPED_END_TAG = ESCAPED_LT + b"/"


def _before_escaped_end_tag(buf: bytes, q: int, t: int) -> int:
    """The end of the run ``buf[q:t]`` at an escaped end tag inside it
    (``2010&lt;/td&gt;``: a reference ends a name, entity.py), else t."""
    escaped = buf.find(ESCAPED_END_TAG, q, t)
    return escaped if escaped > q else t


def _end_tag_after(buf: bytes, t: int, hi: int) -> bool:
    """Whether an end tag ``</`` (or ``&lt;/``) follows ``buf[t]`` after
    blanks, on the same line or the next."""
    q = blanks_end(buf, t, hi)
    nl = line_break_after(buf, q, hi)
    if nl >= 0:
        ls = line_start(buf, t)
        depth = marks_of(buf, ls, t)[0] if ls is not None else 0
        marks, q = marks_of(buf, nl, hi)
        if marks != depth:
            return False  # a quoted reply's line under an unquoted one, or the other way round
        q = blanks_end(buf, q, hi)
    return buf[q:q + 2] == b"</" or buf[q:q + 5] == ESCAPED_END_TAG


def continuation(buf: bytes, start: int, e: int, hi: int, run, opener: Optional[Opener], in_query: bool):
    """``(end of this segment, (start, end) of the next, rule)`` when the
    URN whose line ``buf[start:e]`` stops at e goes on on the next line
    (``in_query``: the URN read so far holds a "?"); otherwise ``None``."""
    last = buf[e - 1]
    if buf[e] in EOL:
        base = one_line_indent(buf, start)
        if base is not None:
            return _one_line(buf, e, hi, run, opener, base)
    if buf[e] == 0x5C:
        return _rfc8792(buf, start, e, hi, run, last)
    if buf.startswith(_HYPHENATION, e, hi) and last in ALNUM:
        return _hyphenated(buf, start, e, hi, run, opener)
    w = blanks_end(buf, e, hi)
    if w < hi and buf[w] == 0x7C and (last in _TABLE_LAST or last in ALNUM):  # "|": a table cell
        return _table(buf, start, e, w, hi, run, last in ALNUM)
    nl = line_break_after(buf, w, hi)
    if nl < 0 or _line_comment(buf, start):
        return None
    q = _past_marks(buf, start, blanks_end(buf, nl, hi), hi)
    if q < 0:
        return None
    across_blank = q < hi and buf[q] in EOL
    if last in _FOLD_LAST and (across_blank or (q < hi and buf[q] not in ALNUM)):
        page = _PAGE_BREAK.match(buf, nl, min(hi, nl + PAGE_BREAK_LIMIT))
        if page is not None:  # the URN goes on on the next page ...
            q, across_blank = blanks_end(buf, page.end(), hi), False
            if _outdented(buf, start, q - page.end()):
                return None  # ... at the text's indentation: left of it, a heading ("6.2.  Bottom-Up")
    if across_blank:
        if last != 0x3A:
            return None
        q = _past_marks(buf, start, blanks_end(buf, line_break_after(buf, q, hi), hi), hi)
        if q < 0:
            return None
    q = _past_trace_mark(buf, start, q, hi)
    if q < 0:
        return None
    t = paired_run(buf, q, hi, run, opener)[0]  # a quote or parenthesis opened may close here
    if t <= q:
        return None
    token = buf[q:t]
    after = buf[t] if t < hi else None
    # blanks left at the end of the line (an editor's, a mail's) are none of its text
    line_end = blanks_end(buf, t, hi) if after in HSPACE else t
    alone = line_end >= hi or buf[line_end] in EOL
    closes = alone or after in CLOSERS
    if token[:4].lower() == b"urn:" or URL_START.match(token):
        return None  # the next line starts a URN or a URL of its own
    if across_blank:
        t = _before_escaped_end_tag(buf, q, t)
        token = buf[q:t]
        ends = alone or _closes_its_line(buf, t, hi)
        return (e, (q, t), Rule.FOLD_BLANK) if ends and _lone_name(token) else None
    first = token[0]
    if first == 0x3A:  # a break just before ":" (the continuation is ":name")
        ok = last in ALNUM and len(token) > 1 and token[1] in ALNUM and closes and not _outdented(buf, start, q - nl)
        return (e, (q, t), Rule.FOLD_COLON) if ok else None
    if first == 0x2D:  # a break just before "-" (URLs typeset in a reference list)
        ok = (last in ALNUM and len(token) > 1 and token[1] in ALNUM and not _outdented(buf, start, q - nl)
              and (closes or (last in _DIGITS and token[1] in _DIGITS)))
        return (e, (q, t), Rule.FOLD_RFC) if ok else None
    if first == 0x2E:  # a break just before "." inside a version number ("SAML:2" / ".0:metadata")
        ok = (last in _DIGITS and len(token) > 1 and token[1] in _DIGITS and (closes or b":" in token)
              and not _outdented(buf, start, q - nl))
        return (e, (q, t), Rule.FOLD_RFC) if ok else None
    if first == 0x26:  # "&": a q-component folded before a parameter
        return (e, (q, t), Rule.FOLD_QUERY) if in_query and b"=" in token else None
    if first not in ALNUM:
        return None
    if _LABEL.fullmatch(token) and (alone or after in HSPACE):
        return None  # "Description: ...", "XML: N/A": the next line is a field of a template or a header
    if opener is Opener.DOUBLE_QUOTE and after == 0x22:
        if last in ALNUM and _broken_value(token):
            return e, (q, t), Rule.FOLD_RFC  # a string broken for display, its quote closing the next line
        if last in _ITEM_SEPARATORS and b":" in token:
            return e, (q, t), Rule.FOLD_RFC  # broken after a "," or ";" of its NSS: _ITEM_SEPARATORS
    if in_query and _query_goes_on(buf, e, last, token, closes):
        return e, (q, t), Rule.FOLD_QUERY
    if last == 0x2D:  # RFC formatters break after a hyphen
        return None if token.lower() in _FUNCTION_WORDS else (e, (q, t), Rule.FOLD_RFC)
    if last in b":./" and _name_piece(buf, e, last, token, closes, not alone and buf[t:t + 2] in _TERM_PADDING):
        return e, (q, t), Rule.FOLD_RFC
    return None


#: the mark of a line comment starting a line: "#" (Python, shell, Ruby,
#: Perl, YAML, TOML, R) and "//" (C99, C++, Java, JavaScript, Go, Rust).
#: Such a comment ends at the end of its line (Python Language Reference
#: section 2.1.3; ISO C 6.4.9): the next line is code, or a comment of its
#: own, not the rest of a name (``# references start with urn:uuid:`` then
#: ``outcome_refs = [...]``)
_LINE_COMMENT = LazyPattern(rb"[ \t]*(?:#|//)")


def _past_marks(buf: bytes, start: int, q: int, hi: int) -> int:
    """Past the quote marks of a quoted reply at q (RFC 3676 section 4.5),
    and the blanks after them, when the line holding ``start`` carries as
    many (an empty line of the reply is its marks alone); q where the line
    carries none; -1 where the two lines carry different marks."""
    if q >= hi or (buf[q] != 0x3E and not buf.startswith(ESCAPED_GT, q)):
        return q
    past = past_quote_marks(buf, start, line_start(buf, q), hi)
    return -1 if past is None else blanks_end(buf, past, hi)


def _line_comment(buf: bytes, start: int) -> bool:
    """Whether the line holding ``buf[start]`` is a line comment whose mark
    stands before ``start``: :data:`_LINE_COMMENT`."""
    first = line_start(buf, start)
    return first is not None and _LINE_COMMENT.match(buf, first, start) is not None


#: the separators of the items a name lists, after which a quoted name
#: broken for display goes on with the next item, up to the closing quote
#: (an OGC URN naming a concatenated operation by its steps:
#: ``"urn:ogc:def:coordinateOperation,coordinateOperation:EPSG::3895,``
#: then ``coordinateOperation:EPSG::1618"``); an item holds a ":", a word
#: of a sentence quoted around a name does not
_ITEM_SEPARATORS = frozenset(b",;")
#: the last character of a quoted name's line that the next line may go on
#: after, up to the quote closing it: :func:`_broken_value`, _ITEM_SEPARATORS
BROKEN_STRING_LAST = ALNUM | _ITEM_SEPARATORS

#: U+2010 HYPHEN: groff's hyphenation of a word at a line's end in a man
#: page rendered in UTF-8 (the source's own hyphens, "\-", are "-")
_HYPHENATION = "\u2010".encode()


def _hyphenated(buf: bytes, start: int, e: int, hi: int, run, opener: Optional[Opener]):
    """:func:`continuation` of a name that a typesetter hyphenated at ``e``
    (``urn:ietf:params:oauth:to\u2010`` then ``ken-type:id_token``): the
    name goes on with the next line's run, the hyphen left out, as after
    a "-" that a formatter broke at."""
    after = e + len(_HYPHENATION)
    nl = line_break_after(buf, blanks_end(buf, after, hi), hi)
    if nl < 0:
        return None
    q = blanks_end(buf, nl, hi)
    t = paired_run(buf, q, hi, run, opener)[0] if q < hi else q
    if t <= q or buf[q] not in ALNUM or buf[q:q + 4].lower() == b"urn:":
        return None
    token = buf[q:t]
    return None if token.lower() in _FUNCTION_WORDS else (e, (q, t), Rule.FOLD_RFC)


def literals(buf: bytes, segments: List[Segment], hi: int, run, max_end: int, opener: Opener,
             rules: List[Rule]) -> Union[List[Segment], Overflow]:
    """Join the adjacent string literals after the quoted URN whose first
    literal is ``segments[0]`` (closed by its quote at its end); an
    :class:`Overflow` when they go on past ``max_end``, as :func:`fold`.
    A URN whose opening quote is escaped (``"<a xmlns=\\"urn:a:" "b\\">"``)
    ends at the escaped quote that closes it, in whichever literal."""
    escaped = escaped_quote(buf, segments[0][0] - 1)
    while True:
        nxt = adjacent_literal(buf, segments[-1][1], hi, run, opener, escaped)
        if nxt is None:
            return segments
        if nxt[1] > max_end:
            return Overflow(nxt[0])
        segments.append(nxt)
        if Rule.FOLD_LITERAL not in rules:
            rules.append(Rule.FOLD_LITERAL)
        if buf[nxt[1]] == 0x5C:
            return segments  # the escaped quote closing the URN


def literals_inside(buf: bytes, p: int, quote_at: int, first: int, hi: int, run, max_end: int,
                    rules: List[Rule], opener: Optional[Opener] = None) -> List[Segment]:
    """Join the adjacent string literals after a URN that starts inside the
    first one (``'<x ns="urn:a:b' '-c">'``), whose quote closes at
    ``quote_at`` and whose next literal's text starts at ``first``: each
    piece is the run from its literal's start, wherever it ends, and one
    that reaches its literal's closing quote may be followed by another.
    A URN opened by a quote of the other kind inside the literal (an XML
    attribute's, ``"<x ns='urn:a:" + "b'/>"``) ends at its closer, in
    whichever literal (``pair:quote``).  The segments from p, or ``[]``
    when no piece joins."""
    quote = Opener.DOUBLE_QUOTE if buf[quote_at] == 0x22 else Opener.SINGLE_QUOTE
    inner = opener if opener in (Opener.DOUBLE_QUOTE, Opener.SINGLE_QUOTE) and opener is not quote else quote
    segments = [(p, quote_at)]
    a, limit = first, min(hi, max_end + 1)
    while 0 <= a < limit:
        t, cut = paired_run(buf, a, limit, run, inner)
        if t <= a or t > max_end or (t < hi and buf[t] == buf[quote_at] and _keyed(buf, t + 1, hi)):
            break
        segments.append((a, t))
        if cut and inner is not quote:
            rules.append(Rule.FOLD_LITERAL)
            rules.append(pair_rule(inner))
            return segments
        a = next_literal(buf, t, hi) if t < hi and buf[t] == buf[quote_at] else -1
    if len(segments) == 1:
        return []
    rules.append(Rule.FOLD_LITERAL)
    return segments


def adjacent_literal(buf: bytes, closer_at: int, hi: int, run, opener: Opener,
                     escaped: bool = False) -> Optional[Segment]:
    """The text ``(start, end)`` of a string literal in the same quotes
    right after the one closing at ``closer_at`` (blanks and at most one
    line break between them), holding URN characters only and not starting
    a URN of its own; ``None`` when there is none.  With ``escaped`` (the
    URN opened with an escaped quote) the text may end at an escaped quote
    instead of the literal's own."""
    a = next_literal(buf, closer_at, hi)
    if a < 0:
        return None
    t = paired_run(buf, a, hi, run, opener)[0]
    if not (a < t < hi and (buf[t] == buf[closer_at] or (escaped and escaped_quote(buf, t + 1)
                                                          and buf[t + 1] == buf[closer_at]))):
        return None
    if buf[t] != 0x5C and _keyed(buf, t + 1, hi):
        return None
    if buf[closer_at - 1] not in _SPLIT_AT and buf[a] not in _SPLIT_AT and not _operator_between(buf, closer_at, a):
        return None  # the next item of a list: '"urn:a:b" "foo"' (shell, Lisp, a DOCTYPE's system identifier)
    return (a, t)


#: where a name written in adjacent literals with no operator between them
#: is split: after or before one of its delimiters (``"urn:ietf:params:"
#: "xml:ns:x"``, ``'urn:example:cap:1.0' '?mode=explicit'``); two literals
#: that meet between letters or digits are two strings of a list (a shell
#: command's arguments, a Lisp or Clojure form, PowerShell's arrays, the
#: public and system identifiers of a DOCTYPE), not one string
_SPLIT_AT = frozenset(b":-./_?#=&;%")


def _operator_between(buf: bytes, closer_at: int, a: int) -> bool:
    """Whether a concatenation operator ("+", ".", "..", "++", "<>") stands
    between the quote closing at ``closer_at`` and the next literal's text
    at ``a`` (:data:`_ADJACENT`)."""
    between = buf[closer_at + 1:a - 1]
    return 0x2B in between or 0x2E in between or b"<>" in between


def _keyed(buf: bytes, after: int, hi: int) -> bool:
    """Whether a ":" or an "=" (not "==") follows a string literal that
    closed before ``after`` (blanks between): the literal is a key (JSON,
    YAML, a Python dict: ``"crs": {``; a PowerShell hash table or a TOML
    table: ``'code' = $x``) or a label, not the next piece of a string cut
    in adjacent literals -- the line above it ended without its comma."""
    j = blanks_end(buf, after, hi)
    if j >= hi:
        return False
    return buf[j] == 0x3A or (buf[j] == 0x3D and not buf.startswith(b"=", j + 1))


def next_literal(buf: bytes, closer_at: int, hi: int) -> int:
    """Where the text of a string literal in the same quotes as the one
    closing at ``closer_at`` starts, right after it (:data:`_ADJACENT`
    between them: the two make one string), when it does not start a URN
    of its own; -1 when there is none."""
    quote = buf[closer_at]
    width = 3 if buf[closer_at + 1:closer_at + 3] == bytes((quote, quote)) else 1  # Python's """ and '''
    after = closer_at + width
    limit = min(hi, after + 2 * INDENT_LIMIT)
    q = _ADJACENT.match(buf, after, limit).end()
    if q > after:
        prefix = _LITERAL_PREFIX.match(buf, q, limit)
        if prefix is not None:
            q = prefix.end()
    a = q + width
    if a >= hi or buf[q:a] != buf[closer_at:after] or buf[a:a + 4].lower() == b"urn:":
        return -1
    return a


def escaped_quote(buf: bytes, at: int) -> bool:
    """Whether the quote at ``at`` is escaped by the backslash before it
    (an attribute's quote inside a C, Java or JSON string: ``"<a
    xmlns=\\"urn:a:b\\">"``)."""
    return at >= 1 and buf[at - 1] == 0x5C and buf[at] in b"\"'"


def literal_closer(buf: bytes, nss_start: int, e: int, hi: int) -> int:
    """The quote that may close the string literal a run of URN characters
    ending at ``e`` is in, when no opener says so: a double quote right
    after the run, or a single quote ending it (a URN character of RFC
    2141); -1 when neither."""
    if e < hi and buf[e] == 0x22:
        return e
    return e - 1 if e - 1 > nss_start and buf[e - 1] == 0x27 else -1


#: English words that go on a sentence, not a name broken after "-" ("the
#: prefix urn:...:ietf-⏎is used"): no URN's part a formatter wraps is one
_FUNCTION_WORDS = frozenset(b"a an and are as at be by can for from has have if in is it may must not of on or "
                            b"should so that the then this to was were which will with".split())

_DIGITS = frozenset(b"0123456789")
#: the characters RFC formatters break a name after
_FOLD_LAST = frozenset(b"-:./")
#: a page break of a paginated RFC or Internet-Draft (RFC 7322 section 4.1,
#: RFC 7994 section 4): empty lines, the footer ending "[Page N]", a form
#: feed, the next page's header line and empty lines; copies without the
#: form feed keep the rest, a header then starting "RFC N" or
#: "Internet-Draft" (RFC 7322 section 4.1.1; "INTERNET-DRAFT" in the 1990s)
_PAGE_BREAK = LazyPattern(rb"(?:[ \t]*(?:\r\n?|\n)){0,8}[^\r\n\f]{1,120}\[Page [0-9]{1,4}\][ \t]*(?:\r\n?|\n)"
                          rb"(?:\f(?:[ \t]*(?:\r\n?|\n))?[^\r\n\f]{1,120}"
                          rb"|(?:[ \t]*(?:\r\n?|\n)){0,3}(?:RFC [0-9]{1,5}|Internet-Draft|INTERNET[- ]DRAFT) [^\r\n\f]{1,120})"
                          rb"(?:\r\n?|\n)(?:[ \t]*(?:\r\n?|\n)){0,8}")
PAGE_BREAK_LIMIT = 1024

#: between two string literals that make one string: blanks and at most
#: one line break (C and Python join adjacent literals; a "\\" before the
#: break continues the line in C macros, Ruby and Python), and at most one
#: concatenation operator on either line: "+" (Java, C#, JavaScript, Go),
#: "." (PHP, Perl), ".." (Lua), "++" (Erlang, Haskell), "<>" (Elixir)
#: the prefix of a string literal (chars.LITERAL_PREFIX:
#: ``b'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:'
#: b'CommonBasicComponents-2">'``), only after something between it and
#: the literal before
_LITERAL_PREFIX = LazyPattern(LITERAL_PREFIX)
_ADJACENT = LazyPattern(rb"[ \t]*(?:(?:\+\+?|\.\.?|<>)[ \t]*)?"
                        rb"(?:\\?(?:\r\n?|\n)[ \t]*(?:(?:\+\+?|\.\.?|<>)[ \t]*)?)?")


def _name_piece(buf: bytes, e: int, last: int, token: bytes, closes: bool, padded: bool) -> bool:
    """Whether ``token`` at the start of the next line reads as the rest of
    the name broken after ``last`` (":", "." or "/"), not as prose: a word
    with sentence punctuation ("namespace."), a new sentence after a period
    or a list number ("2.") is prose, and so is the term of a definition
    list (``padded``: two blanks after it, "displayName  A human-readable
    name", under a URN heading)."""
    word = token.rstrip(_SENTENCE_END)
    punctuated = len(word) < len(token)
    if word.isalpha() and punctuated and word.islower():
        return False  # "... the urn:ietf:params:oauth:" / "namespace." ends a sentence
    if last == 0x2E:
        if token[0] in ALPHA and chr(token[0]).isupper():
            return False  # a new sentence
        if _LIST_NUMBER.fullmatch(token):
            return False  # "2." or "3)" starting a numbered list item
        if buf[e - 2:e - 1].isdigit() and token[:1].isdigit():
            # a dotted number (an OID) broken after "."; a number alone
            # followed by words starts a sentence ("2141.\n 2141 defines"),
            # but not the next arc of a number dotted before the break
            # ("urn:oid:2.16.840.1.113883.4." / "642 and ..."), nor a
            # version's next digit before the name's next part ("SAML:2." /
            # "0:metadata and ...")
            return closes or b"." in token or b":" in token or (word.isdigit() and _dotted_before(buf, e - 1))
    if closes or b":" in word:
        return True
    if last == 0x3A and word.isdigit() and not _LIST_NUMBER.fullmatch(token):
        return True  # "urn:ietf:rfc:" / "8141 is the spec": a number is a name's part
    if last not in b":/" or (padded and not punctuated):  # (two blanks after a sentence are not a term's)
        return False
    # a name, or a capitalised one the sentence ends with ("...:2.0:" /
    # "Error.  The" -- a new sentence would have ended the line before)
    return _NAME_WORD.fullmatch(word) is not None or (punctuated and word[:1].isupper())


def _dotted_before(buf: bytes, d: int) -> bool:
    """Whether the "." at d ends a dotted number of two or more parts that
    starts the name's last part, after its ":" (an OID's arcs)."""
    c = buf.rfind(b":", max(0, d - _DOTTED_REACH), d)
    return c >= 0 and _DOTTED_NUMBER.fullmatch(buf, c + 1, d) is not None


#: a dotted number of two or more parts, and how far back its ":" is looked for
_DOTTED_NUMBER = LazyPattern(rb"[0-9]+(?:\.[0-9]+)+")
_DOTTED_REACH = 128


#: what follows the term of a definition list (RFC 7322 hanging lists)
_TERM_PADDING = frozenset((b"  ", b" \t", b"\t\t", b"\t "))

#: after a ":" or "/" ending a line, a name rather than a word of prose: in
#: camel case ("PhysicalVerification", "ZonePlayer": a docstring or comment
#: wrapped inside a URN), or compound, its parts joined by "-", "_" or "/"
#: (and "."), with a "-", "_" or digit: "token-exchange", "access_token",
#: "ietf/draft-ietf-uri-urn-syntax-00", or letters then digits ("lost1",
#: "sha256") -- RFC formatters and 72-column
#: text break a long URN after ":" or "/", and its last part is such a
#: name more often than not; "e.g." and "and/or" are words
_NAME_WORD = LazyPattern(rb"[A-Za-z][a-z0-9]+(?:[A-Z][a-z0-9]*)+"
                         rb"|(?=[A-Za-z./]*[-_0-9])[A-Za-z0-9]+(?:[-_/.][A-Za-z0-9]+)+"
                         rb"|[a-z]+[0-9]+[a-z0-9]*")


#: the mark starting each line of a protocol trace in RFC artwork: "C:"
#: (client) and "S:" (server) in EPP, RFC 5730 section 2
_TRACE_MARK = LazyPattern(rb"[ \t]*([A-Z]):(?=[ \t<])")


def _past_trace_mark(buf: bytes, start: int, q: int, hi: int) -> int:
    """Where the next line's text starts when it carries a protocol trace's
    mark: past the mark and its blanks when the line holding ``start``
    carries the same one (the URN goes on inside the trace), -1 when it
    does not (a mark is no part of a name); ``q`` when there is none."""
    mark = _TRACE_MARK.match(buf, q, min(hi, q + 3))
    if mark is None:
        return q
    ls = line_start(buf, start)
    own = _TRACE_MARK.match(buf, ls, min(hi, ls + INDENT_LIMIT)) if ls is not None else None
    if own is None or own.group(1) != mark.group(1):
        return -1
    return blanks_end(buf, mark.end(), hi)


def _one_line(buf: bytes, e: int, hi: int, run, opener: Optional[Opener], base: int):
    """RFC 4475 section 2.1: inside an "<allOneLine>" block the next line
    goes on with the URN wherever the break fell ("urn:uuid:f8" then
    "1d4fae-7dec-..."), when it is indented as the block (a blank more is
    a blank of the line: "...6bf6" then " SIP/2.0")."""
    nl = line_break_after(buf, e, hi)
    if nl < 0:
        return None
    q = blanks_end(buf, nl, hi)
    if q - nl != base or buf.startswith(ONE_LINE_CLOSE, q, hi):
        return None
    t = paired_run(buf, q, hi, run, opener)[0]
    return (e, (q, t), Rule.FOLD_ONE_LINE) if t > q else None


def _outdented(buf: bytes, start: int, indent: int) -> bool:
    """Whether a next line indented by ``indent`` starts left of the line
    holding ``start``: a label of the list the URN is an item of
    (":candidate" over its capability URN, RFC 6241 section 10.4), not the
    rest of the URN."""
    ls = line_start(buf, start)
    return ls is not None and indent < blanks_end(buf, ls, start) - ls


def _query_goes_on(buf: bytes, e: int, last: int, token: bytes, closes: bool) -> bool:
    """Whether a query (RFC 8141 section 2.3's q-component, or the legacy
    "?name=value&..." of NETCONF capabilities, RFC 6241 section 8.1) broken
    after ``last`` goes on with ``token`` on the next line: a parameter
    ``name=value`` after "?" or "&" (in XML "&amp;", RFC 7950 section
    5.6.4); after "=" a value that ends its line (or a quote) or more
    parameters, not the first word of a line of text."""
    if last == 0x3F or last == 0x26 or (last == 0x3B and buf.endswith((b"&amp;", b"&amp;amp;"), 0, e)):
        return b"=" in token
    return last == 0x3D and (closes or b"=" in token or b"&" in token)


#: the rest of a base64url value (a JWK thumbprint, RFC 9278) broken for
#: display: its letters and digits, "-" and "_", with a digit in them
_BASE64URL = LazyPattern(rb"(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]+")


def _broken_value(token: bytes) -> bool:
    """Whether ``token``, alone on the next line up to the quote that closes
    the string a URN opened, is the rest of a value broken anywhere for
    display (RFC 9449's ``"urn:ietf:params:oauth:jwk-thumbprint:sha-256:
    0ZcOCORZNYy-DWpqq`` then ``30jZyJGHTN0d2HglBV3uiguA4I"``): a word, a file
    name (``netconf.xsd`` after ``schemaLocation="urn:...``) or a URL is
    not."""
    return _BASE64URL.fullmatch(token) is not None


def _lone_name(token: bytes) -> bool:
    """A token alone on its line after an empty line continues a name only
    when it is not a word (a heading such as "Abstract") nor a sentence:
    it starts with a letter or digit, holds no ":" and something other
    than letters, and does not end in sentence punctuation."""
    return (token[0] in ALNUM and b":" not in token and not token.isalpha()
            and token[-1] not in _SENTENCE_END and _LIST_NUMBER.fullmatch(token) is None)


#: what may close a value right after its last line's text: a quote, a
#: bracket, or an end tag (``</pre>``, ``&lt;/code&gt;``)
_LINE_CLOSER = LazyPattern(rb"[\"'`)\]}]|</[A-Za-z][A-Za-z0-9]{0,15}>|&lt;/[A-Za-z][A-Za-z0-9]{0,15}&gt;")


def _closes_its_line(buf: bytes, t: int, hi: int) -> bool:
    """Whether the line goes on after ``buf[t]`` with a closer alone (an
    example's last line in a ``<pre>`` block or a string: ``...-w</pre>``)."""
    m = _LINE_CLOSER.match(buf, t, hi)
    if m is None:
        return False
    w = blanks_end(buf, m.end(), hi)
    return w >= hi or buf[w] in EOL


def _rfc8792(buf: bytes, start: int, e: int, hi: int, run, last: int):
    """RFC 8792 section 7: "\\" at the end of a line, the next line's
    leading white space removed (section 7.2.2: a "\\" starting the next
    line under the '\\\\' strategy); in a quoted reply, past the next line's
    quote marks when they are the URN's line's."""
    if last not in _NAME_LAST:
        return None  # "+ \\", ", \\": a code line continuation
    nl = line_break_after(buf, blanks_end(buf, e + 1, hi), hi)  # (blanks an editor or a mail left after it)
    if nl < 0:
        return None
    q = _past_marks(buf, start, blanks_end(buf, nl, hi), hi)
    if q < 0:
        return None
    if q < hi and buf[q] == 0x5C:
        q += 1
    t = run.match(buf, q, hi).end()
    return (e, (q, t), Rule.FOLD_RFC8792) if t > q else None


def resume_at(buf: bytes, p: int, end: int, rules) -> int:
    """Where reading goes on after the candidate read at p that ends at
    ``end`` with ``rules``: at its end, but for one folded over the rows of
    a table, at the border of its first cell -- the cells to its right hold
    text of their own, URNs too."""
    if Rule.FOLD_TABLE.value in rules:
        return buf.find(b"|", p, end)
    return end if end > p else p + 1


def _table(buf: bytes, a: int, e: int, w: int, hi: int, run, after_name: bool):
    """A URN split over two rows of an ASCII table: the cell ends at "|"
    (w) and the URN goes on in the same column of the next row, in a cell
    with the same borders; broken after a separator (":-./"), or --
    ``after_name``: its cell ends in a letter or digit -- before one, the
    next row's cell starting with it (``| ...:confirmed |`` over
    ``| -commit:1.0 |``), or anywhere when the text fills its cell, one
    blank at most before the border, as a formatter breaks a word longer
    than its column, and the rest holds a separator or ``_`` (``| classes:Password
    ProtectedTransp |`` over ``| ort:Extension |``; a name as wide as its
    column fills its cell too, and a word may be alone under it)."""
    ls = line_start(buf, a)
    if ls is None:
        return None
    limit = min(hi, w + _TABLE_ROW_LIMIT)
    eol = min((i for i in (buf.find(b"\n", w, limit), buf.find(b"\r", w, limit)) if i >= 0), default=-1)
    if eol < 0:
        return None
    nl = line_break_after(buf, eol, hi)
    q = nl + (a - ls)
    hard_break = False  # a word broken where the cell ends, its rest holding a separator
    if after_name and q + 1 < hi and buf[q] in _TABLE_LAST:
        first = buf[q + 1]
    else:
        hard_break = after_name and w - e <= 1
        first = buf[q] if q < hi and (not after_name or hard_break) else -1
    if first not in ALNUM or buf[q:q + 4].lower() == b"urn:":
        return None  # (the next row's cell starts a URN of its own)
    row, next_row = buf[ls:a], buf[nl:q]
    if len(next_row) != len(row) or b"|" not in row:
        return None
    for x, y in zip(row, next_row):
        if (x == 0x7C) != (y == 0x7C):
            return None  # not the same cell borders
    if next_row[-1] != 0x7C and next_row[-1] not in HSPACE:
        return None  # text before the URN in its own cell (cells to its left may wrap too)
    t = run.match(buf, q, hi).end()
    w2 = blanks_end(buf, t, hi)
    if w2 >= hi or buf[w2] != 0x7C:
        return None
    if hard_break and not any(c in _HARD_BREAK_REST for c in buf[q:t]):
        return None  # a word of its own under a name as wide as its column ("Note")
    return e, (q, t), Rule.FOLD_TABLE
