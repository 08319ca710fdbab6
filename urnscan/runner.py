"""Run a scan over many inputs, on all cores, into a sink.

Every input ends as exactly one :class:`FileStatus` (scanned, skipped as
binary, or error with its reason); hits found before an input failed are
kept.  With ``jobs > 1`` whole files and byte ranges of large plain files
are scanned in worker processes; results are written in input order, so the
rows are the same, in the same order, for every ``jobs``.  Standard input and
large compressed files are streamed in the main process while the workers
go on.
"""
from __future__ import annotations

import os
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Callable, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from .errors import SourceError
from .model import Hit
from .ranges import Range, plan_ranges, scan_range, stitch
from .scanner import DEFAULT_CHUNK_SIZE, ByteScanner, ScanOptions
from .sinks.status import ERROR, SCANNED, SKIPPED, SKIPPED_BINARY, FileStatus
from .sources import InputRef, expand_inputs, looks_binary
from .sources.documents import container_kind, open_documents
from .sources.limits import DEFAULT_MAX_RATIO, DecompressionLimit

#: a plain file at least twice this size is split into byte ranges
#: (the environment variable URNSCAN_SPLIT_BYTES overrides it)
DEFAULT_SPLIT_BYTES = int(os.environ.get("URNSCAN_SPLIT_BYTES", 32 << 20))
#: a compressed file larger than this is streamed in the main process
STREAM_COMPRESSED_BYTES = 16 << 20
_MAGIC = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00", b"\x28\xb5\x2f\xfd")


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
    status, and hits found before it have been emitted)."""
    if not ref.ok:
        return _not_scanned(ref)
    hits = valid = scanned = 0
    docs = None
    try:
        with open_documents(ref, config.chunk_size, DecompressionLimit(config.max_ratio)) as docs:
            if docs.skip_reason is not None:
                return FileStatus(ref.path, SKIPPED_BINARY, docs.skip_reason, 0, _compressed(docs),
                                  docs.compression, container=docs.container, skipped_documents=1)
            for doc in docs:
                scanner = ByteScanner(ref.path, config.options)
                for chunk in doc.chunks:
                    scanned += len(chunk)
                    found = _keep(scanner.feed(chunk), config.valid_only, doc.id)
                    if found:
                        hits += len(found)
                        valid += sum(1 for h in found if h.valid)
                        emit(found)
                    if on_bytes is not None:
                        on_bytes(len(chunk))
                found = _keep(scanner.finish(), config.valid_only, doc.id)
                if found:
                    hits += len(found)
                    valid += sum(1 for h in found if h.valid)
                    emit(found)
            return FileStatus(ref.path, SCANNED, docs.skipped_summary(), scanned, _compressed(docs),
                              docs.compression, hits, valid, docs.container, docs.documents,
                              sum(docs.skipped.values()))
    except SourceError as exc:
        if docs is None:
            return FileStatus(ref.path, ERROR, getattr(exc, "reason", None) or str(exc))
        return FileStatus(ref.path, ERROR, getattr(exc, "reason", None) or str(exc), scanned,
                          _compressed(docs), docs.compression, hits, valid, docs.container,
                          docs.documents, sum(docs.skipped.values()))


def _not_scanned(ref: InputRef) -> FileStatus:
    return FileStatus(ref.path, SKIPPED if ref.skipped else ERROR, ref.status)


def _compressed(reader) -> Optional[int]:
    return reader.bytes_read_compressed if reader.compression else None


def _keep(hits: List[Hit], valid_only: bool, document: Optional[str] = None) -> List[Hit]:
    if valid_only:
        hits = [h for h in hits if h.valid]
    if document is not None:
        hits = [h._replace(document=document) for h in hits]
    return hits


# --- worker-side tasks (top level: they are pickled) ----------------------

def _task_whole(ref: InputRef, config: ScanConfig) -> Tuple[FileStatus, List[Hit]]:
    collected: List[Hit] = []
    status = scan_input(ref, config, collected.extend)
    return status, collected


def _task_range(rng: Range, config: ScanConfig):
    return scan_range(rng, config.options, rng.path)


# --- planning -------------------------------------------------------------

class _Plan(NamedTuple):
    kind: str  # "status", "stream", "whole", "ranges"
    ref: InputRef
    ranges: Tuple[Range, ...] = ()


def _plan(ref: InputRef, config: ScanConfig) -> _Plan:
    if not ref.ok:
        return _Plan("status", ref)
    if ref.is_stdin or config.jobs <= 1:
        return _Plan("stream", ref)
    try:
        with open(ref.path, "rb") as fh:
            head = fh.read(65536)
    except OSError:
        return _Plan("whole", ref)  # the worker reports the error
    size = ref.size or 0
    if head.startswith(_MAGIC):
        return _Plan("stream" if size > STREAM_COMPRESSED_BYTES else "whole", ref)
    if size >= 2 * config.split_bytes and not looks_binary(head) and container_kind(head, ref.path) is None:
        return _Plan("ranges", ref, tuple(plan_ranges(ref.path, size, max(2, size // config.split_bytes),
                                                      config.split_bytes)))
    return _Plan("whole", ref)


# --- the run --------------------------------------------------------------

def run_scan(inputs: Iterable[InputRef], config: ScanConfig, write_hits: Callable[[List[Hit]], None],
             write_status: Callable[[FileStatus], None], progress: Optional[Progress] = None,
             executor: Optional[Executor] = None) -> Summary:
    """Scan every input; hits go to ``write_hits`` and one status per input
    to ``write_status``, in input order."""
    counter = _Counter(progress)

    def finish(status: FileStatus) -> None:
        write_status(status)
        counter.file_done(status)

    if config.jobs <= 1 and executor is None:
        for ref in inputs:
            def emit(hits: List[Hit]) -> None:
                write_hits(hits)
                counter.hits_found(len(hits))
            finish(scan_input(ref, config, emit, counter.bytes_read))
        return counter.summary()

    own = executor is None
    pool = executor or ProcessPoolExecutor(max_workers=config.jobs)
    window = max(4, 4 * config.jobs)
    pending: deque = deque()  # (plan, future or list of futures)
    try:
        for ref in inputs:
            plan = _plan(ref, config)
            if plan.kind == "whole":
                pending.append((plan, pool.submit(_task_whole, ref, config)))
            elif plan.kind == "ranges":
                pending.append((plan, [pool.submit(_task_range, r, config) for r in plan.ranges]))
            else:
                pending.append((plan, None))
            while len(pending) > window or (pending and pending[0][1] is None):
                _drain_one(pending.popleft(), config, write_hits, finish, counter)
        while pending:
            _drain_one(pending.popleft(), config, write_hits, finish, counter)
    except BaseException:
        for _, fut in pending:
            for f in (fut if isinstance(fut, list) else [fut] if fut is not None else []):
                f.cancel()
        raise
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    return counter.summary()


def _drain_one(item, config: ScanConfig, write_hits, finish, counter: "_Counter") -> None:
    plan, fut = item
    ref = plan.ref
    if plan.kind == "status":
        finish(_not_scanned(ref))
    elif plan.kind == "stream":
        def emit(hits: List[Hit]) -> None:
            write_hits(hits)
            counter.hits_found(len(hits))
        finish(scan_input(ref, config, emit, counter.bytes_read))
    elif plan.kind == "whole":
        status, hits = fut.result()
        if hits:
            write_hits(hits)
            counter.hits_found(len(hits))
        counter.bytes_read(status.bytes)
        finish(status)
    else:
        results = (f.result() for f in fut)
        hits_n = valid_n = 0
        batch: List[Hit] = []
        for hit in stitch(results, config.options, ref.path):
            if config.valid_only and not hit.valid:
                continue
            batch.append(hit)
            hits_n += 1
            valid_n += hit.valid
            if len(batch) >= 8192:
                write_hits(batch)
                counter.hits_found(len(batch))
                batch = []
        if batch:
            write_hits(batch)
            counter.hits_found(len(batch))
        size = plan.ranges[-1].stop
        counter.bytes_read(size)
        finish(FileStatus(ref.path, SCANNED, None, size, None, None, hits_n, valid_n, documents=1))


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
