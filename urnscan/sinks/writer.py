"""One Parquet file written by pyarrow's writer, opened without the
``pyarrow.parquet`` module where pyarrow allows.

``pyarrow.parquet`` loads ``pyarrow.fs`` (S3, GCS, TLS) to resolve a path
to a filesystem, a tenth of ``urnscan scan``'s start-up; a local file opened
with ``pyarrow.OSFile`` and handed to pyarrow's compiled writer needs none
of it, and with ``pyarrow.parquet.ParquetWriter``'s defaults given here the
file is the same, byte for byte (tests/test_sinks.py).  Where the compiled
writer is missing or takes other arguments (another pyarrow), the writer
of ``pyarrow.parquet`` is used.

A table is written by a thread of its own while the caller goes on (the
writer encodes and compresses with the GIL released: at ``--jobs 1`` the
scan of the next batch overlaps the writing of the last).  One write is in
flight at a time, so at most one table is held besides the one being
built; an error of a write is raised by the next call.
"""
from __future__ import annotations

import threading
from typing import Iterator, List, Optional

import pyarrow as pa

from .schema import PLAIN_COLUMNS

#: pyarrow.parquet.ParquetWriter's defaults for what it passes on
_DEFAULTS = {"version": "2.6", "write_statistics": True, "data_page_version": "1.0",
             "writer_engine_version": "V2", "use_compliant_nested_type": True, "store_schema": True}


def dictionary_paths(schema: pa.Schema) -> List[str]:
    """The Parquet column paths to dictionary-encode: every leaf column of
    ``schema`` but those of :data:`~urnscan.sinks.schema.PLAIN_COLUMNS`."""
    return [path for field in schema if field.name not in PLAIN_COLUMNS for path in _leaf_paths(field.type, field.name)]


def _leaf_paths(type_: pa.DataType, path: str) -> Iterator[str]:
    """A column's leaf paths as Parquet names them (a list's values are
    ``<name>.list.element``, with compliant nested types)."""
    if pa.types.is_list(type_) or pa.types.is_large_list(type_):
        yield from _leaf_paths(type_.value_type, path + ".list.element")
    elif pa.types.is_struct(type_):
        for child in type_:
            yield from _leaf_paths(child.type, f"{path}.{child.name}")
    else:
        yield path


class ParquetFileWriter:
    """A Parquet file at ``path`` of ``schema``, written a table or record
    batch at a time; OSError when it cannot be opened or written."""

    def __init__(self, path: str, schema: pa.Schema, *, compression: str, compression_level: Optional[int],
                 compiled: bool = True):
        self._file = None
        self._writing: Optional[threading.Thread] = None
        self._error: Optional[BaseException] = None
        self.compiled = False
        if compiled:
            try:
                from pyarrow._parquet import ParquetWriter as writer_class
            except ImportError:
                writer_class = None
            if writer_class is not None:
                sink = pa.OSFile(path, "wb")
                try:
                    self._writer = writer_class(sink, schema, compression=compression,
                                                compression_level=compression_level,
                                                use_dictionary=dictionary_paths(schema), **_DEFAULTS)
                except TypeError:  # another pyarrow's arguments
                    sink.close()
                else:
                    self._file, self.compiled = sink, True
        if not self.compiled:
            import pyarrow.parquet as pq

            self._writer = pq.ParquetWriter(path, schema, compression=compression,
                                            compression_level=compression_level,
                                            use_dictionary=dictionary_paths(schema), write_statistics=True)

    def write(self, batch, row_group_size: int) -> None:
        """Write a record batch or a table in row groups of at most
        ``row_group_size`` rows (in the background: see the module docs)."""
        table = pa.Table.from_batches([batch]) if isinstance(batch, pa.RecordBatch) else batch
        self.wait()
        thread = threading.Thread(target=self._write, args=(table, row_group_size), name="urnscan-parquet",
                                  daemon=True)
        thread.start()
        self._writing = thread

    def _write(self, table: pa.Table, row_group_size: int) -> None:
        try:
            self._writer.write_table(table, row_group_size=row_group_size)
        except BaseException as exc:  # raised in the caller's thread by wait()
            self._error = exc

    def wait(self) -> None:
        """Wait for the write in flight; raise its error, if it failed."""
        if self._writing is not None:
            self._writing.join()
            self._writing = None
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def close(self) -> None:
        try:
            self.wait()
        finally:
            try:
                self._writer.close()
            finally:
                if self._file is not None:
                    self._file.close()
