"""Where hits go: Parquet (the index), JSON lines and grep-like text.

One job per module:

* :mod:`urnscan.sinks.schema` -- the versioned Arrow schemas, defined once;
* :mod:`urnscan.sinks.parquet` -- :class:`ParquetSink`, atomic Parquet files
  or datasets;
* :mod:`urnscan.sinks.jsonl` -- :class:`JsonlSink`;
* :mod:`urnscan.sinks.text` -- :class:`TextSink`.

Every sink is a context manager with ``write_hits(iterable)``,
``write_hit(hit)``, ``add_file_status(...)`` and ``close()``.  Names are
imported lazily, so the line sinks do not pay for importing pyarrow.
"""
from __future__ import annotations

from .._lazy import lazy_exports

_EXPORTS = {
    "ParquetSink": "parquet", "check_writable": "parquet", "plan_output": "parquet",
    "OutputLayout": "parquet", "read_metadata": "parquet",
    "JsonlSink": "jsonl", "hit_to_json_obj": "jsonl",
    "TextSink": "text", "format_hit": "text",
    "SCHEMA_VERSION": "schema", "HIT_SCHEMA": "schema", "FILES_SCHEMA": "schema",
    "FileStatus": "status", "FILE_STATUSES": "status", "hits_to_record_batch": "schema",
    "files_to_record_batch": "schema", "describe_schema": "schema",
}

__all__ = sorted(_EXPORTS)

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
