"""Output: the Arrow schema, Parquet files and datasets, JSON lines, text."""
from __future__ import annotations

import io
import json
import os

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urnscan._version import __version__
from urnscan.errors import SinkError, UrnscanError
from urnscan.model import Finding, Hit
from urnscan.sinks import (
    FILES_SCHEMA, HIT_SCHEMA, SCHEMA_VERSION, FileStatus, JsonlSink, ParquetSink,
    TextSink, check_writable, describe_schema, files_to_record_batch,
    hits_to_record_batch, plan_output, read_metadata,
)
from urnscan.sinks.text import format_hit

duckdb = pytest.importorskip("duckdb")
pl = pytest.importorskip("polars")


# ---------------------------------------------------------------------------
# Realistic hits, built by hand
# ---------------------------------------------------------------------------

ISBN = Hit(
    source="corpus/refs.txt", document=None, start=4, end=23, line=1, column=5, form="bare",
    folded=False, embedded=False, raw="urn:isbn:0451450523", urn="urn:isbn:0451450523",
    literal="urn:isbn:0451450523.", rules=(), context=None, valid=True, valid_rfc2141=True, valid_rfc8141=True,
    canonical="urn:isbn:0451450523", key="urn:isbn:0451450523", nid="isbn",
    nss="0451450523", r_component=None, q_component=None, f_component=None,
    findings=(), namespace_status="formal", ns_key="urn:isbn:0451450523", profile="rfc8141",
)

WRAPPED_FOLDED = Hit(
    source="corpus/rfc2141.txt", document=None, start=1208, end=1231, line=31, column=12, form="wrapped",
    folded=True, embedded=False, raw="URN:IETF:\n      rfc:2141", urn="URN:IETF:rfc:2141",
    literal="URN:IETF:", rules=(), context=None, valid=True, valid_rfc2141=True, valid_rfc8141=True,
    canonical="urn:ietf:rfc:2141", key="urn:ietf:rfc:2141", nid="IETF", nss="rfc:2141",
    r_component=None, q_component=None, f_component=None, findings=(),
    namespace_status="formal", ns_key="urn:ietf:rfc:2141", profile="rfc8141",
)

COMPONENTS = Hit(
    source="corpus/refs.txt", document=None, start=80, end=115, line=3, column=9, form="bare",
    folded=False, embedded=False, raw="urn:example:a123,z456?+abc?=xyz#789",
    urn="urn:example:a123,z456?+abc?=xyz#789", literal="urn:example:a123,z456?+abc?=xyz#789",
    rules=(), context=None, valid=True, valid_rfc2141=False, valid_rfc8141=True,
    canonical="urn:example:a123,z456?+abc?=xyz#789", key="urn:example:a123,z456",
    nid="example", nss="a123,z456", r_component="abc", q_component="xyz", f_component="789",
    findings=(), namespace_status="formal", ns_key="urn:example:a123,z456", profile="rfc8141",
)

INVALID = Hit(
    source="corpus/refs.txt", document=None, start=140, end=154, line=5, column=1, form="bare",
    folded=False, embedded=False, raw="urn:a-:foo%zz", urn="urn:a-:foo%zz",
    literal="urn:a-:foo%zz", rules=(), context=None, valid=False, valid_rfc2141=False, valid_rfc8141=False,
    canonical=None, key=None, nid="a-", nss="foo%zz", r_component=None, q_component=None,
    f_component=None,
    findings=(Finding("nid-trailing-hyphen", "error", "the NID ends with '-'", 5),
              Finding("bad-percent-encoding", "error", "'%' not followed by two hex digits", 10),
              Finding("nid-unregistered", "warning", "'a-' is not a registered NID", None)),
    namespace_status="unregistered", ns_key=None, profile="rfc8141",
)

STDIN_EMBEDDED = Hit(
    source="-", document=None, start=24, end=55, line=1, column=25, form="bare", folded=False, embedded=True,
    raw="urn:nbn:de:101:1-201102033592", urn="urn:nbn:de:101:1-201102033592",
    literal="urn:nbn:de:101:1-201102033592", rules=(), context=None, valid=True, valid_rfc2141=True,
    valid_rfc8141=True, canonical="urn:nbn:de:101:1-201102033592",
    key="urn:nbn:de:101:1-201102033592", nid="nbn", nss="de:101:1-201102033592",
    r_component=None, q_component=None, f_component=None, findings=(),
    namespace_status="formal", ns_key="urn:nbn:de:101:1-201102033592", profile="rfc8141",
)

EXPERIMENTAL = Hit(
    source=None, document=None, start=3, end=16, line=1, column=4, form="bare", folded=False, embedded=False,
    raw="urn:X-dc:Zürich", urn="urn:X-dc:Zürich", literal="urn:X-dc:Zürich", rules=(), context=None, valid=False,
    valid_rfc2141=False, valid_rfc8141=False, canonical=None, key=None, nid="X-dc",
    nss="Zürich", r_component=None, q_component=None, f_component=None,
    findings=(Finding("non-ascii", "error", "non-ASCII character must be percent-encoded", 11),
              Finding("experimental-nid", "warning", "X- NIDs are not valid URNs", 4)),
    namespace_status="experimental", ns_key=None, profile="rfc8141",
)

HITS = [ISBN, WRAPPED_FOLDED, COMPONENTS, INVALID, STDIN_EMBEDDED, EXPERIMENTAL]
PARAMS = {"profile": "rfc8141", "trim": True, "chunk_size": 1048576, "paths": ["corpus"]}


