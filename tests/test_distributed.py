"""The scan on a Dask cluster (two worker processes started here) gives the
rows of the local scan: files, byte ranges of a large file with hits across
the range boundaries, documents in a bag, a text column, the dataset on
disk, and ``urnscan scan --dask`` end to end."""
import bz2
import gzip
import os
import random
import subprocess
import sys

import pytest

dask = pytest.importorskip("dask")
pytest.importorskip("distributed")
pytest.importorskip("pandas")

import dask.bag as db  # noqa: E402
import dask.dataframe as dd  # noqa: E402
import pandas as pd  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.dataset as pads  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import urnscan  # noqa: E402
from urnscan import distributed as ud  # noqa: E402
from urnscan.ranges import plan_ranges  # noqa: E402
from urnscan.runner import ScanConfig, iter_inputs, run_scan  # noqa: E402
from urnscan.scanner import ScanOptions  # noqa: E402
from urnscan.sinks.parquet import ParquetSink  # noqa: E402
from urnscan.sinks.schema import FILES_SCHEMA, HIT_SCHEMA, hits_to_record_batch  # noqa: E402
from urnscan.sinks.status import stored_status  # noqa: E402

SPLIT = 16384  # small ranges, so the large file below is cut in several
MAX_LEN = 256
OPTIONS = ScanOptions(max_urn_length=MAX_LEN)
TEXT = ("Mail: see <URN:ISBN:0-395-36341-1> and urn:ietf:rfc:2141.\n"
        'The namespace "urn:ietf:params:xml:ns:yang:ietf-\n   interfaces" is folded.\n'
        "bad urn:ab-:x here; return:x is not one.\n")
FILLER = [b"prose about return: and Saturn: ", b"urn:isbn:0451450523. ", b"<URN:foo:bar-\r\n   baz> ",
          b"\r\n", b"\n", b"word " * 12, b"http://nbn-resolving.de/urn:nbn:de:bsz:24-opus-12345&x=1 ",
          b"caf\xc3\xa9 urn:example:caf\xc3\xa9 ", b"urn:ex:a:urn:ex:b "]
