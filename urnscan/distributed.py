"""The same scan on a Dask cluster, for corpora that outgrow one machine.

(One module over 500 lines, on purpose: it is the whole of the optional
Dask room, imported only with ``--dask`` or by a caller of this API; its
worker tasks are top-level functions that the workers import by this name,
and the planner, the tasks and the dataset writer share one protocol --
partitions, temporary part names, the commit -- that reads best in one
place.  Everything else it runs is the local scan's.)

The per-document scan is the one of :mod:`urnscan.runner` and
:mod:`urnscan.ranges`; Dask only places the work.  Three ways in, one way
out:

* :func:`scan_paths` -- files, directories and globs, expanded as ``urnscan
  scan`` expands them (:func:`urnscan.sources.expand_inputs`); gives a
  :class:`DaskScan` with the hits and the files table as Dask DataFrames;
* :func:`scan_documents` -- a ``dask.bag`` of ``(doc_id, text)`` pairs;
* :func:`scan_text_column` -- a text column of a Dask DataFrame;

and :func:`write_dataset` writes any of them as a Parquet dataset laid out
like the local one (``hits-*.parquet`` + ``_files.pq``, with
:data:`~urnscan.sinks.schema.HIT_SCHEMA`).  :func:`hits_dataframe` is the
short way to the hits.  The DataFrames' columns and dtypes are those
``pandas.read_parquet`` gives for a local index (:func:`hits_meta`); the
rows are those of the local scan of the same inputs, in input order.

How files are split into tasks
------------------------------

Inputs are planned on the client, in input order.  Consecutive small files
(and compressed files, which cannot be split) are grouped into tasks of
about ``partition_bytes``; each group is one partition and scans its files
with :func:`urnscan.runner.scan_input`, so binary files, read errors and
hits found before an error are handled exactly as locally.

A plain file of at least twice ``split_bytes`` is cut into byte ranges
(:func:`urnscan.ranges.plan_ranges`), and its hits are stitched exactly as
the local parallel scan stitches them -- a hit is never lost or doubled at
a range boundary -- with the work spread out:

1. every range is scanned by its own task (:func:`urnscan.ranges.scan_range`);
2. a chain of small tasks carries the stitch state from range to range
   (:class:`urnscan.ranges.StitchState`: line breaks before the range, start
   of its first line, end of the last hit kept).  Each step needs its
   range's result, so Dask runs it where that result is; the state moving
   between workers is three integers.  Where a hit crosses a boundary, the
   step rescans the next range from the end of that hit until the two
   scans meet (this reads a little of the file again);
3. one task per range then emits the range's hits from its result and the
   state before it (:func:`urnscan.ranges.stitch_step`), in parallel --
   each range is one partition of the hits.

Where the files must be
-----------------------

The client expands the PATH arguments and plans the ranges, and the
workers open the files: every input (and the output directory) must be
readable under the same path on the client and on every worker -- a
shared or network filesystem, or a one-machine ``LocalCluster``.  Relative
paths are resolved against the client's working directory; the ``source``
column keeps them as listed.  urnscan must be installed on the workers.
Standard input cannot be scanned on a cluster.
"""
from __future__ import annotations

import contextlib
import glob
import json
import logging
import math
import os
import secrets
from functools import partial
from typing import Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

try:
    import dask.bag as db
    import dask.dataframe as dd
    from dask import delayed
    from dask.dataframe.utils import clear_known_categories
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(f"urnscan.distributed needs dask ({exc.name or 'dask'} is not installed): "
                      "pip install 'urnscan[dask]'") from exc

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ._version import __version__
from .model import Hit
from .planning import Batch, Layout, plan_file
from .ranges import Range, RangeResult, StitchState, ranges_status, scan_range, stitch_step
from .runner import DEFAULT_SPLIT_BYTES, ScanConfig, Summary, default_jobs, scan_input
from .scanner import DEFAULT_CHUNK_SIZE, ScanOptions, scan_bytes, scan_text
from .sinks.parquet import (
    DEFAULT_BATCH_ROWS, FILES_TABLE_NAME, METADATA_KEY, _fsync_dir, _our_dataset_files, _part_name,
    check_writable,
)
from .sinks.arrays import clean as _clean
from .sinks.schema import FILES_SCHEMA, HIT_SCHEMA, SCHEMA_VERSION, files_to_record_batch, hits_to_record_batch
from .sinks.status import ERROR, SCANNED, SKIPPED_BINARY, FileStatus
from .sinks.writer import dictionary_paths
from .sources import STDIN, InputRef, expand_inputs
from .sources.limits import DEFAULT_MAX_RATIO
from .tempfiles import discard, fsync_path

