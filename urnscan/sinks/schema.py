"""The Arrow schemas of urnscan's output, defined once.

Two tables:

* **hits** (:data:`HIT_SCHEMA`): one row per URN candidate, the fields of
  :class:`urnscan.model.Hit`;
* **files** (:data:`FILES_SCHEMA`): one row per input of a run, with what
  happened to it (scanned, skipped as binary, error and why).

Both carry :data:`SCHEMA_VERSION`.  Every field has a ``doc`` entry in its
field metadata; :func:`describe_schema` renders those docs as the markdown
tables of the README.  Change a column, its type or its meaning and the
version changes too.

Columns whose values repeat (document, form, NID, namespace status,
profile, file status, compression) are Arrow dictionary columns, so they
load as categoricals in pandas and polars.  The lists of names (reading
rules, finding codes and messages) are lists of plain strings
(:data:`~urnscan.sinks.arrays.NAME_LISTS` says why).
``source`` is a plain string in both tables, so the tables join in every
engine.

Column names are never SQL keywords (DuckDB, PostgreSQL, Spark SQL): the
index calls the :class:`~urnscan.model.Hit` attributes ``end`` and
``column`` ``stop`` and ``col`` (:data:`COLUMN_OF_FIELD`, the one place the
names differ).  ``finding_messages`` is derived from ``Hit.findings``.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Iterable, List, Optional, Sequence

import pyarrow as pa

from ..errors import SinkError
from ..model import URN_FIELD, Finding, Hit
from . import arrays
from .arrays import DICT as _DICT, NAME_LISTS as _CODES
from .names import COLUMN_OF_FIELD, HIT_FIELD_COLUMNS
from .status import ERROR, FILE_STATUSES, SCANNED, SKIPPED_BINARY, FileStatus, stored_compressed_bytes

__all__ = [
    "SCHEMA_VERSION", "HIT_SCHEMA", "FILES_SCHEMA", "FILE_STATUSES",
    "SCANNED", "SKIPPED_BINARY", "ERROR", "FileStatus", "COLUMN_OF_FIELD", "HIT_COLUMNS",
    "hits_to_record_batch", "files_to_record_batch", "describe_schema",
]

#: Version of both schemas; stored in the schema metadata of every file.
SCHEMA_VERSION = "4"


def _field(name: str, type_: pa.DataType, doc: str, nullable: bool = False) -> pa.Field:
    return pa.field(name, type_, nullable=nullable, metadata={"doc": doc})


HIT_SCHEMA = pa.schema(
    [
        _field("source", pa.string(),
               "Where the candidate was found: the input path as listed (`-` for "
               "standard input) or the document id given by the caller; null "
               "when none was given. Joins `files.source`.", nullable=True),
        _field("document", _DICT,
               "The document inside the source the candidate was found in: a mail "
               "message part (`<Message-ID>/2`, or `#3/2` for part 2 of message 3 without "
               "an id), a WARC record (its `WARC-Target-URI`), a zip member "
               "(`OEBPS/ch1.xhtml`), a tar or ar member (`pkg-1.0/README`; a member of "
               "a tarball inside it after `!`, `data.tar.xz!./usr/share/doc/pkg/README`), "
               "a PDF page (`page=3`) or a file the PDF embeds (`factur-x.xml`); null when the "
               "source is a single document.", nullable=True),
        _field("start", pa.int64(),
               "Start offset of the span, 0-based. Byte offset in the decompressed "
               "input for byte input, character offset for `str` input. In a document "
               "(`document` not null) or an input read by its UTF-16/32 byte-order mark, "
               "the offset in the document's decoded UTF-8 text (transfer encoding undone, "
               "transcoded from its charset)."),
        _field("stop", pa.int64(),
               "End offset of the span (exclusive), in the same unit as `start`."),
        _field("line", pa.int64(), "1-based line of `start` (in the decoded document, as `start`)."),
        _field("col", pa.int64(),
               "1-based column of `start`, in the same unit as the offsets; a UTF-8 byte-order "
               "mark that starts the input (or document) takes none."),
        _field("form", _DICT,
               "`bare` (`urn:...` in running text) or `wrapped` (`<urn:...>`, the "
               "span is the URN inside the angle brackets)."),
        _field("folded", pa.bool_(),
               "The URN was broken over lines and joined; the span includes the "
               "white space removed from `urn`."),
        _field("embedded", pa.bool_(),
               "The URN was found inside a URL (resolver link, `?urn=`, magnet link)."),
        _field("raw", pa.string(), "The text of the span, as it stands in the input."),
        _field("urn", pa.string(),
               "The URN as written: wrapper and folding white space removed, "
               "trailing sentence punctuation trimmed."),
        _field("literal", pa.string(),
               "The untrimmed span the literal RFC 2141 rule gives (ends at the "
               "first excluded character)."),
        _field("rules", _CODES,
               "The reading rules that shaped the hit (e.g. `pair:quote`, `trim:period`, "
               "`fold:rfc`, `embedded:url`), in the order they applied; empty when none."),
        _field("context", pa.string(),
               "The text around the hit (`urnscan scan --context N`: up to N bytes each "
               "side, cut at UTF-8 character boundaries), white space collapsed to one "
               "space; null when not asked for (N = 0) and for over-long candidates.",
               nullable=True),
        _field("valid", pa.bool_(), "Syntactically valid under the scan's profile (`profile`)."),
        _field("valid_rfc2141", pa.bool_(), "Syntactically valid under RFC 2141."),
        _field("valid_rfc8141", pa.bool_(), "Syntactically valid under RFC 8141."),
        _field("canonical", pa.string(),
               "Canonical form: `urn` and the NID lower-cased, the NSS's percent-encoding "
               "hex digits upper-cased, components kept as written; null when not a URN.",
               nullable=True),
        _field("key", pa.string(),
               "URN-equivalence key: the canonical assigned name without r-, q- and "
               "f-components; equal keys mean URN-equivalent. Null when not a URN.",
               nullable=True),
        _field("nid", _DICT, "The namespace identifier as written; null when none.",
               nullable=True),
        _field("nss", pa.string(), "The namespace-specific string as written; null when none.",
               nullable=True),
        _field("r_component", pa.string(),
               "The r-component (after `?+`); null when absent, empty when present "
               "but empty.", nullable=True),
        _field("q_component", pa.string(),
               "The q-component (after `?=`, or `?` in older profiles); null when "
               "absent.", nullable=True),
        _field("f_component", pa.string(),
               "The f-component (after `#`); null when absent.", nullable=True),
        _field("findings", _CODES,
               "Codes of the findings (errors and warnings) under the scan's "
               "profile, in order; empty when none."),
        _field("finding_messages", _CODES,
               "The message of each finding, in the order of `findings` (same length)."),
        _field("namespace_status", _DICT,
               "Status of the namespace: `formal`, `informal`, `experimental` or "
               "`unregistered` (or `unknown`)."),
        _field("ns_key", pa.string(),
               "Namespace-aware equivalence key: `key` with the registered rules of "
               "the namespace applied; merges at least what `key` merges. Null when "
               "not a URN.", nullable=True),
        _field("profile", _DICT, "The syntax profile `valid` and `findings` refer to."),
        _field("dedup_key", pa.string(),
               "Heuristic deduplication key: `ns_key` with heuristics beyond the namespace "
               "registrations applied (for merging citations); merges at least what `ns_key` "
               "merges. Null when not a URN.", nullable=True),
        _field("dedup_rules", _DICT,
               "The rules applied to reach `dedup_key`, comma-separated: registered ones "
               "(e.g. `isbn-10-to-13`) and heuristic ones prefixed `h:`; empty when none, "
               "null when not a URN.", nullable=True),
        _field("valid_checksum", pa.bool_(),
               "Whether the check character(s) of the name match, for the namespaces whose "
               "names carry one: ISBN, ISSN, ISNI, ISAN, EIDR (10.5240 content IDs) and German "
               "NBNs (the DNB check digit); a mismatch is also a `*-check-digit` finding. Null "
               "when the name carries none, is malformed, or is not a URN.", nullable=True),
    ],
    metadata={"urnscan.table": "hits", "urnscan.schema_version": SCHEMA_VERSION},
)

FILES_SCHEMA = pa.schema(
    [
        _field("source", pa.string(),
               "The input path as listed (`-` for standard input); joins "
               "`hits.source`."),
        _field("status", _DICT,
               "`scanned`, `skipped-binary` (not text, not scanned), `skipped` (passed "
               "over while walking: hidden, ignored, a symbolic link not followed, a "
               "link loop or a dangling link, see `reason`; a directory is one row) "
               "or `error` (see `reason`; a file that failed part-way keeps the hits "
               "found before the failure)."),
        _field("reason", pa.string(),
               "Why the input was not scanned, or not scanned to the end (a decompression "
               "ratio over the limit, `--max-ratio`, is such a reason); for a scanned "
               "container, the documents skipped and why; else null.", nullable=True),
        _field("bytes", pa.int64(),
               "Decompressed bytes scanned (for a container, the decoded bytes of its "
               "documents)."),
        _field("compressed_bytes", pa.int64(),
               "Bytes read from the input itself: the compressed size when "
               "`compression` is set, else equal to `bytes`."),
        _field("compression", _DICT,
               "`gzip`, `bz2`, `xz` or `zstd` (detected from the content); null when "
               "not compressed.", nullable=True),
        _field("hits", pa.int64(), "Number of candidates found in the input."),
        _field("valid_hits", pa.int64(), "Number of those valid under the scan's profile."),
        _field("container", _DICT,
               "`mbox`, `eml`, `warc`, `zip`, `tar`, `ar` or `pdf` when the input holds documents "
               "(told from the content, and also the name for `eml`); null for a plain input.",
               nullable=True),
        _field("documents", pa.int64(),
               "Documents scanned: 1 for a plain text input, the message parts, records, "
               "members or pages scanned for a container."),
        _field("skipped_documents", pa.int64(),
               "Documents not scanned: binary parts, records and members, encrypted "
               "members, pages without extractable text (`reason` says which), and a "
               "binary plain input."),
    ],
    metadata={"urnscan.table": "files", "urnscan.schema_version": SCHEMA_VERSION},
)

#: The hit columns derived from another attribute: column -> attribute
_DERIVED = {"finding_messages": "findings"}
#: The hits table's column names, in order
HIT_COLUMNS = tuple(HIT_SCHEMA.names)

#: columns with about as many values as rows (a hit's offsets and line, the
#: text around it): Parquet's dictionary encoding of them only fills a
#: dictionary page, which the writer then abandons.  They are written plain;
#: every other column is dictionary-encoded.  Written so, the index of 1.8
#: million ISBN URNs took 1.43 s instead of 1.54 s to write and 39 MB
#: instead of 49 MB; 100,000 hits of a 200 MB text, 0.108 s instead of
#: 0.118 s and 7.9 MB instead of 8.4 MB.
PLAIN_COLUMNS = frozenset({"start", "stop", "line", "context"})
_FIELD_OF_COLUMN = {**{c: f for f, c in COLUMN_OF_FIELD.items()}, **_DERIVED}
#: for each hit column, the index of the Hit attribute it is built from
_HIT_SOURCE = tuple(Hit._fields.index(_FIELD_OF_COLUMN.get(c, c)) for c in HIT_COLUMNS)

if tuple(c for c in HIT_COLUMNS if c not in _DERIVED) != HIT_FIELD_COLUMNS:
    raise ImportError("HIT_SCHEMA and urnscan.model.Hit disagree on the columns")  # pragma: no cover


# ---------------------------------------------------------------------------
# Building record batches
# ---------------------------------------------------------------------------

#: the first of the Hit attributes that depend on the judged URN alone (and
#: the profile): a scan repeats their values for every hit of the same URN,
#: so their columns are built once per distinct tuple of them, then taken
_JUDGED = Hit._fields.index("valid")
#: the value stored for a Hit attribute, where it is not the attribute itself
_CODE_OF = itemgetter(Finding._fields.index("code"))
_MESSAGE_OF = itemgetter(Finding._fields.index("message"))
_STORED = {
    "findings": lambda findings: tuple(map(_CODE_OF, findings)) if findings else (),
    "finding_messages": lambda findings: tuple(map(_MESSAGE_OF, findings)) if findings else (),
}


def _column(field: pa.Field, values: Sequence[Any]) -> pa.Array:
    t = field.type
    try:
        if t == _DICT:
            arr = arrays.dictionary(values)
        elif t == pa.string():
            arr = arrays.strings(values)
        elif t == _CODES:
            arr = arrays.name_lists(values)
        else:
            arr = arrays.fixed(values, t, field.nullable)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError) as exc:
        if not field.nullable and None in values:
            raise SinkError(f"column {field.name!r} must not be null") from None
        raise SinkError(f"column {field.name!r}: {exc}") from exc
    if not field.nullable and arr.null_count:
        raise SinkError(f"column {field.name!r} must not be null")
    return arr


def _empty(schema: pa.Schema) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([_column(f, []) for f in schema], schema=schema)


def _distinct_judgements(hits: List[Hit]):
    """The distinct tuples of judged attributes of ``hits``, in order of
    first appearance (one per URN, as a scan judges them), and the index in
    them of each hit's (``None`` when every hit has its own)."""
    try:
        return arrays.factorize_tails(hits, URN_FIELD, _JUDGED)
    except TypeError:  # an unhashable value: nothing shared
        return [h[_JUDGED:] for h in hits], None


