"""The streaming scanner: URN candidates in a stream of byte chunks.

The buffer rolls: the unconsumed tail moves to the front before the next
chunk is appended, absolute offsets and line numbers survive refills, and a
candidate is only judged once ``WINDOW`` bytes after its ``urn:`` are in the
buffer (or the input has ended), reading at most ``LOOKBACK`` bytes before
it.  So every chunking of the same input gives the same hits.  A run of
URN characters longer than ``max_urn_length`` is reported as over-long and
skipped without being buffered.

Offsets are byte offsets for byte input; ``scan_text`` maps them to
character offsets.  Lines end at LF, CRLF or a lone CR.
"""
from __future__ import annotations

import os
from bisect import bisect_left, bisect_right
from functools import lru_cache
from numbers import Integral
from typing import Callable, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union

from .accel import COMPILED, accelerated
from .extract import (BOUNDARY_BYTES, LOOKBACK, WRAPPER_LIMIT, Reading, StreamContext, after_code, batch_reader,
                      run_pattern)
from .extract.encoded import DECODE_PERCENT, encoded_urns
from .extract.escaped import escaped_urns
from .extract.lookalike import merge, suspected_urns
from .extract.wrapper import escaped_wrapper_at
from .context import context_snippet
from .errors import SourceError
from .judge import UrnJudge
from .model import DEFAULT_PROFILE, ERROR, Finding, Hit
from .syntax import check_profile

DEFAULT_MAX_URN_LENGTH = 4096
#: the smallest max_urn_length, and the largest: the scanner's look-ahead
#: window is twice it, so this bounds the memory a scan may hold (a few
#: MiB) whatever it is told
MIN_URN_LENGTH_LIMIT = 16
MAX_URN_LENGTH_LIMIT = 1 << 20
DEFAULT_CHUNK_SIZE = 1 << 20


def urn_positions(buf: bytes, start: int, stop: int) -> List[int]:
    """Offsets p in [start, stop) where ``buf[p:p+4]`` is "urn:" in any case.

    A vectorised prefilter: find every ":" with NumPy, then keep those
    preceded by u, r, n (ASCII case folded with | 0x20).  Measured on prose,
    XML and code this runs at about twice the speed of ``bytes.lower()``
    followed by ``bytes.find`` (benchmarks/bench_scan.py) -- on long
    spans; NumPy's fixed cost per call makes ``bytes.find`` the quicker one
    below ``_FIND_BELOW`` bytes (most files of a real corpus).

    This is the reference of the compiled version in ``urnscan/_accel.c``
    (a ``memchr`` for ":", then the same tests), which runs when built
    (:mod:`urnscan.accel`); ``urn_positions_py`` stays this one."""
    if start < 0:
        raise ValueError("start must not be negative")
    end = min(len(buf), stop + 3)
    if end - start < 4:
        return []
    if end - start < _FIND_BELOW:
        return _urn_positions_find(buf, start, end)
    import numpy as np

    a = np.frombuffer(buf, dtype=np.uint8, count=end - start, offset=start)
    colons = np.flatnonzero(a[3:] == 0x3A) + 3
    if not len(colons):
        return []
    # "n", then "r", then "u" before the ":", each test on the survivors only
    colons = colons[(a[colons - 1] | 0x20) == 0x6E]
    colons = colons[(a[colons - 2] | 0x20) == 0x72]
    found = colons[(a[colons - 3] | 0x20) == 0x75] - 3 + start
    if start == 0 and len(found) and found[0] == 0:
        first = [0] if len(buf) > 4 and buf[4] in _NID_START else []
        return first + _after_boundary(np, buf, found[1:])
    return _after_boundary(np, buf, found)


