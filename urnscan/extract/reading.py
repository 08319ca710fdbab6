"""The reading rules in order: where the candidate whose ``urn:`` is at a
given position starts and ends, and which rules shaped it.

This is the one reading of every rule; the scanner's fast path
(:mod:`.fast`) takes the common case in one regex call and is tested equal
to this reading.
"""
from __future__ import annotations

import unicodedata
from typing import List, NamedTuple, Optional, Tuple, Union

from ..diagnosis import FULLWIDTH_FIRST, FULLWIDTH_LAST
from ..lazyre import LazyPattern
from .chars import (ALNUM, BOUNDARY_BYTES, EOL, HSPACE, INDENT_LIMIT, LITERAL_RUN, LOOKBACK, NID_SCAN_LIMIT,
                    NID_TOKEN, RUNS, SENTENCE_MARKS, URL_START, after_code, blanks_end, line_break_after,
                    mnemonic_subfield_at)
from .code import (MAY_HOLD_PLACEHOLDER, concatenated, continued_prefix, epc_pattern, has_placeholder, is_pattern,
                   is_template)
from .elision import elided, elided_before_closer
from .hexdump import in_hexdump_column
from .ical import content_line_indent, unfold
from .ldif import folded_ldif_line, in_ldif_record
from .params import folded_parameter_end, parameter_end
from .breaks import joined_over_breaks
from .entity import cut_by_reference, entity_read, written_length
from .fold import Overflow, fold, literal_closer, literals, literals_inside, next_literal
from .layout import example_colon, key_colon, qname_colon
from .lists import file_url_path_end, list_end, url_query_start
from .url import url_quoted
from .options import Reading
from .pairing import Opener, closed_at, delimiter_closer, opener_before, pair_rule, paired_run
from .escapes import ESCAPED_UNDERSCORE, JSON_SLASH, ROFF_HYPHEN, escaped_run, segments_without
from .rules import JOINING, Rule
from .trim import TRIMMABLE, trim
from .wrapper import empty_element_name, escaped_wrapper_at, wrapped



class Candidate(NamedTuple):
    start: int  # buffer index of "urn:"
    end: int  # exclusive
    form: str  # "bare" or "wrapped"
    folded: bool
    embedded: bool
    urn: str
    literal: str  # the untrimmed RFC 2141 span (seed 000 section 2.4)
    raw: str  # buf[start:end]
    rules: Tuple[str, ...]


class OverLong(NamedTuple):
    """A run of URN characters from ``start`` longer than the cap; the
    streaming layer finds where it ends without buffering it.  A URN
    joined over lines past the cap goes on to the end of the run from
    ``resume`` (:class:`.fold.Overflow`); otherwise ``resume`` is -1 and it
    ends with the run from ``start``."""

    start: int
    resume: int = -1


class Rejected(NamedTuple):
    """Text read up to ``end`` that is a template, a pattern or an elided
    example: no URN, and a ``urn:`` inside it is part of it too."""

    end: int


Found = Union[Candidate, OverLong, Rejected, None]
_new = tuple.__new__  # a Candidate without NamedTuple's argument handling


def read_at(buf: bytes, p: int, hi: int, *, profile: str, reading: Reading, cap: int,
            context: Optional[Rule] = None) -> Found:
    """The candidate whose ``urn:`` is at ``buf[p:p+4]``, reading at most
    ``LOOKBACK`` bytes before p (all of ``buf[:p]`` is input) and up to
    ``hi``; ``context`` is the URL context of the token before p
    (:func:`.url.url_context`).  ``None`` when there is no URN there."""
    found = _read(buf, p, hi, profile, reading, cap, context)
    if found is not None and reading.code and in_hexdump_column(buf, p):
        return None  # bytes shown as characters, not text (looked at last: it is seldom so)
    return found