def _stored_values(stored: Callable[[Any], Any], values: List[Any]) -> List[Any]:
    """``stored`` of each value, worked out once per distinct value (the
    findings of distinct URNs repeat: a wrong ISBN check digit is one of a
    hundred)."""
    try:
        distinct, codes = arrays.factorize(values)
    except TypeError:  # an unhashable value
        return [stored(v) for v in values]
    forms = list(map(stored, distinct))
    return forms if codes is None else list(map(forms.__getitem__, codes))


def hits_to_record_batch(hits: Sequence[Hit]) -> pa.RecordBatch:
    """The rows of ``hits`` as one record batch of :data:`HIT_SCHEMA`.

    Built column by column, never through per-row dicts; the columns of the
    judged attributes (``valid`` onwards) once per distinct judgement.
    """
    hits = hits if isinstance(hits, list) else list(hits)
    if not hits:
        return _empty(HIT_SCHEMA)
    judgements, codes = _distinct_judgements(hits)
    judged = arrays.transpose(judgements, len(Hit._fields) - _JUDGED)
    placed = arrays.transpose(hits, _JUDGED)
    columns = []
    for field, i in zip(HIT_SCHEMA, _HIT_SOURCE):
        values = placed[i] if i < _JUDGED else judged[i - _JUDGED]
        stored = _STORED.get(field.name)
        if stored is not None:
            values = _stored_values(stored, values)
        arr = _column(field, values)
        columns.append(arr if i < _JUDGED or codes is None else arrays.take(arr, codes))
    return pa.RecordBatch.from_arrays(columns, schema=HIT_SCHEMA)