__all__ = [
    "DaskScan", "WriteResult", "scan_paths", "hits_dataframe", "scan_documents", "scan_text_column",
    "write_dataset", "hits_meta", "files_meta", "connect", "DEFAULT_PARTITION_BYTES",
]

#: Small files are grouped into tasks (and partitions) of about this many bytes.
DEFAULT_PARTITION_BYTES = 32 << 20
#: Hits are turned into Arrow record batches this many at a time.
_BATCH_HITS = DEFAULT_BATCH_ROWS


# ---------------------------------------------------------------------------
# Schemas as pandas
# ---------------------------------------------------------------------------


def hits_meta():
    """An empty pandas DataFrame with the columns and dtypes of every hits
    DataFrame here: the dtypes ``pandas.read_parquet`` gives for a local
    index (dictionary columns as categoricals, whose categories are not
    known in advance), except ``findings``, a pyarrow-backed
    ``list<string>`` column (``pd.ArrowDtype``), and ``valid_checksum``,
    pandas' nullable ``boolean``: Dask turns object columns into strings."""
    return clear_known_categories(_to_pandas(HIT_SCHEMA.empty_table()))


def files_meta():
    """An empty pandas DataFrame shaped like the files table."""
    return clear_known_categories(_to_pandas(FILES_SCHEMA.empty_table()))


_CODES_AS_STRINGS = pa.list_(pa.string())
#: the lists of names (the schema's list<element: string not null>), as
#: pyarrow-backed plain list<string> columns
_LIST_COLUMNS = ("findings", "finding_messages", "rules")


def _to_pandas(table: pa.Table):
    import pandas as pd

    mapper = None
    for name in _LIST_COLUMNS:
        i = table.schema.get_field_index(name)
        if i >= 0:
            table = table.set_column(i, pa.field(name, _CODES_AS_STRINGS),
                                     table.column(i).cast(_CODES_AS_STRINGS))
            mapper = {_CODES_AS_STRINGS: pd.ArrowDtype(_CODES_AS_STRINGS)}.get
    df = table.to_pandas(types_mapper=mapper)
    for field in table.schema:
        # an empty dictionary gives categories of another dtype than a filled
        # one, and categoricals of different category dtypes do not concatenate
        if pa.types.is_dictionary(field.type) and len(df[field.name].cat.categories) == 0:
            df[field.name] = df[field.name].cat.set_categories(_empty_categories())
        # a nullable flag (valid_checksum) comes as objects, which Dask turns
        # into the strings "True" and "False": pandas' own nullable boolean
        elif pa.types.is_boolean(field.type) and field.nullable:
            df[field.name] = df[field.name].astype("boolean")
    return df


def _empty_categories():
    return pa.array(["x"]).dictionary_encode().to_pandas().cat.categories[:0]


def _from_pandas(df) -> pa.Table:
    """A partition of a hits DataFrame as an Arrow table of HIT_SCHEMA."""
    missing = [n for n in HIT_SCHEMA.names if n not in df.columns]
    if missing:
        raise ValueError(f"not a hits DataFrame: missing columns {', '.join(missing)}")
    return pa.Table.from_pandas(df[HIT_SCHEMA.names], schema=HIT_SCHEMA, preserve_index=False)


class _TableBuilder:
    """Hits turned into Arrow record batches as they come, in bounded memory."""

    def __init__(self, valid_only: bool = False):
        self.valid_only = valid_only
        self.pending: List[Hit] = []
        self.batches: List[pa.RecordBatch] = []

    def add(self, hits: Iterable[Hit]) -> None:
        if self.valid_only:
            hits = [h for h in hits if h.valid]
        self.pending.extend(hits)
        if len(self.pending) >= _BATCH_HITS:
            self._flush()

    def _flush(self) -> None:
        if self.pending:
            self.batches.append(hits_to_record_batch(self.pending))
            self.pending = []

    def table(self) -> pa.Table:
        self._flush()
        return pa.Table.from_batches(self.batches, schema=HIT_SCHEMA)