def _read(buf: bytes, p: int, hi: int, profile: str, reading: Reading, cap: int, context: Optional[Rule]) -> Found:
    if p and buf[p - 1] in BOUNDARY_BYTES and not (buf[p - 1] in ALNUM and after_code(buf, p)):
        return None  # "return:", "Saturn:", "x.urn:"
    opener = opener_before(buf, p, 0)
    escaped = opener is None and escaped_wrapper_at(buf, p)
    if opener is Opener.ANGLE or escaped:
        found = wrapped(buf, p, hi, profile, escaped)
        if found is not None:
            end, joined, folded = found
            if reading.code and (b"..." in joined or (MAY_HOLD_PLACEHOLDER.search(joined) is not None
                                                      and has_placeholder(joined))):
                # "<URN:IANA:...>": an elided example, as bare; "<urn:uuid:%s>",
                # "<urn:uuid:$id>": a template, as bare
                return Rejected(end)
            rules = (Rule.WRAP_1995.value, Rule.FOLD_WRAPPER.value) if folded else (Rule.WRAP_1995.value,)
            literal = _literal(buf, p, end)
            label = labelled(buf, p, end) if reading.trim else 0
            if label:
                p, joined, literal, rules = p + label, joined[label:], literal[label:], rules + (Rule.TRIM_LABEL.value,)
            return Candidate(p, end, "wrapped", folded, False, joined.decode("ascii"), literal,
                             buf[p:end].decode("ascii"), rules)
    nid = NID_TOKEN.match(buf, p + 4, min(hi, p + 4 + NID_SCAN_LIMIT))
    if nid is None:
        if reading.fold and p + 4 < hi and buf[p + 4] in EOL:
            return _after_scheme_break(buf, p, hi, profile, reading, cap, context)
        broken = _BROKEN_NID.match(buf, p + 4, min(hi, p + 4 + NID_SCAN_LIMIT)) if reading.fold else None
        if broken is not None:
            return _after_nid_break(buf, p, broken.end(1), hi, profile, reading, cap, context)
        nid = _nid_with_reference(buf, p, hi)
        if nid is None:
            return None  # (a "-" written as a character reference goes on to the rules of finish())
    nss_start = nid.end()
    if nss_start - p > cap:
        return OverLong(p)  # the NID token alone is longer than the cap
    run = RUNS[profile]
    limit = min(hi, p + cap + 1)
    embedded = context is not None and reading.embedded
    backslashes: List[int] = []
    if embedded:
        amp = buf.find(b"&", nss_start, limit)  # inside a URL a URN ends at "&"
        stop = limit if amp < 0 else amp
        quote = buf.find(b"'", nss_start, stop)
        if quote >= 0 and url_quoted(buf, p):
            stop = quote  # the quote the URL opened after closes it
        e, cut = run.match(buf, nss_start, stop).end(), False
        e = letters_on(buf, e, stop, lambda i: run.match(buf, i, stop).end())
        if reading.pair and opener is Opener.PERCENT:
            e, cut = paired_run(buf, nss_start, e, run, opener)
    else:
        paired = opener if reading.pair else None

        def run_from(i: int) -> Tuple[int, bool]:
            """(end, cut) of the run from i, carried over letters outside ASCII."""
            end, closed = paired_run(buf, i, limit, run, paired)
            if closed:
                return end, True
            return letters_on(buf, end, limit, lambda j: paired_run(buf, j, limit, run, paired)[0]), False

        e, cut = run_from(nss_start)
        if reading.fold and not cut and e < limit and buf[e] == 0x5C:
            escaped = _JSON_ESCAPES if opener is Opener.DOUBLE_QUOTE else _ROFF_ESCAPES
            backslashes, e, cut = escaped_run(buf, e, limit, run_from, escaped)
        if paired is None and reading.pair and not cut:
            closer = delimiter_closer(buf, p, nss_start, e)
            if closer >= 0:
                e, cut = closer, True
    parameter = False
    if reading.embedded and not cut:
        at = parameter_end(buf, p, nss_start, e)
        if at < e:
            e, parameter = at, True
    if e - p > cap:
        # a list's first item ending within the cap is no over-long
        # candidate: finish() cuts it there, and the next items are read
        # one by one (a line of 300 ISBN URNs joined by ";" gave one
        # over-long hit and none of its names)
        item_end = list_end(buf, p, nss_start, backslashes[0] if backslashes else e) if reading.trim else -1
        if item_end < 0:
            return OverLong(p)
        if item_end <= nss_start:
            return None  # an item with no NSS (as finish() says)
    return _bare(buf, p, hi, nss_start, e, cut, opener, profile, reading, cap, context if embedded else None,
                 backslashes, parameter)


def _nid_with_reference(buf: bytes, p: int, hi: int):
    return _NID_WITH_REFERENCE.match(buf, p + 4, min(hi, p + 4 + 2 * NID_SCAN_LIMIT))


def labelled(buf: bytes, p: int, end: int) -> int:
    """How many characters of the candidate ``buf[p:end]`` are a label:
    each "urn:" that another "urn:", a NID and a NSS follow, when the
    candidate's NID would be "urn" (``URN:URN:dns:foo.bar:12345``, a
    whois++ record's "URN:" field; ``urn:urn:ietf:rfc:2141``).  RFC 2141
    section 2.1 reserves that NID, RFC 8141 section 4.4 asks that NIDs not
    be confused with URI schemes: a reader sees a label, or the scheme
    written twice, before the URN.  ``urn:urn:NSS`` (no NSS after the
    inner NID) is left whole, to be judged as written."""
    q = p
    while end - q > 8 and buf[q + 4:q + 8].lower() == b"urn:":
        q += 4
    if q == p:
        return 0
    nid = NID_TOKEN.match(buf, q + 4, min(end, q + 4 + NID_SCAN_LIMIT))
    return q - p if nid is not None and nid.end() < end else 0


def without_nid(buf: bytes, p: int, hi: int) -> bool:
    """Whether :func:`read_at` finds nothing at p for want of a NID: no
    NID token and its ":" follow the "urn:" (``xmlns:h="urn:x-hex"``,
    ``urn:example``, RFC 8141 section 2: a URN has a NSS), nor a line
    break that a fold may carry over (:func:`_after_scheme_break`), and no
    "<" before it opens a wrapper.  The fast paths pass such a candidate
    over without reading it."""
    if p and buf[p - 1] == 0x3C:
        return False
    if p + 4 < hi and buf[p + 4] in EOL:
        return _no_name_after_break(buf, p, hi)
    if _BROKEN_NID.match(buf, p + 4, min(hi, p + 4 + NID_SCAN_LIMIT)) is not None:
        return False  # (_after_nid_break)
    return _nid_with_reference(buf, p, hi) is None