def many_hits(n: int):
    """n distinct hits, generated lazily."""
    for i in range(n):
        base = HITS[i % len(HITS)]
        yield base._replace(start=base.start + 1000 * i, end=base.end + 1000 * i,
                            line=base.line + i)


# ---------------------------------------------------------------------------
# Schema
# ---------------------------------------------------------------------------


def test_schema_is_the_hit_fields_versioned_and_documented():
    from urnscan.sinks.schema import COLUMN_OF_FIELD

    renamed = tuple(COLUMN_OF_FIELD.get(f, f) for f in Hit._fields)
    assert tuple(n for n in HIT_SCHEMA.names if n != "finding_messages") == renamed
    assert HIT_SCHEMA.names.index("finding_messages") == HIT_SCHEMA.names.index("findings") + 1
    assert SCHEMA_VERSION == "4"
    for schema in (HIT_SCHEMA, FILES_SCHEMA):
        assert schema.metadata[b"urnscan.schema_version"] == b"4"
        for field in schema:
            assert field.metadata and field.metadata[b"doc"].strip(), field.name


@pytest.mark.parametrize("column", ["document", "form", "nid", "namespace_status", "profile"])
def test_repeated_strings_are_dictionary_columns(column):
    t = HIT_SCHEMA.field(column).type
    assert pa.types.is_dictionary(t) and t.index_type == pa.int32()
    assert t.value_type == pa.string()


@pytest.mark.parametrize("column", ["rules", "findings", "finding_messages"])
def test_lists_of_names_are_lists_of_plain_strings(column):
    t = HIT_SCHEMA.field(column).type
    assert pa.types.is_list(t) and t.value_type == pa.string() and not t.value_field.nullable


@pytest.mark.parametrize("column,nullable", [
    ("source", True), ("start", False), ("urn", False), ("valid", False),
    ("canonical", True), ("key", True), ("nid", True), ("r_component", True),
    ("findings", False), ("ns_key", True), ("profile", False),
])
def test_nullability(column, nullable):
    assert HIT_SCHEMA.field(column).nullable is nullable


def test_files_schema():
    assert FILES_SCHEMA.names == ["source", "status", "reason", "bytes", "compressed_bytes",
                                  "compression", "hits", "valid_hits", "container", "documents",
                                  "skipped_documents"]
    assert pa.types.is_dictionary(FILES_SCHEMA.field("status").type)
    assert pa.types.is_dictionary(FILES_SCHEMA.field("compression").type)


def test_describe_schema_is_a_markdown_table_of_every_column():
    text = describe_schema()
    assert "### Hits (schema version 4)" in text and "### Files" in text
    for name in HIT_SCHEMA.names + FILES_SCHEMA.names:
        assert f"| `{name}` |" in text
    assert "| `source` | string | yes |" in text
    assert "| `nid` | dictionary<string> | yes |" in text
    assert "| `findings` | list<string> | no |" in text
    hits_only = describe_schema("hits")
    assert hits_only.count("\n") == len(HIT_SCHEMA) + 2
    with pytest.raises(ValueError):
        describe_schema("nope")


def test_record_batch_round_trip():
    batch = hits_to_record_batch(HITS)
    assert batch.schema == HIT_SCHEMA
    rows = batch.to_pylist()
    for hit, row in zip(HITS, rows):
        expected = hit._asdict()
        expected["stop"], expected["col"] = expected.pop("end"), expected.pop("column")
        expected["findings"] = list(hit.codes)
        expected["finding_messages"] = [f.message for f in hit.findings]
        expected["rules"] = list(hit.rules)
        assert row == expected


def test_record_batch_of_nothing():
    batch = hits_to_record_batch([])
    assert batch.num_rows == 0 and batch.schema == HIT_SCHEMA


@pytest.mark.parametrize("column", ["urn", "start", "line", "folded", "valid"])
def test_record_batch_refuses_nulls_in_required_columns(column):
    with pytest.raises(SinkError, match=f"'{column}' must not be null"):
        hits_to_record_batch([ISBN, ISBN._replace(**{column: None})])


def test_undecodable_characters_are_escaped_not_fatal():
    hit = ISBN._replace(source="corpus/caf\udce9.txt", raw="urn:isbn:045\udcff")
    row = hits_to_record_batch([hit]).to_pylist()[0]
    assert row["source"] == "corpus/caf\\xe9.txt"
    assert row["raw"] == "urn:isbn:045\\xff"


def test_files_batch_checks_the_status():
    batch = files_to_record_batch([FileStatus("a.txt", "scanned", None, 10, None, None, 1, 1)])
    assert batch.schema == FILES_SCHEMA
    with pytest.raises(SinkError, match="unknown file status 'done'"):
        files_to_record_batch([FileStatus("a.txt", "done")])
    with pytest.raises(SinkError, match="b.txt: unknown file status 'gone'"):  # the first bad row is named
        files_to_record_batch([FileStatus("a.txt", "scanned"), FileStatus("b.txt", "gone"), FileStatus("c", "x")])