def _after_boundary(np, buf: bytes, found) -> List[int]:
    # "return:", "Saturn:", "x.urn:" never start a candidate (extract.read_at
    # checks the same rule; this drops them before any Python work)
    if not len(found):
        return []
    a = np.frombuffer(buf, dtype=np.uint8)
    tables = _tables(np)
    keep = ~tables[0][a[found - 1]]
    # ... but for a MARC subfield's code after its delimiter ("\x1faurn:",
    # "$aurn:", "\u2021aurn:"; extract.chars.after_subfield_code)
    coded = np.zeros(len(found), dtype=bool)
    two = found >= 2
    delimiter = a[found[two] - 2]
    coded[two] = (delimiter == 0x1F) | (delimiter == 0x24)
    four = found >= 4
    at = found[four]
    coded[four] |= (a[at - 4] == 0xE2) & (a[at - 3] == 0x80) & (a[at - 2] == 0xA1)
    # ... or for a roff font change's name ("\\fIurn:", "\\f(CWurn:";
    # extract.chars.after_font_change)
    three = found >= 3
    at = found[three]
    coded[three] |= (a[at - 3] == 0x5C) & (a[at - 2] == 0x66)
    five = found >= 5
    at = found[five]
    coded[five] |= (a[at - 5] == 0x5C) & (a[at - 4] == 0x66) & (a[at - 3] == 0x28)
    keep |= coded & tables[1][a[found - 1]] & (found >= 1)
    # ... or for a string literal's escape ("\\nurn:", "\\u003curn:"), a
    # URL's "%XX" or a double-byte character: extract.chars.after_code,
    # asked one by one where a backslash or "%" stands in the six bytes
    # before, or a byte 0x81-0xFF two before
    near = np.flatnonzero(~keep & (found >= 2))
    if len(near):
        at = found[near]
        marked = np.zeros(len(at), dtype=bool)
        for back, mark in ((2, 0x5C), (3, 0x25), (4, 0x5C), (6, 0x5C)):
            reach = at >= back
            marked[reach] |= a[at[reach] - back] == mark
        marked |= a[at - 2] >= 0x81  # a double-byte character's first byte (extract.chars.after_double_byte)
        for i, p in zip(near[marked].tolist(), at[marked].tolist()):
            keep[i] = buf[p - 1] in _ALNUM and after_code(buf, p)  # (as _urn_positions_find asks)
    # a NID starts with a letter or digit ("URN: a label" is prose), or
    # the URN breaks after "urn:", or a blank follows it inside a 1995
    # wrapper ("<URN: dns:...>", "&lt;URN: dns:...&gt;", extract/wrapper.py)
    after = found + 4
    inside = after < len(a)
    follows = a[after[inside]]
    at = found[inside]
    opened = a[at - 1] == 0x3C
    escaped = np.flatnonzero((a[at - 1] == 0x3B) & (at >= 4))  # "&lt;" (extract/wrapper.py)
    if len(escaped):
        e = at[escaped]
        opened[escaped] = (a[e - 2] == 0x74) & (a[e - 3] == 0x6C) & (a[e - 4] == 0x26)
    wrapped = ((follows == 0x20) | (follows == 0x09)) & opened
    keep[inside] &= tables[1][follows] | wrapped
    return found[keep].tolist()


#: spans shorter than this are searched with bytes.find (see urn_positions)
_FIND_BELOW = 64 << 10
_ALNUM = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
#: what may follow a candidate's "urn:": a NID's first letter or digit, or
#: a line break (a URN broken right after "urn:", reading.py)
_NID_START = _ALNUM | frozenset(b"\r\n")
_BOUNDARY = frozenset(BOUNDARY_BYTES)


def _urn_positions_find(buf: bytes, start: int, end: int) -> List[int]:
    """:func:`urn_positions` with ``bytes.find`` on the lower-cased span
    (``bytes.lower`` folds ASCII only, as the NumPy path does)."""
    low = buf[start:end].lower()
    find = low.find
    n = len(buf)
    out: List[int] = []
    i = find(b"urn:")
    while i >= 0:
        p = start + i
        if p == 0:
            if n > 4 and buf[4] in _NID_START:
                out.append(0)
        elif ((buf[p - 1] not in _BOUNDARY or (buf[p - 1] in _ALNUM and after_code(buf, p)))
              and (p + 4 >= n or buf[p + 4] in _NID_START
                   or ((buf[p - 1] == 0x3C or escaped_wrapper_at(buf, p)) and buf[p + 4] in b" \t"))):
            out.append(p)
        i = find(b"urn:", i + 4)
    return out


