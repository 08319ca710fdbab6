"""The scanner's reading of many positions at once, with one fast path.

The fast path takes the commonest cases -- outside a URL, a bare URN after
a blank, a double quote, ">" or "=" that neither a fold, a character
reference nor a template can shape, a quoted or parenthesised one ending
at its closer, a wrapper without white space -- in one compiled-regex call,
and hands the extent to :func:`.reading.finish`, the same function the
reference reading ends with.  Every other case is read by
:func:`.reading.read_at`.  tests/test_fast_paths.py proves both equal on
generated and real text.

Where the compiled accelerator is built (:mod:`urnscan.accel`), its
``plain_reads`` takes the plainest of these candidates -- with no rule to
apply after the match but the pair's, the URL's and the trimming of one
mark -- a run of them at a time, reading the URL context as
:class:`.url.StreamContext` does and leaving it as this loop would, and
hands back the first position it does not take; tests/test_accel.py
proves the two loops equal.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..accel import COMPILED

from ..lazyre import LazyPattern
from .breaks import WORD_CLOSED_BEFORE_COLON as _WORD_CLOSED
from .chars import ALNUM, EOL, LITERAL_RUN, NID_SCAN_LIMIT, RUNS, TOKEN_STOP, class_body, one_line_indent
from .code import MAY_HOLD_PLACEHOLDER
from .options import Reading
from .pairing import Opener, opener_before
from .fold import (BROKEN_STRING_LAST, PAGE_BREAK_LIMIT, adjacent_literal, escaped_quote, literal_closer, next_literal,
                   resume_at)
from .hexdump import in_hexdump_column
from .params import may_end_at_parameter
from .reading import Candidate, OverLong, Rejected, finish, read_at, without_nid
from .rules import Rule
from .trim import TRAILING_RULES, TRIMMABLE
from .wrapper import WRAPPER_LIMIT, escaped_wrapper_at

#: the characters before "urn:" the plain path takes: no opener whose
#: closer a URN may hold, no pattern syntax, no "<" wrapper
_PLAIN_BEFORE = {b" "[0]: None, b"\t"[0]: None, b"\n"[0]: None, b"\r"[0]: None, b">"[0]: None, b"="[0]: None,
                 b","[0]: None, b";"[0]: None, b'"'[0]: Opener.DOUBLE_QUOTE}
#: blanks, then one line break (CRLF, LF or CR), never a CR alone before LF
_ONE_BREAK = rb"[ \t]*(?:\r\n|\r(?!\n)|\n)"

#: what rules out every fold, template, ellipsis and table cell after the
#: run: another ASCII character but a blank, line break, "\\", "{", "[",
#: "<", "&" or "|" (any other byte may start U+2026, a letter that goes
#: on the name or a break opportunity); one blank before a word; "<" of an
#: end tag, or after a character no template ends with; a line break after
#: a character no fold ends with (a name's "-:./", a query's "?="), the
#: next line starting with none of ":", "&", "-" and ".", past its quote
#: marks (quoting.py), nor with a protocol trace's mark ("C: ", fold.py
#: _TRACE_MARK); a line break before a line starting a URN of its own; an
#: empty line after a character a fold may follow but ":" (fold.py folds
#: across one only after ":"), with no page break's "[Page N]" after it
#: (fold.py _PAGE_BREAK); a "." before a line starting with a capital, a
#: new sentence (fold.py _name_piece), but for a protocol trace's mark
#: ("S: "); or the end of what may be read.  Never HTML's "<wbr>", after
#: which the name goes on (breaks.py), nor a line break before one space
#: and more text but "urn:", after which a folded LDIF line goes on
#: (ldif.folded_ldif_line)
_NOTHING_FOLLOWS = (rb"(?!(?:\r\n?|\n) (?![Uu][Rr][Nn]:)[^ \t\r\n])"
                    rb"(?:(?=[^ \t\r\n\\{\[<&|\x80-\xff])|(?=[ \t][^ \t\r\n|])|(?=<[/!])(?!" + _WORD_CLOSED + rb")"
                    rb"|(?<![:/=(-])(?=<)(?!<[Ww][Bb][Rr][ />])(?!" + _WORD_CLOSED + rb")"
                    rb"|(?<![-:./?=])(?=" + _ONE_BREAK + rb"(?![ \t>]*(?:[-:&.]|[A-Z]:[ \t<])))"
                    rb"|(?=[ \t]*(?:\r\n?|\n)[ \t]*[Uu][Rr][Nn]:)"
                    rb"|(?<=[-./?=])(?=" + _ONE_BREAK + rb"[ \t]*[\r\n])"
                    rb"(?!" + _ONE_BREAK + rb"(?s:.){0,%d}?\[Page )" % PAGE_BREAK_LIMIT
                    + rb"|(?<=\.)(?=" + _ONE_BREAK + rb"[ \t]*[A-Z](?!:[ \t<]))|\Z)")


#: where a URN inside a URL may go on on the next line (fold.continuation,
#: which reading._url_fold runs): an RFC 8792 "\\", a table's "|", or a
#: line break after a character a fold may follow or before "-", ":", "&"
#: or ".", past quote marks, or before a protocol trace's mark
_MAY_FOLD_IN_URL = LazyPattern(rb"\\|[ \t]*\||(?<=[-:./?=])[ \t]*(?:\r\n?|\n)"
                               rb"|[ \t]*(?:\r\n?|\n)[ \t>]*(?:[-:&.]|[A-Z]:[ \t<])")


#: blanks, then a line break
_LINE_ENDS = LazyPattern(rb"[ \t]*[\r\n]")


def _without(body: bytes, chars: bytes) -> bytes:
    for c in chars:
        body = body.replace(bytes([c]), b"")
    return body


def _classes(profile: str):
    """The bodies of the literal run's and the profile run's character
    classes, without "&" (a character reference or a URL may cut there)."""
    return _without(class_body(LITERAL_RUN), b"&"), _without(class_body(RUNS[profile]), b"&")


def _class_table(profile: str) -> bytes:
    """``plain_reads``' table: per byte, 1 in the literal run, 2 in the
    profile's run, 4 trimmable, 8 an "&" the profile's run holds."""
    literal, run = (re.compile(b"[" + body + b"]") for body in _classes(profile))
    ampersand = 8 if RUNS[profile].fullmatch(b"&") else 0
    return bytes((1 if literal.fullmatch(bytes([c])) else 0) | (2 if run.fullmatch(bytes([c])) else 0)
                 | (4 if c in TRIMMABLE else 0) | (ampersand if c == 0x26 else 0) for c in range(256))


def _patterns(profile: str):
    """Per profile: the NID token (1) and the RFC 2141 run (2) inside the
    profile's run, no "&" in either (a character reference or a URL may cut
    there), then: (embedded) nothing more, inside a URL; (plain) what rules
    out every other rule; (quote) a "'"
    closing the quote before "urn:", no "'" inside; (paren) a ")" closing
    the "(" before it, no parenthesis inside; (wrapper) a ">" closing
    "<urn:", no white space inside.  None takes the NID "urn": what may be
    a label before a URN is read by :func:`.reading.read_at`."""
    literal, run = _classes(profile)
    not_urn = rb"(?![Uu][Rr][Nn]:)"  # (reading.labelled)
    nid = not_urn + rb"([A-Za-z0-9][A-Za-z0-9-]{0,%d}:)" % (NID_SCAN_LIMIT - 2)

    def head(exclude: bytes) -> bytes:
        return nid + rb"(?>([%s]*)[%s]*)" % (_without(literal, exclude), _without(run, exclude))

    return (re.compile(head(b"")), re.compile(head(b"") + _NOTHING_FOLLOWS), re.compile(head(b"'") + b"(?=')"),
            re.compile(head(b"()") + rb"(?=\))"),
            re.compile(rb"[Uu][Rr][Nn]:" + not_urn + rb"[A-Za-z0-9][A-Za-z0-9-]*:(?>([%s]*)[%s]*)>" % (literal, run)))


def batch_reader(profile: str, reading: Reading, cap: int):
    """``read_all(buf, positions, pos, n, window, context, base,
    first=0)``: the candidates at ``positions[first:]`` (ascending, each a
    "urn:" in ``buf``)
    as the streaming scanner reads them: a position before ``pos`` (inside
    the previous candidate) is skipped; each is read up to ``p + window``,
    or to ``n`` when that is nearer (the caller gives a position with less
    than a window after it only when the buffer ends the input, and reads
    none of a candidate's bytes past ``n``); ``context`` (a :class:`.url.StreamContext`
    at absolute offset ``base`` of ``buf[0]``) gives the URL context.
    Returns ``(found, pos, overlong)``: the :class:`Candidate` tuples in
    order, the position from which to go on, and the :class:`OverLong`
    candidate that stopped the reading, or None."""
    return make_batch(profile, Reading(*map(bool, reading)), cap, PLAIN_READS)


#: the accelerator's ``plain_reads``, or None where it is not built
PLAIN_READS = getattr(COMPILED, "plain_reads", None)
#: what plain_reads makes a Candidate of: its type, its forms, the rules of
#: a quote, a parenthesis and a wrapper, per byte the rule that trims it,
#: the rules of a URN inside a URL and in form parameters, that of a
#: character reference ending it, that of a wrapper folded over lines and
#: that of a bare name an RFC formatter broke after "-"
PLAIN_CONSTS = (Candidate, "bare", "wrapped", Rule.PAIR_QUOTE.value, Rule.PAIR_PAREN.value, Rule.WRAP_1995.value,
                tuple(TRAILING_RULES[c].value if c in TRAILING_RULES else None for c in range(256)),
                Rule.EMBEDDED_URL.value, Rule.EMBEDDED_FORM.value, Rule.CUT_ENTITY.value, Rule.FOLD_WRAPPER.value,
                Rule.FOLD_RFC.value)


@lru_cache(maxsize=None)
def make_batch(profile: str, reading: Reading, cap: int, plain_reads=None):
    """:func:`batch_reader`'s function, taking the plainest candidates with
    ``plain_reads`` (the accelerator's, or None: all in Python; the tests
    build both)."""
    embedded, plain, quoted, parenthesised, wrapper = (pattern.match for pattern in _patterns(profile))
    in_urls = reading.embedded
    in_dumps = reading.code
    token_stop = TOKEN_STOP
    folds = reading.fold
    run = RUNS[profile]
    adjacent = adjacent_literal
    may_hold_placeholder = MAY_HOLD_PLACEHOLDER.search  # read_at reads a wrapper holding one
    may_adjoin = frozenset(b" \t\r\n\"'+.<\\")  # what may follow a literal's closer before the next literal
    plain_before = _PLAIN_BEFORE
    pairs = reading.pair
    quote_rules = [Rule.PAIR_QUOTE]
    paren_rules = [Rule.PAIR_PAREN]
    wrap_rules = (Rule.WRAP_1995.value,)
    closers = {0x22: 0x22, 0x27: 0x27, 0x28: 0x29}  # the closer of each opener the fast path takes
    table = _class_table(profile)
    flags = ((1 if reading.code else 0) | (2 if reading.trim else 0) | (4 if reading.fold else 0)
             | (8 if pairs else 0) | (16 if in_urls else 0))

    broken_string_last = BROKEN_STRING_LAST
    far = cap + 2  # a run reaching this far past "urn:" is longer than the cap

    def read_all(buf, positions, pos, n, window, context, base, first=0):
        found = []
        append = found.append
        if type(positions) is not list:
            positions = list(positions)
        i, count = first, len(positions)
        while i < count:
            if plain_reads is not None:
                i, pos = plain_reads(buf, positions, i, pos, n, window, table, cap, WRAPPER_LIMIT, flags,
                                     PLAIN_CONSTS, found, context, base)
                if i >= count:
                    break
            p = positions[i]
            i += 1
            if p < pos:
                continue  # inside the previous candidate
            # a window past p, final or not: a candidate of the last
            # buffer is read as far as one of any other (and a run of
            # thousands of list items is not read to its end from each)
            hi = n if p > n - window else p + window
            before = buf[p - 1] if p else -1
            escaped = before == 0x3B and escaped_wrapper_at(buf, p)  # "&lt;urn:": read_at reads it (wrapper.py)
            if before in token_stop:
                context.restart(base + p)  # a token starts at p: not inside a URL
                url = None
            else:
                url = context.at(buf, base, p)
            cand = None
            if url is not None and in_urls:
                # inside a URL: the run ends at "&"; no pairing or YAML
                # (a run past the cap is read_at's: none is read further)
                m = embedded(buf, p + 4, min(hi, p + far)) if before not in ALNUM else None  # (after_code: read_at)
                if m is not None and may_end_at_parameter(buf, p, m.end()):
                    m = None  # read_at reads it (.params)
                if m is not None and folds and _MAY_FOLD_IN_URL.match(buf, m.end(), hi) is not None:
                    m = None  # read_at reads it (reading._url_fold)
                if m is not None and buf.find(b"'", m.end(1), m.end()) >= 0:
                    m = None  # read_at reads it (url.url_quoted)
                if m is not None and m.end() - p <= cap and (m.end() >= hi or buf[m.end()] < 0x80):
                    e = m.end()
                    cand = finish(buf, p, hi, m.end(1), [(p, e)], None, -1, buf[p:m.end(2)].decode("ascii"), [url],
                                  url, None, reading)
                    if cand is None:
                        pos = p + 1
                        continue
            elif url is None and before >= 0:
                m = None
                # (an "=" that opens Org's verbatim: read_at reads it)
                if before in plain_before and not escaped and not (
                        before == 0x3D and pairs and opener_before(buf, p, 0) is Opener.EQUALS):
                    # what follows the run is looked at past the cap, so
                    # the run is measured first (one of thousands of list
                    # items on a line was read up to the window, each)
                    head = embedded(buf, p + 4, min(hi, p + far))
                    m = plain(buf, p + 4, hi) if head is not None and head.end() - p <= cap else None
                    opener = plain_before[before]
                    rules = []
                elif pairs and before == 0x27:  # "'"
                    m = quoted(buf, p + 4, min(hi, p + far))
                    opener, rules = Opener.SINGLE_QUOTE, quote_rules[:]
                elif pairs and before == 0x28:  # "("
                    m = parenthesised(buf, p + 4, min(hi, p + far))
                    opener, rules = Opener.PAREN, paren_rules[:]
                elif before == 0x3C:  # "<"
                    w = wrapper(buf, p, hi)
                    if (w is not None and w.end() - 1 > w.start(1) and w.end() <= p + WRAPPER_LIMIT
                            and buf[w.end() - 2] != 0x2F
                            and not (in_dumps and (buf.find(b"...", p, w.end()) >= 0
                                                   or may_hold_placeholder(buf, p + 4, w.end()) is not None))):
                        e = w.end() - 1
                        urn = buf[p:e].decode("ascii")
                        cand = Candidate(p, e, "wrapped", False, False, urn, buf[p:w.end(1)].decode("ascii"), urn,
                                         wrap_rules)
                if m is not None and in_urls and may_end_at_parameter(buf, p, m.end()):
                    m = None  # read_at reads it (.params)
                if (m is not None and folds and m.end() < hi and buf[m.end()] in EOL
                        and one_line_indent(buf, p) is not None):
                    m = None  # read_at reads it (fold._one_line)
                if m is not None:
                    e = m.end()
                    if e - p <= cap and buf[e - 1] != 0x3A:
                        closer_at = e if e < hi and buf[e] == closers.get(before) else -1
                        quote_at = literal_closer(buf, m.end(1), e, hi) if folds and closer_at < 0 else -1
                        if (closer_at >= 0 and folds and opener is not Opener.PAREN and e + 1 < hi
                                and buf[e + 1] in may_adjoin and adjacent(buf, e, hi, run, opener, escaped_quote(buf, p - 1))):
                            pass  # adjacent string literals: the fold rule reads them
                        elif quote_at >= 0 and quote_at + 1 < hi and buf[quote_at + 1] in may_adjoin and \
                                next_literal(buf, quote_at, hi) >= 0:
                            pass  # the URN started inside a literal that others follow
                        elif (folds and before == 0x22 and closer_at < 0 and buf[e - 1] in broken_string_last
                              and _LINE_ENDS.match(buf, e, hi) is not None):
                            pass  # a string broken for display: the fold rule reads it (fold.continuation)
                        else:
                            cand = finish(buf, p, hi, m.end(1), [(p, e)], opener, closer_at,
                                          buf[p:m.end(2)].decode("ascii"), rules, None, None, reading)
                            if cand is None:
                                pos = p + 1
                                continue
            if cand is None:
                if without_nid(buf, p, hi) and not escaped:
                    pos = p + 1
                    continue
                cand = read_at(buf, p, hi, profile=profile, reading=reading, cap=cap, context=url)
            elif in_dumps and in_hexdump_column(buf, p):
                cand = None  # the text column of a hex dump: bytes, not text (as read_at reads it)
            if cand is None:
                pos = p + 1
            elif type(cand) is Rejected:
                pos = cand.end if cand.end > p else p + 1  # a "urn:" inside a template is part of it
            elif type(cand) is OverLong:
                return found, pos, cand
            else:
                append(cand)
                pos = resume_at(buf, p, cand.end, cand.rules)
        return found, pos, None

    return read_all


__all__ = ["batch_reader", "Candidate"]