def _typeset_or_on_url(buf: bytes, p: int) -> bool:
    """Whether the "urn:" at p is written in lower case, as typeset URNs
    are, or goes on a URL's path or query (after "/" or "=")."""
    return buf[p:p + 4] == b"urn:" or (p > 0 and buf[p - 1] in b"/=")


def _no_name_after_break(buf: bytes, p: int, hi: int) -> bool:
    """Whether :func:`_after_scheme_break` finds nothing after the "urn:" at
    p that a line break follows: it is not written in lower case nor on a
    URL, or the next line, not empty, starts with no NID token."""
    if not _typeset_or_on_url(buf, p):
        return True
    q = blanks_end(buf, line_break_after(buf, p + 4, hi), hi)
    return q < hi and buf[q] not in EOL and NID_TOKEN.match(buf, q, min(hi, q + NID_SCAN_LIMIT)) is None


def letters_on(buf: bytes, e: int, limit: int, run_from) -> int:
    """The end of a run of URN characters that ends at ``e``, carried over
    the Latin, Greek and Cyrillic letters and digits outside ASCII that
    follow it (``urn:example:café``:
    a reader sees one name, which RFC 8141 section 2 asks to percent-encode,
    so it is reported whole and judged invalid, never cut before the
    ``é``), and over the fullwidth forms of ASCII letters and digits an
    input method leaves (``urn:isbn:03064061５2``: cut before the ``５`` it
    would read as another, well-formed name; whole, it is judged invalid
    and its look-alikes said, namespaces.md §3.7); ``run_from(i)`` is where
    the run from i ends.  Stops before anything else, a broken UTF-8
    sequence or ``limit``."""
    while e < limit and buf[e] >= 0x80:
        lead = buf[e]
        n = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4 if 0xF0 <= lead <= 0xF4 else 0
        if not n or e + n > limit:
            return e
        try:
            char = buf[e:e + n].decode("utf-8")
        except UnicodeDecodeError:
            return e
        if not _goes_on_a_word(char):
            return e
        e = run_from(e + n)
    return e


#: letters of the scripts that separate words with spaces, Latin, Greek and
#: Cyrillic: their first blocks (U+0000-U+052F), and by name the rest of
#: them (Latin Extended Additional's Vietnamese letters, U+1E00-U+1EFF,
#: Greek Extended's, the Latin ligatures U+FB00-U+FB06 a PDF's text holds,
#: "ﬁ"); a letter of a script written without spaces (Chinese, Japanese)
#: after a URN starts the next word
_WORD_SCRIPTS_END = 0x530
_WORD_SCRIPTS = ("LATIN ", "GREEK ", "CYRILLIC ")
#: the combining marks of those scripts (Unicode 15.0, section 7.9: the
#: Combining Diacritical Marks, their Extended and Supplement blocks),
#: which a decomposed text writes after a letter ("e" U+0301 for "é")
_DIACRITICS = ((0x300, 0x370), (0x1AB0, 0x1B00), (0x1DC0, 0x1E00))


def _goes_on_a_word(char: str) -> bool:
    """Whether ``char``, outside ASCII, goes on the word it follows
    (:func:`letters_on`): a letter or digit of the scripts written with
    spaces between words, a combining mark of theirs, or a fullwidth
    letter or digit -- not a number of another kind (Unicode's category
    No: a footnote's superscript, ``urn:isbn:0451450523¹``, a fraction)."""
    code = ord(char)
    if char.isalnum() and unicodedata.category(char) != "No":
        return (code < _WORD_SCRIPTS_END or FULLWIDTH_FIRST <= code <= FULLWIDTH_LAST
                or unicodedata.name(char, "").startswith(_WORD_SCRIPTS))
    return any(lo <= code < hi for lo, hi in _DIACRITICS)


def _after_scheme_break(buf: bytes, p: int, hi: int, profile: str, reading: Reading, cap: int,
                        context: Optional[Rule]) -> Found:
    """A URN broken right after its "urn:" (LaTeX's ``\\url`` breaks after a
    ":" in a typeset reference list: ``URN: urn:`` then
    ``nbn:de:hbz:465-20070308-164527-0.``): read as if the next line's text
    followed "urn:", then placed back where it stands.  None unless the
    next line starts with a NID token that is not a URN of its own, and
    unless the "urn:" is written in lower case, as typeset URNs are, or
    goes on a URL's path or query: "... is not a URN:" ending a line of
    prose is the word, before an example."""
    if not _typeset_or_on_url(buf, p):
        return None
    q = blanks_end(buf, line_break_after(buf, p + 4, hi), hi)
    fold = Rule.FOLD_RFC
    if q < hi and buf[q] in EOL:  # an empty line between: onto a lone token, as fold.continuation takes one
        q = blanks_end(buf, line_break_after(buf, q, hi), hi)
        lone = _LONE_TOKEN.match(buf, q, min(hi, q + cap + _FOLD_SLACK))
        if lone is None:
            return None
        fold = Rule.FOLD_BLANK
    if q >= hi or NID_TOKEN.match(buf, q, min(hi, q + NID_SCAN_LIMIT)) is None or buf[q:q + 4].lower() == b"urn:":
        return None
    return _read_across(buf, p, p + 4, q, hi, fold, profile, reading, cap, context)