def _file_statuses():
    from urnscan.sinks.status import FILE_STATUSES

    optional_int = st.one_of(st.none(), st.integers(0, 2 ** 40))
    optional_text = st.one_of(st.none(), st.text(max_size=8))
    return st.builds(FileStatus, st.text(max_size=12), st.sampled_from(list(FILE_STATUSES)), optional_text,
                     st.integers(0, 2 ** 40), optional_int, st.one_of(st.none(), st.sampled_from(["gzip", "xz"])),
                     st.integers(0, 10 ** 6), st.integers(0, 10 ** 6), st.one_of(st.none(), st.just("zip")),
                     st.integers(0, 100), st.integers(0, 100))


@settings(max_examples=200, deadline=None)
@given(st.lists(_file_statuses(), max_size=30), st.booleans())
def test_files_batch_is_the_rows_as_stored(rows, as_tuples):
    """The column-wise conversion gives the table the rows give one by one
    in their stored form (a missing compressed size is the bytes read)."""
    from urnscan.sinks.status import stored_status

    expected = pa.RecordBatch.from_pylist([stored_status(r)._asdict() for r in rows], schema=FILES_SCHEMA)
    got = files_to_record_batch([tuple(r) for r in rows] if as_tuples else rows)
    assert got.equals(expected)


# ---------------------------------------------------------------------------
# Parquet: one file
# ---------------------------------------------------------------------------


def write_index(path, hits=HITS, files=None, **kw):
    with ParquetSink(path, params=PARAMS, **kw) as sink:
        sink.write_hits(hits)
        for row in files if files is not None else [
                FileStatus("corpus/refs.txt", "scanned", None, 4096, 1200, "gzip", 4, 2),
                FileStatus("corpus/rfc2141.txt", "scanned", None, 20000, None, None, 1, 1),
                FileStatus("corpus/logo.png", "skipped-binary"),
                FileStatus("corpus/cut.gz", "error", "corpus/cut.gz: truncated gzip data",
                           65536, 30000, "gzip", 0, 0),
                FileStatus("-", "scanned", None, 55, None, None, 1, 1)]:
            sink.add_file_status(row)
    return sink


def test_parquet_file_reads_back_with_pyarrow(tmp_path):
    out = tmp_path / "index.parquet"
    sink = write_index(str(out))
    assert sink.paths == [str(out), str(tmp_path / "index.files.parquet")]
    table = pq.read_table(out)
    assert table.schema.remove_metadata() == HIT_SCHEMA.remove_metadata()
    assert table.num_rows == len(HITS)
    assert table.to_pylist() == hits_to_record_batch(HITS).to_pylist()
    assert sorted(os.listdir(tmp_path)) == ["index.files.parquet", "index.parquet"]


def test_parquet_metadata_holds_versions_and_params(tmp_path):
    out = tmp_path / "index.parquet"
    write_index(str(out))
    meta = read_metadata(out)
    assert meta == {"urnscan_version": __version__, "schema_version": "4", "table": "hits",
                    "params": PARAMS}
    assert read_metadata(tmp_path / "index.files.parquet")["table"] == "files"
    kv = pq.read_schema(out).metadata
    assert json.loads(kv[b"urnscan"])["params"]["profile"] == "rfc8141"
    assert kv[b"urnscan.schema_version"] == b"4"


def test_parquet_is_zstd_and_dictionary_encoded(tmp_path):
    out = tmp_path / "index.parquet"
    write_index(str(out), hits=list(many_hits(5000)))
    md = pq.ParquetFile(out).metadata
    rg = md.row_group(0)
    by_name = {rg.column(i).path_in_schema: rg.column(i) for i in range(rg.num_columns)}
    assert all(c.compression == "ZSTD" for c in by_name.values())
    for name in ("source", "nid", "profile", "findings.list.element", "key"):
        assert any("DICTIONARY" in e for e in by_name[name].encodings), name
    # and the Arrow dictionary types come back
    schema = pq.read_schema(out)
    assert pa.types.is_dictionary(schema.field("nid").type)


def test_parquet_reads_back_with_pandas(tmp_path):
    out = tmp_path / "index.parquet"
    write_index(str(out))
    df = pd.read_parquet(out)
    assert list(df.columns) == HIT_SCHEMA.names
    assert len(df) == len(HITS)
    assert isinstance(df["nid"].dtype, pd.CategoricalDtype)
    assert isinstance(df["profile"].dtype, pd.CategoricalDtype)
    assert df["start"].dtype == "int64" and df["valid"].dtype == bool
    assert df.loc[3, "urn"] == "urn:a-:foo%zz"
    assert list(df.loc[3, "findings"]) == ["nid-trailing-hyphen", "bad-percent-encoding",
                                           "nid-unregistered"]
    assert pd.isna(df.loc[3, "key"]) and pd.isna(df.loc[5, "source"])
    assert df.groupby("key", observed=True).size().to_dict()["urn:isbn:0451450523"] == 1
    files = pd.read_parquet(tmp_path / "index.files.parquet")
    assert files["status"].astype(str).tolist() == ["scanned", "scanned", "skipped-binary",
                                                    "error", "scanned"]