def files_to_record_batch(rows: Iterable[Sequence[Any]]) -> pa.RecordBatch:
    """Rows of the files table (:class:`FileStatus` or equal tuples) as a batch."""
    rows = [r if type(r) is FileStatus else FileStatus(*r) for r in rows]
    if not rows:
        return _empty(FILES_SCHEMA)
    columns = list(zip(*rows))
    statuses = columns[_STATUS_AT]
    unknown = set(statuses).difference(FILE_STATUSES)
    if unknown:
        r = rows[next(i for i, status in enumerate(statuses) if status in unknown)]
        raise SinkError(f"{r.source}: unknown file status {r.status!r} "
                        f"(expected one of {', '.join(FILE_STATUSES)})")
    columns[_COMPRESSED_AT] = list(map(stored_compressed_bytes, columns[_COMPRESSED_AT], columns[_BYTES_AT]))
    return pa.RecordBatch.from_arrays([_column(f, v) for f, v in zip(FILES_SCHEMA, columns)], schema=FILES_SCHEMA)


_STATUS_AT, _BYTES_AT, _COMPRESSED_AT = (FileStatus._fields.index(f) for f in ("status", "bytes", "compressed_bytes"))


# ---------------------------------------------------------------------------
# Documentation
# ---------------------------------------------------------------------------