urn_positions_py = urn_positions
urn_positions = accelerated(urn_positions_py)

_TABLES: list = []


def _tables(np):
    """Byte lookup tables: (boundary bytes, what may follow "urn:")."""
    if not _TABLES:
        boundary = np.zeros(256, dtype=bool)
        boundary[list(BOUNDARY_BYTES)] = True
        alnum = np.zeros(256, dtype=bool)
        alnum[list(_NID_START)] = True
        _TABLES.extend((boundary, alnum))
    return _TABLES


class ScanOptions(NamedTuple):
    profile: str = DEFAULT_PROFILE
    trim: bool = True  # trailing sentence punctuation (PRODUCT section 1)
    fold: bool = True  # join folded bare URNs
    max_urn_length: int = DEFAULT_MAX_URN_LENGTH
    pair: bool = True  # a quote or bracket before "urn:" ends it at its closer
    code: bool = True  # templates, placeholders, concatenation, patterns are not URNs
    embedded: bool = True  # inside a URL or form parameters a URN ends at "&"
    context: int = 0  # bytes of text kept each side of a hit in Hit.context (0: none)
    #: the registry file namespace statuses are judged against (None: the
    #: default, "": the shipped snapshot; see
    #: urnscan.namespaces.registry.registry_named)
    registry: Optional[str] = None
    #: also read URNs percent-encoded in URLs ("?urn=urn%3Anbn%3A...": extract.encoded)
    percent: bool = False

    @property
    def window(self) -> int:
        return 2 * self.max_urn_length + WRAPPER_LIMIT + 1024

    @property
    def reading(self) -> Reading:
        return Reading(self.trim, self.fold, self.pair, self.code, self.embedded)

def _options(profile=DEFAULT_PROFILE, trim=True, fold=True, max_urn_length=DEFAULT_MAX_URN_LENGTH,
             context=0, *, pair=True, code=True, embedded=True, registry=None, percent=False) -> ScanOptions:
    from .context import MAX_CONTEXT

    check_profile(profile)
    if not (isinstance(max_urn_length, Integral)
            and MIN_URN_LENGTH_LIMIT <= max_urn_length <= MAX_URN_LENGTH_LIMIT):
        raise ValueError(f"max_urn_length must be a whole number from {MIN_URN_LENGTH_LIMIT} to "
                         f"{MAX_URN_LENGTH_LIMIT}, not {max_urn_length!r}")
    if not isinstance(context, Integral) or not 0 <= context <= MAX_CONTEXT:
        raise ValueError(f"context must be between 0 and {MAX_CONTEXT} bytes")
    return ScanOptions(profile, bool(trim), bool(fold), int(max_urn_length), bool(pair), bool(code), bool(embedded),
                       int(context), None if registry is None else str(registry), bool(percent))


#: below this many bytes bytes.count is quicker than a NumPy pass
_NUMPY_COUNT_MIN = 8192


def _np():
    """NumPy, imported on first use."""
    global _numpy
    if _numpy is None:
        import numpy

        _numpy = numpy
    return _numpy


_numpy = None


def count_lf(buf: bytes, a: int, b: int) -> int:
    """``buf.count(b"\\n", a, b)``; long spans are counted with NumPy, which
    compares 16 or 32 bytes an instruction (about ten times the speed of
    bytes.count on one core)."""
    if b - a < _NUMPY_COUNT_MIN:
        return buf.count(b"\n", a, b)
    np = _np()
    return int(np.count_nonzero(np.frombuffer(buf, dtype=np.uint8, count=b - a, offset=a) == 0x0A))


def count_breaks(buf: bytes, a: int, b: int, may_have_cr: bool = True) -> int:
    """The line breaks in ``buf[a:b]``: LF, CR and CRLF count one each
    (``may_have_cr=False`` when ``buf`` is known to hold no CR).
    ``urnscan/_accel.c`` holds a compiled version, ``count_breaks_py``
    stays this one."""
    lf = count_lf(buf, a, b)
    if not may_have_cr:
        return lf
    cr = buf.count(b"\r", a, b)
    return lf + cr - buf.count(b"\r\n", a, b) if cr else lf


count_breaks_py = count_breaks
count_breaks = accelerated(count_breaks_py)