def test_parquet_reads_back_with_duckdb(tmp_path):
    out = tmp_path / "index.parquet"
    write_index(str(out))
    con = duckdb.connect()
    rows = con.execute(
        "SELECT nid, count(*) AS n, sum(valid::INT) AS ok FROM read_parquet(?) "
        "GROUP BY nid ORDER BY nid", [str(out)]).fetchall()
    assert rows == [("IETF", 1, 1), ("X-dc", 1, 0), ("a-", 1, 0), ("example", 1, 1),
                    ("isbn", 1, 1), ("nbn", 1, 1)]
    codes = con.execute(
        "SELECT findings FROM read_parquet(?) WHERE NOT valid ORDER BY start",
        [str(out)]).fetchall()
    assert codes == [(["non-ascii", "experimental-nid"],),
                     (["nid-trailing-hyphen", "bad-percent-encoding", "nid-unregistered"],)]
    meta = con.execute("SELECT value FROM parquet_kv_metadata(?) WHERE key = 'urnscan'",
                       [str(out)]).fetchone()[0]
    assert json.loads(meta)["schema_version"] == "4"
    joined = con.execute(
        "SELECT f.status, count(h.urn) FROM read_parquet(?) f "
        "LEFT JOIN read_parquet(?) h ON h.source = f.source GROUP BY f.status ORDER BY 1",
        [str(tmp_path / "index.files.parquet"), str(out)]).fetchall()
    assert joined == [("error", 0), ("scanned", 5), ("skipped-binary", 0)]


def test_parquet_reads_back_with_polars(tmp_path):
    out = tmp_path / "index.parquet"
    write_index(str(out))
    df = pl.read_parquet(out)
    assert df.columns == HIT_SCHEMA.names
    assert df.height == len(HITS)
    assert df.schema["nid"] == pl.Categorical
    assert df.schema["findings"] == pl.List(pl.String)
    assert df.filter(pl.col("valid")).height == 4
    assert df["key"].null_count() == 2
    lazy = pl.scan_parquet(out).group_by("namespace_status").len().collect()
    assert lazy.height == 3


def test_an_index_of_many_row_groups_streams_a_batch_at_a_time(tmp_path):
    """``ParquetFile.iter_batches()`` and ``.read()`` read every column of
    an index of several row groups (a list of dictionary strings failed
    there: "Nested data conversions not implemented for chunked array
    outputs")."""
    out = tmp_path / "index.parquet"
    hits = list(many_hits(600))
    write_index(str(out), hits=hits, batch_rows=100)
    with pq.ParquetFile(out) as reader:
        assert reader.metadata.num_row_groups == 6
        streamed = [row for batch in reader.iter_batches(batch_size=64) for row in batch.to_pylist()]
        whole = reader.read().to_pylist()
    assert streamed == whole == hits_to_record_batch(hits).to_pylist()
    assert [tuple(r["findings"]) for r in whole] == [tuple(f.code for f in h.findings) for h in hits]


def test_empty_run_writes_readable_empty_files(tmp_path):
    out = tmp_path / "empty.parquet"
    write_index(str(out), hits=[], files=[])
    assert pq.read_table(out).num_rows == 0
    assert len(pd.read_parquet(out)) == 0
    assert pl.read_parquet(out).height == 0
    assert duckdb.connect().execute("SELECT count(*) FROM read_parquet(?)",
                                    [str(out)]).fetchone() == (0,)
    assert pq.read_table(tmp_path / "empty.files.parquet").num_rows == 0


@pytest.mark.parametrize("name,files_name", [
    ("index.parquet", "index.files.parquet"),
    ("index", "index.files.parquet"),
    ("run.2024.parquet", "run.2024.files.parquet"),
])
def test_files_table_name(tmp_path, name, files_name):
    layout = plan_output(str(tmp_path / name))
    assert not layout.dataset
    assert layout.files_path == str(tmp_path / files_name)


# ---------------------------------------------------------------------------
# Atomicity and overwriting
# ---------------------------------------------------------------------------


class Boom(Exception):
    pass


@pytest.mark.parametrize("exc", [Boom, KeyboardInterrupt])
def test_an_exception_leaves_nothing_behind(tmp_path, exc):
    out = tmp_path / "index.parquet"
    with pytest.raises(exc):
        with ParquetSink(str(out), params=PARAMS, batch_rows=100) as sink:
            sink.write_hits(many_hits(1000))          # several row groups on disk
            sink._current._writer.wait()
            pending = sink._current.pending
            assert os.path.getsize(pending.path) > 0
            # a file without a name where the system has them (urnscan.tempfiles)
            assert [n.endswith(".tmp") for n in os.listdir(tmp_path)] == ([True, True] if pending.named else [])
            sink.add_file_status("corpus/refs.txt", "scanned", bytes=10)
            raise exc()
    assert os.listdir(tmp_path) == []


def test_an_exception_in_the_hits_iterable_leaves_nothing_behind(tmp_path):
    def hits():
        yield from many_hits(300)
        raise Boom("scanner failed")

    out = tmp_path / "index.parquet"
    with pytest.raises(Boom):
        with ParquetSink(str(out), params=PARAMS, batch_rows=100) as sink:
            sink.write_hits(hits())
    assert os.listdir(tmp_path) == []


def test_an_exception_keeps_the_previous_output_intact(tmp_path):
    out = tmp_path / "index.parquet"
    write_index(str(out))
    before = out.read_bytes()
    with pytest.raises(Boom):
        with ParquetSink(str(out), params=PARAMS, force=True) as sink:
            sink.write_hits(many_hits(10))
            raise Boom()
    assert out.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["index.files.parquet", "index.parquet"]


def test_missing_parent_directories_are_created_and_removed_on_failure(tmp_path):
    out = tmp_path / "a" / "b" / "index.parquet"
    with pytest.raises(Boom):
        with ParquetSink(str(out), params=PARAMS):
            raise Boom()
    assert os.listdir(tmp_path) == []
    write_index(str(out))
    assert pq.read_table(out).num_rows == len(HITS)


