"""`urnscan scan` as a user runs it: a subprocess over a corpus made here."""
import bz2
import gzip
import json
import lzma
import os
import stat
import subprocess
import sys

import pyarrow.parquet as pq
from pathlib import Path
import pytest

TEXT = ("Mail: see <URN:ISBN:0-395-36341-1> and urn:ietf:rfc:2141.\n"
        'The namespace "urn:ietf:params:xml:ns:yang:ietf-\n   interfaces" is folded.\n'
        "bad urn:ab-:x here; return:x is not one.\n")


def run(*args, stdin=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "urnscan", *args], capture_output=True, input=stdin, cwd=cwd)


@pytest.fixture()
def corpus(tmp_path):
    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    (root / "plain.txt").write_text(TEXT)
    (root / "sub" / "mail.gz").write_bytes(gzip.compress(TEXT.encode()))
    (root / "sub" / "notes.bz2").write_bytes(bz2.compress(b"urn:isbn:0451450523\n"))
    (root / "sub" / "data.xz").write_bytes(lzma.compress(b"<urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6>"))
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    (root / "latin1.txt").write_bytes(b"caf\xe9 \xff\xfe urn:example:after-bad-bytes\n")
    damaged = gzip.compress("".join(f"urn:example:n{i * 7919 % 100003} " for i in range(20000)).encode())
    (root / "broken.gz").write_bytes(damaged[: len(damaged) // 2])
    os.symlink(root / "nowhere", root / "dangling")
    return root


def _statuses(files_table):
    return {os.path.basename(r["source"]): (r["status"], r["hits"]) for r in files_table.to_pylist()}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_special_files_met_while_walking_are_skipped_not_read(tmp_path, monkeypatch, jobs):
    # as ripgrep and grep -r: a FIFO or a socket in a tree is passed over
    # (a FIFO may never end), listed in the files table, and the run succeeds
    monkeypatch.chdir(tmp_path)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.txt").write_text("urn:isbn:0451450523\n")
    os.mkfifo(tree / "fifo")
    _socket(tree / "sock")  # (bound relative to the cwd: moved into the tree)
    os.rename("sock", tree / "sock")
    out = tmp_path / "x.parquet"
    res = run("scan", "tree", "-o", str(out), "--jobs", jobs)
    assert res.returncode == 0, res.stderr
    assert b"error:" not in res.stderr and b"0 errors" in res.stderr
    rows = {os.path.basename(r["source"]): (r["status"], r["reason"])
            for r in pq.read_table(tmp_path / "x.files.parquet").to_pylist()}
    assert rows == {"a.txt": ("scanned", None), "fifo": ("skipped", "special file (FIFO)"),
                    "sock": ("skipped", "special file (socket)")}
    assert pq.read_table(out).column("urn").to_pylist() == ["urn:isbn:0451450523"]


def test_scan_to_parquet(corpus, tmp_path):
    out = tmp_path / "index.parquet"
    res = run("scan", str(corpus), "-o", str(out), "--jobs", "1")
    assert res.returncode == 1, res.stderr  # the truncated gzip and the dangling link are errors
    hits = pq.read_table(out)
    files = pq.read_table(tmp_path / "index.files.parquet")
    st = _statuses(files)
    assert st["plain.txt"] == ("scanned", 4)
    assert st["mail.gz"] == ("scanned", 4)
    assert st["notes.bz2"] == ("scanned", 1)
    assert st["data.xz"] == ("scanned", 1)
    assert st["image.png"][0] == "skipped-binary"
    assert st["latin1.txt"] == ("scanned", 1)
    assert st["broken.gz"][0] == "error" and st["broken.gz"][1] >= 1  # hits before the damage are kept
    assert st["dangling"] == ("skipped", 0)  # links met while walking are not followed (-L follows them)
    urns = hits.column("urn").to_pylist()
    assert "urn:ietf:params:xml:ns:yang:ietf-interfaces" in urns
    assert "URN:ISBN:0-395-36341-1" in urns and "urn:example:after-bad-bytes" in urns
    assert b"error" in res.stderr and b"1 binary skipped" in res.stderr and b"image.png" not in res.stderr
    meta = json.loads(pq.read_schema(out).metadata[b"urnscan"])
    assert meta["params"]["profile"] == "rfc8141" and meta["urnscan_version"]


def test_parquet_readable_by_real_clients(corpus, tmp_path):
    out = tmp_path / "i.parquet"
    run("scan", str(corpus / "plain.txt"), "-o", str(out))
    import pandas as pd

    df = pd.read_parquet(out)
    assert len(df) == 4 and df["valid"].sum() == 3
    duckdb = pytest.importorskip("duckdb")
    assert duckdb.sql(f"select count(*) from read_parquet('{out}') where valid").fetchall() == [(3,)]
    polars = pytest.importorskip("polars")
    assert polars.read_parquet(out).filter(polars.col("form") == "wrapped").height == 1


def test_jobs_two_equals_jobs_one(corpus, tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run("scan", str(corpus), "-o", str(one), "--jobs", "1")
    run("scan", str(corpus), "-o", str(two), "--jobs", "2")
    rows_one = sorted(one.read_text().splitlines())
    assert rows_one and rows_one == sorted(two.read_text().splitlines())


def test_large_file_split_into_ranges_matches(tmp_path):
    big = tmp_path / "big.txt"
    block = TEXT * 40 + "urn:x:" + "y" * 300 + " " + "\r\n" * 3
    big.write_text(block * 120)
    env = dict(os.environ, URNSCAN_SPLIT_BYTES="65536")
    a = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(big), "--format", "jsonl", "-j", "1"],
                       capture_output=True, env=env)
    b = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(big), "--format", "jsonl", "-j", "2"],
                       capture_output=True, env=env)
    assert a.returncode == b.returncode == 0
    assert a.stdout.splitlines() == b.stdout.splitlines() and len(a.stdout.splitlines()) > 10000