class _Lines:
    """Line number and line start of absolute positions, counted forward."""

    __slots__ = ("pos", "line", "line_start", "has_cr")

    def __init__(self):
        self.has_cr = False  # whether the current buffer holds a CR at all
        self.pos = 0  # absolute position counted up to
        self.line = 1
        self.line_start = 0

    def advance(self, buf: bytes, base: int, target: int) -> None:
        """Count line breaks in buf between self.pos and target (absolute).
        target never splits a CRLF pair."""
        if target <= self.pos:
            return
        a, b = self.pos - base, target - base
        breaks = count_breaks(buf, a, b, self.has_cr)
        if breaks:
            self.line += breaks
            # a CR outside a CRLF pair may end the last line (target never
            # splits a pair, so every other CR is followed by its LF)
            last = max(buf.rfind(b"\n", a, b), buf.rfind(b"\r", a, b)) if self.has_cr else buf.rfind(b"\n", a, b)
            self.line_start = base + last + 1
        self.pos = target


#: a UTF-8 byte-order mark at the start of an input: part of the byte
#: offsets, but no column of line 1 (as editors and ripgrep count columns)
UTF8_MARK = b"\xef\xbb\xbf"

#: the accelerator's ``place_rows``, or None where it is not built
PLACE_ROWS = getattr(COMPILED, "place_rows", None)


@lru_cache(maxsize=64)
def _reader_of(options: ScanOptions):
    """The reading function of ``options`` (one per options, not per file)."""
    return batch_reader(options.profile, options.reading, options.max_urn_length)