# ---------------------------------------------------------------------------
# Planning files
# ---------------------------------------------------------------------------


class _Group(NamedTuple):
    """Consecutive inputs scanned whole by one task."""
    refs: Tuple[InputRef, ...]


class _Split(NamedTuple):
    """A large plain file scanned in byte ranges."""
    ref: InputRef
    ranges: Tuple[Range, ...]  # paths as the workers open them


def _locate(path: str, cwd: str) -> str:
    return path if os.path.isabs(path) else os.path.join(cwd, path)


def _plan(refs: Iterable[InputRef], cwd: str, split_bytes: int, partition_bytes: int) -> List[Union[_Group, _Split]]:
    """The local run's plan (:mod:`urnscan.planning`), one partition per
    batch of files or per range-cut file."""
    plan: List[Union[_Group, _Split]] = []
    group = Batch(partition_bytes)

    def close_group() -> None:
        nonlocal group
        if group.refs:
            plan.append(_Group(tuple(group.refs)))
        group = Batch(partition_bytes)

    for ref in refs:
        if ref.is_stdin:
            raise ValueError("standard input ('-') cannot be scanned on a cluster")
        layout = Layout.WHOLE
        if ref.ok and ref.size is not None:
            planned = plan_file(_locate(ref.path, cwd), ref.size, split_bytes)
            layout = planned.layout
            if layout is Layout.RANGES:
                close_group()
                plan.append(_Split(ref, planned.ranges))
                continue
        if group.add(ref, layout):
            close_group()
    close_group()
    return plan


# ---------------------------------------------------------------------------
# Worker-side tasks (top level: they are pickled)
# ---------------------------------------------------------------------------


def _rename_sources(table: pa.Table, names: Dict[str, str]) -> pa.Table:
    """Put the paths as listed back into ``source`` (the scan saw the paths
    as opened)."""
    if table.num_rows == 0 or all(k == v for k, v in names.items()):
        return table
    mapping = {_clean(k): _clean(v) for k, v in names.items()}
    chunks = []
    for chunk in table.column("source").chunks:
        encoded = chunk.dictionary_encode()
        values = [mapping.get(v, v) for v in encoded.dictionary.to_pylist()]
        renamed = pa.DictionaryArray.from_arrays(encoded.indices, pa.array(values, pa.string()))
        chunks.append(renamed.cast(HIT_SCHEMA.field("source").type))
    column = pa.chunked_array(chunks, HIT_SCHEMA.field("source").type)
    return table.set_column(0, HIT_SCHEMA.field("source"), column)


def _scan_group(refs: Tuple[InputRef, ...], config: ScanConfig, cwd: str) -> Tuple[pa.Table, List[FileStatus]]:
    builder = _TableBuilder()  # scan_input applies valid_only itself
    statuses: List[FileStatus] = []
    names: Dict[str, str] = {}
    for ref in refs:
        here = ref._replace(path=_locate(ref.path, cwd)) if ref.ok else ref
        names[here.path] = ref.path
        status = scan_input(here, config, builder.add)
        statuses.append(status._replace(source=ref.path))
    return _rename_sources(builder.table(), names), statuses


def _scan_range(rng: Range, options: ScanOptions, source: str) -> RangeResult:
    return scan_range(rng, options, source)


def _advance(result: RangeResult, state: StitchState, options: ScanOptions, source: str) -> StitchState:
    return stitch_step(result, state, options, source, keep=False)[1]


def _emit_range(result: RangeResult, state: StitchState, options: ScanOptions, source: str,
                valid_only: bool) -> Tuple[pa.Table, Tuple[int, int]]:
    hits, _ = stitch_step(result, state, options, source)
    builder = _TableBuilder(valid_only)
    for i in range(0, len(hits), _BATCH_HITS):
        builder.add(hits[i:i + _BATCH_HITS])
    table = builder.table()
    valid = (pc.sum(table.column("valid")).as_py() or 0) if table.num_rows else 0
    return table, (table.num_rows, valid)


def _split_status(source: str, state: StitchState, *counts: Tuple[int, int]) -> List[FileStatus]:
    """The row of a range-cut file, from the state after its last range."""
    return [ranges_status(source, state.stopped, state.read, sum(c[0] for c in counts), sum(c[1] for c in counts))]