def test_a_byte_order_mark_before_a_long_first_line_in_ranges(tmp_path):
    """A UTF-8 byte-order mark takes no column, in every range of line 1
    too: the ranges after the first count their line-1 columns from the
    mark's end as the single scan does."""
    big = tmp_path / "marked.txt"
    big.write_bytes(b"\xef\xbb\xbf" + b"word urn:ietf:rfc:2141 " * 12000 + b"\nurn:ietf:rfc:8141\n")
    env = dict(os.environ, URNSCAN_SPLIT_BYTES="65536")
    out = {}
    for jobs in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(big), "--format", "jsonl", "-j", jobs],
                              capture_output=True, env=env)
        assert done.returncode == 0, done.stderr
        out[jobs] = [(r["start"], r["line"], r["col"]) for r in map(json.loads, done.stdout.splitlines())]
    assert out["1"] == out["2"] and len(out["1"]) == 12001
    assert out["1"][0] == (8, 1, 6) and out["1"][-2] == (8 + 23 * 11999, 1, 6 + 23 * 11999)
    assert out["1"][-1][1:] == (2, 1)


def test_stdin_and_text_output():
    res = run("scan", "-", stdin=TEXT.encode())
    assert res.returncode == 0
    lines = res.stdout.decode().splitlines()
    assert lines[0] == "-:1:12:URN:ISBN:0-395-36341-1"
    assert lines[-1] == "-:4:5:urn:ab-:x"  # nothing after the URN: cut -d: -f4- gives it


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_percent_encoded_urns_are_read_when_asked(tmp_path, jobs):
    """A small file holding only a percent-encoded URN is read, not passed
    over by the triage of plain files, at every --jobs."""
    page = tmp_path / "page.html"
    page.write_bytes(b'<a href="https://resolver.example/?urn=urn%3Anbn%3Ade%3Abvb%3A12-bsb00041099-5&l=en">x</a>\n')
    plain = run("scan", str(page), "-o", "-", "-j", jobs)
    assert plain.returncode == 0 and plain.stdout == b""
    asked = run("scan", str(page), "-o", "-", "--format", "jsonl", "--percent-encoded", "-j", jobs)
    (row,) = [json.loads(line) for line in asked.stdout.splitlines()]
    assert (row["urn"], row["raw"], row["rules"], row["embedded"]) == (
        "urn:nbn:de:bvb:12-bsb00041099-5", "urn%3Anbn%3Ade%3Abvb%3A12-bsb00041099-5", ["decode:percent"], True)


def test_valid_only_and_profile(corpus):
    res = run("scan", str(corpus / "plain.txt"), "--valid-only", "--format", "jsonl")
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(rows) == 3 and all(r["valid"] for r in rows)
    res = run("scan", str(corpus / "plain.txt"), "--profile", "rfc2141", "--format", "jsonl")
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["valid"] for r in rows if r["nid"] == "ab-"] == [True]


def test_include_exclude(corpus):
    res = run("scan", str(corpus), "--include", "*.txt", "--exclude", "latin1*", "-s")
    assert {line.split(":")[0].rsplit("/", 1)[-1] for line in res.stdout.decode().splitlines()} == {"plain.txt"}


def test_existing_output_needs_force(corpus, tmp_path):
    out = tmp_path / "x.parquet"
    assert run("scan", str(corpus / "plain.txt"), "-o", str(out)).returncode == 0
    res = run("scan", str(corpus / "plain.txt"), "-o", str(out))
    assert res.returncode == 2 and res.stderr.decode() == (
        f"urnscan scan: error: {out}: already exists; use --force to overwrite\n")  # no Python argument
    assert run("scan", str(corpus / "plain.txt"), "-o", str(out), "--force").returncode == 0


