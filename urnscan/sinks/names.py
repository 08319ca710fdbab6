"""The index's column names for the attributes of :class:`~urnscan.model.Hit`.

Kept apart from :mod:`urnscan.sinks.schema` so that the line sinks name
their fields without importing pyarrow.
"""
from __future__ import annotations

from ..model import Hit

__all__ = ["COLUMN_OF_FIELD", "HIT_FIELD_COLUMNS", "DEDUPE_COLUMNS"]

#: Hit attribute -> index column, where the two names differ.  Schema
#: version 1 used the attribute names; ``end`` and ``column`` are keywords
#: in DuckDB, PostgreSQL and Spark SQL, so version 2 renamed them.
COLUMN_OF_FIELD = {"end": "stop", "column": "col"}

#: the column name of each Hit attribute, in attribute order
HIT_FIELD_COLUMNS = tuple(COLUMN_OF_FIELD.get(f, f) for f in Hit._fields)

#: the columns of an index dedupe reads (:mod:`urnscan.frame`), every one
#: of them text: the hit, its source and keys (an index written before the
#: scan stored ``ns_key``, ``dedup_key`` and ``dedup_rules`` lacks them:
#: they are then computed from ``key``)
DEDUPE_COLUMNS = ("source", "urn", "key", "nid", "ns_key", "dedup_key", "dedup_rules")
