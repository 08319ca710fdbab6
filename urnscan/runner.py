"""Run a scan over many inputs, on all cores, into a sink.

Every input ends as exactly one :class:`FileStatus` (scanned, skipped as
binary, or error with its reason); hits found before an input failed are
kept.  With ``jobs > 1`` batches of files and byte ranges of large plain
regular files are scanned in worker processes (:mod:`urnscan.workers`);
their hits come back in bounded pieces (:mod:`urnscan.pieces`) and are
written as they come, in input order, so the rows are the same, in the same
order, for every ``jobs``.  A task goes to a worker once it is close to
idle (``workers.DEFAULT_QUEUED``), also while this process waits for the
results of a slow one (a batch holding PDFs), so that neither worker waits
for work the other holds.  Standard input, pipes, FIFOs, devices and large
compressed files are read once, in the main process, while the workers go
on; nothing but a regular file is ever opened twice.  A large mbox archive
is read here too, and split into its messages, which the workers parse
and scan a batch at a time (``split_bytes / 4`` of messages a batch); no
later input is planned until its batches are all given, so that its
results are read in the order given.

Memory with ``jobs > 1``: each worker holds at most two chunks of its input
(or one batch of messages) plus one piece of hits being built, and has at most
``workers.DEFAULT_MAX_MESSAGES`` pieces waiting in its queue to be written
(a piece is ``pieces.PIECE_ROWS`` hits or ``pieces.PIECE_TEXT`` bytes of
text, whichever comes first); further pieces wait on disk, in its
outbox (:mod:`urnscan.workers`), while it goes on; the main process holds
one piece at a time.
"""
from __future__ import annotations

import os
from collections import Counter, deque
from typing import Callable, Deque, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from .accel import accelerated
from .errors import SettingError, SourceError
from .judge import namespace_rules
from .model import Hit
from .pieces import ARROW_PIECES, HIT_PIECES, PieceBuffer
from .planning import PEEK_ABOVE, Batch, Layout, plan_file, planned_whole
from .ranges import SHRANK_WHILE_READ, Range, RangeStitcher, ranges_status, scan_range_pieces
from .extract.encoded import may_hold_encoded
from .extract.escaped import may_hold_escaped
from .extract.lookalike import may_hold_suspects
from .settings import number_setting
from .scanner import DEFAULT_CHUNK_SIZE, ByteScanner, ScanOptions, urn_positions
from .sinks.status import ERROR, SCANNED, SKIPPED, SKIPPED_BINARY, FileStatus
from .sources import InputRef, expand_inputs, looks_binary
from .sources.charsets import XML_SIGNATURES, bom_encoding
from .sources.codecs import detect_compression
from .sources.documents import (AR_MAGIC, BINARY_CONTENT, MAIL_SUFFIXES, PDF_HEADER_REACH, ContainerKind,
                                DocumentReader, container_kind, may_open_message, open_documents, skipped_summary)
from .sources.limits import DEFAULT_MAX_RATIO, DecompressionLimit
from .workers import WorkerDied, WorkerPool

#: a plain file at least twice this size is split into byte ranges (the
#: environment variable URNSCAN_SPLIT_BYTES overrides it).  A range's
#: worker goes on while the reader takes the ranges before it (its hits
#: wait in its outbox: :mod:`urnscan.workers`), so a 41 MB file of 1.8
#: million distinct ISBN URNs, split in two, scans in 16 s at --jobs 2
#: against 30 s whole; 200 MiB of one URN per 2 KB takes the same time in
#: ranges of 16 MB as of 32 MB.
SPLIT_BYTES = 16 << 20
SPLIT_BYTES_VARIABLE = "URNSCAN_SPLIT_BYTES"


def split_bytes_setting() -> int:
    """The size of the byte ranges: ``URNSCAN_SPLIT_BYTES`` when set (a
    whole number of bytes, 1 or more), else :data:`SPLIT_BYTES`;
    :class:`~urnscan.errors.SettingError` for any other value."""
    return number_setting(SPLIT_BYTES_VARIABLE, SPLIT_BYTES, int, minimum=1,
                          takes="a whole number of bytes, 1 or more, without a suffix (16 MiB: 16777216)")


