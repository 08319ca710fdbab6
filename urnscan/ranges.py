"""Scanning one large file in byte ranges, in parallel, with exactly the
hits of a single streaming scan.

A range ``[start, stop)`` is scanned like the whole file would be from
``start`` (the bytes just before it serve as context), keeping the hits that
start inside it; each range also counts its line breaks.  Stitching the
ranges in order then fixes two things:

* positions: line numbers and the columns of hits on a range's first line
  depend on the line breaks before the range;
* a candidate that crosses a range boundary (or an over-long run) hides the
  ``urn:`` occurrences inside it from a single scan.  When the previous
  range's last hit ends past the boundary, the next range is scanned again
  from that end, until the two scans meet at a hit both found from a
  decided position -- from there on they agree, because each decision
  depends only on the text.

Only plain (uncompressed) regular files can be split.  A range starts
where a token starts (after white space, a quote or a bracket; never
between CR and LF), so its scan needs nothing of the text before it but
the few bytes the reading rules look back at: a range starting inside a
token would read the token from its start for its URL context, and a
token as long as the file (a run of URN characters with no break) would be
read again by every range.  A token so long that no cut can be moved to
its end within :data:`CUT_SEARCH` bytes keeps the ranges around it whole.

A file can change while its ranges are scanned (removed, replaced, made
unreadable): each range that cannot be read says why in its end
(:class:`RangeEnd`, :class:`RangeResult`) after the hits found before, and
a rescan that cannot read raises :class:`~urnscan.errors.SourceError`.
"""
from __future__ import annotations

import contextlib
from typing import BinaryIO, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from .errors import SourceError
from .extract import LOOKBACK, token_start_in, token_stop_in
from .model import Hit
from .pieces import PIECE_ROWS, PieceBuffer
from .scanner import UTF8_MARK, ByteScanner, ScanOptions, count_breaks
from .sinks.status import ERROR, SCANNED, FileStatus
from .sources.reader import open_error, read_error

READ_SIZE = 1 << 20
#: how far a cut between two ranges moves forward to the end of a token;
#: a token longer than this (no white space, quote or bracket) keeps the
#: cut out, and the two ranges are one
CUT_SEARCH = 64 << 10
#: the reason of a file one of whose ranges ended short of its stop while a
#: later one read on: the ranges read different versions of it
SHRANK_WHILE_READ = "file shrank while it was read"


class Range(NamedTuple):
    path: str
    start: int
    stop: int


class RangeResult(NamedTuple):
    range: Range
    hits: List[Hit]  # line/column relative to range.start (line 1 starts there)
    breaks: int  # line breaks in [start, stop)
    #: absolute offset just after the last break, if any; in a range at the
    #: file's start without one, after a UTF-8 byte-order mark there (where
    #: the columns of line 1 count from)
    last_break_end: Optional[int]
    read: Optional[int] = None  # bytes of [start, stop) actually read (less when the file shrank)
    error: Optional[str] = None  # why the range could not be read to its end (hits: those found before)


class RangeEnd(NamedTuple):
    """What a range scanned piece by piece reports once it is done."""

    breaks: int
    last_break_end: Optional[int]
    read: int
    error: Optional[str] = None  # why the range could not be read to its end


def _open(path: str) -> BinaryIO:
    try:
        return open(path, "rb")
    except OSError as exc:
        raise open_error(path, exc) from exc


@contextlib.contextmanager
def _reading(path: str):
    """An open file's read errors as :class:`SourceError`."""
    try:
        yield
    except SourceError:
        raise
    except OSError as exc:
        raise read_error(path, exc) from exc