# put across each range boundary: a wrapped URN folded over lines, a folded
# bare URN, an over-long run hiding an inner "urn:", a URN inside a URN;
# ranges start where tokens start, so each holds a token stop ('|' marks
# it), and the boundary falls just after it
ACROSS = [b" <URN:ietf:params:xml:ns:yang:ietf-\r\n|      interfaces> ",
          b' "urn:ietf:params:rtp-\n|   hdrext:sdes:cname" ',
          b" urn:x:" + b"y(z)" * (MAX_LEN // 8) + b"y(|z)" + b"y(z)" * (MAX_LEN // 8 + 50) + b"urn:ex:hidden:"
          + b"z" * 40 + b" urn:ex:after ",
          b" urn:ex:outer:urn:ex:inner(|x)urn:ex:innermost ",
          b" <urn:ex:wrapped\n|:" + b"w" * (MAX_LEN * 2) + b"> "]


def _big_file(path):
    rnd = random.Random(7)
    data = bytearray()
    while len(data) < 12 * SPLIT:
        data += rnd.choice(FILLER)
    count = len(data) // SPLIT
    for i in range(1, count):
        before, after = ACROSS[(i - 1) % len(ACROSS)].split(b"|")
        cut = len(data) * i // count  # where plan_ranges looks for the token stop
        data[cut - len(before):cut + len(after)] = before + after
    path.write_bytes(bytes(data))
    ranges = plan_ranges(str(path), len(data), count, SPLIT)
    assert len(ranges) == count
    return ranges


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("dask") / "corpus"
    (root / "sub").mkdir(parents=True)
    (root / "plain.txt").write_text(TEXT)
    (root / "sub" / "mail.gz").write_bytes(gzip.compress(TEXT.encode() * 3))
    (root / "sub" / "notes.bz2").write_bytes(bz2.compress(b"urn:isbn:0451450523\n"))
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    (root / "latin1.txt").write_bytes(b"caf\xe9 \xff\xfe urn:example:after-bad-bytes\n")
    damaged = gzip.compress("".join(f"urn:example:n{i * 7919 % 100003} " for i in range(6000)).encode())
    (root / "sub" / "broken.gz").write_bytes(damaged[: len(damaged) // 2])
    os.symlink(root / "nowhere", root / "dangling")
    ranges = _big_file(root / "big.txt")
    for i in range(12):
        (root / "many" / f"{i:02d}.txt").parent.mkdir(exist_ok=True)
        (root / "many" / f"{i:02d}.txt").write_text(TEXT * (i + 1) + f"urn:example:file-{i}\n")
    return root, ranges


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as c:
        yield c


def local_scan(paths, options=OPTIONS, valid_only=False):
    hits, statuses = [], []
    run_scan(iter_inputs([str(p) for p in paths]), ScanConfig(options=options, valid_only=valid_only),
             hits.extend, statuses.append)
    return hits_to_record_batch(hits).to_pylist(), statuses


def rows_of(frame):
    """Rows of a computed hits frame, as the local writer's Arrow rows."""
    return pa.Table.from_pandas(frame, schema=HIT_SCHEMA, preserve_index=False).to_pylist()


def by_position(rows):
    return sorted(rows, key=lambda r: (r["source"] or "", r["start"], r["stop"], r["urn"]))


def test_boundaries_of_the_large_file_are_crossed(corpus):
    root, ranges = corpus
    assert len(ranges) >= 8
    rows, _ = local_scan([root / "big.txt"])
    crossing = [r for r in rows if any(r["start"] < rng.start < r["stop"] for rng in ranges[1:])]
    assert len(crossing) >= len(ranges) - 1
    assert any(r["folded"] and r["form"] == "wrapped" for r in crossing)
    assert any("over-long" in r["findings"] for r in crossing)


def test_files_equal_local_scan(client, corpus):
    root, ranges = corpus
    scan = ud.scan_paths([root], options=OPTIONS, split_bytes=SPLIT, partition_bytes=4096)
    assert scan.npartitions >= len(ranges) + 3
    hits, files = dask.compute(scan.hits, scan.files)
    expected, statuses = local_scan([root])
    got = rows_of(hits)
    assert len(got) == len(expected) > 1000
    assert by_position(got) == by_position(expected)
    assert got == expected  # in input order, too
    got_files = pa.Table.from_pandas(files, schema=FILES_SCHEMA, preserve_index=False).to_pylist()
    assert [tuple(r.values()) for r in got_files] == [tuple(stored_status(s)) for s in statuses]
    kinds = {os.path.basename(s.source): s.status for s in statuses}
    assert kinds["image.png"] == "skipped-binary" and kinds["broken.gz"] == "error"
    assert kinds["dangling"] == "skipped"  # met while walking: listed, not an error


def test_dtypes_follow_the_schema(client, corpus):
    root, _ = corpus
    frame = ud.hits_dataframe([root / "plain.txt"], options=OPTIONS)
    meta = ud.hits_meta()
    assert list(frame.columns) == list(meta.columns) == HIT_SCHEMA.names
    computed = frame.compute()
    local = pd.read_parquet(_local_dataset(root / "plain.txt", root.parent / "plain-local"))
    for name in HIT_SCHEMA.names:
        if name == "findings":
            assert isinstance(computed[name].dtype, pd.ArrowDtype)
        elif name == "valid_checksum":  # objects in the local frame; strings once Dask took them
            assert computed[name].dtype == "boolean"
            assert [None if pd.isna(v) else v for v in computed[name]] == [None if pd.isna(v) else v
                                                                          for v in local[name]]
        elif isinstance(local[name].dtype, pd.CategoricalDtype):
            assert isinstance(computed[name].dtype, pd.CategoricalDtype), name
        else:
            assert computed[name].dtype.kind == local[name].dtype.kind, name
    assert computed["findings"].tolist() == [list(f) for f in local["findings"]]


def _local_dataset(path, out):
    with ParquetSink(str(out) + "/", force=True) as sink:
        run_scan(iter_inputs([str(path)]), ScanConfig(options=OPTIONS), sink.write_hits, sink.add_file_status)
    return out


def test_write_dataset_equals_local_dataset(client, corpus, tmp_path):
    root, _ = corpus
    local = _local_dataset(root, tmp_path / "local")
    out = tmp_path / "dask"
    scan = ud.scan_paths([root], options=OPTIONS, split_bytes=SPLIT, partition_bytes=4096)
    result = ud.write_dataset(scan, out)
    assert result.summary.files == 20 and result.summary.errors == 1 and result.files_path
    names = sorted(os.listdir(out))
    assert "_files.pq" in names and not [n for n in names if n.endswith(".tmp")]
    assert [n for n in names if n.startswith("hits-")] == [f"hits-{i:05d}.parquet" for i in range(len(result.parts))]
    ours, theirs = pads.dataset(out).to_table(), pads.dataset(local).to_table()
    assert ours.schema.equals(HIT_SCHEMA, check_metadata=False)
    assert pq.read_schema(out / "hits-00000.parquet").field("source").type == HIT_SCHEMA.field("source").type
    assert ours.to_pylist() == theirs.to_pylist() and ours.num_rows == result.rows
    assert pq.read_table(out / "_files.pq").to_pylist() == pq.read_table(local / "_files.pq").to_pylist()
    assert urnscan.sinks.parquet.read_metadata(out / "hits-00000.parquet")["params"]["max_urn_length"] == MAX_LEN
    with pytest.raises(urnscan.SinkError):
        ud.write_dataset(scan, out)  # exists, no force
    again = ud.write_dataset(ud.scan_paths([root / "plain.txt"], options=OPTIONS), out, force=True)
    assert sorted(os.listdir(out)) == ["_files.pq", "hits-00000.parquet"]
    assert pd.read_parquet(out).shape[0] == again.rows == 4


def test_failed_write_leaves_nothing(client, tmp_path):
    bad = dd.from_pandas(pd.DataFrame({"x": range(10)}), npartitions=2)
    with pytest.raises(ValueError, match="missing columns"):
        ud.write_dataset(bad, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_valid_only(client, corpus):
    root, _ = corpus
    scan = ud.scan_paths([root / "big.txt", root / "plain.txt"], options=OPTIONS, valid_only=True,
                         split_bytes=SPLIT)
    hits, files = dask.compute(scan.hits, scan.files)
    expected, statuses = local_scan([root / "big.txt", root / "plain.txt"], valid_only=True)
    assert rows_of(hits) == expected and all(r["valid"] for r in expected)
    assert files["hits"].tolist() == [s.hits for s in statuses]


DOCS = [("d1", "see <URN:ISBN:0-395-36341-1> and urn:ietf:rfc:2141."),
        ("d2", "café naïve urn:example:é-x\nnext urn:ietf:params:xml:ns:yang:ietf-\n   interfaces"),
        (3, b"bytes urn:isbn:0451450523 caf\xc3\xa9 urn:ab-:x"),
        ("empty", None),
        ("d5", "nothing here"),
        ("d6", "urn:x:" + "y" * 400 + " urn:a:b")]


def expected_doc_rows(docs, options=OPTIONS):
    hits = []
    kw = dict(profile=options.profile, max_urn_length=options.max_urn_length)
    for doc_id, content in docs:
        if isinstance(content, str):
            hits += urnscan.scan_text(content, source=str(doc_id), **kw)
        elif content is not None:
            hits += urnscan.scan_bytes([content], source=str(doc_id), **kw)
    return hits_to_record_batch(hits).to_pylist()


def test_bag_of_documents(client):
    bag = db.from_sequence(DOCS * 3, npartitions=4)
    frame = ud.hits_dataframe(bag, options=OPTIONS)
    assert frame.npartitions == bag.npartitions
    got = rows_of(frame.compute())
    assert by_position(got) == by_position(expected_doc_rows(DOCS * 3))
    bare = ud.scan_documents(db.from_sequence(["urn:a:b", b"urn:c:d"], npartitions=2)).compute()
    assert bare["urn"].tolist() == ["urn:a:b", "urn:c:d"] and bare["source"].isna().all()


def test_text_column(client, tmp_path):
    pdf = pd.DataFrame({"doc": [str(d) for d, _ in DOCS], "text": [t.decode() if isinstance(t, bytes) else t
                                                                 for _, t in DOCS]})
    ddf = dd.from_pandas(pdf, npartitions=3)
    frame = ud.scan_text_column(ddf, "text", id_column="doc", options=OPTIONS)
    text_docs = [(d, t.decode() if isinstance(t, bytes) else t) for d, t in DOCS]
    assert rows_of(frame.compute()) == expected_doc_rows(text_docs)
    by_index = ud.scan_text_column(ddf, "text", options=OPTIONS).compute()
    assert set(by_index["source"]) == {"0", "1", "2", "5"}
    result = ud.write_dataset(frame, tmp_path / "docs")
    assert result.files_path is None and result.summary is None
    assert pads.dataset(tmp_path / "docs").to_table().to_pylist() == expected_doc_rows(text_docs)
    with pytest.raises(KeyError):
        ud.scan_text_column(ddf, "missing")


def run_cli(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "urnscan", *args], capture_output=True, cwd=cwd,
                          env=dict(os.environ, **(env or {})))


def test_cli_dask_local_equals_local_scan(corpus, tmp_path):
    root, _ = corpus
    env = {"URNSCAN_SPLIT_BYTES": str(SPLIT)}
    common = ["--max-urn-length", str(MAX_LEN)]
    # relative paths, as a user types them: the source column keeps them as listed
    local = run_cli("scan", "corpus", "-o", str(tmp_path / "local") + "/", "-j", "1", *common, env=env,
                    cwd=root.parent)
    ours = run_cli("scan", "corpus", "-o", str(tmp_path / "dask") + "/", "--dask", "local", "-j", "2", *common,
                   env=env, cwd=root.parent)
    assert local.returncode == ours.returncode == 1, ours.stderr  # the broken gzip
    assert b"binary skipped" in ours.stderr and b"20 inputs" in ours.stderr
    a = pads.dataset(tmp_path / "dask").to_table().to_pylist()
    b = pads.dataset(tmp_path / "local").to_table().to_pylist()
    assert by_position(a) == by_position(b) and len(a) > 1000
    assert all(r["source"].startswith("corpus/") for r in a)
    files = pq.read_table(tmp_path / "dask" / "_files.pq").to_pylist()
    assert files == pq.read_table(tmp_path / "local" / "_files.pq").to_pylist()


@pytest.mark.parametrize("args, message", [
    ((".", "-o", "out.parquet"), b"Parquet dataset"),
    ((".", "--format", "jsonl"), b"Parquet dataset"),
    (("-", "-o", "x/"), b"standard input"),
])
def test_cli_dask_usage_errors(args, message, tmp_path):
    res = run_cli("scan", *args, "--dask", "local", cwd=tmp_path)
    assert res.returncode == 2 and message in res.stderr, res.stderr


def test_cli_dask_unreachable_scheduler(tmp_path):
    res = run_cli("scan", str(tmp_path), "-o", str(tmp_path / "out") + "/", "--dask", "tcp://127.0.0.1:9",
                  env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"})
    assert res.returncode == 2 and b"cannot reach the Dask scheduler" in res.stderr
    assert not (tmp_path / "out").exists()


def test_cli_without_dask_installed(tmp_path):
    code = ("import sys; sys.modules['dask'] = None; from urnscan.cli import main; "
            f"sys.exit(main(['scan', {str(tmp_path)!r}, '-o', {str(tmp_path / 'o')!r} + '/', '--dask', 'local']))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert res.returncode == 2 and b"pip install 'urnscan[dask]'" in res.stderr


def test_local_scan_does_not_import_dask():
    code = ("import sys, urnscan.cli, urnscan.cli.scan, urnscan.runner, urnscan.ranges;"
            "print(','.join(m for m in ('dask', 'distributed') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_stdin_is_refused(corpus):
    with pytest.raises(ValueError):
        ud.scan_paths(["-"])


def test_cli_dask_never_reads_its_own_output(tmp_path):
    """The dataset written inside the scanned tree (and its temporary
    parts) is not read back by the next run, as with the local run."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.txt").write_text("see urn:isbn:0451450523 and urn:ietf:rfc:2141\n")
    out = str(tree / "index") + "/"
    for extra in ((), ("--force",)):
        res = run_cli("scan", str(tree), "-o", out, "--dask", "local", "-j", "1", *extra)
        assert res.returncode == 0, res.stderr
        assert b"1 input " in res.stderr and b"2 hits" in res.stderr, res.stderr
    files = pq.read_table(tree / "index" / "_files.pq").column("source").to_pylist()
    assert files == [str(tree / "a.txt")]