try:
    #: the byte ranges' size ScanConfig takes when given none
    DEFAULT_SPLIT_BYTES = split_bytes_setting()
except SettingError:  # `urnscan scan` refuses it (a usage error); an import never fails for it
    DEFAULT_SPLIT_BYTES = SPLIT_BYTES
#: a compressed file larger than this is streamed in the main process
STREAM_COMPRESSED_BYTES = PEEK_ABOVE
#: the ratio limit (``--max-ratio``) under which an mbox archive is scanned
#: whole by one task rather than split into messages (see ``_plan``)
MAIL_TASKS_MIN_RATIO = 4.0


class ScanConfig(NamedTuple):
    options: ScanOptions = ScanOptions()
    jobs: int = 1
    valid_only: bool = False
    chunk_size: int = DEFAULT_CHUNK_SIZE
    split_bytes: int = DEFAULT_SPLIT_BYTES
    #: decompression ratio limit (urnscan.sources.limits); 0 turns it off
    max_ratio: float = DEFAULT_MAX_RATIO


class Summary(NamedTuple):
    files: int
    scanned: int
    skipped_binary: int
    errors: int
    bytes: int
    hits: int
    valid_hits: int


Progress = Callable[[int, int, int], None]  # (files done, bytes done, hits)


def scan_input(ref: InputRef, config: ScanConfig, emit: Callable[[List[Hit]], None],
               on_bytes: Optional[Callable[[int], None]] = None) -> FileStatus:
    """Stream one input, document by document (a plain input is one
    document; see :mod:`urnscan.sources.documents`), into ``emit``; return
    its status (never raises a :class:`SourceError`: a failure becomes the
    status, and hits found before it have been emitted).  An error nothing
    expected while reading it -- a library's on crafted input, a fault of
    urnscan's own -- is its status too, named, and the run goes on with the
    next input; only an error of ``emit`` (the output) is raised."""
    if not ref.ok:
        return _not_scanned(ref)
    out = _Emitted(emit)
    try:
        return _scan_input(ref, config, out, on_bytes)
    except Exception as exc:
        if out.failed:
            raise
        return FileStatus(ref.path, ERROR, f"internal error: {type(exc).__name__}: {exc}", 0, None, None,
                          out.hits, out.valid)


class _Emitted:
    """``emit`` counting what it was given (an input's status takes its
    counts from here, also when reading it failed); ``failed`` while a call
    of it has not returned (it raised)."""

    __slots__ = ("emit", "hits", "valid", "failed")

    def __init__(self, emit: Callable[[List[Hit]], None]):
        self.emit = emit
        self.hits = self.valid = 0
        self.failed = False

    def __call__(self, hits: List[Hit]) -> None:
        self.failed = True
        self.emit(hits)
        self.failed = False
        self.hits += len(hits)
        self.valid += sum(1 for h in hits if h.valid)


def _scan_input(ref: InputRef, config: ScanConfig, emit: _Emitted,
                on_bytes: Optional[Callable[[int], None]]) -> FileStatus:
    data = _small_plain_file(ref, config.chunk_size)
    if type(data) is int:  # plain text with nothing to find
        if on_bytes is not None:
            on_bytes(data)
        return FileStatus(ref.path, SCANNED, None, data, None, None, 0, 0, documents=1)
    if data is not None:
        return _scan_whole(ref, data, config, emit, on_bytes)
    scanned = 0
    docs = None

    def read(n: int) -> None:
        nonlocal scanned
        scanned += n
        if on_bytes is not None:
            on_bytes(n)

    try:
        with open_documents(ref, config.chunk_size, DecompressionLimit(config.max_ratio)) as docs:
            if docs.skip_reason is not None:
                return FileStatus(ref.path, SKIPPED_BINARY, docs.skip_reason, 0, _compressed(docs),
                                  docs.compression, container=docs.container, skipped_documents=1)
            _scan_documents(ref.path, docs, config, emit, read)
            return FileStatus(ref.path, SCANNED, docs.skipped_summary(), scanned, _compressed(docs),
                              docs.compression, emit.hits, emit.valid, docs.container, docs.documents,
                              sum(docs.skipped.values()))
    except SourceError as exc:
        if docs is None:
            return FileStatus(ref.path, ERROR, _reason(exc))
        return FileStatus(ref.path, ERROR, _reason(exc), scanned,
                          _compressed(docs), docs.compression, emit.hits, emit.valid, docs.container,
                          docs.documents, sum(docs.skipped.values()))