def _read_across(buf: bytes, p: int, cut: int, q: int, hi: int, fold: Rule, profile: str, reading: Reading,
                 cap: int, context: Optional[Rule]) -> Found:
    """The candidate at p read as if the text from q (the next line's, past
    its indentation) followed ``buf[p:cut]``, then placed back where it
    stands: its span from p over the break, ``literal`` the first line's
    part, ``fold`` its first rule."""
    lo = max(0, p - LOOKBACK)
    joined = buf[lo:cut] + buf[q:min(hi, q + cap + _FOLD_SLACK)]
    shift = q - cut
    found = _read(joined, p - lo, len(joined), profile, reading, cap, context)
    if found is None:
        return None
    if type(found) is OverLong:
        return OverLong(p)
    if type(found) is Rejected:
        return Rejected(found.end + lo + shift)
    end = found.end + lo + shift
    rules = (fold.value,) + tuple(r for r in found.rules if r != fold.value)
    return found._replace(start=p, end=end, folded=True, literal=buf[p:cut].decode("ascii"),
                          raw=buf[p:end].decode("utf-8", "replace"), rules=rules)


#: the first part of a NID that a line break after one of its hyphens cuts
#: ("urn:schemas-upnp-" then "org:service:WANIPConnection:2": RFC formatters
#: break after a hyphen)
_BROKEN_NID = LazyPattern(rb"([A-Za-z0-9][A-Za-z0-9-]*-)[ \t]*(?:\r\n?|\n)")
#: the longest NID (RFC 8141 section 2: 2 to 32 characters)
NID_MAX = 32


def _after_nid_break(buf: bytes, p: int, h: int, hi: int, profile: str, reading: Reading, cap: int,
                     context: Optional[Rule]) -> Found:
    """A URN whose NID a line break cuts after a hyphen (``urn:schemas-``
    then ``upnp-org:device:MediaRenderer:1``): read as if the next line's
    text, past its indentation, followed the hyphen, then placed back where
    it stands (``fold:rfc``); ``h`` is where the line's part ends, past
    its hyphen.  None unless the next line starts with the rest of a NID,
    its ":" and a NSS, the whole NID no longer than a NID may be, and the
    next line is not a URN of its own."""
    q = blanks_end(buf, line_break_after(buf, blanks_end(buf, h, hi), hi), hi)
    rest = NID_TOKEN.match(buf, q, min(hi, q + NID_SCAN_LIMIT))
    if rest is None or buf[q:q + 4].lower() == b"urn:" or (h - p - 4) + (rest.end() - 1 - q) > NID_MAX:
        return None
    return _read_across(buf, p, h, q, hi, Rule.FOLD_RFC, profile, reading, cap, context)


#: a line holding one token (after its indentation)
_LONE_TOKEN = LazyPattern(rb"[^ \t\r\n]+[ \t]*(?:\r\n?|\n|\Z)")

#: a NID token whose "-" is written as a character reference, as HTML
#: attributes escape it ("urn:uddi&#45;org:api_v2:..."): finish() decodes
#: the references of the text
_NID_WITH_REFERENCE = LazyPattern(rb"[A-Za-z0-9](?:[A-Za-z0-9-]|&#0*45;)*:")

#: how far past the cap a URN broken after "urn:" is read on (the fold,
#: page-break and trimming rules look a little past a URN's end; within
#: the scanner's look-ahead window, 2 caps and 3 KiB, whatever the cap)
_FOLD_SLACK = 2048
#: the escapes a name goes on over (urnscan.extract.escapes): roff's "\\-"
#: and Markdown's and TeX's "\\_" anywhere, a JSON string's "\\/" inside
#: double quotes (man pages quote their headings, so all three there)
_ROFF_ESCAPES = bytes((ROFF_HYPHEN, ESCAPED_UNDERSCORE))
_JSON_ESCAPES = bytes((ROFF_HYPHEN, JSON_SLASH, ESCAPED_UNDERSCORE))


def _literal(buf: bytes, p: int, e: int) -> str:
    return buf[p:LITERAL_RUN.match(buf, p + 4, e).end()].decode("ascii")


