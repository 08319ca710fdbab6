"""Writing the index as Parquet, atomically and in bounded memory.

(Over 500 lines, on purpose: the two layouts below share the checks made
before a scan starts, the temporary names, the flush and the commit, and
most of the length is this description of them.)

Layouts
-------

**Single file** (``out_path`` is anything else than a directory):

* ``index.parquet`` -- the hits table (:data:`~urnscan.sinks.schema.HIT_SCHEMA`);
* ``index.files.parquet`` -- the files table beside it
  (:data:`~urnscan.sinks.schema.FILES_SCHEMA`).  The name is the output name
  with ``.parquet`` removed, plus ``.files.parquet``.

**Dataset** (``out_path`` is an existing directory, or ends with ``/``; the
directory is created when missing):

* ``hits-00000.parquet``, ``hits-00001.parquet``, ... -- the hits; a part
  is closed at the first batch boundary once it holds ``part_rows`` rows
  or more (there is always at least one part, maybe empty);
* ``_files.pq`` -- the files table (a Parquet file).  Its name keeps it out
  of every ``*.parquet`` glob and, by its leading ``_``, out of the
  directory reads of pyarrow and pandas.

So the directory reads as the one hits table in every engine:
``pandas.read_parquet(dir)``, ``pyarrow.dataset.dataset(dir)``,
``pl.scan_parquet(dir + "/**/*.parquet")`` in polars,
``read_parquet(dir || '/**/*.parquet')`` in DuckDB.  Read the files table
with ``pandas.read_parquet(dir + "/_files.pq")`` (or
:func:`urnscan.read_files_table`).  ``pyarrow.dataset`` reads every other
file of the directory, so keep other files out of it, or pass it the list
of parts.  (Indexes written before schema version 2 named the files table
``_files.parquet``; a ``--force`` rerun removes it.)

Atomicity
---------

Every file is written in its final directory without a name (on Linux:
``O_TMPFILE``; elsewhere under a hidden temporary name,
``.<name>.<pid>.<random>.tmp``: :mod:`urnscan.tempfiles`), flushed to
disk (``fsync``) and moved into place only when the sink is closed
without an error.  Leaving the ``with`` block by an exception (including
``KeyboardInterrupt``) deletes the temporary files: nothing is left at the
output path, and an existing output is left as it was.  In a dataset, the
parts are all renamed at the end, so a reader never sees part of a run.
(A process killed outright leaves nothing where files have no name until
they are committed; elsewhere it may leave a hidden ``*.tmp`` file, never
at the output path, which the next run writing that output removes.)  A symbolic link at an output path is written
through: the temporary file goes beside the file it points to, which is
replaced, and the link stays.

An existing output is refused unless ``force=True``, and a device, FIFO,
socket or directory where a file goes is refused even then
(:class:`~urnscan.errors.OutputRefused`): call :func:`check_writable`
before scanning to fail early.  With ``force``, a
dataset's old ``hits-*.parquet`` parts and ``_files.pq`` (or a ``_files.parquet`` of an older version) are replaced;
other files in the directory are never touched.

Format
------

zstd compression, Parquet dictionary encoding, one row group per batch of
``batch_rows`` rows or ``batch_bytes`` bytes of text (about: see
:data:`urnscan.model.TEXT_PER_URN_BYTE`), whichever comes first; the Arrow
schema is stored, so dictionary columns come back as dictionary
(categorical) columns.  The key ``urnscan`` of the file
metadata holds a JSON object::

    {"urnscan_version": "...", "schema_version": "4", "table": "hits",
     "params": {...the scan parameters given by the caller...}}

Memory: at most ``batch_rows`` hits, or ``batch_bytes`` of their text,
are buffered; each full buffer is written as a row group and dropped.
Rows alone did not bound it: 20,000 distinct URNs of 4 KB, a third of a
row group, held 700 MB of text and Arrow columns.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Optional, Union

import pyarrow as pa

from .._version import __version__
from ..errors import SinkError
from ..model import TEXT_PER_URN_BYTE, URN_FIELD, Hit
from ..tempfiles import PendingFile, landing
from .layout import (
    FILES_TABLE_NAME, LEGACY_FILES_TABLE_NAME, PART_GLOB, OutputLayout, _our_dataset_files, _part_name,
    check_dir_writable, check_writable, plan_output,
)
from .arrays import clean
from .writer import ParquetFileWriter
from .schema import (
    FILES_SCHEMA, HIT_SCHEMA, SCHEMA_VERSION, FileStatus, files_to_record_batch,
    hits_to_record_batch,
)

__all__ = [
    "ParquetSink", "OutputLayout", "check_writable", "check_dir_writable", "plan_output", "read_metadata",
    "METADATA_KEY", "PART_GLOB", "FILES_TABLE_NAME", "LEGACY_FILES_TABLE_NAME", "DEFAULT_BATCH_ROWS",
    "DEFAULT_BATCH_BYTES", "DEFAULT_PART_ROWS",
]

#: Key of the urnscan JSON in the Parquet file metadata.
METADATA_KEY = "urnscan"
#: the hits of a row group: the writer's thread encodes and compresses one
#: while the scan goes on, and the last one is written after the scan, its
#: wait the smaller the group (the dense benchmark file, 102,420 hits, at
#: --jobs 1: 0.80 s against 0.89 s with groups of 65,536 hits, a peak of
#: 115 MB against 190 MB; the file 23% larger, its dictionaries repeated)
DEFAULT_BATCH_ROWS = 16384
#: the files table's rows are made Arrow columns this many at a time as
#: they come, and written a row group (``batch_rows``) at a time: a run
#: with workers converts them while it waits for the workers, not all at
#: the end (9,600 rows: 25 ms after the last file was scanned)
FILES_CONVERT_ROWS = 2048
#: the text of a row group at most: 16,384 hits of the usual URNs (30 to 60
#: bytes) hold 5 to 9 MB of it, so they make full row groups; a row group
#: of long URNs stays about as large as 65,536 of theirs
DEFAULT_BATCH_BYTES = 64 << 20
DEFAULT_PART_ROWS = 1 << 20


_URN_COLUMN = HIT_SCHEMA.get_field_index("urn")


def read_metadata(path: Union[str, os.PathLike]) -> Dict[str, Any]:
    """The urnscan metadata (versions, scan parameters) of a Parquet file."""
    import pyarrow.parquet as pq

    md = pq.read_metadata(os.fspath(path)).metadata or {}
    raw = md.get(METADATA_KEY.encode())
    if raw is None:
        raise SinkError(f"{os.fspath(path)}: not written by urnscan (no '{METADATA_KEY}' metadata)")
    return json.loads(raw)


# ---------------------------------------------------------------------------
# One atomically written Parquet file
# ---------------------------------------------------------------------------


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _storable(value: Any) -> Any:
    """``value`` (the run's parameters) with every string as the columns
    store it: an input named on the command line with bytes that are not
    UTF-8 reads as in ``source`` (``\\xNN`` escapes), and a value JSON has
    no type for as its ``str``."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, dict):
        return {_storable(k) if isinstance(k, str) else k: _storable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_storable(v) for v in value]
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    return clean(str(value))


class _AtomicParquet:
    """A Parquet file written under a hidden temporary name (beside the file
    a symbolic link at ``target`` points to: the link is written through)."""

    def __init__(self, target: str, schema: pa.Schema, meta: bytes, *,
                 compression: str, compression_level: Optional[int], row_group_size: int):
        self.target = target
        self.final = landing(target)
        try:
            self.pending = PendingFile(self.final)
        except OSError as exc:
            raise SinkError(f"{target}: cannot create a file: {exc.strerror or exc}") from exc
        tmp = self.tmp = self.pending.path
        self.rows = 0
        self.row_groups = 0
        self._row_group_size = row_group_size
        self._closed = False
        metadata = dict(schema.metadata or {})
        metadata[METADATA_KEY.encode()] = meta
        try:
            self._writer = ParquetFileWriter(tmp, schema.with_metadata(metadata), compression=compression,
                                             compression_level=compression_level)
        except BaseException as exc:
            self._unlink()
            if isinstance(exc, OSError):
                raise SinkError(f"{target}: cannot write: {self._reason(exc)}") from exc
            raise

    def _reason(self, exc: BaseException) -> str:
        """The message of ``exc``, naming the output instead of its temporary file."""
        text = getattr(exc, "strerror", None) or str(exc)
        return text.replace(self.tmp, self.target)

    def write(self, batch) -> None:
        """Write a record batch or a table."""
        if batch.num_rows == 0:
            return
        try:
            self._writer.write(batch, self._row_group_size)
        except OSError as exc:
            raise SinkError(f"{self.target}: write failed: {self._reason(exc)}") from exc
        self.rows += batch.num_rows
        self.row_groups += -(-batch.num_rows // self._row_group_size)

    def finish(self) -> None:
        """Close the writer and flush the file to disk (still under its temp name)."""
        if self._closed:
            return
        self._closed = True
        try:
            self._writer.close()
            self.pending.sync()
        except OSError as exc:
            raise SinkError(f"{self.target}: write failed: {self._reason(exc)}") from exc

    def commit(self) -> None:
        try:
            self.pending.commit()
        except OSError as exc:
            raise SinkError(f"{self.target}: cannot move into place: {exc.strerror or exc}") from exc

    def _unlink(self) -> None:
        self.pending.discard()

    def abort(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                self._writer.close()
            except Exception:
                pass
        self._unlink()


# ---------------------------------------------------------------------------
# The sink
# ---------------------------------------------------------------------------


class ParquetSink:
    """Write hits (and the per-input files table) to Parquet.

    Use as a context manager::

        check_writable(out, force)              # before scanning: fail early
        with ParquetSink(out, params=params, force=force) as sink:
            sink.write_hits(hits)
            sink.add_file_status(path, "scanned", bytes=n, hits=k, valid_hits=v)

    The output appears at ``out_path`` only when the ``with`` block ends
    without an exception; see the module docs for the layouts.
    ``params`` (JSON-serialisable; other values are stored as strings) goes
    into the file metadata.
    """

    def __init__(self, out_path: Union[str, os.PathLike], *, params: Optional[dict] = None,
                 force: bool = False, batch_rows: int = DEFAULT_BATCH_ROWS,
                 part_rows: int = DEFAULT_PART_ROWS, compression: str = "zstd",
                 compression_level: Optional[int] = None, batch_bytes: int = DEFAULT_BATCH_BYTES):
        if batch_rows < 1 or batch_bytes < 1:
            raise ValueError("batch_rows and batch_bytes must be positive")
        if part_rows < 1:
            raise ValueError("part_rows must be positive")
        self.layout = check_writable(out_path, force)
        self.force = force
        self.batch_rows = int(batch_rows)
        #: the buffer is full once its URNs are this long together
        self._batch_chars = max(1, int(batch_bytes) // TEXT_PER_URN_BYTE)
        self.part_rows = int(part_rows)
        self.compression = compression
        self.compression_level = compression_level
        self.params = dict(params or {})
        self._buffer: List[Hit] = []
        self._buffer_chars = 0  # the length of the buffered hits' URNs
        self._gathered: List[pa.RecordBatch] = []  # record batches not yet written
        self._gathered_rows = 0
        self._gathered_chars = 0
        self._files_buffer: List[FileStatus] = []
        self._files_batches: List[pa.RecordBatch] = []  # rows of the files table, not yet written
        self._files_converted = 0
        self._parts: List[_AtomicParquet] = []
        self._current: Optional[_AtomicParquet] = None
        self._files: Optional[_AtomicParquet] = None
        self._created_dirs: List[str] = []
        self._state = "new"  # new -> open -> closed | aborted
        #: Hits written to Parquet so far (not counting the buffer).
        self.rows_written = 0
        #: Largest number of hits ever held in the buffer.
        self.peak_buffered_rows = 0
        #: Rows of the files table so far.
        self.files_rows = 0
        #: Paths written, once closed.
        self.paths: List[str] = []

    # -- metadata --------------------------------------------------------------

    def _meta(self, table: str) -> bytes:
        doc = {"urnscan_version": __version__, "schema_version": SCHEMA_VERSION,
               "table": table, "params": _storable(self.params)}
        return json.dumps(doc, sort_keys=True, ensure_ascii=False).encode("utf-8")

    def _new_file(self, target: str, schema: pa.Schema, table: str) -> _AtomicParquet:
        return _AtomicParquet(target, schema, self._meta(table), compression=self.compression,
                              compression_level=self.compression_level,
                              row_group_size=self.batch_rows)

    # -- life cycle ------------------------------------------------------------

    def open(self) -> "ParquetSink":
        if self._state != "new":
            raise SinkError("sink already opened")
        self._state = "open"
        try:
            target_dir = (self.layout.path if self.layout.dataset
                          else os.path.dirname(self.layout.path) or ".")
            self._makedirs(target_dir)
            self._files = self._new_file(self.layout.files_path, FILES_SCHEMA, "files")
            self._start_part()
        except BaseException:
            self.abort()
            raise
        return self

    def _makedirs(self, directory: str) -> None:
        missing = []
        d = os.path.abspath(directory)
        while not os.path.exists(d):
            missing.append(d)
            parent = os.path.dirname(d)
            if parent == d:
                break
            d = parent
        for d in reversed(missing):
            try:
                os.mkdir(d)
            except FileExistsError:
                continue
            except OSError as exc:
                raise SinkError(f"{d}: cannot create directory: {exc.strerror or exc}") from exc
            self._created_dirs.append(d)

    def _start_part(self) -> None:
        if self.layout.dataset:
            target = os.path.join(self.layout.path, _part_name(len(self._parts)))
        else:
            target = self.layout.path
        self._current = self._new_file(target, HIT_SCHEMA, "hits")
        self._parts.append(self._current)

    def __enter__(self) -> "ParquetSink":
        return self.open() if self._state == "new" else self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is not None:
            self.abort()
            return False
        self.close()
        return False

    def __del__(self):  # a sink dropped without close(): leave nothing behind
        try:
            if getattr(self, "_state", None) == "open":
                self.abort()
        except Exception:
            pass

    # -- writing ---------------------------------------------------------------

    def _check_open(self) -> None:
        if self._state == "new":
            self.open()
        elif self._state != "open":
            raise SinkError(f"sink is {self._state}")

    def write_hit(self, hit: Hit) -> None:
        self.write_hits((hit,))

    def write_hits(self, hits: Iterable[Hit]) -> int:
        """Write hits from any iterable (consumed lazily); returns how many."""
        self._check_open()
        n = 0
        buf = self._buffer
        chars = self._buffer_chars
        rows, text = self.batch_rows, self._batch_chars
        for hit in hits:
            buf.append(hit)
            n += 1
            chars += len(hit[URN_FIELD])
            if len(buf) >= rows or chars >= text:
                self._flush()
                buf, chars = self._buffer, 0
        self._buffer_chars = chars
        return n

    def write_batch(self, batch: pa.RecordBatch) -> int:
        """Write hits already built as a record batch of :data:`HIT_SCHEMA`
        (after the hits given so far); returns how many.  Small batches are
        gathered into row groups of ``batch_rows``."""
        self._check_open()
        if not batch.schema.equals(HIT_SCHEMA):
            raise SinkError("write_batch() needs a record batch of the hits schema")
        self._gather_buffer()
        self._gather(batch)
        if self._gathered_rows >= self.batch_rows or self._gathered_chars >= self._batch_chars:
            self._flush()
        return batch.num_rows

    def _gather(self, batch: pa.RecordBatch) -> None:
        self._gathered.append(batch)
        self._gathered_rows += batch.num_rows
        self._gathered_chars += batch.column(_URN_COLUMN).nbytes  # (and 4 bytes a row of offsets)

    def _gather_buffer(self) -> None:
        if self._buffer:
            self._gather(hits_to_record_batch(self._buffer))
            self._buffer, self._buffer_chars = [], 0

    def _flush(self) -> None:
        self._gather_buffer()
        if not self._gathered:
            return
        self.peak_buffered_rows = max(self.peak_buffered_rows, self._gathered_rows)
        table = pa.Table.from_batches(self._gathered, HIT_SCHEMA)
        self._gathered, self._gathered_rows, self._gathered_chars = [], 0, 0
        if self._current is None:
            self._start_part()
        assert self._current is not None
        self._current.write(table)
        self.rows_written += table.num_rows
        del table
        if self.layout.dataset and self._current.rows >= self.part_rows:
            self._current.finish()
            self._current = None

    def add_file_status(self, source: Union[str, FileStatus], status: Optional[str] = None,
                        reason: Optional[str] = None, *, bytes: int = 0,
                        compressed_bytes: Optional[int] = None,
                        compression: Optional[str] = None, hits: int = 0,
                        valid_hits: int = 0) -> None:
        """Record what happened to one input (a row of the files table).

        ``status`` is ``"scanned"``, ``"skipped-binary"`` or ``"error"``.
        A :class:`~urnscan.sinks.schema.FileStatus` may be passed instead.
        """
        self._check_open()
        if isinstance(source, FileStatus):
            row = source
        else:
            if status is None:
                raise TypeError("add_file_status() needs a status")
            row = FileStatus(source, status, reason, bytes, compressed_bytes, compression,
                             hits, valid_hits)
        self._files_buffer.append(row)
        if len(self._files_buffer) >= min(FILES_CONVERT_ROWS, self.batch_rows - self._files_converted):
            self._convert_files()
            if self._files_converted >= self.batch_rows:
                self._flush_files()

    def _convert_files(self) -> None:
        if not self._files_buffer:
            return
        batch = files_to_record_batch(self._files_buffer)
        self._files_buffer = []
        self._files_batches.append(batch)
        self._files_converted += batch.num_rows

    def _flush_files(self) -> None:
        """Write the converted rows as one row group."""
        if not self._files_batches:
            return
        table = pa.Table.from_batches(self._files_batches, FILES_SCHEMA)
        self._files_batches, self._files_converted = [], 0
        assert self._files is not None
        self._files.write(table)
        self.files_rows += table.num_rows

    # -- finishing -------------------------------------------------------------

    @property
    def row_groups_written(self) -> int:
        return sum(p.row_groups for p in self._parts)

    def close(self) -> List[str]:
        """Write what is buffered and move every file into place.

        Returns the paths written.  On any failure everything is removed
        and :class:`SinkError` is raised.
        """
        if self._state == "closed":
            return self.paths
        if self._state == "aborted":
            raise SinkError("sink was aborted")
        self._check_open()
        try:
            self._flush()
            self._convert_files()
            self._flush_files()
            for part in self._parts:
                part.finish()
            assert self._files is not None
            self._files.finish()
            if not self.force:  # the output may have appeared since we checked
                check_writable(self.layout.path if not self.layout.dataset
                               else self.layout.path + os.sep, False)
            stale: List[str] = []
            if self.layout.dataset:
                new = {os.path.basename(p.target) for p in self._parts}
                stale = [n for n in _our_dataset_files(self.layout.path)
                         if n not in new and n != FILES_TABLE_NAME]
            for part in self._parts:
                part.commit()
            self._files.commit()
        except BaseException:
            self.abort()
            raise
        self._state = "closed"
        for name in stale:
            try:
                os.unlink(os.path.join(self.layout.path, name))
            except OSError:
                pass
        _fsync_dir(self.layout.path if self.layout.dataset
                   else os.path.dirname(self.layout.path))
        self.paths = [p.target for p in self._parts] + [self._files.target]
        return self.paths

    def abort(self) -> None:
        """Drop everything written: no output appears, temp files are removed."""
        if self._state in ("closed", "aborted"):
            return
        self._state = "aborted"
        self._buffer, self._buffer_chars = [], 0
        self._gathered, self._gathered_chars = [], 0
        self._files_buffer, self._files_batches, self._files_converted = [], [], 0
        for part in self._parts:
            part.abort()
        if self._files is not None:
            self._files.abort()
        for d in reversed(self._created_dirs):
            try:
                os.rmdir(d)
            except OSError:
                break