def test_existing_output_is_refused_without_force(tmp_path):
    out = tmp_path / "index.parquet"
    write_index(str(out))
    before = out.read_bytes()
    with pytest.raises(SinkError, match="already exists") as info:
        check_writable(str(out))
    assert isinstance(info.value, UrnscanError) and str(out) in str(info.value)
    with pytest.raises(SinkError, match="already exists"):
        ParquetSink(str(out), params=PARAMS)
    assert out.read_bytes() == before
    # the files table alone counts too
    out.unlink()
    with pytest.raises(SinkError, match=r"index\.files\.parquet: already exists"):
        check_writable(str(out))


def test_the_library_names_its_argument_and_the_command_its_option(tmp_path):
    import pickle

    from urnscan.errors import OutputExists

    out = tmp_path / "index.parquet"
    write_index(str(out))
    with pytest.raises(OutputExists) as info:
        check_writable(str(out))
    assert str(info.value) == f"{out}: already exists; use force=True to overwrite"
    assert info.value.advice("--force") == f"{out}: already exists; use --force to overwrite"
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value) and again.advice("--force") == info.value.advice("--force")


# (name, what is there, force): refused whatever force says (a directory
# at index.parquet itself would be a dataset)
SPECIAL_TARGETS = [
    ("index.parquet", "fifo", False), ("index.parquet", "fifo", True), ("index.parquet", "socket", True),
    ("index.files.parquet", "fifo", True), ("index.files.parquet", "socket", True),
    ("index.files.parquet", "directory", True),
]


@pytest.mark.parametrize("name,node,force", SPECIAL_TARGETS)
def test_an_output_that_is_no_regular_file_is_refused(tmp_path, monkeypatch, name, node, force):
    import socket

    from urnscan.errors import OutputIsSpecial, OutputRefused

    monkeypatch.chdir(tmp_path)
    {"fifo": os.mkfifo, "directory": os.mkdir, "socket": lambda p: socket.socket(socket.AF_UNIX).bind(p)}[node](name)
    with pytest.raises(OutputRefused, match=rf"^{name}: is ") as info:
        ParquetSink("index.parquet", params=PARAMS, force=force)
    assert isinstance(info.value, OutputIsSpecial) == (node != "directory")
    assert os.listdir(tmp_path) == [name]


def test_a_symbolic_link_is_written_through(tmp_path):
    (tmp_path / "real").mkdir()
    os.symlink("real/target.parquet", tmp_path / "index.parquet")
    write_index(str(tmp_path / "index.parquet"), force=True)
    assert os.readlink(tmp_path / "index.parquet") == "real/target.parquet"
    assert pq.read_table(tmp_path / "real" / "target.parquet").num_rows == len(HITS)
    assert os.listdir(tmp_path / "real") == ["target.parquet"]


def test_force_overwrites(tmp_path):
    out = tmp_path / "index.parquet"
    write_index(str(out))
    assert check_writable(str(out), force=True).path == str(out)
    write_index(str(out), hits=HITS[:2], force=True)
    assert pq.read_table(out).num_rows == 2


def test_output_appearing_during_the_scan_is_not_clobbered(tmp_path):
    out = tmp_path / "index.parquet"
    with pytest.raises(SinkError, match="already exists"):
        with ParquetSink(str(out), params=PARAMS) as sink:
            sink.write_hits(HITS)
            out.write_bytes(b"someone else's file")
    assert out.read_bytes() == b"someone else's file"
    assert os.listdir(tmp_path) == ["index.parquet"]