def _bare(buf: bytes, p: int, hi: int, nss_start: int, e: int, cut: bool, opener: Optional[Opener], profile: str,
          reading: Reading, cap: int, context: Optional[Rule], backslashes: List[int], parameter: bool) -> Found:
    """The rest of :func:`read_at` for a bare candidate whose NID token ends
    at ``nss_start`` and whose run ends at ``e`` (at most ``cap`` after p;
    ``cut``: at the closer of its opener or delimiter; ``context``: inside
    a URL, at its "&"; ``backslashes``: of roff hyphens, left out;
    ``parameter``: before the next parameter of a URI, :mod:`.params`)."""
    literal = _literal(buf, p, e)
    rules: List[Rule] = [pair_rule(opener)] if cut else [Rule.CUT_PARAMETER] if parameter else []
    closed = opener is not None and closed_at(opener, buf, e, hi)
    segments = [(p, e)]
    key: Optional[Rule] = None  # the rule that drops a key's ":"
    if context is not None:
        rules.append(context)
        if reading.fold and not closed:
            segments = _url_fold(buf, segments, hi, nss_start, profile, cap, rules)
            if type(segments) is Overflow:
                return OverLong(p, segments.last)
    elif backslashes:
        segments = segments_without(p, backslashes, e)
        escaped = {buf[b + 1] for b in backslashes}
        if ROFF_HYPHEN in escaped:
            rules.append(Rule.DECODE_ROFF)
        if JSON_SLASH in escaped:
            rules.append(Rule.DECODE_JSON)
        if ESCAPED_UNDERSCORE in escaped:
            rules.append(Rule.DECODE_UNDERSCORE)
    else:
        if reading.fold and not closed:
            markup: List[bool] = []
            segments = joined_over_breaks(buf, segments, hi, RUNS[profile], p + cap, cut_by_reference, markup)
            if len(segments) > 1:
                e = segments[-1][1]
                if len(markup) < len(segments) - 1:
                    rules.append(Rule.DECODE_BREAK)
                if markup:
                    rules.append(Rule.DECODE_MARKUP)
        key = key_colon(buf, p, e, hi) if reading.trim and buf[e - 1] == 0x3A else None
        # (a name joined over break opportunities is joined no further)
        quote_at = (literal_closer(buf, nss_start, e, hi) if reading.fold and not closed and key is None
                    and len(segments) == 1 else -1)
        first = next_literal(buf, quote_at, hi) if quote_at >= 0 else -1
        if first >= 0:
            # a literal that opens a placeholder after the one the URN starts
            # inside makes the whole a template
            if reading.code and buf[first] in _TEMPLATE_START:
                return Rejected(e)
            segments = (literals_inside(buf, p, quote_at, first, hi, RUNS[profile], p + cap, rules, opener)
                        or segments)
        joined: Union[List, Overflow] = segments
        indent = content_line_indent(buf, p) if reading.fold and not closed and len(segments) == 1 else None
        unfolded = Rule.FOLD_CONTENT_LINE
        if (indent is None and reading.fold and not closed and len(segments) == 1
                and folded_ldif_line(buf, e, hi) and in_ldif_record(buf, p)):
            indent, unfolded = b"", Rule.FOLD_LDIF  # an LDIF line folded by one space, RFC 2849 note 2
        if indent is not None:
            joined = unfold(buf, segments, hi, RUNS[profile], p + cap, indent)
            if type(joined) is not Overflow and len(joined) > 1:
                rules.append(unfolded)
        if reading.fold and not closed and key is None and type(joined) is not Overflow and len(joined) == 1:
            joined = fold(buf, segments, hi, RUNS[profile], p + cap, opener if reading.pair else None, rules)
        elif reading.fold and closed and (opener is Opener.DOUBLE_QUOTE or opener is Opener.SINGLE_QUOTE):
            joined = literals(buf, segments, hi, RUNS[profile], p + cap, opener, rules)
        if type(joined) is Overflow:
            return OverLong(p, joined.last)  # folded past the cap: over-long, never cut short
        if reading.embedded and len(joined) > 1:
            cut = folded_parameter_end(buf, p, joined)
            if cut is not joined:
                joined = cut
                rules.append(Rule.CUT_PARAMETER)
        segments = joined
    closer_at = segments[-1][1] if closed else -1
    return finish(buf, p, hi, nss_start, segments, opener, closer_at, literal, rules, context, key, reading,
                  len(backslashes))


def _url_fold(buf: bytes, segments: List, hi: int, nss_start: int, profile: str, cap: int,
              rules: List[Rule]) -> Union[List, Overflow]:
    """A URL broken across lines goes on as a bare URN does (a reference
    list's ``http://nbn-resolving.org/urn:nbn:de:bvb:12-`` then
    ``bsb11002233-6`` on the next line): the fold rules, but never past an
    "&", where a URN inside a URL ends, nor once the URL's own query has
    begun (``finish`` cuts it off).  An :class:`~.fold.Overflow` when it
    goes on past the cap."""
    p, e = segments[0]
    if url_query_start(buf[p:e], nss_start - p) >= 0:
        return segments
    folded: List[Rule] = []
    joined = fold(buf, list(segments), hi, RUNS[profile], p + cap, None, folded)
    if type(joined) is Overflow:
        return joined
    for i in range(1, len(joined)):
        a, b = joined[i]
        amp = buf.find(b"&", a, b)
        if amp >= 0:
            joined = joined[:i] + [(a, amp)] if amp > a else joined[:i]
            break
    if len(joined) > 1:
        rules.extend(folded)
    return joined