def test_dataset_output(corpus, tmp_path):
    out = tmp_path / "ds"
    res = run("scan", str(corpus), "-o", str(out) + "/", "-q")
    assert res.returncode == 1
    import pyarrow.dataset as ds

    assert ds.dataset(out).count_rows() > 5
    assert (out / "_files.pq").exists()


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("through", ["stdin", "fifo"])
def test_a_pipe_is_scanned_as_its_writer_writes(tmp_path, jobs, through):
    """A pipe's hits come while its writer still holds it open: it was read
    a chunk (1 MiB) at a time, so that nothing came out until the writer had
    written that much or closed it.  The first 64 KiB still decide whether
    the input is binary, as for any input; the hits are those of the whole."""
    import select
    import threading

    first_part = b"".join(b"see urn:isbn:0451450523 line %d\n" % i for i in range(3000))  # 90 KB
    assert len(first_part) > 64 << 10
    seen = threading.Event()
    if through == "stdin":
        proc = subprocess.Popen([sys.executable, "-m", "urnscan", "scan", "-", "-j", jobs], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        opener = lambda: proc.stdin  # noqa: E731
    else:
        fifo = tmp_path / "feed"
        os.mkfifo(fifo)
        proc = subprocess.Popen([sys.executable, "-m", "urnscan", "scan", str(fifo), "-j", jobs],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        opener = lambda: open(fifo, "wb")  # noqa: E731

    def write() -> None:
        with opener() as pipe:
            pipe.write(first_part)
            pipe.flush()
            seen.wait(60)  # (held open until the first hit came out, or long enough to fail)
            pipe.write(b"urn:ietf:rfc:2141\n")

    writer = threading.Thread(target=write)
    writer.start()
    try:
        came = select.select([proc.stdout], [], [], 30)[0]
        first = proc.stdout.readline() if came else b""
    finally:
        seen.set()
    writer.join()
    rest = proc.stdout.read()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    name = b"-" if through == "stdin" else str(fifo).encode()
    assert first == name + b":1:5:urn:isbn:0451450523\n", err
    lines = (first + rest).splitlines()
    assert len(lines) == 3001 and lines[-1] == name + b":3001:1:urn:ietf:rfc:2141"
    assert proc.returncode == 0, err


def test_interrupted_scan_leaves_no_output(tmp_path):
    # a FIFO that never delivers EOF keeps the scan busy; SIGINT it
    import signal
    import time

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = tmp_path / "out.parquet"
    proc = subprocess.Popen([sys.executable, "-m", "urnscan", "scan", str(fifo), "-o", str(out), "-j", "1"],
                            stderr=subprocess.PIPE)
    writer = open(fifo, "wb")
    writer.write(b"urn:example:a " * 1000)
    writer.flush()
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    writer.close()
    assert proc.returncode == 130
    assert not out.exists()
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


@pytest.mark.parametrize("args, message", [
    (("scan", "x", "-j", "0"), b"--jobs must be at least 1"),
    (("scan", "x", "-c", "-l"), b"cannot be combined"),
    (("scan", "x", "-c", "-o", "x.parquet"), b"standard output"),
    (("scan", "x", "-C", "9999"), b"--context must be between 0 and 256"),
    (("scan", "x", "-o", "out.weird"), b"output format"),
    (("scan", "x", "--format", "parquet"), b"needs -o"),
    (("scan", "x", "--max-urn-length", "3"), b"--max-urn-length must be a whole number from 16 to 1048576"),
    (("scan", "x", "--max-urn-length", "1048577"), b"--max-urn-length must be a whole number from 16 to 1048576"),
])
def test_usage_errors(args, message, tmp_path):
    res = run(*args, cwd=tmp_path)
    assert res.returncode == 2 and message in res.stderr


def test_help_is_complete():
    text = run("scan", "--help").stdout.decode()
    for option in ("--output", "--format", "--profile", "--no-trim", "--valid-only", "--include", "--exclude",
                   "--jobs", "--max-urn-length", "--quiet", "--force"):
        assert option in text


@pytest.mark.parametrize("out", ["out.jsonl", "out.txt", "out.parquet", "ds/"])
def test_an_unwritable_output_exits_1_before_the_scan(corpus, tmp_path, out):
    """The README's exit status: 1 when the output cannot be written (2 is
    for what the command line asks)."""
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    res = run("scan", str(corpus / "plain.txt"), "-o", f"{blocker}/{out}")
    err = res.stderr.decode()
    assert res.returncode == 1 and err == f"urnscan scan: error: {blocker}: not a directory\n"
    assert os.listdir(tmp_path) == ["corpus", "file.txt"]


def test_missing_output_directories_are_created(corpus, tmp_path):
    out = tmp_path / "new" / "dir" / "hits.jsonl"
    assert run("scan", str(corpus / "plain.txt"), "-o", str(out)).returncode == 0
    assert len(out.read_text().splitlines()) == 4
    assert (tmp_path / "new" / "dir" / "hits.files.jsonl").exists()


def test_broken_pipe_is_quiet(corpus):
    proc = subprocess.run(f"{sys.executable} -m urnscan scan {corpus} -j 1 | head -1", shell=True,
                          capture_output=True)
    assert proc.stdout.count(b"\n") == 1 and b"Traceback" not in proc.stderr and b"BrokenPipe" not in proc.stderr


def test_progress_only_on_a_terminal(corpus):
    import pty

    master, slave = pty.openpty()
    try:
        res = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(corpus), "-j", "1"], stdout=subprocess.PIPE,
                             stderr=slave, timeout=120)
        os.close(slave)
        shown = b""
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            shown += data
    finally:
        os.close(master)
    assert res.returncode == 1
    assert b"\rurnscan: " in shown and b" files, " in shown and b" MB, " in shown
    piped = run("scan", str(corpus), "-j", "1")
    assert b"\r" not in piped.stderr


