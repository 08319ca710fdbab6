"""One Parquet file written by pyarrow's writer, opened without the
``pyarrow.parquet`` module where pyarrow allows.

``pyarrow.parquet`` loads ``pyarrow.fs`` (S3, GCS, TLS) to resolve a path
to a filesystem, a tenth of ``urnscan scan``'s start-up; a local file opened
with ``pyarrow.OSFile`` and handed to pyarrow's compiled writer needs none
of it, and with ``pyarrow.parquet.ParquetWriter``'s defaults given here the
file is the same, byte for byte (tests/test_sinks.py).  Where the compiled
writer is missing or takes other arguments (another pyarrow), the writer
of ``pyarrow.parquet`` is used.
"""
from __future__ import annotations

from typing import Optional

import pyarrow as pa

#: pyarrow.parquet.ParquetWriter's defaults for what it passes on
_DEFAULTS = {"version": "2.6", "use_dictionary": True, "write_statistics": True, "data_page_version": "1.0",
             "writer_engine_version": "V2", "use_compliant_nested_type": True, "store_schema": True}


class ParquetFileWriter:
    """A Parquet file at ``path`` of ``schema``, written a table or record
    batch at a time; OSError when it cannot be opened or written."""

    def __init__(self, path: str, schema: pa.Schema, *, compression: str, compression_level: Optional[int],
                 compiled: bool = True):
        self._file = None
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
                                                compression_level=compression_level, **_DEFAULTS)
                except TypeError:  # another pyarrow's arguments
                    sink.close()
                else:
                    self._file, self.compiled = sink, True
        if not self.compiled:
            import pyarrow.parquet as pq

            self._writer = pq.ParquetWriter(path, schema, compression=compression,
                                            compression_level=compression_level, use_dictionary=True,
                                            write_statistics=True)

    def write(self, batch, row_group_size: int) -> None:
        """Write a record batch or a table in row groups of at most
        ``row_group_size`` rows."""
        table = pa.Table.from_batches([batch]) if isinstance(batch, pa.RecordBatch) else batch
        self._writer.write_table(table, row_group_size=row_group_size)

    def close(self) -> None:
        try:
            self._writer.close()
        finally:
            if self._file is not None:
                self._file.close()