def _cut_short(segments, end: int, text: bytes, kept: int):
    """``(segments, end, text)`` of a name whose (joined) text is cut to its
    first ``kept`` bytes: a cut inside an earlier piece of a joined name
    drops the pieces after it, and the name ends in that piece."""
    if len(segments) == 1:
        return segments, end - (len(text) - kept), text[:kept]
    left = kept
    for i, (a, b) in enumerate(segments):
        if left <= b - a:
            return segments[:i] + [(a, a + left)], a + left, text[:kept]
        left -= b - a
    return segments, end, text


def finish(buf: bytes, p: int, hi: int, nss_start: int, segments, opener: Optional[Opener], closer_at: int,
           literal: str, rules: List[Rule], context: Optional[Rule], key: Optional[Rule], reading: Reading,
           escapes: int = 0) -> Found:
    """The rules that judge an extent once it is known: character
    references, code, keys (``key``: the rule that drops the ":" of a YAML
    key or a definition list's term, :func:`.layout.key_colon`), trimming and
    the empty NSS.  ``closer_at`` is where the opener's closer ends the first
    line (-1 when it does not); ``escapes`` of the gaps between ``segments``
    are a backslash left out, not a fold."""
    if reading.trim:
        cut = list_end(buf, p, nss_start, segments[0][1])
        if cut >= 0:
            if cut <= nss_start:
                # "urn:a:" then "/urn:...": an item with no NSS, none whatever
                # follows (only the empty NSS below decides it; a run of such
                # items to the end of a long line was read to there by _code
                # from each of them)
                return None
            segments, closer_at = [(p, cut)], -1
            rules.append(Rule.CUT_LIST)
        cut = buf.find(b"$$", nss_start, segments[0][1])
        if cut < 0:
            cut = mnemonic_subfield_at(buf, p, nss_start, segments[0][1])
        if cut > nss_start:
            # "$$" delimits the subfields of a MARC record in Aleph's
            # sequential export and MARC mnemonic text ("$$0http://urn.fi/
            # URN:NBN:fi:au:slm:s1227$$9FENNI"), no name holds it; "$" and
            # a code do in a line of MARC mnemonic text ("=024  7\$aurn:nbn:
            # de:bvb:12-bsb00041099-5$2urn")
            segments, closer_at = [(p, cut)], -1
            rules.append(Rule.CUT_SUBFIELD)
    end = segments[-1][1]
    text = buf[p:end] if len(segments) == 1 else b"".join([buf[a:b] for a, b in segments])
    joined = len(segments)
    if context is not None:
        query = url_query_start(text, nss_start - p)
        if query >= 0:
            segments, end, text = _cut_short(segments, end, text, query)
            rules.append(Rule.CUT_URL_QUERY)
        cut = file_url_path_end(buf, p, text, nss_start - p)
        if cut >= 0:
            segments, end, text = _cut_short(segments, end, text, cut)
            rules.append(Rule.CUT_URL_PATH)
        if text.endswith(b"/*") and len(text) - 2 > nss_start - p:
            # ".../urn:x:calendar-query/*": a path's wildcard step
            segments, end, text = _cut_short(segments, end, text, len(text) - 2)
            rules.append(Rule.TRIM_URL_SLASH)
    entity = False
    written: Optional[bytes] = None  # the name as written, when references in it were decoded
    if b"&" in text:
        kept, text_of_markup = entity_read(text)
        if kept < 0:
            return Rejected(end)  # "urn:xmpp:tmp:&SN;:0": built from a declared entity's text
        if kept < len(text):
            segments, end, text = _cut_short(segments, end, text, kept)
            rules.append(Rule.CUT_ENTITY)
            entity = True
        if text_of_markup is not None:
            written, text = text, text_of_markup
            rules.append(Rule.DECODE_ENTITY)
    decoded = written is not None
    written_segments, written_end = segments, end
    trimming, _, _, code, _ = reading  # (tuple unpacking: this runs for every hit)
    if code and _code(buf, p, hi, text, end, opener, closer_at, entity, segments):
        return Rejected(end)
    if key is not None:
        text, end = text[:-1], end - 1
        rules.append(key)
    if trimming and len(text) - 2 > nss_start - p and _comment_close(text, buf, end, hi):
        text, end = text[:-2], end - 2
        rules.append(Rule.TRIM_COMMENT)
    if trimming and text.endswith(b"):") and text.count(b"(") < text.count(b")"):
        text, end = text[:-1], end - 1  # "(namespace URI⏎urn:x:y:1):": the sentence's ":" after its ")"
        rules.append(Rule.TRIM_COLON)
    if (trimming and text[-1] in TRIMMABLE and not (closer_at == end and _code_literal(buf, p, opener, end, hi))
            and not (context is not None and _url_literal(buf, p, end, hi))):
        trimmed, cut_by = trim(text)
        star = text.rfind(b"*", len(trimmed)) + 1
        if star and epc_pattern(text):  # a pattern of EPCs ends with its "*" component, not a mark
            trimmed, cut_by = text[:star], trim(text[star:])[1]
        if code and trimmed.endswith(b"("):
            return Rejected(end)  # a pattern such as "urn:ietf:id:(\\S+)"
        end -= len(text) - len(trimmed)
        text = trimmed
        rules.extend(cut_by)
    if trimming and text[-1] == 0x3A and (example_colon(buf, text, end, hi) or qname_colon(buf, end, closer_at, hi)):
        text, end = text[:-1], end - 1
        rules.append(Rule.TRIM_COLON)
    if trimming and text[-2:] in _POSSESSIVE and len(text) - 2 > nss_start - p:
        text, end = text[:-2], end - 2  # "urn:xmpp:mam:2's semantics"
        rules.append(Rule.TRIM_POSSESSIVE)
    if context is not None and len(text) > nss_start - p + 1 and text[-1] == 0x2F:
        kept = len(text.rstrip(b"/"))
        end -= len(text) - kept
        text = text[:kept]
        rules.append(Rule.TRIM_URL_SLASH)
    if decoded or len(written_segments) > 1:
        # what trimming cut off may be a reference, or a piece of a joined
        # name: the name ends where what is left of it is written
        kept = len(text) if written is None else written_length(written, len(text))
        segments, end, _ = _cut_short(written_segments, written_end, text if written is None else written, kept)
    if len(segments) < joined:
        escapes = min(escapes, len(segments) - 1)
        if len(segments) == 1:
            rules = [r for r in rules if r not in JOINING]
    if len(text) <= nss_start - p:
        return None  # "urn:" NID ":" and nothing after it
    label = labelled(buf, p, min(end, segments[0][1])) if trimming else 0
    if label:
        p, text, literal = p + label, text[label:], literal[label:]
        rules.append(Rule.TRIM_LABEL)
    folded = len(segments) - escapes > 1
    urn = text.decode("utf-8")
    return _new(Candidate, (p, end, "bare", folded, context is not None, urn, literal,
                            buf[p:end].decode("utf-8", "replace") if len(segments) > 1 or decoded else urn,
                            tuple([r._value_ for r in rules]) if rules else ()))