class ByteScanner:
    """Feed byte chunks, get hits.  ``feed`` and ``finish`` return lists of
    :class:`Hit` with byte offsets."""

    def __init__(self, source: Optional[str] = None, options: ScanOptions = ScanOptions(),
                 judge: Optional[UrnJudge] = None, *, base: int = 0, scan_from: int = 0,
                 document: Optional[str] = None):
        """``document`` names the document inside ``source`` the chunks are
        (a mail part, a zip member...; see ``Hit.document``).
        ``base`` is the absolute offset of the first byte fed; candidates
        are looked for from ``scan_from`` (absolute, >= base), the bytes
        before it serving as context.  Lines and columns count from
        ``scan_from``: line 1 starts there."""
        self.source = source
        self.document = document
        self.options = options
        self.judge = judge or UrnJudge.shared(options.profile, options.registry)
        self._buf = b""
        self._base = base  # absolute offset of _buf[0]
        self._scan = scan_from - base  # buffer index from which "urn:" is still to be looked for
        self._lines = _Lines()
        self._lines.pos = self._lines.line_start = scan_from
        #: whether the input's first bytes are still to be looked at for a
        #: UTF-8 byte-order mark (only where line 1 starts at the input's start)
        self._mark_unseen = scan_from == 0
        self._skip: Optional[Tuple[int, int, int, str]] = None  # over-long: start, line, column, text
        self._run = run_pattern(options.profile)
        self._read_all = _reader_of(options)
        self._context = StreamContext(base)  # the URL context, read up to where the buffer starts
        self.bytes_scanned = 0

    def feed(self, chunk: bytes) -> List[Hit]:
        if not self._append(chunk):
            return []
        return self._process(final=False)

    @property
    def position(self) -> int:
        """Absolute offset before which every candidate has been decided."""
        return self._base + self._scan if self._skip is None else self._skip[0]

    def finish(self) -> List[Hit]:
        hits = self._process(final=True)
        self._buf = b""
        return hits

    def batches(self, chunks: Iterable[bytes], on_chunk: Optional[Callable[[int], None]] = None
                ) -> Iterator[List[Hit]]:
        """The hits of ``chunks`` fed in turn, a list per chunk, then those of
        :meth:`finish` (``on_chunk`` is given each chunk's length).  A
        :class:`SourceError` the chunks raise ends the text where its input
        failed: what the scanner held is given before it is raised."""
        try:
            for chunk in chunks:
                if on_chunk is not None:
                    on_chunk(len(chunk))
                yield self.feed(chunk)
        except SourceError:
            yield self.finish()
            raise
        yield self.finish()

    def whole(self, data: bytes) -> List[Hit]:
        """``feed(data) + finish()`` for a scanner fed nothing yet, in one
        pass over ``data`` (a whole file read at once)."""
        if self._buf or self.bytes_scanned:
            raise ValueError("whole() takes the whole input: this scanner was fed already")
        if not self._append(data):
            return []
        return self.finish()

    # -- internals ------------------------------------------------------
    def _append(self, chunk: bytes) -> bool:
        """Add ``chunk`` to the buffer; whether it held anything."""
        if isinstance(chunk, str):
            raise TypeError("scan_bytes takes bytes chunks; use scan_text for a str")
        if not chunk:
            return False
        self.bytes_scanned += len(chunk)
        self._buf = self._buf + chunk if self._buf else bytes(chunk)
        self._lines.has_cr = b"\r" in self._buf
        if self._mark_unseen and (self.bytes_scanned >= len(UTF8_MARK) or not UTF8_MARK.startswith(self._buf)):
            self._mark_unseen = False
            if self._buf.startswith(UTF8_MARK):
                self._lines.line_start = len(UTF8_MARK)
        return True

    def _process(self, final: bool) -> List[Hit]:
        hits: List[Hit] = []
        positions: List[List[int]] = []
        while self._process_from_scan(final, hits, positions):
            pass  # an over-long candidate was passed over: the rest of the buffer next
        return hits

    def _process_from_scan(self, final: bool, hits: List[Hit], positions: List[List[int]]) -> bool:
        """Read the buffer from ``self._scan`` into ``hits``; True when it
        stopped after an over-long candidate and the rest of the buffer is
        to be read again (a loop, not a call: a buffer may hold thousands).
        ``positions`` holds the candidates of the buffer once found, for the
        reads after the first (finding them again from each over-long one
        made a buffer of thousands quadratic)."""
        buf = self._buf
        n = len(buf)
        pos = self._scan
        if self._skip is not None:
            pos = self._skip_run(buf, pos, final, hits)
            if self._skip is not None:  # the run goes on past this chunk
                self._discard(n - LOOKBACK)
                return False
        window = self.options.window
        limit = n if final else n - window
        if limit > pos:
            start = pos
            if positions:
                first = bisect_left(positions[0], pos)
            else:
                positions.append(urn_positions(buf, pos, limit))
                first = 0
            found, pos, overlong = self._read_all(buf, positions[0], pos, n, window, self._context, self._base,
                                                   first)
            stop = limit if overlong is None else min(limit, overlong.start)
            suspects = suspected_urns(buf, start, stop, self.options.max_urn_length)
            if suspects:
                found = merge(found, suspects) or found
            if self.options.fold:  # (escaped_urns looks for a prefix before it reads anything)
                escaped = escaped_urns(buf, start, stop, self.options.max_urn_length, self.options.code)
                if escaped:
                    found = merge(found, escaped) or found
            if self.options.percent:  # (encoded_urns looks for a prefix before it reads anything)
                opts = self.options
                merged = merge(found, encoded_urns(buf, start, stop, opts.max_urn_length, opts.code, opts.fold))
                if merged is not None:
                    found = merged
                    # a prefix inside a URN read here is part of it in the next buffer too
                    pos = max(pos, max(c[1] for c in found if DECODE_PERCENT in c[8]))
            if found:
                self._hits(buf, found, hits)
            if overlong is not None:
                p = overlong.start
                opts = self.options
                line, column = self._position(p)
                # (the run's first line: a folded candidate goes on after it)
                shown = buf[p:self._run.match(buf, p, p + opts.max_urn_length).end()].decode("ascii")
                self._skip = (self._base + p, line, column, shown)
                pos = self._skip_run(buf, p + 4 if overlong.resume < 0 else overlong.resume, final, hits)
                if self._skip is not None:
                    self._discard(n - LOOKBACK)
                    return False
                self._scan = pos
                return True
            pos = max(pos, limit)
        self._scan = pos
        if not final:  # past the last byte no line number or URL context is asked for
            self._discard(max(0, pos - LOOKBACK))
        return False

    def _hits(self, buf: bytes, found: list, hits: List[Hit]) -> None:
        """Append the hits of ``found`` (extract.Candidate tuples, in
        buffer order) to ``hits``: the scanner places each (offsets, line,
        column, context), the judge makes the row (:meth:`UrnJudge.rows`).
        The accelerator's ``place_rows`` does both in one loop for the URNs
        already judged (tests/test_accel.py compares it with this code)."""
        lines = self._lines
        if PLACE_ROWS is not None:
            judge = self.judge
            i, count = 0, len(found)
            while True:
                i, lines.pos, lines.line, lines.line_start = PLACE_ROWS(
                    buf, found, i, self._base, lines.pos, lines.line, lines.line_start, lines.has_cr, self.source,
                    self.document, self.options.context, judge.young_tails(), Hit, hits)
                if i >= count:
                    return
                judge.tail(found[i][5])  # judged now: the next call finds it
        base = self._base
        source = self.source
        document = self.document
        size = self.options.context
        spans = []
        append = spans.append
        if lines.has_cr:
            for start, end, form, folded, embedded, urn, literal, raw, rules in found:
                lines.advance(buf, base, base + start)
                append((source, document, base + start, base + end, lines.line, base + start - lines.line_start + 1,
                        form, folded, embedded, raw, urn, literal, rules,
                        context_snippet(buf, start, end, size) if size else None))
            self.judge.rows(spans, hits)
            return
        # LF only: count forward from the last position counted
        at = lines.pos - base
        line = lines.line
        line_start = lines.line_start
        rfind = buf.rfind
        for start, end, form, folded, embedded, urn, literal, raw, rules in found:
            if start > at:
                last = rfind(b"\n", at, start)  # the line break before start, if any since at
                if last >= 0:
                    line += count_breaks(buf, at, last, False) + 1
                    line_start = base + last + 1
                at = start
            append((source, document, base + start, base + end, line, base + start - line_start + 1,
                    form, folded, embedded, raw, urn, literal, rules,
                    context_snippet(buf, start, end, size) if size else None))
        if base + at > lines.pos:
            lines.pos = base + at
            lines.line = line
            lines.line_start = line_start
        self.judge.rows(spans, hits)

    def _skip_run(self, buf: bytes, pos: int, final: bool, hits: List[Hit]) -> int:
        """Go on over an over-long run; emit its hit when it ends."""
        e = self._run.match(buf, pos).end()
        if e == len(buf) and not final:
            self._scan = e
            return e
        start, line, column, shown = self._skip
        self._skip = None
        hits.append(self._overlong_hit(start, self._base + e, line, column, shown))
        return e

    def _discard(self, keep_from: int) -> None:
        """Drop buffer bytes before keep_from, counting their lines first."""
        keep_from = min(keep_from, len(self._buf))  # the scan may start past what was fed
        if keep_from <= 0:
            return
        if self._buf[keep_from - 1:keep_from] == b"\r":
            keep_from -= 1  # never split a CRLF pair
            if keep_from <= 0:
                return
        self._lines.advance(self._buf, self._base, self._base + keep_from)
        self._context.skip_to(self._buf, self._base, self._base + keep_from)
        self._buf = self._buf[keep_from:]
        self._base += keep_from
        self._scan = max(0, self._scan - keep_from)

    def _position(self, p: int) -> Tuple[int, int]:
        lines = self._lines
        lines.advance(self._buf, self._base, self._base + p)
        return lines.line, self._base + p - lines.line_start + 1

    def _overlong_hit(self, start: int, end: int, line: int, column: int, shown: str) -> Hit:
        cap = self.options.max_urn_length
        finding = Finding("over-long", ERROR,
                          f"candidate of {end - start} characters is longer than the cap of {cap} "
                          "(max_urn_length); only its start is kept", 0)
        return self.judge.overlong_hit(self.source, start, end, line, column, shown, finding, self.document)


