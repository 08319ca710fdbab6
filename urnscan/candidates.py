"""Where a URN candidate starts and ends in text: the reading rules.

Pure functions over a byte buffer.  ``extract`` looks at most ``LOOKBACK``
bytes before and a bounded window after the ``urn:`` it is given, so the
streaming scanner can guarantee the same answer for every chunking.

The rules (PRODUCT section 1, seeds 000 and 004):

* a bare candidate starts with ``urn:`` at a token boundary, then a
  NID-shaped token and ``:``, and runs to the first character outside the
  profile's repertoire (seed 000 section 2.4; for RFC 8141 every character
  outside pchar / "/" / "?" / "#" / "%", which admits "&" and "~");
* a wrapped candidate is ``<urn:...>`` (seed 004 section 2), white space
  inside not significant;
* folded bare URNs (an RFC line break after "-", ":" or "." with the URN
  going on on the next line; RFC 8792 "\\" folding) are joined;
* trailing sentence punctuation is trimmed (balanced parentheses kept);
* URNs inside URLs end at the URL's "&" and are marked embedded;
* templates (``urn:foo:<x>``, ``{x}``, ``[x]``), patterns (``urn:ietf:(\\w*)``)
  and elisions (``urn:ietf:...:x``) are not URNs.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import List, NamedTuple, Optional, Tuple

from . import _abnf

LOOKBACK = 256
NID_SCAN_LIMIT = 64  # a NID-shaped token longer than this is no NID (max 32)
WRAPPER_LIMIT = 2048  # characters between "<urn:" and ">" for a wrapper
INDENT_LIMIT = 128

#: PRODUCT section 1: the character before "urn:" is not a letter, digit,
#: "+", "-" or "." (so "return:" and "x.urn:" never start a candidate)
BOUNDARY_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-.")
_BOUNDARY = BOUNDARY_BYTES
_ALNUM = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_EOL = frozenset(b"\r\n")
_HSPACE = frozenset(b" \t")
_NID_TOKEN = re.compile(rb"[A-Za-z0-9][A-Za-z0-9-]*:")
_HSPACE_RUN = re.compile(rb"[ \t]*")
_TRAILING = frozenset(".,;!*'?&")
_CLOSERS_AFTER_FOLD = frozenset(b"\"'<>)]}`|\\")
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,7}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")
_URL_PREFIX = re.compile(rb"[A-Za-z][A-Za-z0-9+.-]*:")
_TOKEN_STOP = frozenset(b" \t\r\n\"'<>()[]{}|\\^`")
_ELLIPSIS = "\u2026".encode()
_LIST_NUMBER = re.compile(rb"[0-9]{1,3}[.)]")
_URL_START = re.compile(rb"[A-Za-z][A-Za-z0-9+.-]*://")
#: form-encoded parameters before the URN: "name=" or "a=b&name="
_FORM_PARAMS = re.compile(rb"(?:[A-Za-z0-9_.~%+-]+=[A-Za-z0-9_.~%+:-]*&)*[A-Za-z][A-Za-z0-9_.~%+-]*=")


def _run_pattern(repertoire: str) -> "re.Pattern[bytes]":
    # the _abnf repertoires are character-class bodies ("A-Za-z0-9\\-._~...")
    return re.compile(b"[" + repertoire.encode("ascii") + b"]*")


_REPERTOIRE = {
    "rfc8141": _abnf.RFC8141_REPERTOIRE,
    "rfc2141": _abnf.RFC2141_REPERTOIRE,
    "draft-2012": _abnf.DRAFT2012_REPERTOIRE,
    "draft-1995": _abnf.DRAFT1995_REPERTOIRE,
}
_RUNS = {profile: _run_pattern(rep) for profile, rep in _REPERTOIRE.items()}
_WRAPPED_RUNS = {profile: _run_pattern(rep + " \t\r\n") for profile, rep in _REPERTOIRE.items()}
#: seed 000 section 2.4: the literal RFC 2141 extent
LITERAL_RUN = _RUNS["rfc2141"]


def run_pattern(profile: str) -> "re.Pattern[bytes]":
    return _RUNS[profile]


class Candidate(NamedTuple):
    start: int  # buffer index of "urn:"
    end: int  # exclusive
    form: str
    folded: bool
    embedded: bool
    urn: str
    literal: str


class OverLong(NamedTuple):
    """A run of URN characters from ``start`` longer than the cap; the
    streaming layer finds where it ends without buffering it."""

    start: int


def extract(buf: bytes, p: int, lo: int, hi: int, *, profile: str, trim: bool, cap: int,
            fold: bool = True):
    """The candidate whose ``urn:`` is at ``buf[p:p+4]``, reading only
    ``buf[lo:hi]``: a :class:`Candidate`, an :class:`OverLong`, or ``None``
    when the text there is not a URN candidate."""
    found = extractor(profile, trim, cap, fold)(buf, p, lo, hi)
    if found is None or type(found) is OverLong:
        return found
    return Candidate(*found[:7])


def _extract(buf: bytes, p: int, lo: int, hi: int, *, profile: str, trim: bool, cap: int,
             fold: bool = True):
    """The reference reading of :func:`extract`, step by step.  The fast
    reading (:func:`extractor`) takes shortcuts through the common cases and
    comes here for everything else; both must give the same answer."""
    if p > lo and buf[p - 1] in _BOUNDARY:
        return None  # "return:", "Saturn:", "x.urn:"
    if p > lo and buf[p - 1] == 0x3C:  # "<"
        wrapped = _wrapped(buf, p, hi, profile)
        if wrapped is not None:
            return wrapped
    nid = _NID_TOKEN.match(buf, p + 4, min(hi, p + 4 + NID_SCAN_LIMIT))
    if nid is None:
        return None
    run = _RUNS[profile]
    nss_start = nid.end()
    if nss_start - p > cap:
        return OverLong(p)  # the NID token alone is longer than the cap
    limit = min(hi, p + cap + 1)
    e = run.match(buf, nss_start, limit).end()
    if e - p > cap:
        return OverLong(p)
    return _bare(buf, p, lo, hi, nss_start, e, run, trim, cap, fold)


def _bare(buf: bytes, p: int, lo: int, hi: int, nss_start: int, e: int, run, trim: bool, cap: int,
          fold: bool) -> Optional[Candidate]:
    """The rest of :func:`_extract` for a bare candidate whose NID token
    ends at ``nss_start`` and whose run of the profile's characters ends at
    ``e`` (at most ``cap`` after p)."""
    literal = buf[p:LITERAL_RUN.match(buf, p + 4, e).end()].decode("ascii")
    embedded = _embedded(buf, p, lo)
    segments: List[Tuple[int, int]] = [(p, e)]
    if embedded:
        amp = buf.find(b"&", nss_start, e)
        if amp >= 0:
            segments = [(p, amp)]
    elif fold:
        segments = _fold(buf, segments, hi, run, p + cap)
    text = "".join(buf[a:b].decode("ascii") for a, b in segments)
    end = segments[-1][1]
    terminator = buf[end:end + 1]
    text, end, dropped = _cut_entity(text, end, segments)
    if _elided(text, buf, end):
        return None
    if not dropped and _is_template(text, terminator):
        return None
    if trim and text.endswith(":") and len(segments) == 1 and _yaml_key(buf, p, end, hi):
        text, end = text[:-1], end - 1  # "urn:...:" as a YAML mapping key
    if trim:
        trimmed = _trim(text)
        if trimmed is None:
            return None  # a pattern such as "urn:ietf:id:(\S+)"
        end -= len(text) - len(trimmed)
        text = trimmed
    nid_len = nss_start - p
    if len(text) <= nid_len:
        return None  # "urn:" NID ":" and nothing after it
    return Candidate(p, end, "bare", len(segments) > 1, embedded, text, literal)


def _wrapped(buf: bytes, p: int, hi: int, profile: str) -> Optional[Candidate]:
    """``<urn:...>`` per seed 004 section 2: white space (space, tab, CR, LF)
    is allowed and not significant; ">" closes the wrapper."""
    limit = min(hi, p + WRAPPER_LIMIT)
    e = _WRAPPED_RUNS[profile].match(buf, p, limit).end()
    if e >= limit or buf[e] != 0x3E:  # no ">" before an excluded character
        return None
    raw = buf[p:e]
    joined = raw.translate(None, b" \t\r\n")  # white space is not significant
    m = _NID_TOKEN.match(joined, 4)
    if m is None or m.end() >= len(joined):
        return None  # "<urn:spppAddRequest>" is an XML QName, not a URN
    literal = buf[p:LITERAL_RUN.match(buf, p + 4, e).end()].decode("ascii")
    return Candidate(p, e, "wrapped", len(joined) != len(raw), False, joined.decode("ascii"), literal)


def _embedded(buf: bytes, p: int, lo: int) -> bool:
    """Whether the ``urn:`` at p sits inside a URL: the token it is part
    of starts with a URI scheme (``http://``, ``magnet:?xt=``) or is a
    path/query (``/uri-res/N2L?urn:...``, ``?urn=urn:...``)."""
    i = p
    floor = max(lo, p - LOOKBACK)
    while i > floor and buf[i - 1] not in _TOKEN_STOP:
        i -= 1
    return _url_context(buf[i:p])


def _url_context(prefix: bytes) -> bool:
    """Whether the token before a ``urn:`` makes it part of a URL or of
    form-encoded parameters: a URI scheme (``http://``, ``magnet:?xt=``), a
    path or query (``/uri-res/N2L?``, ``?urn=``), or ``name=`` parameters
    (``grant_type=urn:...&scope=...``)."""
    if not prefix:
        return False
    if _URL_PREFIX.match(prefix) and (b"//" in prefix or b"?" in prefix or prefix.lower().startswith(b"magnet:")):
        return True
    if prefix[-1:] in (b"/", b"?", b"=") and (b"/" in prefix or b"?" in prefix):
        return True
    return _FORM_PARAMS.fullmatch(prefix) is not None


def _fold(buf: bytes, segments: List[Tuple[int, int]], hi: int, run, max_end: int) -> List[Tuple[int, int]]:
    """Join the lines of a folded bare URN: RFC 8792 backslash folding, and
    RFC-style line breaks after "-", ":" or "." (or before "&" inside a
    query).  A line break followed by a file name, a list item or prose is
    not a fold."""
    while True:
        start, e = segments[-1]
        if e >= hi or e <= start:
            return segments
        nxt = _continuation(buf, segments, e, hi, run)
        if nxt is None or nxt[1][1] > max_end:
            return segments
        seg_end, (a, b) = nxt
        segments[-1] = (start, seg_end)
        segments.append((a, b))


def _line_break_after(buf: bytes, i: int, hi: int) -> int:
    """Index after the line break at i (CRLF, LF or CR), or -1."""
    if i < hi and buf[i] == 0x0D:
        return i + 2 if i + 1 < hi and buf[i + 1] == 0x0A else i + 1
    if i < hi and buf[i] == 0x0A:
        return i + 1
    return -1


def _continuation(buf: bytes, segments, e: int, hi: int, run):
    """``(end of this segment, (start, end) of the next)`` when the URN that
    stops at e goes on on the next line; otherwise ``None``."""
    last = buf[e - 1]
    # RFC 8792 section 7: a "\" at the end of a line, the next line's
    # leading white space removed
    if buf[e] == 0x5C:
        nl = _line_break_after(buf, e + 1, hi)
        if nl < 0:
            return None
        q = _HSPACE_RUN.match(buf, nl, min(hi, nl + INDENT_LIMIT)).end()
        if q < hi and buf[q] == 0x5C:  # the '\\' strategy: the next line starts with "\"
            q += 1
        t = run.match(buf, q, hi).end()
        return (e, (q, t)) if t > q else None
    # trailing blanks before the line break
    w = _HSPACE_RUN.match(buf, e, min(hi, e + INDENT_LIMIT)).end()
    if w < hi and buf[w] == 0x7C and last in _TABLE_FOLD_LAST:  # "|": a table cell
        return _table_continuation(buf, segments[-1][0], e, w, hi, run)
    nl = _line_break_after(buf, w, hi)
    if nl < 0:
        return None
    q = _HSPACE_RUN.match(buf, nl, min(hi, nl + INDENT_LIMIT)).end()
    blank_line = False
    if q < hi and buf[q] in _EOL and last == 0x3A:  # ":" then an empty line
        nl2 = _line_break_after(buf, q, hi)
        q = _HSPACE_RUN.match(buf, nl2, min(hi, nl2 + INDENT_LIMIT)).end()
        blank_line = True
    t = run.match(buf, q, hi).end()
    if t <= q:
        return None
    token = buf[q:t]
    after = buf[t] if t < hi else None
    ends_line = after is None or after in _EOL
    if blank_line:
        # a line of its own after the empty line, in URN characters only
        return (e, (q, t)) if ends_line and token[0] in _ALNUM and b":" not in token else None
    first = token[0]
    if token[:4].lower() == b"urn:" or _URL_START.match(token):
        return None  # the next line starts a URN or a URL of its own
    if first == 0x3A and last in _ALNUM and len(token) > 1 and token[1] in _ALNUM:
        # a break just before ":" (the continuation starts with ":name")
        return (e, (q, t)) if ends_line or after in _CLOSERS_AFTER_FOLD else None
    if last == 0x2D and first in _ALNUM:  # "-": RFC formatters break after a hyphen
        return (e, (q, t))
    if first == 0x26 and any(b"?" in buf[a:b] for a, b in segments) and b"=" in token:
        return (e, (q, t))  # a q-component folded before "&"
    if last in (0x3A, 0x2E, 0x2F) and first in _ALNUM:  # ":", ".", "/"
        if last == 0x2E and chr(first).isupper():
            return None  # a new sentence
        if last == 0x2E and _LIST_NUMBER.fullmatch(token):
            return None  # "2." or "3)" starting a numbered list item
        if last == 0x2E and buf[e - 2:e - 1].isdigit() and chr(first).isdigit():
            return (e, (q, t))  # a dotted number (an OID) broken after "."
        closes = ends_line or after in _CLOSERS_AFTER_FOLD
        word = token.rstrip(b".,;:")
        if last == 0x3A and word.isalpha() and len(word) < len(token):
            return None  # "... the urn:ietf:params:oauth:" / "namespace." ends a sentence
        if closes or b":" in word:
            return (e, (q, t))
    return None


_TABLE_FOLD_LAST = frozenset(b":-./")
_TABLE_ROW_LIMIT = 512


def _line_start(buf: bytes, i: int) -> Optional[int]:
    """Start of the line holding buf[i], looking back at most LOOKBACK
    bytes (the context the streaming scanner guarantees); ``None`` when the
    line starts further back."""
    floor = max(0, i - LOOKBACK)
    brk = max(buf.rfind(b"\n", floor, i), buf.rfind(b"\r", floor, i))
    if brk >= 0:
        return brk + 1
    return 0 if i - LOOKBACK <= 0 else None


def _table_continuation(buf: bytes, a: int, e: int, w: int, hi: int, run):
    """A URN split over two rows of an ASCII table: the cell ends at "|"
    (w) and the URN goes on in the same column of the next row, in a cell
    with the same borders."""
    ls = _line_start(buf, a)
    if ls is None:
        return None
    limit = min(hi, w + _TABLE_ROW_LIMIT)
    eol = min((i for i in (buf.find(b"\n", w, limit), buf.find(b"\r", w, limit)) if i >= 0), default=-1)
    if eol < 0:
        return None
    nl = _line_break_after(buf, eol, hi)
    q = nl + (a - ls)
    if q >= hi or buf[q] not in _ALNUM:
        return None
    row, next_row = buf[ls:a], buf[nl:q]
    if len(next_row) != len(row) or b"|" not in row:
        return None
    for x, y in zip(row, next_row):
        if (x == 0x7C) != (y == 0x7C) or (y != 0x7C and y not in _HSPACE):
            return None  # not the same cell borders, or text before the cell
    t = run.match(buf, q, hi).end()
    w2 = _HSPACE_RUN.match(buf, t, min(hi, t + INDENT_LIMIT)).end()
    if w2 >= hi or buf[w2] != 0x7C:
        return None
    return (e, (q, t))


def _yaml_key(buf: bytes, p: int, end: int, hi: int) -> bool:
    """Whether the ":" ending the candidate at p is YAML mapping syntax: the
    candidate alone at the start of its line (or after "- "), the line
    ending there, and the next non-empty line indented deeper."""
    ls = _line_start(buf, p)
    if ls is None or not _YAML_LEAD.fullmatch(buf[ls:p]):
        return False
    w = _HSPACE_RUN.match(buf, end, min(hi, end + INDENT_LIMIT)).end()
    nl = _line_break_after(buf, w, hi)
    while nl >= 0 and nl < hi:
        q = _HSPACE_RUN.match(buf, nl, min(hi, nl + INDENT_LIMIT)).end()
        if q < hi and buf[q] not in _EOL:
            return q - nl > len(buf[ls:p]) - len(buf[ls:p].lstrip(b" \t"))
        nl = _line_break_after(buf, q, hi)
    return False


_YAML_LEAD = re.compile(rb"[ \t]*(?:- )?")


def _elided(text: str, buf: bytes, end: int) -> bool:
    """An elided example, not a URN: "..." inside ("urn:ietf:...:x"), or
    after a cut-off name ("urn:ietf:params:...", "urn:ietf:params:\u2026").
    Dots after a whole name are sentence punctuation, trimmed later."""
    body = text.rstrip(".")
    if "..." in body:
        return True
    cut_off = body[-1:] in (":", "/", "-")
    return cut_off and (len(text) - len(body) >= 3 or buf.startswith(_ELLIPSIS, end))


def _cut_entity(text: str, end: int, segments) -> Tuple[str, int, bool]:
    """An HTML/XML character reference ("&amp;", "&#38;") ends the URN."""
    if "&" not in text:
        return text, end, False
    m = _ENTITY.search(text)
    if m is None:
        return text, end, False
    cut = len(text) - m.start()
    return text[:m.start()], end - cut, True


def _is_template(text: str, terminator: bytes) -> bool:
    """``urn:ietf:params:xml:ns:yang:{module}``, ``urn:foo:<nss>``,
    ``urn:alert:source:[x]``: a placeholder, not a URN."""
    if terminator in (b"{", b"["):
        return True
    return terminator == b"<" and text[-1:] in (":", "/", "=", "-", "(")


def _trim(text: str) -> Optional[str]:
    """Drop trailing sentence punctuation and an unbalanced ")"; ``None``
    when an unbalanced "(" ends the text (a pattern, not a URN)."""
    while text:
        c = text[-1]
        if c in _TRAILING:
            text = text[:-1]
        elif c == ")" and text.count("(") < text.count(")"):
            text = text[:-1]
        elif c == "(":
            return None
        else:
            break
    return text


# --- the fast reading ---------------------------------------------------------
#
# The scanner calls extract() once per "urn:" it meets, so its common cases are
# taken in a few compiled-regex calls here: a bare URN that is neither folded
# nor inside a URL, a URL-embedded one, and a wrapper without white space.
# Every other case (a possible fold, white space in a wrapper, an HTML
# entity, a cap below the NID scan limit ...) goes to _extract, the
# reference reading, so both give the same answer for every input.

_TOKEN_TAIL = re.compile(rb"(?:.*[" + re.escape(bytes(sorted(_TOKEN_STOP))) + rb"])?", re.S)
_FOLD_STARTS = frozenset(b" \t\r\n\\")  # a fold can only start at one of these
_TRIM_LAST = frozenset(".,;!*'?&()")  # _trim changes a text only when it ends in one of these
_TEMPLATE_LAST = frozenset(":/=-(")


def _class(pattern: "re.Pattern[bytes]") -> bytes:
    """The character class body of a _run_pattern."""
    return pattern.pattern[1:-2]


#: per profile: NID token (1), then the RFC 2141 run (2), then the rest of the
#: profile's run (3).  The RFC 2141 repertoire is a subset of every
#: profile's, so group 2 ends where LITERAL_RUN would stop and the match
#: ends where the profile's run does.
_HEADS = {
    profile: re.compile(rb"([A-Za-z0-9][A-Za-z0-9-]{0,%d}:)([%s]*)[%s]*"
                        % (NID_SCAN_LIMIT - 2, _class(LITERAL_RUN), _class(run)))
    for profile, run in _RUNS.items()
}
#: per profile: a whole wrapper without white space, "<" excluded
_WRAPS = {
    profile: re.compile(rb"[Uu][Rr][Nn]:[A-Za-z0-9][A-Za-z0-9-]*:(?>([%s]*)[%s]*)>"
                        % (_class(LITERAL_RUN), _class(run)))
    for profile, run in _RUNS.items()
}
#: per profile: a bare candidate whose whole reading is this one match --
#: the NID token (1), the RFC 2141 run (2), the rest of the run without "&"
#: (an entity or a URL query may cut there; the run is atomic, never given
#: back to satisfy what follows), and then a character that neither
#: starts a fold, a template or an ellipsis: anything else but
#: "\\", "{", "[", "&" and the first byte of U+2026; a blank followed by
#: neither a blank nor a line break; "<" after a character that does not
#: make the text a template; blanks and a table border "|" when the run
#: ends in none of "-:./"; a line break (after blanks) when the run ends in
#: none of "-:./" and the next line does not start with ":", where only a
#: next line starting with "&" could go on (the caller checks).  The character must lie before the read limit.
_PLAIN = {
    profile: re.compile(rb"([A-Za-z0-9][A-Za-z0-9-]{0,%d}:)(?>([%s]*)[%s]*)"
                        rb"(?:(?=[^ \t\r\n\\{\[<&\xe2|]| [^ \t\r\n|])"
                        # blanks and a table border: a cell that may go on in the next row
                        rb"|(?<![-:./])(?=[ \t]*\|)"
                        rb"|(?<![:/=(-])(?=<)"
                        # a line break, unless the next line may go on with ":name"
                        rb"|(?<![-:./])(?=[ \t]*(?:\r\n?|\n)(?![ \t]*:)))"
                        % (NID_SCAN_LIMIT - 2, _class(LITERAL_RUN), _class(run).replace(b"&", b"")))
    for profile, run in _RUNS.items()
}
_TRAILING_STR = "".join(sorted(_TRAILING))


def _embedded_fast(buf: bytes, p: int, lo: int) -> bool:
    """:func:`_embedded`, finding the token start with one regex call."""
    floor = max(lo, p - LOOKBACK)
    if p <= floor or buf[p - 1] in _TOKEN_STOP:
        return False
    return _url_context(buf[_TOKEN_TAIL.match(buf, floor, p).end():p])


def extractor(profile: str, trim: bool, cap: int, fold: bool = True):
    """``read(buf, p, lo, hi)``: :func:`extract` for fixed options, returning
    ``None``, an :class:`OverLong`, or the tuple ``(start, end, form,
    folded, embedded, urn, literal, raw)`` where ``raw`` is the text of
    ``buf[start:end]``."""
    return _make_extractor(profile, bool(trim), cap, bool(fold))


@lru_cache(maxsize=None)
def _make_extractor(profile: str, trim: bool, cap: int, fold: bool):
    head_match = _HEADS[profile].match
    wrap_match = _WRAPS[profile].match
    boundary = _BOUNDARY
    token_stop = _TOKEN_STOP
    fold_starts = _FOLD_STARTS
    trim_last = _TRIM_LAST
    template_last = _TEMPLATE_LAST
    elided = _elided
    reference = _extract
    embedded_at = _embedded_fast
    hspace_match = _HSPACE_RUN.match
    eol = _EOL

    def slow(buf, p, lo, hi):
        cand = reference(buf, p, lo, hi, profile=profile, trim=trim, cap=cap, fold=fold)
        if cand is None or type(cand) is OverLong:
            return cand
        start, end, form, folded, embedded, urn, literal = cand
        raw = urn if not folded and form == "bare" else buf[start:end].decode("ascii")
        return start, end, form, folded, embedded, urn, literal, raw

    if cap < NID_SCAN_LIMIT + 3:
        # the NID token may end beyond the cap's read limit (p + cap + 1):
        # one match cannot read both, take every step
        return slow

    def read(buf, p, lo, hi):
        if p > lo:
            before = buf[p - 1]
            if before in boundary:
                return None  # "return:", "Saturn:", "x.urn:"
            if before == 0x3C:  # "<"
                limit = p + WRAPPER_LIMIT
                m = wrap_match(buf, p, hi if hi < limit else limit)
                if m is not None and m.end() - 1 > m.start(1):
                    e = m.end() - 1
                    urn = buf[p:e].decode("ascii")
                    return p, e, "wrapped", False, False, urn, buf[p:m.end(1)].decode("ascii"), urn
                return slow(buf, p, lo, hi)
            embedded = before not in token_stop and embedded_at(buf, p, lo)
        else:
            embedded = False
        limit = p + cap + 1
        m = head_match(buf, p + 4, hi if hi < limit else limit)
        if m is None:
            return None
        e = m.end()
        if e - p > cap:
            return OverLong(p)
        if embedded:
            amp = buf.find(b"&", m.end(1), e)
            end = amp if amp >= 0 else e
        else:
            end = e
            if fold and e < hi and (buf[e] in fold_starts or buf[e] == 0x7C):
                # a fold needs a line break after at most INDENT_LIMIT blanks
                # (or, in a table, a cell border)
                w = hspace_match(buf, e, min(hi, e + INDENT_LIMIT)).end()
                if buf[e] == 0x5C or (w < hi and (buf[w] in eol or buf[w] == 0x7C)):
                    return slow(buf, p, lo, hi)
        text = buf[p:end].decode("ascii")
        if "&" in text or text[-1] == ":":
            return slow(buf, p, lo, hi)  # an entity may cut it; a ":" may be YAML syntax
        if elided(text, buf, end):
            return None
        terminator = buf[end:end + 1]
        if terminator == b"{" or terminator == b"[" or (terminator == b"<" and text[-1:] in template_last):
            return None  # a template
        if trim and text and text[-1] in trim_last:
            trimmed = _trim(text)
            if trimmed is None:
                return None  # a pattern such as "urn:ietf:id:(\\S+)"
            end -= len(text) - len(trimmed)
            text = trimmed
        if len(text) <= m.end(1) - p:
            return None  # "urn:" NID ":" and nothing after it
        literal_end = m.end(2)
        literal = text if literal_end == end else buf[p:literal_end].decode("ascii")
        return p, end, "bare", False, embedded, text, literal, text

    return read


def batch_extractor(profile: str, trim: bool, cap: int, fold: bool = True):
    """``read_all(buf, positions, pos, n, final, window)``: the candidates
    at ``positions`` (ascending, each a "urn:" in ``buf``, any case) as the
    streaming scanner reads them: a position before ``pos`` (inside the
    previous candidate) is skipped, each is read with ``lo = p - LOOKBACK``
    and ``hi = n`` when ``final`` else ``p + window``.  Returns ``(found,
    pos, overlong)``: the tuples of :func:`extractor` in order, the position
    from which to go on, and the position of an over-long candidate (which
    stops the reading) or -1."""
    return _make_batch(profile, bool(trim), cap, bool(fold))


@lru_cache(maxsize=None)
def _make_batch(profile: str, trim: bool, cap: int, fold: bool):
    read = extractor(profile, trim, cap, fold)
    fast = cap >= NID_SCAN_LIMIT + 3
    plain_match = _PLAIN[profile].match
    head_match = _HEADS[profile].match
    wrap_match = _WRAPS[profile].match
    embedded_at = _embedded_fast
    wrapped_at = _wrapped
    bare = _bare
    run = _RUNS[profile]
    # before "urn:": a token stop other than "<" (so neither embedded nor wrapped)
    plain_before = frozenset(_TOKEN_STOP - {0x3C})
    boundary = _BOUNDARY
    line_ends = frozenset(b" \t\r\n")
    trailing = _TRAILING_STR
    parens = frozenset("()")
    elided = _elided
    overlong = OverLong

    def read_all(buf, positions, pos, n, final, window):
        found = []
        append = found.append
        for p in positions:
            if p < pos:
                continue  # inside the previous candidate
            hi = n if final else p + window
            if fast and p:
                before = buf[p - 1]
                if before in plain_before:
                    limit = p + cap + 1
                    m = plain_match(buf, p + 4, hi if hi < limit else limit)
                    if m is None:
                        # a possible fold, an entity, a template ...: the
                        # whole rule from the run on
                        m = head_match(buf, p + 4, hi if hi < limit else limit)
                        if m is None:
                            pos = p + 1
                            continue
                        e = m.end()
                        if e - p > cap:
                            return found, pos, p
                        cand = bare(buf, p, p - LOOKBACK if p > LOOKBACK else 0, hi, m.end(1), e, run, trim, cap,
                                    fold)
                        if cand is not None:
                            cand = (*cand, cand[5] if not cand[3] else buf[p:cand[1]].decode("ascii"))
                    else:
                        end = m.end()
                        if fold and buf[end] in line_ends and buf.find(b"&", end, end + 2 * INDENT_LIMIT + 4) >= 0:
                            # a line break: "&" starting the next line may continue a query
                            cand = read(buf, p, p - LOOKBACK if p > LOOKBACK else 0, hi)
                        else:
                            cand = end
                            embedded = False
                elif before == 0x3C:  # "<"
                    limit = p + WRAPPER_LIMIT
                    m = wrap_match(buf, p, hi if hi < limit else limit)
                    if m is not None and m.end() - 1 > m.start(1):
                        e = m.end() - 1
                        urn = buf[p:e].decode("ascii")
                        append((p, e, "wrapped", False, False, urn, buf[p:m.end(1)].decode("ascii"), urn))
                        pos = e
                        continue
                    wrapped = wrapped_at(buf, p, hi, profile)  # white space inside
                    if wrapped is not None:
                        append((*wrapped, buf[p:wrapped[1]].decode("ascii")))
                        pos = wrapped[1]
                        continue
                    cand = read(buf, p, p - LOOKBACK if p > LOOKBACK else 0, hi)
                elif before in boundary:
                    pos = p + 1  # "return:", "Saturn:", "x.urn:"
                    continue
                elif embedded_at(buf, p, p - LOOKBACK if p > LOOKBACK else 0):
                    limit = p + cap + 1
                    m = head_match(buf, p + 4, hi if hi < limit else limit)
                    if m is None:
                        pos = p + 1
                        continue
                    e = m.end()
                    if e - p > cap:
                        return found, pos, p
                    amp = buf.find(b"&", m.end(1), e)
                    end = amp if amp >= 0 else e
                    terminator = buf[end:end + 1]
                    if terminator == b"{" or terminator == b"[" or elided(buf[p:end].decode("ascii"), buf, end):
                        pos = p + 1
                        continue
                    if terminator == b"<" and buf[end - 1] in b":/=-(":
                        pos = p + 1
                        continue  # a template
                    cand = end
                    embedded = True
                else:
                    cand = read(buf, p, p - LOOKBACK if p > LOOKBACK else 0, hi)
            else:
                cand = read(buf, p, p - LOOKBACK if p > LOOKBACK else 0, hi)
            if type(cand) is int:
                # the end of a bare candidate read by one match m: the rules
                # that remain are the ellipsis, trimming and the empty NSS
                end = cand
                text = buf[p:end].decode("ascii")
                if "..." in text and elided(text, buf, end):
                    pos = p + 1
                    continue
                urn = text
                if trim:
                    urn = text.rstrip(trailing)
                    if urn[-1] in parens:
                        cand = read(buf, p, p - LOOKBACK if p > LOOKBACK else 0, hi)  # parentheses
                        urn = None
                    else:
                        end -= len(text) - len(urn)
                if urn is not None:
                    if end <= m.end(1):
                        pos = p + 1  # "urn:" NID ":" and nothing after it
                        continue
                    literal_end = m.end(2)
                    if literal_end == p + len(text):
                        literal = text
                    else:
                        literal = buf[p:literal_end].decode("ascii")
                    append((p, end, "bare", False, embedded, urn, literal, urn))
                    pos = end
                    continue
            if cand is None:
                pos = p + 1
            elif type(cand) is overlong:
                return found, pos, p
            else:
                append(cand)
                end = cand[1]
                pos = end if end > p else p + 1
        return found, pos, -1

    return read_all