def _comment_close(text: bytes, buf: bytes, end: int, hi: int) -> bool:
    """Whether ``text``, the candidate ending at ``end``, ends with the close
    of a comment that holds it: C's ``*/`` (``/* ... (urn:x:y)*/``), or the
    ``--`` of XML's ``-->`` (XML 1.0 section 2.5: no comment holds ``--``
    but its close, ``<!-- id: urn:nbn:de:x-1-->``)."""
    if text.endswith(b"*/"):
        return True
    return text.endswith(b"--") and end < hi and buf[end] == 0x3E


_POSSESSIVE = (b"'s", b"'S")
#: what stands before the opening quote of a string literal of code: an
#: assignment, a call, a list or a map ("X = 'urn:oid:2.5.4.'", a JSON
#: value after its key's closing quote and ":")
_CODE_BEFORE_QUOTE = frozenset(b"=([{")
#: what follows the closing quote of an element of a list of literals
_CODE_AFTER_QUOTE = frozenset(b",)]};")


def _code_literal(buf: bytes, p: int, opener: Optional[Opener], closer_at: int, hi: int) -> bool:
    """Whether the quote before the ``urn:`` at p opens a string literal of
    code, whose closing quote at ``closer_at``, right after the URN,
    delimits it: a final ``.`` or ``*`` there is the literal's own, not a
    sentence's.  So is an element of a list of literals, one a line or
    after a ",", followed by code's punctuation (``"urn:ciao:!",`` in a
    table of test cases)."""
    if opener is not Opener.DOUBLE_QUOTE and opener is not Opener.SINGLE_QUOTE:
        return False
    k = p - 2
    while k >= max(0, p - 2 - INDENT_LIMIT) and buf[k] in HSPACE:
        k -= 1
    if k >= 0 and (buf[k] in _CODE_BEFORE_QUOTE or (buf[k] == 0x3A and k > 0 and buf[k - 1] in b"\"'")):
        return True
    first = k < 0 or buf[k] in EOL or buf[k] == 0x2C  # (k < 0: the input's start, p < LOOKBACK)
    return first and closer_at + 1 < hi and buf[closer_at + 1] in _CODE_AFTER_QUOTE


#: how far back the quote opening a URL is looked for
_URL_LITERAL_REACH = 2048
#: a URL's characters up to the URN it holds: none that ends a token
_IN_TOKEN = LazyPattern(rb"[^ \t\r\n\"'<>()\[\]{}|\\^`]*")


def _url_literal(buf: bytes, p: int, end: int, hi: int) -> bool:
    """Whether the URL holding the URN at p is a string literal of code of
    its own, as :func:`_code_literal` tells one, whose closing quote
    stands right after the URN (``"@id": "https://h/?urn=urn:lex:br:x;1!"``,
    ``href="https://h/urn:x:y."``): the literal's last character is the
    URL's."""
    if end >= hi or buf[end] not in b"\"'":
        return False
    q = buf.rfind(buf[end:end + 1], max(0, p - _URL_LITERAL_REACH), p)
    if q < 0 or _IN_TOKEN.match(buf, q + 1, p).end() != p or URL_START.match(buf, q + 1, p) is None:
        return False
    return _code_literal(buf, q + 1, Opener.DOUBLE_QUOTE if buf[q] == 0x22 else Opener.SINGLE_QUOTE, end, hi)