def _type_name(t: pa.DataType) -> str:
    if pa.types.is_dictionary(t):
        return f"dictionary<{_type_name(t.value_type)}>"
    if pa.types.is_list(t):
        return f"list<{_type_name(t.value_type)}>"
    if pa.types.is_boolean(t):
        return "bool"
    return str(t)


def _table(schema: pa.Schema) -> List[str]:
    lines = ["| column | type | nullable | description |", "|---|---|---|---|"]
    for f in schema:
        doc = (f.metadata or {}).get(b"doc", b"").decode("utf-8").replace("|", "\\|")
        lines.append(f"| `{f.name}` | {_type_name(f.type)} | "
                     f"{'yes' if f.nullable else 'no'} | {doc} |")
    return lines


def describe_schema(table: Optional[str] = None) -> str:
    """The schemas as markdown tables, generated from the field docs.

    ``table`` is ``"hits"``, ``"files"`` or ``None`` for both, each under a
    heading.
    """
    if table == "hits":
        return "\n".join(_table(HIT_SCHEMA)) + "\n"
    if table == "files":
        return "\n".join(_table(FILES_SCHEMA)) + "\n"
    if table is not None:
        raise ValueError(f"unknown table {table!r} (expected 'hits' or 'files')")
    out = [f"### Hits (schema version {SCHEMA_VERSION})", "",
           "One row per URN candidate.", ""]
    out += _table(HIT_SCHEMA)
    out += ["", f"### Files (schema version {SCHEMA_VERSION})", "",
            "One row per input of the run: every input is listed, scanned or not.", ""]
    out += _table(FILES_SCHEMA)
    return "\n".join(out) + "\n"