def _scan_documents(source: str, docs: Iterable, config: ScanConfig, emit: Callable[[List[Hit]], None],
                    read: Callable[[int], None]) -> None:
    """Scan each document of ``docs`` (an input's, or some messages' of an
    archive): its hits to ``emit``, the bytes read to ``read``."""
    for doc in docs:
        scanner = ByteScanner(source, config.options, document=doc.id)
        # a document failing part-way gives the hits it held, then the error
        for found in scanner.batches(doc.chunks, read):
            found = _keep(found, config.valid_only)
            if found:
                emit(found)


def _reason(exc: Exception) -> str:
    """Why an input could not be read, as its row says it."""
    return getattr(exc, "reason", None) or str(exc)


def _not_scanned(ref: InputRef) -> FileStatus:
    return FileStatus(ref.path, SKIPPED if ref.skipped else ERROR, ref.status)


def _small_plain_file(ref: InputRef, limit: int) -> Union[int, bytes, None]:
    """The content of a regular, uncompressed file of at most ``limit``
    bytes, read whole in one read (a third of the cost of the chunk
    reader, and half that of ``open().read()``, on the many small files of
    a real corpus), or only its size when it is plain text with nothing to
    find in it (:func:`plain_file_triage`: most files of a corpus); None
    when it is anything else, or when reading fails (the chunk reader then
    says why)."""
    if ref.size is None or ref.size > limit or ref.is_stdin:
        return None
    if ref.path.lower().endswith(MAIL_SUFFIXES):  # (a mail file by its name: documents.container_kind)
        try:
            data = _read_at_most(ref.path, limit + 1, ref.size)
        except OSError:
            return None
    else:
        data = plain_file_triage(ref.path, ref.size, limit)
        if data is None or type(data) is int:
            return data
        if _plain_at_a_glance(data):
            return data
    if len(data) > limit or detect_compression(data) is not None:
        return None
    if container_kind(data, ref.path) is not None or bom_encoding(data) is not None:
        return None  # documents inside, or text to decode: urnscan.sources.documents reads it
    return data


#: the marks at the start of a file that make the scan read it otherwise:
#: compressed (codecs.detect_compression), a zip file, a WARC file, an ar
#: archive or an mbox archive (documents.container_kind), a UTF-16 or
#: UTF-32 byte-order mark or XML's first bytes in either (charsets.bom_encoding)
_OTHERWISE_READ = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ", b"\x28\xb5\x2f\xfd", b"PK", b"WARC/", AR_MAGIC, b"From ",
                   b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff") + tuple(s for s, _ in XML_SIGNATURES)


def _plain_at_a_glance(data: bytes) -> bool:
    """Whether no mark of compression, of a container or of a byte-order
    mark is where :func:`_small_plain_file`'s tests look for one (the first
    bytes, ``%PDF-`` in the first 1025, tar's magic): most files with a
    ``urn:`` then need none of those tests (a file named as a mail is read
    by its name first)."""
    return (not data.startswith(_OTHERWISE_READ) and data.find(b"%PDF-", 0, PDF_HEADER_REACH + 5) < 0
            and data[257:262] != b"ustar" and not may_open_message(data))


def nothing_to_find(data: bytes) -> bool:
    """Whether the content of a file is plain text in which no URN can be
    found, so that its scan is its status alone: none of the marks of
    :data:`_OTHERWISE_READ`, no field opening a mail message first
    (documents.may_open_message: its body may be encoded), no ``%PDF-``
    starting in the first 1025 bytes (documents._pdf_header looks there),
    not binary, no ``urn:`` that the scanner keeps, no byte 0xEF (the lead byte of the fullwidth forms the
    look-alike reader looks for), no ``urn%3A`` (a URN percent-encoded in a
    URL, :mod:`urnscan.extract.encoded`), no ``urn\\:`` (a URN with escaped
    colons, :mod:`urnscan.extract.escaped`).  A conservative test: a file it turns
    down is read by the rules, which may find nothing either.  (A tar
    archive needs no mark here: tar pads its header fields with NUL
    bytes, which make it binary to this test.)"""
    return (not data.startswith(_OTHERWISE_READ) and not may_open_message(data) and b"\xef" not in data
            and data.find(b"%PDF-", 0, PDF_HEADER_REACH + 5) < 0 and not looks_binary(data)
            and not urn_positions(data, 0, len(data)) and not may_hold_encoded(data, 0, len(data))
            and not may_hold_escaped(data, 0, len(data)))