_TEMPLATE_START = frozenset(b"{[<")
#: the openers that quote what they hold: a text cut off inside them is cut
#: off by its writer
_QUOTES = frozenset({Opener.SINGLE_QUOTE, Opener.DOUBLE_QUOTE, Opener.BACKTICK, Opener.LEFT_SINGLE,
                     Opener.LEFT_DOUBLE})
#: what may open a placeholder right after the text ("&lt;" escapes "<";
#: "\" starts a TeX macro)
_PLACEHOLDER_START = _TEMPLATE_START | {0x26, 0x5C}
_PATTERN_BEFORE = frozenset(b"^:/{#|!")
_PATTERN_LAST = frozenset(b"$(")


#: a "*" after these ends a pattern of names, not a name (``...:nodes:*``,
#: ``...:14-qucosa-*``), also before the marks that end a sentence; a
#: string literal holding it whole is a value
#: (``"urn:xmpp:delegation:2:bare:disco#info:*"``)
_WILDCARD_AFTER = frozenset(b":/.-")
#: how far the ")" closing a placeholder is looked for
_PLACEHOLDER_REACH = 80


def _placeholder_in_parentheses(buf: bytes, text: bytes, end: int, hi: int) -> bool:
    """``urn:uuid:(Alice's UA's bits)``: an NSS that opens a parenthesis
    closed, past a blank, after the run -- words standing for the name,
    not the name."""
    nss = text.find(b":", 4) + 1
    return (0 < nss < len(text) and text[nss] == 0x28 and 0x29 not in text
            and buf.find(b")", end, min(hi, end + _PLACEHOLDER_REACH)) >= 0)


def _code(buf: bytes, p: int, hi: int, text: bytes, end: int, opener: Optional[Opener], closer_at: int,
          entity: bool, segments) -> bool:
    """Whether the text is a template, a pattern or an elided example
    rather than a URN (:mod:`.code`, :mod:`.elision`)."""
    after = buf[end] if end < hi else -1
    if (b"..." in text or after == 0xE2) and (
            elided(text, buf, end)
            or (opener in _QUOTES and elided_before_closer(text, buf, end, lambda at: closed_at(opener, buf, at, hi)))):
        return True
    if after in _PLACEHOLDER_START and is_template(buf, text, end, hi):
        return True
    if empty_element_name(text) and (after == 0x3E or buf.startswith(b"&gt;", end, hi)) and (
            buf[p - 1:p] == b"<" or buf[max(0, p - 4):p] == b"&lt;"):
        return True  # "<urn:...:calendar/>", escaped or not: an empty element, its name a QName
    if after == 0x7C and text.count(b"(") > text.count(b")"):
        return True  # "(DAV:|urn:ietf:params:xml:ns:ca(rd|l)dav)": alternatives of a pattern
    if 0x2A in text[-3:] and (closer_at < 0 or not _code_literal(buf, p, opener, closer_at, hi)):
        core = text.rstrip(SENTENCE_MARKS)
        if core[-1] == 0x2A and core[-2] in _WILDCARD_AFTER and not epc_pattern(text):
            return True  # "urn:xmpp:mix:nodes:*" in prose, quoted or not: a wildcard, a pattern of names
    if after == 0x20 and _placeholder_in_parentheses(buf, text, end, hi):
        return True
    if MAY_HOLD_PLACEHOLDER.search(text) is not None and has_placeholder(text):
        return True
    # is_pattern looks at "^" or "(?:" before, ".*", ".+", "(?" inside, "\\"
    # after, and a final "$" or "("
    if ((p and buf[p - 1] in _PATTERN_BEFORE) or after == 0x5C or text[-1] in _PATTERN_LAST or b".*" in text
            or b".+" in text or b"(?" in text) and is_pattern(buf, p, 0, text, end, hi):
        return True
    if closer_at >= 0 and (opener is Opener.SINGLE_QUOTE or opener is Opener.DOUBLE_QUOTE
                           or opener is Opener.BACKTICK) and concatenated(buf, closer_at, hi, p - 1):
        return True
    if (closer_at >= 0 and text[-1] == 0x3A and (opener is Opener.SINGLE_QUOTE or opener is Opener.DOUBLE_QUOTE)
            and continued_prefix(buf, p - 1, closer_at, hi)):
        return True
    # a URN that starts inside a string and ends at its closing quote, a
    # concatenation after it: the string goes on with what is concatenated,
    # as when the quote opens right before the URN ("...%20urn:x:id:" + id)
    if closer_at < 0 and after == 0x22 and concatenated(buf, end, hi):
        return True
    # a quote inside the run that a concatenation follows closes the string
    # the URN started in ("<id>urn:uuid:'+book_id+'</id>"); the quotes
    # between the literals of one string (fold:literal) do not
    for a, b in segments:
        quote = buf.find(b"'", a, min(b, end))
        while quote >= 0:
            if concatenated(buf, quote, hi):
                return True
            quote = buf.find(b"'", quote + 1, min(b, end))
    return False