def test_unwritable_place_is_refused_up_front(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_bytes(b"x")
    with pytest.raises(SinkError, match="not a directory"):
        check_writable(str(blocker / "index.parquet"))


# ---------------------------------------------------------------------------
# Batching and bounded memory
# ---------------------------------------------------------------------------


def test_batches_become_row_groups_and_memory_stays_bounded(tmp_path):
    out = tmp_path / "big.parquet"
    batch_rows = 50_000
    progress = []

    with ParquetSink(str(out), params=PARAMS, batch_rows=batch_rows) as sink:
        def hits():
            for i, hit in enumerate(many_hits(200_000)):
                if i % 10_000 == 0:
                    progress.append((i, sink.rows_written, len(sink._buffer)))
                yield hit
        assert sink.write_hits(hits()) == 200_000
        assert sink.peak_buffered_rows == batch_rows

    # rows went to disk while the iterable was still being consumed
    for i, written, buffered in progress:
        assert written == (i // batch_rows) * batch_rows
        assert buffered == i % batch_rows < batch_rows
    md = pq.ParquetFile(out).metadata
    assert md.num_rows == 200_000
    assert md.num_row_groups == 4
    assert [md.row_group(i).num_rows for i in range(4)] == [batch_rows] * 4
    assert sink.row_groups_written == 4
    starts = pq.read_table(out, columns=["start"]).column("start").to_pylist()
    assert starts[:3] == [4, 1208 + 1000, 80 + 2000] and len(set(starts)) == 200_000


def test_last_partial_batch_is_written_on_close(tmp_path):
    out = tmp_path / "p.parquet"
    with ParquetSink(str(out), params=PARAMS, batch_rows=4) as sink:
        sink.write_hits(many_hits(10))
        sink.write_hit(ISBN)
    md = pq.ParquetFile(out).metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [4, 4, 3]


@pytest.mark.parametrize("convert_rows,batch_rows,n,groups", [
    (3, 7, 0, []),
    (3, 7, 1, [1]),
    (3, 7, 6, [6]),
    (3, 7, 7, [7]),
    (3, 7, 8, [7, 1]),
    (3, 7, 22, [7, 7, 7, 1]),
    (7, 3, 10, [3, 3, 3, 1]),
    (4, 8, 16, [8, 8]),
    (1, 1, 3, [1, 1, 1]),
])
def test_files_table_rows_converted_as_they_come_keep_their_row_groups(tmp_path, monkeypatch, convert_rows,
                                                                          batch_rows, n, groups):
    from urnscan.sinks import parquet

    monkeypatch.setattr(parquet, "FILES_CONVERT_ROWS", convert_rows)
    out = tmp_path / "f.parquet"
    statuses = [("scanned", None), ("skipped-binary", "binary"), ("error", "gone")]
    rows = [FileStatus(f"dir/{i}.txt", *statuses[i % 3], i, None, None, i % 5, i % 2) for i in range(n)]
    with ParquetSink(str(out), params=PARAMS, batch_rows=batch_rows) as sink:
        for i, row in enumerate(rows):
            sink.add_file_status(row)
            # converted a few at a time, written a row group at a time
            assert len(sink._files_buffer) < convert_rows
            assert sink.files_rows == (i + 1) // batch_rows * batch_rows
    md = pq.ParquetFile(tmp_path / "f.files.parquet").metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == groups
    table = pq.read_table(tmp_path / "f.files.parquet")
    assert table.column("source").to_pylist() == [r.source for r in rows]
    assert table.column("status").to_pylist() == [r.status for r in rows]
    assert table.column("reason").to_pylist() == [r.reason for r in rows]
    assert table.column("bytes").to_pylist() == [r.bytes for r in rows]


@pytest.mark.parametrize("as_batches", [False, True])
def test_row_groups_are_bounded_by_the_text_of_their_hits(tmp_path, as_batches):
    """A row group ends at ``batch_rows`` hits or once its hits hold about
    ``batch_bytes`` of text, whichever comes first: long URNs make smaller
    row groups, with the same rows."""
    from urnscan.model import TEXT_PER_URN_BYTE

    long_hits = [h._replace(urn=h.urn + ":" + "x" * 990) for h in many_hits(25)]  # URNs of about 1 KB
    out = tmp_path / "long.parquet"
    text = 3000 * TEXT_PER_URN_BYTE  # about three of those hits
    with ParquetSink(str(out), params=PARAMS, batch_rows=1000, batch_bytes=text) as sink:
        if as_batches:
            for i in range(0, 25, 2):
                sink.write_batch(hits_to_record_batch(long_hits[i:i + 2]))
        else:
            sink.write_hits(long_hits)
        assert sink.peak_buffered_rows <= 4
    md = pq.ParquetFile(out).metadata
    sizes = [md.row_group(i).num_rows for i in range(md.num_row_groups)]
    assert sizes == ([4] * 6 + [1] if as_batches else [3] * 8 + [1])
    assert pq.read_table(out, columns=["urn"]).column("urn").to_pylist() == [h.urn for h in long_hits]


# ---------------------------------------------------------------------------
# Datasets
# ---------------------------------------------------------------------------


def test_dataset_directory_layout_and_readers(tmp_path):
    out = tmp_path / "index"
    with ParquetSink(str(out) + "/", params=PARAMS, batch_rows=2, part_rows=4) as sink:
        sink.write_hits(many_hits(10))
        sink.add_file_status("corpus/refs.txt", "scanned", bytes=4096, hits=10, valid_hits=6)
    assert sorted(os.listdir(out)) == ["_files.pq", "hits-00000.parquet",
                                       "hits-00001.parquet", "hits-00002.parquet"]
    # the directory is the hits table in every engine, with the globs users write
    assert ds.dataset(str(out), format="parquet").count_rows() == 10
    assert len(pd.read_parquet(out)) == 10
    con = duckdb.connect()
    for glob in ("hits-*.parquet", "*.parquet", "**/*.parquet"):
        assert con.execute("SELECT count(*) FROM read_parquet(?)", [f"{out}/{glob}"]).fetchone() == (10,)
        assert pl.scan_parquet(f"{out}/{glob}").select(pl.len()).collect().item() == 10
    files = pq.read_table(out / "_files.pq").to_pylist()
    assert files[0]["hits"] == 10
    for part in ("hits-00000.parquet", "hits-00002.parquet"):
        assert read_metadata(out / part)["params"] == PARAMS


def test_existing_directory_means_dataset(tmp_path):
    out = tmp_path / "idx"
    out.mkdir()
    layout = check_writable(str(out))
    assert layout.dataset and layout.files_path == str(out / "_files.pq")
    write_index(str(out))
    assert sorted(os.listdir(out)) == ["_files.pq", "hits-00000.parquet"]
    with pytest.raises(SinkError, match="already holds an urnscan dataset"):
        check_writable(str(out))


def test_dataset_force_replaces_old_parts_and_keeps_other_files(tmp_path):
    out = tmp_path / "idx"
    out.mkdir()
    (out / "notes.md").write_text("mine")
    write_index(str(out), hits=list(many_hits(30)), batch_rows=5, part_rows=5)
    assert len([n for n in os.listdir(out) if n.startswith("hits-")]) == 6
    write_index(str(out), hits=list(many_hits(7)), batch_rows=5, part_rows=5, force=True)
    assert sorted(os.listdir(out)) == ["_files.pq", "hits-00000.parquet",
                                       "hits-00001.parquet", "notes.md"]
    parts = sorted(str(p) for p in out.glob("hits-*.parquet"))
    assert ds.dataset(parts, format="parquet").count_rows() == 7


def test_dataset_failure_leaves_nothing(tmp_path):
    out = tmp_path / "new-dataset"
    with pytest.raises(Boom):
        with ParquetSink(str(out) + "/", params=PARAMS, batch_rows=2, part_rows=2) as sink:
            sink.write_hits(many_hits(9))
            raise Boom()
    assert os.listdir(tmp_path) == []   # the directory it created is gone too


class _FailingWrites:
    """Stands for pyarrow's writer on a full disk: every table written fails."""

    def __init__(self, real):
        self.real = real

    def write_table(self, table, row_group_size=None):
        raise OSError(28, "No space left on device")

    def close(self):
        self.real.close()


@pytest.mark.parametrize("more", [True, False], ids=["next-write", "close"])
def test_a_background_write_that_fails_is_reported_and_leaves_nothing(tmp_path, more):
    """Tables are written by a thread while the scan goes on
    (urnscan.sinks.writer): its failure reaches the caller at the next
    write or at the close, as a SinkError naming the output, and no file
    is left."""
    out = tmp_path / "x.parquet"
    with pytest.raises(SinkError, match=r"x\.parquet: write failed: No space left on device"):
        with ParquetSink(str(out), params=PARAMS, batch_rows=2) as sink:
            file_writer = sink._current._writer
            file_writer._writer = _FailingWrites(file_writer._writer)
            sink.write_hits(many_hits(2))  # handed to the thread: no error yet
            if more:
                sink.write_hits(many_hits(2))
    assert os.listdir(tmp_path) == []


def test_empty_dataset_has_one_empty_part(tmp_path):
    out = tmp_path / "d"
    write_index(str(out) + "/", hits=[], files=[])
    assert sorted(os.listdir(out)) == ["_files.pq", "hits-00000.parquet"]
    con = duckdb.connect()
    assert con.execute("SELECT count(*) FROM read_parquet(?)",
                       [str(out / "hits-*.parquet")]).fetchone() == (0,)


# ---------------------------------------------------------------------------
# JSON lines
# ---------------------------------------------------------------------------


def test_jsonl_one_object_per_hit():
    buf = io.StringIO()
    with JsonlSink(buf) as sink:
        assert sink.write_hits(HITS) == len(HITS)
    lines = buf.getvalue().splitlines()
    assert len(lines) == len(HITS)
    objs = [json.loads(line) for line in lines]
    assert list(objs[0]) == [c for c in HIT_SCHEMA.names if c != "finding_messages"]
    assert objs[0]["urn"] == "urn:isbn:0451450523" and objs[0]["findings"] == []
    assert objs[3]["findings"][0] == {"code": "nid-trailing-hyphen", "severity": "error",
                                      "message": "the NID ends with '-'", "position": 5}
    assert objs[3]["findings"][2]["position"] is None
    assert objs[3]["key"] is None and objs[5]["source"] is None
    assert objs[1]["raw"] == "URN:IETF:\n      rfc:2141"
    assert "Zürich" in lines[5]          # UTF-8, not \u escapes


def test_jsonl_lines_with_undecodable_characters_are_still_json():
    buf = io.StringIO()
    JsonlSink(buf).write_hit(ISBN._replace(source="caf\udce9.txt"))
    line = buf.getvalue()
    line.encode("utf-8")                 # writable to a UTF-8 stream
    assert json.loads(line)["source"] == "caf\udce9.txt"


def test_jsonl_file_statuses_go_to_their_own_stream():
    hits, files = io.StringIO(), io.StringIO()
    with JsonlSink(hits, files_stream=files) as sink:
        sink.write_hit(ISBN)
        sink.add_file_status("corpus/logo.png", "skipped-binary")
        sink.add_file_status(FileStatus("corpus/cut.gz", "error", "truncated gzip data"))
    assert len(hits.getvalue().splitlines()) == 1
    rows = [json.loads(x) for x in files.getvalue().splitlines()]
    assert rows[0] == {"source": "corpus/logo.png", "status": "skipped-binary",
                       "reason": None, "bytes": 0, "compressed_bytes": 0,
                       "compression": None, "hits": 0, "valid_hits": 0, "container": None,
                       "documents": 0, "skipped_documents": 0}
    assert rows[1]["reason"] == "truncated gzip data"


# ---------------------------------------------------------------------------
# Grep-like text
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("hit,line", [
    (ISBN, "corpus/refs.txt:1:5:urn:isbn:0451450523"),
    (WRAPPED_FOLDED, "corpus/rfc2141.txt:31:12:URN:IETF:rfc:2141"),
    (COMPONENTS, "corpus/refs.txt:3:9:urn:example:a123,z456?+abc?=xyz#789"),
    (INVALID, "corpus/refs.txt:5:1:urn:a-:foo%zz"),   # validity is not on the line
    (STDIN_EMBEDDED, "-:1:25:urn:nbn:de:101:1-201102033592"),
    (EXPERIMENTAL, "(input):1:4:urn:X-dc:Zürich"),
    (ISBN._replace(source="odd\nname\udcff.txt"),
     "odd\\nname\\xff.txt:1:5:urn:isbn:0451450523"),
])
def test_text_lines(hit, line):
    assert format_hit(hit) == line


def test_text_sink_writes_one_line_per_hit():
    buf = io.StringIO()
    with TextSink(buf) as sink:
        sink.write_hits(HITS)
        sink.add_file_status("corpus/refs.txt", "scanned")
    assert buf.getvalue().splitlines() == [format_hit(h) for h in HITS]
    assert sink.rows_written == len(HITS) and sink.files_rows == 1


def test_a_forced_rerun_removes_the_files_table_of_an_older_version(tmp_path):
    from urnscan.frame import read_files_table

    out = tmp_path / "old"
    out.mkdir()
    pq.write_table(pa.Table.from_batches([files_to_record_batch([FileStatus("a.txt", "scanned")])]),
                   out / "_files.parquet")
    assert len(read_files_table(out)) == 1          # an older dataset still reads
    with pytest.raises(SinkError, match="already holds"):
        check_writable(str(out) + "/")
    with ParquetSink(str(out) + "/", force=True) as sink:
        sink.write_hits(HITS)
    assert sorted(os.listdir(out)) == ["_files.pq", "hits-00000.parquet"]
    assert pl.scan_parquet(f"{out}/**/*.parquet").select(pl.len()).collect().item() == len(HITS)


def test_the_compiled_parquet_writer_writes_the_same_file(tmp_path):
    """urnscan.sinks.writer opens a file for pyarrow's compiled writer with
    pyarrow.parquet.ParquetWriter's defaults: the same bytes, without
    loading pyarrow.parquet (and pyarrow.fs)."""
    from urnscan import scan_text
    from urnscan.sinks.schema import HIT_SCHEMA, hits_to_record_batch
    from urnscan.sinks.writer import ParquetFileWriter

    batch = hits_to_record_batch(list(scan_text("see urn:isbn:0451450523 and <urn:ietf:rfc:2141> caf\u00e9\n" * 50)))
    schema = HIT_SCHEMA.with_metadata({b"urnscan": b"{}"})
    files = []
    for compiled in (True, False):
        path = tmp_path / f"{compiled}.parquet"
        writer = ParquetFileWriter(str(path), schema, compression="zstd", compression_level=None, compiled=compiled)
        assert writer.compiled is compiled
        writer.write(batch, 64)
        writer.write(batch.slice(3, 10), 64)
        writer.close()
        files.append(path.read_bytes())
    assert files[0] == files[1]
    import pyarrow.parquet as pq

    assert pq.read_table(tmp_path / "True.parquet").num_rows == batch.num_rows + 10


@pytest.mark.parametrize("compiled", [True, False])
def test_offsets_and_context_are_written_without_a_dictionary(tmp_path, compiled):
    """PLAIN_COLUMNS (a value per row) are written plain, every other
    column, nested lists too, with a dictionary; the rows read back the same."""
    import pyarrow.parquet as pq
    from urnscan import scan_text
    from urnscan.sinks.schema import HIT_SCHEMA, PLAIN_COLUMNS, hits_to_record_batch
    from urnscan.sinks.writer import ParquetFileWriter

    batch = hits_to_record_batch(list(scan_text("see urn:isbn:0451450523 and <urn:ietf:rfc:2141> caf\u00e9\n" * 50)))
    path = tmp_path / "hits.parquet"
    writer = ParquetFileWriter(str(path), HIT_SCHEMA, compression="zstd", compression_level=None, compiled=compiled)
    writer.write(batch, 1000)
    writer.close()
    group = pq.ParquetFile(path).metadata.row_group(0)
    dictionary = {group.column(i).path_in_schema: group.column(i).has_dictionary_page
                  for i in range(group.num_columns)}
    assert PLAIN_COLUMNS <= set(dictionary)
    assert not any(dictionary[name] for name in PLAIN_COLUMNS)
    assert dictionary["urn"] and dictionary["source"] and dictionary["rules.list.element"]
    assert pq.read_table(path).equals(pa.Table.from_batches([batch]).cast(pq.read_table(path).schema))


def test_the_parquet_writer_names_a_file_it_cannot_open(tmp_path):
    from urnscan.sinks.schema import HIT_SCHEMA
    from urnscan.sinks.writer import ParquetFileWriter

    with pytest.raises(OSError):
        ParquetFileWriter(str(tmp_path / "no" / "such" / "dir.parquet"), HIT_SCHEMA, compression="zstd",
                          compression_level=None)


@pytest.mark.parametrize("flags, said", [(os.ST_RDONLY, "read-only file system"), (0, "permission denied")])
def test_an_output_directory_that_cannot_be_written_says_why(tmp_path, monkeypatch, flags, said):
    """A directory files cannot be created in: on a file system mounted
    read-only (where root is refused too) the message says so, else it is
    the permission."""
    from urnscan.sinks.layout import check_dir_writable

    class _Stat:
        f_flag = flags

    monkeypatch.setattr(os, "access", lambda path, mode: False)
    monkeypatch.setattr(os, "statvfs", lambda path: _Stat())
    with pytest.raises(SinkError, match=f"{tmp_path}: {said} \\(cannot write the output\\)"):
        check_dir_writable(str(tmp_path / "out"))
