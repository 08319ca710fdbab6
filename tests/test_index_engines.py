"""The index as pandas, pyarrow, polars and DuckDB read it, written by the real CLI."""
import gzip
import json
import subprocess
import sys

import pandas as pd
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from urnscan.sinks.schema import FILES_SCHEMA, HIT_SCHEMA

duckdb = pytest.importorskip("duckdb")
pl = pytest.importorskip("polars")

TEXT = ("see <URN:ISBN:0-395-36341-1> and urn:ietf:rfc:2141.\n"
        "bad urn:ab-:x%zz here; and urn:isbn:0395363411\n")


def sql(query):
    return duckdb.connect().execute(query)


def run(*args):
    res = subprocess.run([sys.executable, "-m", "urnscan", *args], capture_output=True)
    assert res.returncode == 0, res.stderr
    return res


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("engines")
    corpus = root / "corpus"
    corpus.mkdir()
    for i in range(3):
        (corpus / f"doc{i}.txt").write_text(TEXT * (i + 1))
    (corpus / "mail.gz").write_bytes(gzip.compress((TEXT * 20).encode()))
    run("scan", str(corpus), "-o", str(root / "ds") + "/", "-j", "1")
    run("scan", str(corpus), "-o", str(root / "one.parquet"), "-j", "1")
    run("scan", str(corpus), "-o", str(root / "one.jsonl"), "-j", "1")
    return root


def test_a_dataset_directory_reads_as_one_table_in_every_engine(index):
    d = str(index / "ds")
    expected = pq.read_table(index / "one.parquet").num_rows
    assert expected == 4 * (1 + 2 + 3 + 20)
    counts = {
        "pandas": len(pd.read_parquet(d)),
        "pyarrow": ds.dataset(d, format="parquet").count_rows(),
        "polars": pl.scan_parquet(d + "/**/*.parquet").select(pl.len()).collect().item(),
        "polars *.parquet": pl.read_parquet(d + "/*.parquet").height,
        "duckdb": sql(f"SELECT count(*) FROM read_parquet('{d}' || '/**/*.parquet')").fetchone()[0],
        "duckdb *.parquet": sql(f"SELECT count(*) FROM read_parquet('{d}/*.parquet')").fetchone()[0],
    }
    assert counts == {k: expected for k in counts}
    files = pd.read_parquet(d + "/_files.pq")
    assert len(files) == 4 and set(files.columns) == set(FILES_SCHEMA.names)


@pytest.mark.parametrize("table,schema", [("hits", HIT_SCHEMA), ("files", FILES_SCHEMA)])
def test_every_column_name_works_unquoted_in_sql(index, table, schema):
    reserved = {k for (k,) in sql(
        "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category <> 'unreserved'").fetchall()}
    assert not {n.lower() for n in schema.names} & reserved
    path = index / ("one.parquet" if table == "hits" else "one.files.parquet")
    rows = sql(f"SELECT {', '.join(schema.names)} FROM read_parquet('{path}') "
                      f"WHERE {schema.names[0]} IS NOT NULL ORDER BY {', '.join(schema.names[:3])}").fetchall()
    assert rows and len(rows[0]) == len(schema.names)


def test_renamed_columns_and_finding_messages(index):
    hits = sql(f"SELECT start, stop, line, col, raw, findings, finding_messages, context "
                      f"FROM read_parquet('{index / 'one.parquet'}')").fetchall()
    for start, stop, line, col, raw, codes, messages, context in hits:
        assert stop - start >= len(raw) or "\n" in raw
        assert line >= 1 and col >= 1
        assert len(codes) == len(messages) and all(messages)
        assert raw.replace("\n", " ") in context or raw in context
    bad = [h for h in hits if "ab-" in h[4]]
    assert bad and "nid-trailing-hyphen" in bad[0][5]
    assert any("NID" in m for m in bad[0][6])
    # JSON lines: the same names, the messages inside the findings objects
    row = json.loads((index / "one.jsonl").read_text().splitlines()[0])
    assert list(row) == [n for n in HIT_SCHEMA.names if n != "finding_messages"]


def test_hits_and_files_join_in_polars_pandas_and_duckdb(index):
    hits = pl.read_parquet(index / "one.parquet")
    files = pl.read_parquet(index / "one.files.parquet")
    assert hits.schema["source"] == files.schema["source"]
    joined = hits.join(files.select(["source", "status", "compressed_bytes"]), on="source", how="inner")
    assert joined.height == hits.height
    per_file = hits.group_by("source").len().join(files, on="source")
    assert (per_file["len"] == per_file["hits"]).all()
    pdf = pd.read_parquet(index / "one.parquet").merge(pd.read_parquet(index / "one.files.parquet"), on="source")
    assert len(pdf) == hits.height
    n = sql(f"SELECT count(*) FROM read_parquet('{index / 'one.parquet'}') h "
                   f"JOIN read_parquet('{index / 'one.files.parquet'}') f USING (source)").fetchone()[0]
    assert n == hits.height


def test_compressed_bytes_is_an_integer_in_pandas(index):
    files = pd.read_parquet(index / "one.files.parquet")
    assert pd.api.types.is_integer_dtype(files["compressed_bytes"])
    by_name = files.set_index(files["source"].str.rsplit("/", n=1).str[-1])
    assert by_name.loc["doc0.txt", "compressed_bytes"] == by_name.loc["doc0.txt", "bytes"]
    assert by_name.loc["mail.gz", "compressed_bytes"] < by_name.loc["mail.gz", "bytes"]
    assert by_name.loc["mail.gz", "compression"] == "gzip"


def test_context_is_filled_by_default_and_off_with_C0(index, tmp_path):
    assert pq.read_table(index / "one.parquet").column("context").null_count == 0
    run("scan", str(index / "corpus" / "doc0.txt"), "-o", str(tmp_path / "x.parquet"), "-C", "0")
    assert pq.read_table(tmp_path / "x.parquet").column("context").null_count == 4