def test_a_newer_registry_file(tmp_path):
    import urnscan.namespaces.registry as registry

    shipped = json.loads((Path(registry.__file__).parent / "data" / "registry.json").read_text())
    shipped["date"] = "2099-01-01"
    shipped["formal"].append({"nid": "zzqx", "ref": ["RFC99999"]})
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(shipped))
    text = tmp_path / "t.txt"
    text.write_text("see urn:zzqx:thing and urn:isbn:0451450523\n")
    before = [json.loads(line)["namespace_status"] for line in run("scan", str(text), "--format", "jsonl").stdout.splitlines()]
    assert before == ["unregistered", "formal"]
    out = tmp_path / "i.parquet"
    res = run("scan", str(text), "-o", str(out), "--registry", str(newer), "-j", "2")
    assert res.returncode == 0, res.stderr
    assert pq.read_table(out).column("namespace_status").to_pylist() == ["formal", "formal"]
    assert json.loads(pq.read_schema(out).metadata[b"urnscan"])["params"]["registry_date"] == "2099-01-01"
    bad = run("scan", str(text), "--registry", str(text))
    assert bad.returncode == 2 and b"--registry" in bad.stderr
    # the environment's registry, resolved once for the run: judged by, and
    # recorded in the parameters; --registry wins over it
    env = {**os.environ, "URNSCAN_REGISTRY": str(newer)}
    res = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(text), "-o", str(out), "--force", "-j", "2"],
                         capture_output=True, env=env)
    assert res.returncode == 0, res.stderr
    assert pq.read_table(out).column("namespace_status").to_pylist() == ["formal", "formal"]
    params = json.loads(pq.read_schema(out).metadata[b"urnscan"])["params"]
    assert (params["registry"], params["registry_date"]) == (str(newer), "2099-01-01")
    env["URNSCAN_REGISTRY"] = str(text)
    bad = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(text)], capture_output=True, env=env)
    assert bad.returncode == 2 and b"URNSCAN_REGISTRY: " in bad.stderr, bad.stderr
    snapshot = Path(registry.__file__).parent / "data" / "registry.json"
    chosen = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(text), "--format", "jsonl",
                             "--registry", str(snapshot)], capture_output=True, env=env)
    assert chosen.returncode == 0, chosen.stderr
    assert [json.loads(line)["namespace_status"] for line in chosen.stdout.splitlines()] == before