def scan_bytes(chunks: Union[bytes, Iterable[bytes]], *, source: Optional[str] = None,
               profile: str = DEFAULT_PROFILE, trim: bool = True, fold: bool = True,
               max_urn_length: int = DEFAULT_MAX_URN_LENGTH, judge: Optional[UrnJudge] = None, context: int = 0,
               document: Optional[str] = None, **rules: bool) -> Iterator[Hit]:
    """Hits in a ``bytes`` object or any iterable of ``bytes`` chunks, with
    byte offsets; with ``context`` N, each hit's ``context`` is its span
    with up to N bytes of text each side (at most
    :data:`urnscan.context.MAX_CONTEXT`); ``document`` names the document
    inside ``source`` (``Hit.document``).  ``rules``: ``pair``, ``code``,
    ``embedded``, ``percent`` and ``registry`` (the path of a registry file;
    see :class:`ScanOptions`)."""
    if isinstance(chunks, (bytes, bytearray, memoryview)):
        chunks = [bytes(chunks)]
    elif isinstance(chunks, str):
        raise TypeError("scan_bytes takes bytes or an iterable of bytes, not a str (use scan_text for text)")
    scanner = ByteScanner(source, _options(profile, trim, fold, max_urn_length, context, **rules), judge,
                          document=document)
    for hits in scanner.batches(chunks):
        yield from hits


