"""The index's column names for the attributes of :class:`~urnscan.model.Hit`.

Kept apart from :mod:`urnscan.sinks.schema` so that the line sinks name
their fields without importing pyarrow.
"""
from __future__ import annotations

from ..model import Hit

__all__ = ["COLUMN_OF_FIELD", "HIT_FIELD_COLUMNS"]

#: Hit attribute -> index column, where the two names differ.  Schema
#: version 1 used the attribute names; ``end`` and ``column`` are keywords
#: in DuckDB, PostgreSQL and Spark SQL, so version 2 renamed them.
COLUMN_OF_FIELD = {"end": "stop", "column": "col"}

#: the column name of each Hit attribute, in attribute order
HIT_FIELD_COLUMNS = tuple(COLUMN_OF_FIELD.get(f, f) for f in Hit._fields)