def _docs_table(docs: Iterable[Any], options: ScanOptions, valid_only: bool) -> pa.Table:
    """Hits of ``(doc_id, text_or_bytes)`` pairs (or bare texts)."""
    builder = _TableBuilder(valid_only)
    kwargs = dict(profile=options.profile, trim=options.trim, fold=options.fold,
                  max_urn_length=options.max_urn_length, pair=options.pair, code=options.code,
                  embedded=options.embedded, percent=options.percent)
    for item in docs:
        if isinstance(item, (str, bytes, bytearray, memoryview)):
            doc_id, content = None, item
        else:
            doc_id, content = item
        source = None if _missing(doc_id) else str(doc_id)
        if isinstance(content, str):
            builder.add(scan_text(content, source=source, **kwargs))
        elif isinstance(content, (bytes, bytearray, memoryview)):
            builder.add(scan_bytes([bytes(content)], source=source, **kwargs))
        elif not _missing(content):
            raise TypeError(f"document {doc_id!r}: expected str or bytes, got {type(content).__name__}")
    return builder.table()


def _missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return type(value).__name__ in ("NAType", "NaTType")


def _docs_part(docs, options: ScanOptions, valid_only: bool):
    return _to_pandas(_docs_table(docs, options, valid_only))


def _column_part(df, column: str, id_column: Optional[str], options: ScanOptions, valid_only: bool):
    ids = df[id_column] if id_column is not None else df.index
    return _to_pandas(_docs_table(zip(ids, df[column]), options, valid_only))


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------


class DaskScan:
    """A planned scan of files (nothing runs until computed or written).

    ``hits`` is a Dask DataFrame of the hits (one partition per group of
    small files or per byte range of a large file, in input order);
    ``files`` is the files table, one row per input.  Computing both, or
    :func:`write_dataset`, runs the scan once; computing them one after the
    other runs it twice (persist them, or write the dataset and read it).
    """

    def __init__(self, tables: List[Any], statuses: List[Any], params: Dict[str, Any]):
        self._tables = tables  # Delayed pa.Table, one per partition
        self._statuses = statuses  # Delayed list of FileStatus, in input order
        self.params = params
        meta = hits_meta()
        parts = [delayed(_to_pandas)(t) for t in tables] or [delayed(_to_pandas)(HIT_SCHEMA.empty_table())]
        self.hits = dd.from_delayed(parts, meta=meta, verify_meta=False)
        frames = [delayed(_statuses_frame)(s) for s in statuses] or [delayed(_statuses_frame)([])]
        self.files = dd.from_delayed(frames, meta=files_meta(), verify_meta=False)

    @property
    def npartitions(self) -> int:
        return self.hits.npartitions


def _statuses_frame(statuses: Sequence[FileStatus]):
    return _to_pandas(pa.Table.from_batches([files_to_record_batch(statuses)]))