def scan_text(text: str, *, source: Optional[str] = None, profile: str = DEFAULT_PROFILE, trim: bool = True,
              fold: bool = True, max_urn_length: int = DEFAULT_MAX_URN_LENGTH, **rules: bool) -> Iterator[Hit]:
    """Hits in a string, with character offsets (and character columns)."""
    if not isinstance(text, str):
        raise TypeError(f"scan_text takes a str, not {type(text).__name__} (use scan_bytes for bytes)")
    if text.isascii():
        yield from scan_bytes([text.encode("ascii")], source=source, profile=profile, trim=trim, fold=fold,
                              max_urn_length=max_urn_length, **rules)
        return
    data = text.encode("utf-8", "surrogatepass")
    to_char = _CharOffsets(text)
    for hit in scan_bytes([data], source=source, profile=profile, trim=trim, fold=fold,
                          max_urn_length=max_urn_length, **rules):
        start = to_char(hit.start)
        line_start = to_char(hit.start - hit.column + 1)
        yield hit._replace(start=start, end=to_char(hit.end), column=start - line_start + 1)


class _CharOffsets:
    """Byte offset in the UTF-8 encoding of a text -> character offset."""

    def __init__(self, text: str):
        # after each non-ASCII character: its byte end and the extra bytes so far
        self.byte_ends: List[int] = []
        self.extra: List[int] = []
        byte = extra = 0
        for i, ch in enumerate(text):
            if ch > "\x7f":
                width = len(ch.encode("utf-8", "surrogatepass"))
                extra += width - 1
                byte = i + extra + 1
                self.byte_ends.append(byte)
                self.extra.append(extra)

    def __call__(self, offset: int) -> int:
        i = bisect_right(self.byte_ends, offset)
        return offset - (self.extra[i - 1] if i else 0)


def scan_file(path, *, profile: str = DEFAULT_PROFILE, trim: bool = True, fold: bool = True,
              max_urn_length: int = DEFAULT_MAX_URN_LENGTH, chunk_size: int = DEFAULT_CHUNK_SIZE,
              source: Optional[str] = None, **rules: bool) -> Iterator[Hit]:
    """Hits in a file read as ``urnscan scan`` reads it, with byte offsets:
    decompressed (gzip, bz2, xz, zstd), decoded (UTF-16 and UTF-32 with a
    byte-order mark), and the documents inside a mail archive, WARC, zip,
    tar or PDF file each scanned on its own (``Hit.document`` names it); a
    binary file has no hits.  Raises :class:`urnscan.SourceError` for a
    file that cannot be read -- after yielding every hit found before the
    failure."""
    from .sources.documents import open_documents

    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"scan_file takes a path (str or os.PathLike), not {type(path).__name__}")
    name = os.fspath(path)
    with open_documents(name, chunk_size) as docs:
        if docs.skip_reason is not None:
            return
        for doc in docs:
            yield from scan_bytes(doc.chunks, source=name if source is None else source, profile=profile,
                                  trim=trim, fold=fold, max_urn_length=max_urn_length, document=doc.id, **rules)