def plan_ranges(path: str, size: int, parts: int, min_size: int = 1 << 24) -> List[Range]:
    """Split ``path`` into up to ``parts`` ranges of about ``size / parts``
    and at least ``min_size`` bytes, each starting where a token starts
    (see the module's docstring)."""
    count = max(1, min(parts, size // max(1, min_size)))
    if count == 1:
        return [Range(path, 0, size)]
    cuts: List[int] = []
    with open(path, "rb") as fh:
        for i in range(1, count):
            cut = _token_cut(fh, size * i // count)
            if cut is not None and (cuts[-1] if cuts else 0) < cut < size:
                cuts.append(cut)
    bounds = [0] + cuts + [size]
    return [Range(path, a, b) for a, b in zip(bounds, bounds[1:])]


def _token_cut(fh, at: int) -> Optional[int]:
    """Just after the first token stop from ``at - 1`` on (after the LF of
    a CRLF), or None when the :data:`CUT_SEARCH` bytes there hold none."""
    fh.seek(at - 1)
    block = fh.read(CUT_SEARCH + 1)  # (one more: the LF after a CR)
    i = token_stop_in(block, CUT_SEARCH)
    if i < 0:
        return None
    return at + i + (1 if block[i:i + 2] == b"\r\n" else 0)


def _scan_from(path: str, start: int, stop: int, options: ScanOptions, source: Optional[str],
               on_data=None) -> Iterator[Hit]:
    """Hits whose ``urn:`` starts in [start, stop) as a scan from ``start``
    finds them (lines relative to ``start``).  ``on_data(offset, chunk)``
    sees every chunk read.  Raises :class:`SourceError` when the file
    cannot be opened or read (after the hits found before)."""
    with _open(path) as fh, _reading(path):
        # the context: LOOKBACK bytes, or back to where the token holding
        # ``start`` begins (the URL context of a URN reads all of it)
        base = min(max(0, start - LOOKBACK), _token_start(fh, start))
        scanner = ByteScanner(source, options, base=base, scan_from=start)
        fh.seek(base)
        offset = base
        while True:
            # read to just past the range (plus the look-ahead window), then on
            # in small steps only while a candidate is still undecided
            want = max(stop - offset + options.window, 1 << 16)
            chunk = fh.read(min(READ_SIZE, want))
            if on_data is not None and chunk:
                on_data(offset, chunk)
            offset += len(chunk)
            hits = scanner.feed(chunk) if chunk else scanner.finish()
            for hit in hits:
                if hit.start >= stop:
                    return
                yield hit
            if not chunk or scanner.position >= stop:
                while on_data is not None and offset < stop:  # the rest is only counted
                    chunk = fh.read(min(READ_SIZE, stop - offset))
                    if not chunk:
                        break
                    on_data(offset, chunk)
                    offset += len(chunk)
                return


def _token_start(fh, start: int) -> int:
    """Where the token holding the byte before ``start`` begins: just after
    the last white space, quote or bracket before ``start``, or 0."""
    end = start
    while end > 0:
        a = max(0, end - READ_SIZE)
        fh.seek(a)
        found = token_start_in(fh.read(end - a))
        if found >= 0:
            return a + found
        end = a
    return 0


class _BreakCounter:
    """Line breaks (LF, CRLF, lone CR) in [start, stop), from the chunks a
    range scan reads anyway; a CRLF split between two chunks counts once."""

    def __init__(self, start: int, stop: int):
        self.start, self.stop = start, stop
        self.breaks = 0
        self.read = 0
        self.last_break_end: Optional[int] = None
        self._cr_at: Optional[int] = None  # absolute offset of a CR ending the previous piece

    def __call__(self, offset: int, chunk: bytes) -> None:
        a = max(self.start, offset) - offset
        b = min(self.stop, offset + len(chunk)) - offset
        if b <= a:
            return
        self.read += b - a
        n = count_breaks(chunk, a, b)
        if self._cr_at == offset + a - 1 and chunk[a] == 0x0A:
            n -= 1  # the LF completes a CRLF counted as a lone CR
        self.breaks += n
        last = max(chunk.rfind(b"\n", a, b), chunk.rfind(b"\r", a, b))
        if last >= 0:  # (an LF completing a CRLF moves the line start too)
            self.last_break_end = offset + last + 1
        elif offset == 0 == a and self.last_break_end is None and chunk.startswith(UTF8_MARK):
            self.last_break_end = len(UTF8_MARK)  # line 1 starts after the mark, as a scan counts it
        self._cr_at = offset + b - 1 if chunk[b - 1] == 0x0D else None


def scan_range(rng: Range, options: ScanOptions, source: Optional[str] = None) -> RangeResult:
    """Scan one range (run in a worker process)."""
    counter = _BreakCounter(rng.start, rng.stop)
    hits: List[Hit] = []
    try:
        hits.extend(_scan_from(rng.path, rng.start, rng.stop, options, source, counter))
    except SourceError as exc:
        return RangeResult(rng, hits, counter.breaks, counter.last_break_end, counter.read, exc.reason)
    return RangeResult(rng, hits, counter.breaks, counter.last_break_end, counter.read)


def scan_range_pieces(rng: Range, options: ScanOptions, source: Optional[str], send, encode,
                      rows: int = PIECE_ROWS) -> RangeEnd:
    """Scan one range, passing its hits to ``send`` as they are found, in
    pieces of at most ``rows`` hits (and :data:`~urnscan.pieces.PIECE_TEXT`
    bytes of text), each list through ``encode`` first (see
    :mod:`urnscan.pieces`); memory stays bounded however dense the hits.
    A range that cannot be read to its end sends the hits found before and
    says why in its end."""
    counter = _BreakCounter(rng.start, rng.stop)
    buf = PieceBuffer(rows)
    error: Optional[str] = None
    try:
        for hit in _scan_from(rng.path, rng.start, rng.stop, options, source, counter):
            if buf.add(hit):
                send(encode(buf.take()))
    except SourceError as exc:
        error = exc.reason
    if buf.hits:
        send(encode(buf.take()))
    return RangeEnd(counter.breaks, counter.last_break_end, counter.read, error)


class RangeStitcher:
    """The ranges of one file stitched as their pieces arrive, in file
    order: :meth:`begin` a range, :meth:`add` each of its pieces, :meth:`end`
    it.  Each step yields finished pieces (positions made absolute, hits a
    boundary hid rescanned), so no range is ever held whole.  Gives the
    hits of :func:`stitch`."""

    def __init__(self, options: ScanOptions, source: Optional[str], codec):
        self.options, self.source, self.codec = options, source, codec
        self.state = StitchState()
        self._rescan: Optional[_Rescan] = None
        self._covered_whole = False  # the range lies inside a hit before it
        self._placed = False  # the range starts the file: its scan placed its hits

    def begin(self, rng: Range) -> None:
        covered = self.state.covered
        # a hit that covers the whole range (an over-long run) hides all of
        # its hits: nothing to rescan, and nothing to read here
        self._covered_whole = covered >= rng.stop
        self._placed = rng.start == 0
        self._rescan = _Rescan(rng, covered, self.options, self.source) if rng.start < covered < rng.stop else None

    def add(self, piece) -> Iterator:
        codec = self.codec
        if self._covered_whole:
            return
        if self._rescan is not None:
            meet = yield from self._batched(self._rescan.until_meeting(codec.starts(piece)))
            if meet is None:
                return  # every hit of the piece lies inside what the rescan reads
            self._rescan = None
            piece = codec.tail(piece, meet)
        if codec.rows(piece):
            yield self._finished(piece)

    def end(self, breaks: int, last_break_end: Optional[int]) -> Iterator:
        if self._rescan is not None:
            yield from self._batched(self._rescan.rest())
            self._rescan = None
        state = self.state
        self.state = state._replace(lines_before=state.lines_before + breaks,
                                    line_start=last_break_end if last_break_end is not None else state.line_start)

    def _batched(self, hits):
        buf = PieceBuffer()
        it = iter(hits)
        while True:
            try:
                hit = next(it)
            except StopIteration as stop:
                if buf.hits:
                    yield self._finished(self.codec.encode(buf.take()))
                return stop.value
            if buf.add(hit):
                yield self._finished(self.codec.encode(buf.take()))

    def _finished(self, piece):
        state = self.state
        self.state = state._replace(covered=self.codec.last_end(piece))
        if self._placed:
            return piece
        return self.codec.relocate(piece, state.lines_before, state.line_start)


class _Rescan:
    """The hits of a range from ``covered`` on, as a single scan sees them:
    the range's own hits are dropped until the rescan meets one of them
    (see :func:`_resync`, the same rule on whole lists)."""

    def __init__(self, rng: Range, covered: int, options: ScanOptions, source: Optional[str]):
        self.extra_breaks, self.prefix_line_start = _breaks_before(rng, covered)
        self._hits = _scan_from(rng.path, covered, rng.stop, options, source)
        self._next = next(self._hits, None)

    def until_meeting(self, starts: Sequence[int]):
        """Yield rescanned hits before the first of ``starts`` (the next own
        hits, in order) the rescan also finds; return that index, or None
        when these own hits are used up (or the rescan is)."""
        i, n = 0, len(starts)
        while self._next is not None:
            r = self._next
            while i < n and starts[i] < r.start:
                i += 1
            if i == n:
                return None
            if starts[i] == r.start:
                return i
            yield _rebase(r, self.extra_breaks, self.prefix_line_start)
            self._next = next(self._hits, None)
        return None

    def rest(self):
        while self._next is not None:
            yield _rebase(self._next, self.extra_breaks, self.prefix_line_start)
            self._next = next(self._hits, None)


class StitchState(NamedTuple):
    """What stitching carries from one range to the next."""

    lines_before: int = 0  # line breaks before the next range
    line_start: int = 0  # absolute start of the line the next range starts on
    covered: int = 0  # end of the last hit emitted
    read: int = 0  # bytes read by the ranges stitched
    ended: bool = False  # a range read short of its stop: the file ends there
    #: why the ranges from here on are not stitched (one could not be read,
    #: or the file shrank between the reads of two), or None
    stopped: Optional[str] = None


def stitch_step(result: RangeResult, state: StitchState, options: ScanOptions, source: Optional[str] = None,
                *, keep: bool = True) -> Tuple[List[Hit], StitchState]:
    """One range's hits as a single scan of the whole file sees them, given
    the state after the ranges before it; returns them (an empty list when
    ``keep`` is false: only the state is wanted) and the state after it.

    The state is small, so the ranges of a file can be stitched as a chain
    of cheap steps, each where its range's result is (see
    :mod:`urnscan.distributed`).  A range that failed keeps the hits found
    before; the ranges after it (and after one that read past a range that
    ended short) give none, and the state says why (:func:`ranges_status`).
    """
    rng = result.range
    if state.stopped is not None:
        return [], state
    if state.ended and (result.hits or result.read):
        return [], state._replace(stopped=SHRANK_WHILE_READ)
    hits = result.hits
    covered = state.covered
    if covered >= rng.stop:
        hits = []  # the range lies inside a hit before it (see RangeStitcher.begin)
    elif covered > rng.start:
        try:
            hits = _resync(rng, hits, covered, options, source, result.error is None)
        except SourceError as exc:  # the file changed since the range was read
            return [], state._replace(stopped=exc.reason)
    out: List[Hit] = []
    lines_before, line_start = state.lines_before, state.line_start
    placed = rng.start == 0  # the scan of the file's start placed its hits (a byte-order mark)
    for hit in hits:
        if hit.start < covered:
            continue
        if keep:
            # a rescanned hit's line is relative to its own scan start
            column = hit.start - line_start + 1 if hit.line == 1 and not placed else hit.column
            out.append(hit._replace(line=lines_before + hit.line, column=column))
        covered = hit.end
    next_start = result.last_break_end if result.last_break_end is not None else line_start
    read = rng.stop - rng.start if result.read is None else result.read
    return out, StitchState(lines_before + result.breaks, next_start, covered, state.read + read,
                            state.ended or read < rng.stop - rng.start, result.error)


def ranges_status(path: str, stopped: Optional[str], read: int, hits: int, valid: int) -> FileStatus:
    """The files table's row of a file scanned in ranges: ``stopped`` is
    why its ranges were not all read and stitched, or None."""
    if stopped is None:
        return FileStatus(path, SCANNED, None, read, None, None, hits, valid, documents=1)
    if not read and not hits:  # never read: the row of a file that could not be opened
        return FileStatus(path, ERROR, stopped)
    return FileStatus(path, ERROR, stopped, read, None, None, hits, valid, documents=1)


def stitch(results: Sequence[RangeResult], options: ScanOptions, source: Optional[str] = None) -> Iterator[Hit]:
    """The hits of a single scan of the whole file, from the ranges' results
    in file order."""
    state = StitchState()
    for result in results:
        hits, state = stitch_step(result, state, options, source)
        yield from hits


def _resync(rng: Range, hits: List[Hit], covered: int, options: ScanOptions, source: Optional[str],
            whole: bool = True) -> List[Hit]:
    """The range's hits after ``covered`` as a scan of the whole file sees
    them: rescan from ``covered`` until the rescan meets one of the range's
    own hits, then keep the rest of those.  A range not read ``whole`` (it
    failed part-way) is rescanned no further than its last own hit, as
    :class:`RangeStitcher` does."""
    # both scans decide the candidate at a given start the same way (it
    # depends only on the text), so a shared start is a meeting point
    own = {h.start: i for i, h in enumerate(hits)}
    out: List[Hit] = []
    # lines of the rescan count from `covered`; rebase them onto rng.start
    extra_breaks, prefix_line_start = _breaks_before(rng, covered)
    last_own = hits[-1].start if hits else -1
    for hit in _scan_from(rng.path, covered, rng.stop, options, source):
        i = own.get(hit.start)
        if i is not None:
            return out + hits[i:]
        if not whole and hit.start > last_own:
            break
        out.append(_rebase(hit, extra_breaks, prefix_line_start))
    return out


def _breaks_before(rng: Range, covered: int) -> Tuple[int, Optional[int]]:
    """The line breaks in [rng.start, covered) and the offset just after
    the last of them (None without one), read in bounded steps: a hit
    before may reach far into the range."""
    counter = _BreakCounter(rng.start, covered)
    with _open(rng.path) as fh, _reading(rng.path):
        fh.seek(rng.start)
        offset = rng.start
        while offset < covered:
            chunk = fh.read(min(READ_SIZE, covered - offset))
            if not chunk:
                break
            counter(offset, chunk)
            offset += len(chunk)
    return counter.breaks, counter.last_break_end


def _rebase(hit: Hit, extra_breaks: int, prefix_line_start: Optional[int]) -> Hit:
    """A hit from a scan started inside a range, its line made relative to
    the range start (stitch computes the columns of line-1 hits)."""
    if hit.line == 1 and extra_breaks:
        return hit._replace(line=1 + extra_breaks, column=hit.start - prefix_line_start + 1)
    return hit._replace(line=hit.line + extra_breaks)