def test_command_sets_the_collector_thresholds():
    """The command (not the library) sets the cycle collector's thresholds
    for its process, before the run starts."""
    code = ("import gc, urnscan.cli as cli\n"
            "before = gc.get_threshold()\n"
            "cli.main = lambda: print(before, gc.get_threshold()) or 0\n"
            "cli.run()\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    from urnscan.cli import COLLECTOR_THRESHOLDS
    assert out.split(") (")[1].strip(" ()\n") == ", ".join(map(str, COLLECTOR_THRESHOLDS))
    assert out.startswith("(700, 10, 10)")  # importing urnscan leaves them alone


# ---------------------------------------------------------------------------
# Outputs that are not plain files, outputs that are inputs, standard output
# ---------------------------------------------------------------------------

def _char_device(path):
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # as /dev/full
    except PermissionError:
        pytest.skip("mknod is not permitted here")


def _socket(path):
    import socket

    sock = socket.socket(socket.AF_UNIX)
    sock.bind(os.path.basename(path))  # relative: the cwd is the test's directory, under the length limit
    sock.close()


SPECIAL_NODES = {"char device": _char_device, "FIFO": os.mkfifo, "socket": _socket, "directory": os.mkdir}
# (name of the node, -o OUT, options); a directory OUT with no --format,
# or with --format parquet, is a dataset, so only those with a line format
# are cases for a directory
SPECIAL_OUTPUTS = [
    ("X", "X", ("--format", "text")),
    ("X", "X", ("--format", "text", "--force")),
    ("X", "X", ("--format", "jsonl", "--force")),
    ("X.files.txt", "X.txt", ("--force",)),          # the files table beside the output
    ("X.files.parquet", "X.parquet", ("--force",)),
]
SPECIAL_FILE_OUTPUTS = [
    ("X", "X", ("--format", "parquet", "--force")),
    ("X.jsonl", "X.jsonl", ("--force",)),
]
STREAM_NODES = ("char device", "FIFO")


def _streamed(node, name, out, options):
    """A device or FIFO named as the output of lines is written into, as
    standard output is (test_lines_are_written_into_a_device_or_fifo)."""
    return node in STREAM_NODES and name == out and "parquet" not in options and not out.endswith(".parquet")


# (node, name of the node, -o OUT, options)
SPECIAL_OUTPUT_CASES = [c for c in [(node, *case) for node in SPECIAL_NODES for case in SPECIAL_OUTPUTS] + [
    (node, *case) for node in SPECIAL_NODES if node != "directory" for case in SPECIAL_FILE_OUTPUTS]
    if not _streamed(*c)]


@pytest.mark.parametrize("node,name,out,options", SPECIAL_OUTPUT_CASES)
def test_an_output_that_is_no_regular_file_is_never_replaced(tmp_path, monkeypatch, node, name, out, options):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text(TEXT)
    SPECIAL_NODES[node](str(tmp_path / name))
    before = sorted((p.name, p.lstat().st_mode) for p in tmp_path.iterdir())
    res = run("scan", "a.txt", "-o", out, *options, cwd=tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 2 and err.startswith(f"urnscan scan: error: {name}: ") and err.count("\n") == 1, err
    if node != "directory":
        assert "not a regular file" in err and "standard output" in err and "--format jsonl" in err
    assert sorted((p.name, p.lstat().st_mode) for p in tmp_path.iterdir()) == before  # nothing made, nothing replaced


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_lines_are_written_into_a_device_or_fifo(tmp_path, fmt):
    import threading

    (tmp_path / "a.txt").write_text(TEXT)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    res = run("scan", "a.txt", "-o", "pipe", *(["--format", fmt] if fmt == "jsonl" else []), cwd=tmp_path)
    reader.join(30)
    assert res.returncode == 0, res.stderr
    assert len(got[0].splitlines()) == 4 and stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "pipe"]  # no files table beside it, as on standard output
    # a FIFO nobody reads is an output that cannot be written, said at once
    res = run("scan", "a.txt", "-o", "pipe", "--format", fmt, cwd=tmp_path)
    assert res.returncode == 1 and "no process reads it" in res.stderr.decode()
    # a device: the null device's kind
    try:
        os.mknod(tmp_path / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        return
    res = run("scan", "a.txt", "-o", "null", "--format", fmt, cwd=tmp_path)
    assert res.returncode == 0 and stat.S_ISCHR((tmp_path / "null").lstat().st_mode), res.stderr
    # ... and a full one: the message names it
    os.mknod(tmp_path / "full", 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    res = run("scan", "a.txt", "-o", "full", "--format", fmt, cwd=tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 1 and err == "urnscan: error: full: write failed: No space left on device\n", err


@pytest.mark.parametrize("out", ["link.txt", "link.jsonl", "link.parquet"])
@pytest.mark.parametrize("target_exists", [True, False])
def test_a_symbolic_link_output_is_written_through(tmp_path, out, target_exists):
    (tmp_path / "a.txt").write_text(TEXT)
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / ("target" + os.path.splitext(out)[1])
    if target_exists:
        target.write_text("old")
    os.symlink(os.path.join("real", target.name), tmp_path / out)
    res = run("scan", "a.txt", "-o", out, "--force", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert os.readlink(tmp_path / out) == os.path.join("real", target.name)  # the link survives
    if out.endswith(".parquet"):
        assert pq.read_table(target).num_rows == 4
    else:
        assert len(target.read_text().splitlines()) == 4
    stem = os.path.splitext(out)[0]
    assert (tmp_path / f"{stem}.files{os.path.splitext(out)[1]}").is_file()  # the files table beside the link
    assert sorted(os.listdir(tmp_path / "real")) == [target.name]            # no temporary file left


# (inputs made, PATH arguments, -o OUT)
OUTPUT_IS_INPUT_CASES = [
    (["self.txt"], ["self.txt"], "self.txt"),
    (["self.jsonl"], ["self.jsonl"], "self.jsonl"),
    (["self.parquet"], ["self.parquet"], "self.parquet"),
    (["x.files.parquet"], ["x.files.parquet"], "x.parquet"),     # the files table beside the output
    (["x.files.jsonl"], ["x.files.jsonl"], "x.jsonl"),
    (["other.txt", "self.txt"], ["other.txt", "self.txt"], "self.txt"),
    (["self.txt"], ["./sub/../self.txt"], "self.txt"),
    (["self.txt", "alias.txt>self.txt"], ["alias.txt"], "self.txt"),  # a link to the output
    (["self.txt", "alias.txt>self.txt"], ["self.txt"], "alias.txt"),  # an output link to the input
    (["self.txt", "hard.txt=self.txt"], ["hard.txt"], "self.txt"),   # a hard link
    (["ds/hits-00000.parquet"], ["ds/hits-00000.parquet"], "ds/"),
]


def _make(tmp_path, spec):
    if ">" in spec:
        name, target = spec.split(">")
        os.symlink(target, tmp_path / name)
    elif "=" in spec:
        name, target = spec.split("=")
        os.link(tmp_path / target, tmp_path / name)
    else:
        (tmp_path / spec).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / spec).write_text(TEXT)


@pytest.mark.parametrize("made,paths,out", OUTPUT_IS_INPUT_CASES)
def test_an_output_that_is_an_input_is_a_usage_error(tmp_path, made, paths, out):
    (tmp_path / "sub").mkdir()
    for spec in made:
        _make(tmp_path, spec)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    res = run("scan", *paths, "-o", out, "--force", cwd=tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 2 and "is an input" in err and err.count("\n") == 1, err
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("args,fmt", [
    ((), "text"),
    (("--format", "text"), "text"),
    (("--format", "jsonl"), "jsonl"),
    (("-c",), "count"),
])
def test_dash_output_is_standard_output(tmp_path, args, fmt):
    (tmp_path / "a.txt").write_text(TEXT)
    res = run("scan", "a.txt", "-o", "-", *args, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.decode().splitlines()
    if fmt == "jsonl":
        assert [json.loads(line)["urn"] for line in lines][0] == "URN:ISBN:0-395-36341-1"
    else:
        assert lines == (["a.txt:4"] if fmt == "count" else run("scan", "a.txt", *args, cwd=tmp_path).stdout.decode().splitlines())
    assert sorted(os.listdir(tmp_path)) == ["a.txt"]  # no file named '-'


def test_parquet_cannot_go_to_standard_output(tmp_path):
    res = run("scan", "x", "-o", "-", "--format", "parquet", cwd=tmp_path)
    assert res.returncode == 2 and b"not standard output" in res.stderr and os.listdir(tmp_path) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_holding_only_a_suspected_urn_is_read(tmp_path, jobs):
    # no ASCII "urn:" in it: the look-alike still makes the file worth reading
    path = tmp_path / "fw.txt"
    path.write_text("\u898b\u3088 \uff35\uff32\uff2e\uff1a\uff29\uff33\uff22\uff2e\uff1a\uff10\uff13\uff10\uff16\u3002\n",
                    encoding="utf-8")
    out = tmp_path / "o.jsonl"
    res = subprocess.run([sys.executable, "-m", "urnscan", "scan", str(path), "-o", str(out), "-q", "-j", jobs],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["urn"], r["rules"], r["valid"]) for r in rows] == [
        ("\uff35\uff32\uff2e\uff1a\uff29\uff33\uff22\uff2e\uff1a\uff10\uff13\uff10\uff16", ["suspect:lookalike"], False)]


def test_names_that_are_not_utf8_on_the_command_line(tmp_path):
    """An input and an output named with bytes that are not UTF-8: the scan
    runs, the run's parameters store the names as ``source`` does
    (``\\xNN``), standard error shows them so, and ``dedupe`` of such an
    index says why pyarrow cannot open it."""
    base = os.fsencode(tmp_path)
    (tmp_path / "a.txt").write_text(TEXT)
    os.mkdir(base + b"/d")
    with open(base + b"/d/\xff\xfe.txt", "w") as fh:
        fh.write("urn:example:in-a-name-not-utf8\n")
    out = base + b"/o\xff.parquet"
    res = subprocess.run([sys.executable, "-m", "urnscan", "scan", b"a.txt", b"d/\xff\xfe.txt", b"gone-\xe9.txt",
                          b"-o", out], capture_output=True, cwd=tmp_path)
    assert b"Traceback" not in res.stderr
    assert res.returncode == 1  # the missing input
    assert res.stderr.splitlines()[0] == b"urnscan: gone-\\xe9.txt: error: no such file or directory"
    assert res.stderr.rstrip().endswith(b"-> " + base + b"/o\\xff.parquet")
    with open(out, "rb") as fh:  # (pyarrow opens files by UTF-8 names only)
        index = pq.ParquetFile(fh)
        assert "d/\\xff\\xfe.txt" in index.read().column("source").to_pylist()
        params = json.loads(index.metadata.metadata[b"urnscan"])["params"]
    assert params["paths"] == ["a.txt", "d/\\xff\\xfe.txt", "gone-\\xe9.txt"]
    dedupe = subprocess.run([sys.executable, "-m", "urnscan", "dedupe", out], capture_output=True)
    assert dedupe.returncode == 1 and b"Traceback" not in dedupe.stderr
    assert b"o\\xff.parquet: cannot be read: pyarrow opens only files whose names are UTF-8" in dedupe.stderr


@pytest.mark.parametrize("text, shown", [
    ("plain", "plain"),
    ("o\udcff.parquet", "o\\xff.parquet"),  # an undecodable byte of a name (PEP 383)
    ("caf\u00e9 \udce9", "caf\\xe9 \\xe9"),  # in ASCII: a character and a byte both \xNN
    ("\u20ac\U0001f600", "\\u20ac\\U0001f600"),
])
def test_standard_error_shows_names_as_the_index_does(text, shown):
    from urnscan.cli import _name_escapes
    import io

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    _name_escapes(stream)
    stream.write(text)
    stream.flush()
    assert raw.getvalue().decode("ascii") == shown


def test_a_bug_is_one_line_to_report_not_a_traceback(tmp_path):
    code = ("import sys, urnscan.cli as cli\n"
            "def broken(argv=None):\n"
            "    raise RuntimeError('a bug')\n"
            "cli.main = broken\n"
            "cli.run()\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 1
    assert res.stderr.startswith("urnscan: internal error: RuntimeError: a bug\n") and "Traceback" not in res.stderr
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "URNSCAN_TRACEBACK": "1"})
    assert shown.returncode != 0 and "Traceback" in shown.stderr and "RuntimeError: a bug" in shown.stderr


@pytest.mark.parametrize("redirect, args, code, out_lines, message", [
    (">&-", ["a.txt", "-o", "x.jsonl"], 0, 4, b"4 hits"),  # no need of standard output
    (">&-", ["a.txt"], 1, None, b"urnscan: error: standard output is closed"),  # never in silence
    ("2>&-", ["a.txt", "-o", "x.jsonl"], 0, 4, b""),  # the messages go nowhere, not into the output
    ("2>&- >&-", ["a.txt", "-o", "x.jsonl", "-j", "2"], 0, 4, b""),
    ("<&-", ["-o", "x.jsonl"], 0, 0, b"0 hits"),  # standard input closed reads as empty
])
def test_closed_standard_streams(tmp_path, redirect, args, code, out_lines, message):
    import shlex

    (tmp_path / "a.txt").write_text(TEXT)
    command = " ".join(map(shlex.quote, [sys.executable, "-m", "urnscan", "scan", *args]))
    res = subprocess.run(f"exec {command} {redirect}", shell=True, capture_output=True, cwd=tmp_path)
    assert res.returncode == code, res.stderr
    assert message in res.stderr and b"Traceback" not in res.stderr and b"internal error" not in res.stderr
    if out_lines is not None:
        rows = [json.loads(line) for line in (tmp_path / "x.jsonl").read_text().splitlines()]
        assert len(rows) == out_lines


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_reader_of_the_messages_that_goes_away_changes_nothing(tmp_path, jobs):
    """``2>&1 | head -1``: once the pipe on standard error has no reader, the
    messages are dropped, and the index and the exit status are the run's
    all the same (the scan was lost, with exit status 0)."""
    (tmp_path / "a.txt").write_text(TEXT)
    missing = [f"gone-{i}.txt" for i in range(300)]
    proc = subprocess.Popen([sys.executable, "-m", "urnscan", "scan", "a.txt", *missing, "-o", "x.parquet", "-j", jobs],
                            cwd=tmp_path, stderr=subprocess.PIPE)
    proc.stderr.close()  # gone before the first message
    assert proc.wait(timeout=120) == 1  # the missing inputs
    assert pq.read_table(tmp_path / "x.parquet").num_rows == 4
    assert pq.read_table(tmp_path / "x.files.parquet").num_rows == 301


@pytest.mark.parametrize("stem, ext, too_long", [
    ("x" * 300, ".jsonl", "x" * 300 + ".jsonl"),
    ("x" * 244, ".parquet", "x" * 244 + ".files.parquet"),  # the index's name fits, its files table's does not
], ids=["the output", "its files table"])
def test_a_name_too_long_for_the_file_system_is_refused_before_the_scan(tmp_path, stem, ext, too_long):
    """The output is written under a temporary name and renamed at the end:
    a name longer than the file system takes failed there, after the whole
    scan.  It is found before anything is read."""
    if os.pathconf(tmp_path, "PC_NAME_MAX") != 255:
        pytest.skip("a file system whose names are not limited to 255 bytes")
    (tmp_path / "a.txt").write_text(TEXT)
    res = run("scan", "a.txt", "-o", stem + ext, cwd=tmp_path)
    assert res.returncode == 1 and b"Traceback" not in res.stderr
    assert res.stderr.decode().strip() == (f"urnscan scan: error: {too_long}: file name too long "
                                           f"({len(too_long)} bytes; the file system takes 255)")
    assert sorted(os.listdir(tmp_path)) == ["a.txt"]



def _exit_status_when_stdout_closes(args, cwd, stdin=None, after_error=False) -> int:
    """The exit status of ``urnscan ARGS | head``: the reader of standard
    output reads a line (or, ``after_error``, goes on reading until an error
    is on standard error) and goes away."""
    import threading

    with open(stdin or os.devnull, "rb") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "urnscan", *args], cwd=cwd, stdin=fh,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        errors = []
        reported = threading.Event()

        def read_messages():
            for line in proc.stderr:
                errors.append(line)
                reported.set()
        reader = threading.Thread(target=read_messages)
        reader.start()
        while proc.stdout.readline() and after_error and not reported.is_set():
            pass
        proc.stdout.close()
        code = proc.wait(timeout=120)
        reader.join()
    err = b"".join(errors)
    assert b"Traceback" not in err and b"internal error" not in err, err
    assert (b"gone.txt: error" in err) == after_error, err
    return code


@pytest.mark.parametrize("args, expected", [
    (["scan", "d", "-j", "1"], 0),
    (["scan", "gone.txt", "d", "-j", "1"], 1),  # the error was printed before the pipe closed
    (["scan", "gone.txt", "d", "-j", "2"], 1),
    (["check", "-"], 1),  # inputs left unjudged: not "every input valid"
], ids=["scan, no error", "scan, an error, -j 1", "scan, an error, -j 2", "check, inputs left"])
def test_a_reader_of_stdout_that_goes_away_keeps_the_errors_already_reported(tmp_path, args, expected):
    """``| head``: the run stops quietly, but its exit status still says
    what went wrong before (it said 0)."""
    (tmp_path / "d").mkdir()
    for i in range(50):
        (tmp_path / "d" / f"f{i}.txt").write_text("urn:isbn:0451450523 urn:oid:1.2.3\n" * 2_000)
    (tmp_path / "list").write_text("urn:isbn:0451450523\n" * 20_000)
    code = _exit_status_when_stdout_closes(args, tmp_path, stdin=tmp_path / "list", after_error="gone.txt" in args)
    assert code == expected


_SPLIT_TAKES = "takes a whole number of bytes, 1 or more, without a suffix (16 MiB: 16777216)"


@pytest.mark.parametrize("variable, value, takes", [
    ("URNSCAN_SPLIT_BYTES", "16M", _SPLIT_TAKES),  # was an internal error (ValueError)
    ("URNSCAN_SPLIT_BYTES", "0", _SPLIT_TAKES),  # was an internal error (ZeroDivisionError)
    ("URNSCAN_SPLIT_BYTES", "-1", _SPLIT_TAKES),
    ("URNSCAN_SPLIT_BYTES", "1.5", _SPLIT_TAKES),
    ("URNSCAN_PROGRESS_INTERVAL", "soon", "takes a number of seconds, 0 or more"),  # was ignored
    ("URNSCAN_PROGRESS_INTERVAL", "nan", "takes a number of seconds, 0 or more"),
    ("URNSCAN_PROGRESS_INTERVAL", "-1", "takes a number of seconds, 0 or more"),
])
def test_a_value_an_environment_variable_does_not_take_is_a_usage_error(tmp_path, variable, value, takes):
    (tmp_path / "a.txt").write_text(TEXT)
    res = subprocess.run([sys.executable, "-m", "urnscan", "scan", "a.txt"], cwd=tmp_path, capture_output=True,
                         text=True, env=dict(os.environ, **{variable: value}))
    assert (res.returncode, res.stdout, res.stderr) == (2, "", f"urnscan scan: error: {variable}={value!r}: {takes}\n")


@pytest.mark.parametrize("variable, value", [("URNSCAN_SPLIT_BYTES", "65536"), ("URNSCAN_SPLIT_BYTES", ""),
                                             ("URNSCAN_PROGRESS_INTERVAL", "0")])
def test_a_value_an_environment_variable_takes_is_taken(tmp_path, variable, value):
    (tmp_path / "a.txt").write_text(TEXT)
    res = subprocess.run([sys.executable, "-m", "urnscan", "scan", "a.txt", "-q"], cwd=tmp_path,
                         capture_output=True, text=True, env=dict(os.environ, **{variable: value}))
    assert (res.returncode, res.stderr) == (0, "")


@pytest.mark.parametrize("value, shown", [("nan", "nan"), ("inf", "inf"), ("-inf", "-inf"), ("-1", "-1")])
def test_a_max_ratio_that_is_not_a_finite_number_0_or_more_is_a_usage_error(tmp_path, value, shown):
    """``--max-ratio nan`` was taken (and stopped every input at 16 MiB)."""
    (tmp_path / "a.txt").write_text(TEXT)
    res = run("scan", "a.txt", f"--max-ratio={value}", cwd=tmp_path)
    assert (res.returncode, res.stdout, res.stderr.decode()) == (
        2, b"", f"urnscan scan: error: --max-ratio must be 0 (no limit) or a positive finite number (got {shown})\n")


@pytest.mark.parametrize("args, before, message", [
    (["scan", "a.txt", "-o", "o\x1b[7mut.jsonl"], None, " -> o\\x1b[7mut.jsonl\n"),
    (["scan", "a.txt", "-o", "o\nut.jsonl"], None, " -> o\\nut.jsonl\n"),
    (["scan", "a.txt", "--stats", "-o", "o\rut.jsonl"], None, "urnscan: output            o\\rut.jsonl\n"),
    (["scan", "a.txt", "-o", "o\x1b[7mut.jsonl"], "o\x1b[7mut.jsonl",
     "urnscan scan: error: o\\x1b[7mut.jsonl: already exists; use --force to overwrite\n"),
    (["scan", "a.txt", "--registry", "r\x1b.json"], None,
     "urnscan scan: error: --registry: cannot read registry file r\\x1b.json: No such file or directory\n"),
    (["dedupe", "i\x1b[2J.parquet"], None, "urnscan dedupe: error: i\\x1b[2J.parquet: no such file or directory\n"),
])
def test_paths_in_messages_are_escaped_as_input_names_are(tmp_path, args, before, message):
    """An output, index or registry path went out raw: an escape sequence
    drove the terminal, a line break split the summary line."""
    (tmp_path / "a.txt").write_text(TEXT)
    if before:
        (tmp_path / before).write_text("")
    res = run(*args, cwd=tmp_path)
    err = res.stderr.decode()
    assert err.endswith(message) and err.count("\n") == (1 if "--stats" not in args else err.count("urnscan: ")), err
    assert "\x1b" not in err and "\r" not in err