def scan_paths(paths: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]], *,
               options: ScanOptions = ScanOptions(), valid_only: bool = False,
               include: Sequence[str] = (), exclude: Sequence[str] = (),
               split_bytes: int = DEFAULT_SPLIT_BYTES, partition_bytes: int = DEFAULT_PARTITION_BYTES,
               chunk_size: int = DEFAULT_CHUNK_SIZE, follow_symlinks: bool = True,
               max_ratio: float = DEFAULT_MAX_RATIO, hidden: bool = True,
               ignore_files: bool = False, skip: Optional[Callable[[str], bool]] = None) -> DaskScan:
    """Plan the scan of files, directories and globs on Dask.

    The inputs are expanded here, as ``urnscan scan`` expands them; the
    files are read by the workers (see the module docs: the paths must be
    visible to them).  A plain file of at least ``2 * split_bytes`` bytes
    is scanned in ranges of about ``split_bytes``.  Containers (mail and
    web archives, zip files, PDFs) are scanned whole, document by document;
    ``max_ratio`` is the decompression ratio limit (:mod:`urnscan.sources.limits`);
    ``skip`` refuses paths as the walk meets them (``urnscan scan --dask``
    passes its own output's guard, as the local run does).
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    if STDIN in paths:
        raise ValueError("standard input ('-') cannot be scanned on a cluster")
    if split_bytes < 1 or partition_bytes < 1:
        raise ValueError("split_bytes and partition_bytes must be positive")
    cwd = os.getcwd()
    config = ScanConfig(options=options, jobs=1, valid_only=valid_only, chunk_size=chunk_size,
                        split_bytes=split_bytes, max_ratio=max_ratio)
    refs = expand_inputs(paths, include=include, exclude=exclude, follow_symlinks=follow_symlinks,
                         hidden=hidden, ignore_files=ignore_files, skip=skip)
    tables: List[Any] = []
    statuses: List[Any] = []
    scan_group = delayed(partial(_scan_group, config=config, cwd=cwd), nout=2, pure=False)
    for item in _plan(refs, cwd, split_bytes, partition_bytes):
        if isinstance(item, _Group):
            table, status = scan_group(item.refs, dask_key_name=_key("urnscan-files"))
            tables.append(table)
            statuses.append(status)
            continue
        source = item.ref.path
        state: Any = StitchState()
        counts = []
        for rng in item.ranges:
            result = delayed(_scan_range, pure=False)(rng, options, source, dask_key_name=_key("urnscan-range"))
            table, count = delayed(_emit_range, nout=2, pure=False)(
                result, state, options, source, valid_only, dask_key_name=_key("urnscan-stitch"))
            state = delayed(_advance, pure=False)(result, state, options, source,
                                                  dask_key_name=_key("urnscan-state"))
            tables.append(table)
            counts.append(count)
        statuses.append(delayed(_split_status, pure=False)(source, state, *counts,
                                                           dask_key_name=_key("urnscan-status")))
    params = {"paths": paths, "profile": options.profile, "trim": options.trim, "fold": options.fold,
              "max_urn_length": options.max_urn_length, "valid_only": valid_only,
              "include": list(include), "exclude": list(exclude), "offsets": "bytes"}
    return DaskScan(tables, statuses, params)


def _key(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(8)}"


def hits_dataframe(paths_or_bag, *, options: ScanOptions = ScanOptions(), valid_only: bool = False,
                   include: Sequence[str] = (), exclude: Sequence[str] = (),
                   split_bytes: int = DEFAULT_SPLIT_BYTES, partition_bytes: int = DEFAULT_PARTITION_BYTES):
    """The hits of files (a path, or a list of paths, directories and globs:
    see :func:`scan_paths`) or of a ``dask.bag`` of documents (see
    :func:`scan_documents`; ``include``, ``exclude`` and the sizes concern
    files only) as a Dask DataFrame."""
    if isinstance(paths_or_bag, db.Bag):
        if include or exclude:
            raise TypeError("include and exclude select files; a bag holds documents")
        return scan_documents(paths_or_bag, options=options, valid_only=valid_only)
    if isinstance(paths_or_bag, dd.DataFrame):
        raise TypeError("for a DataFrame, use scan_text_column(ddf, column)")
    return scan_paths(paths_or_bag, options=options, valid_only=valid_only, include=include, exclude=exclude,
                      split_bytes=split_bytes, partition_bytes=partition_bytes).hits


def scan_documents(bag, *, options: ScanOptions = ScanOptions(), valid_only: bool = False):
    """The hits of a ``dask.bag`` of documents as a Dask DataFrame, one
    partition per partition of the bag.

    Each element is a ``(doc_id, content)`` pair (or a bare content, with no
    id): ``doc_id`` becomes ``source`` (as ``str``); a ``str`` content is
    scanned like :func:`urnscan.scan_text` (character offsets), ``bytes``
    like :func:`urnscan.scan_bytes` (byte offsets); a missing content
    (``None``, NaN) is skipped.
    """
    fn = delayed(partial(_docs_part, options=options, valid_only=valid_only), pure=False)
    parts = [fn(p, dask_key_name=_key("urnscan-docs")) for p in bag.to_delayed()]
    if not parts:
        parts = [delayed(_to_pandas)(HIT_SCHEMA.empty_table())]
    return dd.from_delayed(parts, meta=hits_meta(), verify_meta=False)


def scan_text_column(ddf, column: str, id_column: Optional[str] = None, *,
                     options: ScanOptions = ScanOptions(), valid_only: bool = False):
    """The hits of the text column ``column`` of a Dask DataFrame.

    ``source`` is the value of ``id_column`` (as ``str``), or the row's index
    label when ``id_column`` is None (a default index restarts in every
    partition: give an id column for ids that are unique).  Cells are
    scanned as in :func:`scan_documents`.
    """
    for name in (column, id_column):
        if name is not None and name not in ddf.columns:
            raise KeyError(f"no column {name!r}")
    fn = partial(_column_part, column=column, id_column=id_column, options=options, valid_only=valid_only)
    return ddf.map_partitions(fn, meta=hits_meta(), enforce_metadata=False, clear_divisions=True)


# ---------------------------------------------------------------------------
# Writing a dataset
# ---------------------------------------------------------------------------


class WriteResult(NamedTuple):
    """What :func:`write_dataset` wrote."""

    path: str  # the dataset directory
    parts: List[str]  # the hits-*.parquet files, in order
    files_path: Optional[str]  # _files.pq, when the input was files
    rows: int  # hits written
    summary: Optional[Summary]  # counts over the files table, when the input was files
    problems: List[FileStatus]  # inputs skipped as binary or in error, in input order


def _meta(table: str, params: Dict[str, Any]) -> bytes:
    doc = {"urnscan_version": __version__, "schema_version": SCHEMA_VERSION, "table": table, "params": params}
    return json.dumps(doc, sort_keys=True, default=str, ensure_ascii=False).encode("utf-8")


def _write_table(table: pa.Table, schema: pa.Schema, tmp: str, meta: bytes, compression: str) -> None:
    os.makedirs(os.path.dirname(tmp), exist_ok=True)
    metadata = dict(schema.metadata or {})
    metadata[METADATA_KEY.encode()] = meta
    try:
        with pq.ParquetWriter(tmp, schema.with_metadata(metadata), compression=compression,
                              use_dictionary=dictionary_paths(schema), write_statistics=True) as writer:
            if table.num_rows:
                writer.write_table(table, row_group_size=DEFAULT_BATCH_ROWS)
        fsync_path(tmp)
    except BaseException:
        discard(tmp)
        raise


def _tmp_name(directory: str, name: str, tag: str) -> str:
    return os.path.join(directory, f".{name}.{tag}.tmp")


def _write_part(table, index: int, directory: str, tag: str, meta: bytes, compression: str,
                from_pandas: bool) -> Tuple[str, int]:
    if from_pandas:
        table = _from_pandas(table)
    tmp = _tmp_name(directory, _part_name(index), tag)
    _write_table(table, HIT_SCHEMA, tmp, meta, compression)
    return tmp, table.num_rows


def _write_files(directory: str, tag: str, meta: bytes, compression: str,
                 *statuses: List[FileStatus]) -> Tuple[str, Summary, List[FileStatus]]:
    rows = [s for part in statuses for s in part]
    tmp = _tmp_name(directory, FILES_TABLE_NAME, tag)
    batch = files_to_record_batch(rows)
    _write_table(pa.Table.from_batches([batch]), FILES_SCHEMA, tmp, meta, compression)
    summary = Summary(
        files=len(rows), scanned=sum(s.status == SCANNED for s in rows),
        skipped_binary=sum(s.status == SKIPPED_BINARY for s in rows),
        errors=sum(s.status == ERROR for s in rows), bytes=sum(s.bytes for s in rows),
        hits=sum(s.hits for s in rows), valid_hits=sum(s.valid_hits for s in rows))
    return tmp, summary, [s for s in rows if s.status != SCANNED]


def _commit(parts: List[Tuple[str, int]], files, directory: str) -> WriteResult:
    """Move the parts (renumbered, empty ones dropped) and the files table
    into place; drop the parts of an earlier run."""
    keep = [p for p in parts if p[1]] or parts[:1]
    finals = [os.path.join(directory, _part_name(i)) for i in range(len(keep))]
    new = {os.path.basename(f) for f in finals}
    stale = [n for n in _our_dataset_files(directory) if n not in new and n != FILES_TABLE_NAME]
    for (tmp, _), final in zip(keep, finals):
        os.replace(tmp, final)
    kept = {tmp for tmp, _ in keep}
    for tmp, _ in parts:
        if tmp not in kept:
            discard(tmp)
    files_path = None
    summary = None
    problems: List[FileStatus] = []
    target = os.path.join(directory, FILES_TABLE_NAME)
    if files is not None:
        tmp, summary, problems = files
        os.replace(tmp, target)
        files_path = target
    else:
        stale.append(FILES_TABLE_NAME)  # it would describe another run
    for name in stale:
        discard(os.path.join(directory, name))
    _fsync_dir(directory)
    return WriteResult(directory, finals, files_path, sum(p[1] for p in parts), summary, problems)


def write_dataset(data, out_dir: Union[str, os.PathLike], *, force: bool = False,
                  params: Optional[Dict[str, Any]] = None, compression: str = "zstd", compute: bool = True):
    """Write hits as a Parquet dataset directory: ``hits-00000.parquet``...
    (one per non-empty partition, renumbered, at least one) and, when
    ``data`` is a :class:`DaskScan`, the files table ``_files.pq``.

    ``data`` is a :class:`DaskScan` or a Dask DataFrame of hits (from
    :func:`scan_documents`, :func:`scan_text_column`, or any frame with the
    hit columns).  The files have :data:`~urnscan.sinks.schema.HIT_SCHEMA`
    and the ``urnscan`` metadata of a local index; read the dataset with
    ``pandas.read_parquet(out_dir)`` or ``pyarrow.dataset.dataset(out_dir)``.

    Every file is written by a worker under a hidden temporary name and
    moved into place by a last task once all are written, so the directory
    must be on a filesystem the workers share (the client checks it first,
    as ``urnscan scan`` does: an existing dataset needs ``force``).  When
    the run fails, the temporary files are removed (and the directory, if
    this call created it) and the error is raised.
    Returns a :class:`WriteResult`, or with ``compute=False`` a Dask
    ``Delayed`` of it.
    """
    directory = os.fspath(out_dir).rstrip("/" + os.sep) or os.fspath(out_dir)
    check_writable(directory + os.sep, force)
    created = not os.path.exists(directory)
    os.makedirs(directory, exist_ok=True)
    tag = secrets.token_hex(4)
    if isinstance(data, DaskScan):
        run_params = dict(data.params, **(params or {}))
        tables, from_pandas, statuses = data._tables, False, data._statuses
    elif isinstance(data, dd.DataFrame):
        run_params = dict(params or {})
        tables, from_pandas, statuses = data.to_delayed(), True, None
    else:
        raise TypeError(f"expected a DaskScan or a Dask DataFrame of hits, got {type(data).__name__}")
    if not tables:
        tables, from_pandas = [HIT_SCHEMA.empty_table()], False
    hits_meta_bytes = _meta("hits", run_params)
    write_part = delayed(_write_part, pure=False)
    parts = [write_part(t, i, directory, tag, hits_meta_bytes, compression, from_pandas,
                        dask_key_name=_key("urnscan-write")) for i, t in enumerate(tables)]
    files = None
    if statuses is not None:
        files = delayed(_write_files, pure=False)(directory, tag, _meta("files", run_params), compression,
                                                  *statuses, dask_key_name=_key("urnscan-write-files"))
    result = delayed(_commit, pure=False)(parts, files, directory, dask_key_name=_key("urnscan-commit"))
    if not compute:
        return result
    try:
        return result.compute()
    except BaseException:
        # nothing of a failed run is left: its temporary files, the directory if new
        for tmp in glob.glob(os.path.join(glob.escape(directory), f".*.{tag}.tmp")):
            discard(tmp)
        if created:
            with contextlib.suppress(OSError):
                os.rmdir(directory)
        raise


# ---------------------------------------------------------------------------
# Clusters
# ---------------------------------------------------------------------------


@contextlib.contextmanager
def connect(address: str, n_workers: Optional[int] = None, timeout: Optional[float] = None) -> Iterator[Any]:
    """A ``distributed.Client`` for ``address`` (``tcp://host:8786``), or for
    a new ``LocalCluster`` of ``n_workers`` single-threaded worker processes
    when ``address`` is ``"local"``; closed (with the local cluster) at the
    end of the ``with`` block.  While it is open it is the default
    scheduler of every ``compute``.  ``timeout`` (seconds) defaults to
    Dask's ``distributed.comm.timeouts.connect`` setting."""
    from distributed import Client, LocalCluster

    if address == "local":
        with LocalCluster(n_workers=n_workers or default_jobs(), threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=logging.ERROR) as cluster:
            with Client(cluster) as client:
                yield client
    else:
        kwargs = {} if timeout is None else {"timeout": timeout}
        with Client(address, **kwargs) as client:
            yield client