def plain_file_triage(path: str, expected: int, limit: int) -> Union[int, bytes, None]:
    """A regular file listed with ``expected <= limit`` bytes, read whole
    in one read: its size when :func:`nothing_to_find` holds, else its
    content; None when it cannot be opened or read, or holds more than
    ``expected`` bytes now (it grew: the chunk reader reads it).
    ``urnscan/_accel.c`` holds a compiled version that reads and looks
    through the file without the interpreter."""
    if not 0 <= expected <= limit:
        raise ValueError("expected must be in [0, limit]")
    try:
        data = _read_at_most(path, expected + 1, expected)
    except OSError:
        return None
    if len(data) > expected:
        return None
    return len(data) if nothing_to_find(data) else data


plain_file_triage_py = plain_file_triage
plain_file_triage = accelerated(plain_file_triage_py)


def _read_at_most(path: str, size: int, expected: int) -> bytes:
    """The first ``size`` bytes of a file (fewer when it is shorter) that
    held ``expected`` bytes when listed.  One read of ``expected + 1``
    bytes: a regular file gives less than asked only at its end, so a
    short read is the whole file without asking again, and the buffer is
    the file's size, not ``size`` (a large buffer per small file costs an
    allocation the size of the limit)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        want = min(size, expected + 1)
        data = os.read(fd, want)
        if len(data) < want:
            return data
        while len(data) < size:  # the file grew since it was listed, or a read came short
            more = os.read(fd, min(size - len(data), 1 << 20))
            if not more:
                break
            data += more
        return data
    finally:
        os.close(fd)


def _scan_whole(ref: InputRef, data: bytes, config: ScanConfig, emit: _Emitted,
                on_bytes: Optional[Callable[[int], None]]) -> FileStatus:
    """:func:`scan_input` of a file read whole: the same hits and status.
    Most files of a corpus hold no "urn:" at all: no scanner is built for
    them (a scanner finds its candidates with the same function)."""
    if looks_binary(data):  # (it reads the first block only)
        return FileStatus(ref.path, SKIPPED_BINARY, BINARY_CONTENT, 0, None, None, skipped_documents=1)
    if (urn_positions(data, 0, len(data)) or may_hold_suspects(data, 0, len(data))
            or (config.options.fold and may_hold_escaped(data, 0, len(data)))
            or (config.options.percent and may_hold_encoded(data, 0, len(data)))):
        found = _keep(ByteScanner(ref.path, config.options).whole(data), config.valid_only)
        if found:
            emit(found)
    if on_bytes is not None:
        on_bytes(len(data))
    return FileStatus(ref.path, SCANNED, None, len(data), None, None, emit.hits, emit.valid, documents=1)


def _compressed(reader) -> Optional[int]:
    return reader.bytes_read_compressed if reader.compression else None


def _keep(hits: List[Hit], valid_only: bool) -> List[Hit]:
    if valid_only:
        hits = [h for h in hits if h.valid]
    return hits


# --- worker-side tasks (top level: they are pickled) ----------------------

def _task_files(send, refs: Sequence[tuple], config: ScanConfig, arrow: bool) -> None:
    """Scan a batch of files (:class:`InputRef` fields); send their hits in
    pieces, then their statuses (:class:`FileStatus` fields).  Named tuples
    travel as plain ones: pickling a named tuple costs five times as much,
    twice per file."""
    refs = [_new(InputRef, ref) for ref in refs]
    pieces = _PieceSender(send, arrow)
    statuses = [tuple(scan_input(ref, config, pieces)) for ref in refs]
    pieces.flush()
    send((_STATUSES, statuses))


class _PieceSender:
    """A task's hits, given a list at a time, sent in pieces
    (:mod:`urnscan.pieces`) as each fills; :meth:`flush` sends the last."""

    def __init__(self, send, arrow: bool):
        self.send = send
        self.codec = ARROW_PIECES if arrow else HIT_PIECES
        self.buf = PieceBuffer()

    def __call__(self, hits: List[Hit]) -> None:
        buf = self.buf
        for hit in hits:
            if buf.add(hit):
                self._send()

    def flush(self) -> None:
        if self.buf.hits:
            self._send()

    def _send(self) -> None:
        codec = self.codec
        self.send((_HITS, codec.wire(codec.encode(self.buf.take()))))


def _task_range(send, rng: Range, config: ScanConfig, arrow: bool) -> None:
    codec = ARROW_PIECES if arrow else HIT_PIECES
    end = scan_range_pieces(rng, config.options, rng.path, lambda piece: send((_HITS, codec.wire(piece))),
                            codec.encode)
    send((_END, end))


def _task_messages(send, path: str, messages: List[tuple], config: ScanConfig, arrow: bool) -> None:
    """Parse and scan some messages of the mbox archive at ``path``, split
    off it by the process that reads it (:meth:`DocumentReader.of_messages`),
    as :func:`scan_input` scans the archive's documents: send their hits in
    pieces, then their tally (documents, skipped ones by why, bytes of text,
    and the error that stopped them, or None)."""
    pieces = _PieceSender(send, arrow)
    scanned = 0

    def read(n: int) -> None:
        nonlocal scanned
        scanned += n

    docs = DocumentReader.of_messages(path, messages, config.chunk_size, DecompressionLimit(config.max_ratio))
    error = None
    try:
        _scan_documents(path, docs, config, pieces, read)
    except SourceError as exc:
        error = _reason(exc)
    pieces.flush()
    send((_END, (docs.documents, dict(docs.skipped), scanned, error)))


_HITS, _STATUSES, _END = "hits", "statuses", "end"
_new = tuple.__new__


# --- planning -------------------------------------------------------------

#: a task scans files until it holds this many bytes or this many files
#: (see urnscan.planning); the first tasks hold 1/64 of that, the next
#: ones twice as much as the one before, so the workers start at once and
#: then pay the cost of a task (sending it, its statuses and its hits back)
#: seldom
BATCH_BYTES = 8 << 20
BATCH_FILES = 1024
_FIRST_BATCH_SHIFT = 6


class _Plan(NamedTuple):
    kind: str  # "main" (scanned in this process), "files", "ranges"
    refs: Tuple[InputRef, ...]
    ranges: Tuple[Range, ...] = ()


#: the plan of most inputs: a file scanned whole by a batch task (``refs``
#: unused: the batch holds them), or a row that the task reports in its
#: place, keeping the batch whole
_BATCHED = _Plan("files", ())


def _plan(ref: InputRef, config: ScanConfig) -> Tuple[_Plan, Layout]:
    if ref.status is not None or (ref.size is not None and planned_whole(ref.size, config.split_bytes)):
        return _BATCHED, Layout.WHOLE  # decided without reading the file
    if ref.size is None:  # stdin, a pipe, a FIFO, a device: read once, here
        return _Plan("main", (ref,)), Layout.WHOLE
    planned = plan_file(ref.path, ref.size, config.split_bytes)
    if planned.layout is Layout.RANGES:
        return _Plan("ranges", (ref,), planned.ranges), planned.layout
    if planned.layout is Layout.MESSAGES:
        # decoding mail gives at most 3 bytes of text a byte (a one-byte
        # charset in UTF-8): a ratio limit above that never stops it, so
        # that the limit, weighed a batch at a time here, stops nothing either
        if config.max_ratio == 0 or config.max_ratio >= MAIL_TASKS_MIN_RATIO:
            return _Plan("mail", (ref,)), Layout.WHOLE
        return _Plan("files", (ref,)), Layout.WHOLE
    if planned.layout is Layout.COMPRESSED and ref.size > STREAM_COMPRESSED_BYTES:
        return _Plan("main", (ref,)), planned.layout
    return _Plan("files", (ref,)), planned.layout


def _new_batch(tasks: int = _FIRST_BATCH_SHIFT) -> Batch:
    """The batch after ``tasks`` batches were sent."""
    shift = max(0, _FIRST_BATCH_SHIFT - tasks)
    return Batch(max(1, BATCH_BYTES >> shift), max(1, BATCH_FILES >> shift))


# --- the run --------------------------------------------------------------

def run_scan(inputs: Iterable[InputRef], config: ScanConfig, write_hits: Callable[[List[Hit]], None],
             write_status: Callable[[FileStatus], None], progress: Optional[Progress] = None,
             write_batch: Optional[Callable] = None) -> Summary:
    """Scan every input; hits go to ``write_hits`` and one status per input
    to ``write_status``, in input order.  With ``write_batch`` (a callable
    taking an Arrow record batch of the index schema, e.g.
    :meth:`ParquetSink.write_batch`) worker processes send their hits as
    record batches, written as they are."""
    counter = _Counter(progress)

    def finish(status: FileStatus) -> None:
        write_status(status)
        counter.file_done(status)

    def emit(hits: List[Hit]) -> None:
        write_hits(hits)
        counter.hits_found(len(hits))

    if config.jobs <= 1:
        for ref in inputs:
            finish(scan_input(ref, config, emit, counter.bytes_read))
        return counter.summary()
    return _Parallel(config, emit, write_batch, finish, counter).run(inputs)


class _Parallel:
    """The run with worker processes: tasks submitted in input order, their
    results read back (streamed to the sink) in the same order."""

    def __init__(self, config: ScanConfig, emit, write_batch, finish, counter: "_Counter"):
        self.config = config
        self.codec = ARROW_PIECES if write_batch is not None else HIT_PIECES
        self.emit, self.write_batch, self.finish, self.counter = emit, write_batch, finish, counter
        # the namespace rules the judge uses (modules, their regular
        # expressions: 6 ms) are loaded once, here, for every worker forked
        self.pool = WorkerPool(config.jobs, prepare=namespace_rules)
        self.pending: Deque[Tuple[_Plan, object]] = deque()
        self.started = False
        self.tasks = 0  # batches of files sent
        self.inputs: Optional[Iterator[InputRef]] = None  # (None once all are planned)
        self.batch = _new_batch(0)
        self.giving = False
        #: an mbox archive split into messages is next but one: its batches
        #: must be the next tasks given, so no later input is planned
        self.holding = False

    def run(self, inputs: Iterable[InputRef]) -> Summary:
        self.inputs = iter(inputs)
        try:
            while True:
                self._give()
                if not self.pending:
                    break
                self._drain(*self.pending.popleft())
        except BaseException:
            self.pool.close(terminate=True)
            raise
        self.pool.close()
        return self.counter.summary()

    def _give(self) -> None:
        """Plan the next inputs and give their tasks to the workers while
        one has room, or until an input that this process reads (standard
        input, a pipe) is next to write.  Also called while a task's
        messages are awaited (:meth:`WorkerPool.messages`' ``idle``): a
        worker done with its tasks gets more while another runs a slow one."""
        if self.giving or self.inputs is None or self.holding:
            return
        self.giving = True
        try:
            pool, pending = self.pool, self.pending
            # only a task given here takes room away (workers finishing make
            # more), so the room is asked for again after each one, not per input
            room = pool.has_room()
            while room and not (pending and pending[0][1] is None):
                ref = next(self.inputs, None)
                if ref is None:
                    self.inputs = None
                    self._last_batch()
                    return
                plan, layout = _plan(ref, self.config)
                if plan.kind == "files":
                    if self.batch.add(ref, layout):
                        self._submit_files(self.batch.refs)
                        room = pool.has_room()
                    continue
                if self.batch.refs:
                    self._submit_files(self.batch.refs)
                if plan.kind == "ranges":
                    self.started = True
                    arrow = self.codec.arrow
                    pending.append((plan, [pool.submit(_task_range, r, self.config, arrow) for r in plan.ranges]))
                else:
                    pending.append((plan, None))
                    if plan.kind == "mail":
                        self.holding = True
                        return
                room = pool.has_room()
        finally:
            self.giving = False

    def _last_batch(self) -> None:
        if not self.batch.refs:
            return
        if self.started:
            self._submit_files(self.batch.refs)
        else:  # all of it is one small task: no process to start
            self.pending.append((_Plan("main", tuple(self.batch.refs)), None))

    def _submit_files(self, refs: List[InputRef]) -> None:
        self.started = True
        self.tasks += 1
        plan = _Plan("files", tuple(refs))
        self.pending.append((plan, self.pool.submit(_task_files, [tuple(ref) for ref in refs], self.config,
                                                     self.codec.arrow)))
        self.batch = _new_batch(self.tasks)

    def _write(self, piece) -> Tuple[int, int]:
        """Write a piece of hits; how many, and how many valid."""
        codec = self.codec
        n = codec.rows(piece)
        if not n:
            return 0, 0
        if codec.arrow:
            self.write_batch(piece)
        else:
            self.emit(piece)
            return n, codec.valid(piece)
        self.counter.hits_found(n)
        return n, codec.valid(piece)

    def _drain(self, plan: _Plan, ticket) -> None:
        counter = self.counter
        if plan.kind == "main":
            for ref in plan.refs:
                self.finish(scan_input(ref, self.config, self.emit, counter.bytes_read))
        elif plan.kind == "mail":
            self._drain_mail(plan.refs[0])
        elif plan.kind == "files":
            try:
                for kind, value in self.pool.messages(ticket, self._give):
                    if kind == _HITS:
                        self._write(value)
                    else:
                        for fields in value:
                            status = _new(FileStatus, fields)
                            counter.bytes_read(status.bytes)
                            self.finish(status)
            except WorkerDied as exc:
                for ref in plan.refs:  # none of them was reported
                    self.finish(FileStatus(ref.path, ERROR, exc.reason))
        else:
            self._drain_ranges(plan, ticket)

    def _drain_mail(self, ref: InputRef) -> None:
        """An mbox archive read here and split into its messages, which tasks
        parse and scan a batch at a time (:func:`_task_messages`), while
        this process reads on; their hits are written in order, and the
        archive has one row, as :func:`scan_input` gives it.  A batch that
        failed (a document that could not be read, a worker that died)
        ends the archive there, as its reading in one process would."""
        self.started = True
        config, pool = self.config, self.pool
        try:
            docs = open_documents(ref, config.chunk_size, DecompressionLimit(config.max_ratio))
        except SourceError as exc:
            self.holding = False
            self.finish(FileStatus(ref.path, ERROR, _reason(exc)))
            return
        if docs.kind is not ContainerKind.MBOX or docs.compression is not None:  # (changed since it was planned)
            docs.close()
            self.holding = False
            self.finish(scan_input(ref, config, self.emit, self.counter.bytes_read))
            return
        with docs:
            tally = _MailTally(docs.archive_messages(), max(1, config.split_bytes // 4))
            tickets: Deque = deque()

            def give() -> None:
                while tally.failure is None and pool.has_room():
                    batch = tally.next_batch()
                    if not batch:
                        return
                    tickets.append(pool.submit(_task_messages, ref.path, batch, config, self.codec.arrow))

            give()
            while tickets:
                ticket = tickets.popleft()
                try:
                    for kind, value in pool.messages(ticket, give):
                        if tally.failure is not None:
                            continue  # (the archive ended before: read past the rest)
                        if kind == _HITS:
                            tally.found(*self._write(value))
                        else:
                            tally.add(*value)
                            self.counter.bytes_read(value[2])
                except WorkerDied as exc:
                    tally.failure = tally.failure or exc.reason
                give()
            self.holding = False
            failure = tally.failure or tally.read_failure  # (reading failed after every batch given)
            self.finish(FileStatus(ref.path, ERROR if failure else SCANNED,
                                   failure or skipped_summary(tally.skipped), tally.bytes, _compressed(docs),
                                   docs.compression, tally.hits, tally.valid, docs.container, tally.documents,
                                   sum(tally.skipped.values())))

    def _drain_ranges(self, plan: _Plan, tickets) -> None:
        ref = plan.refs[0]
        codec = self.codec
        stitcher = RangeStitcher(self.config.options, ref.path, codec)
        hits = valid = read = 0
        failure: Optional[str] = None

        def write_all(pieces) -> None:
            nonlocal hits, valid
            for piece in pieces:
                if self.config.valid_only:
                    piece = codec.keep_valid(piece)
                n, v = self._write(piece)
                hits += n
                valid += v

        ended = False  # a range read short of its stop: the file ends there
        for rng, ticket in zip(plan.ranges, tickets):
            messages = self.pool.messages(ticket, self._give)
            try:
                if failure is None:
                    failure, n = self._stitch_range(stitcher, rng, messages, write_all, ended)
                    read += n
                    ended = ended or n < rng.stop - rng.start
                for _ in messages:  # read past the rest of a failed file
                    pass
            except WorkerDied as exc:
                failure = failure or exc.reason
        self.finish(ranges_status(ref.path, failure, read, hits, valid))

    def _stitch_range(self, stitcher: RangeStitcher, rng: Range, messages, write_all,
                      ended: bool) -> Tuple[Optional[str], int]:
        """Stitch one range's pieces as they come; why it failed (or None)
        and the bytes it read.  After a range that ``ended`` short, this one
        must have read nothing: bytes here mean that the file shrank between
        the reads of the two, and what was read is no one version of it
        (the hits before are kept).  The messages after the range's end are
        left to the caller."""
        try:
            stitcher.begin(rng)
            for kind, value in messages:
                if kind == _HITS:
                    if ended:
                        return SHRANK_WHILE_READ, 0
                    write_all(stitcher.add(value))
                    continue
                if ended and value.read:
                    return SHRANK_WHILE_READ, 0
                if value.error is None:
                    write_all(stitcher.end(value.breaks, value.last_break_end))
                self.counter.bytes_read(value.read)
                return value.error, value.read
        except SourceError as exc:  # a rescan here found the file changed (removed, unreadable)
            return exc.reason, 0
        return None, 0  # (a task ends with its end, or raises WorkerDied)


class _MailTally:
    """What the batches of an mbox archive's messages add up to, and the
    batches still to give (``next_batch``), read from ``messages``
    (:meth:`DocumentReader.archive_messages`) until they hold
    ``batch_bytes``."""

    def __init__(self, messages: Iterator[tuple], batch_bytes: int):
        self.messages: Optional[Iterator[tuple]] = messages
        self.batch_bytes = batch_bytes
        self.documents = self.bytes = self.hits = self.valid = 0
        self.skipped: Counter = Counter()
        self.failure: Optional[str] = None  # a batch failed: the archive ends there
        self.read_failure: Optional[str] = None  # reading the archive failed after the batches given

    def next_batch(self) -> List[tuple]:
        batch: List[tuple] = []
        size = 0
        while self.messages is not None and size < self.batch_bytes:
            try:
                item = next(self.messages, None)
            except SourceError as exc:
                self.read_failure = _reason(exc)
                item = None
            if item is None:
                self.messages = None
                break
            batch.append(item)
            size += len(item[1]) if item[1] is not None else 0
        return batch

    def found(self, hits: int, valid: int) -> None:
        self.hits += hits
        self.valid += valid

    def add(self, documents: int, skipped: dict, scanned: int, error: Optional[str]) -> None:
        self.documents += documents
        self.skipped.update(skipped)
        self.bytes += scanned
        if error is not None and self.failure is None:
            self.failure = error


class _Counter:
    def __init__(self, progress: Optional[Progress]):
        self.progress = progress
        self.files = self.scanned = self.skipped = self.errors = 0
        self.bytes = self.hits = self.valid = 0

    def bytes_read(self, n: int) -> None:
        self.bytes += n
        if self.progress:
            self.progress(self.files, self.bytes, self.hits)

    def hits_found(self, n: int) -> None:
        self.hits += n

    def file_done(self, status: FileStatus) -> None:
        self.files += 1
        self.valid += status.valid_hits
        if status.status == SCANNED:
            self.scanned += 1
        elif status.status == SKIPPED_BINARY:
            self.skipped += 1
        elif status.status == ERROR:
            self.errors += 1
        if self.progress:
            self.progress(self.files, self.bytes, self.hits)

    def summary(self) -> Summary:
        return Summary(self.files, self.scanned, self.skipped, self.errors, self.bytes, self.hits, self.valid)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def iter_inputs(paths: Sequence[str], include: Sequence[str] = (), exclude: Sequence[str] = ()) -> Iterator[InputRef]:
    return expand_inputs(list(paths), include=include, exclude=exclude)
