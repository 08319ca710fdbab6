"""The parallel runner: pipes and FIFOs read once and whole, the same rows at
every --jobs, killed runs leave no process and no temporary file, pieces of
hits stay bounded."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings, strategies as st

from urnscan.pieces import ARROW_PIECES, HIT_PIECES
from urnscan.runner import ScanConfig, iter_inputs, run_scan
from urnscan.scanner import scan_bytes
from urnscan.sinks.status import FileStatus
from urnscan.tempfiles import PendingFile, remove_stale, reserve

URNSCAN = [sys.executable, "-m", "urnscan"]
LINE = b"see urn:isbn:978-0-306-40615-7 and <urn:ietf:rfc:%d> then urn:example:x%d.\n"


def _text(lines: int, offset: int = 0) -> bytes:
    return b"".join(LINE % (i + offset, i + offset) for i in range(lines))


def _run(args, **kw):
    return subprocess.run([*URNSCAN, *args], capture_output=True, timeout=120, **kw)


def _jsonl_rows(path):
    with open(path, encoding="utf-8") as fh:
        return [(r["source"], r["start"], r["line"], r["col"], r["urn"], r["valid"])
                for r in map(json.loads, fh)]


def _starts_urns(path):
    return [(r[1], r[2], r[3], r[4]) for r in _jsonl_rows(path)]


# --- pipes, FIFOs, standard input ------------------------------------------

BIG = _text(4000)  # about 300 KB: well past the 64 KiB a planner might peek


@pytest.fixture()
def reference(tmp_path):
    src = tmp_path / "plain.txt"
    src.write_bytes(BIG)
    out = tmp_path / "ref.jsonl"
    assert _run(["scan", str(src), "-o", str(out), "--jobs", "1", "-q"]).returncode == 0
    rows = _starts_urns(out)
    assert rows[0][0] == 4 and len(rows) == 12000
    return src, rows


@pytest.mark.parametrize("jobs", [1, 2])
def test_fifo_scans_completely(tmp_path, reference, jobs):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "wb") as fh:
            fh.write(BIG)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    out = tmp_path / "out.jsonl"
    res = _run(["scan", str(fifo), "-o", str(out), "--jobs", str(jobs), "-q"])
    writer.join(5)
    assert res.returncode == 0, res.stderr
    assert _starts_urns(out) == reference[1]


@pytest.mark.parametrize("path", ["-", "/dev/stdin"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_standard_input_scans_completely(tmp_path, reference, path, jobs):
    if path == "/dev/stdin" and not os.path.exists("/dev/stdin"):
        pytest.skip("no /dev/stdin")
    out = tmp_path / "out.jsonl"
    res = _run(["scan", path, "-o", str(out), "--jobs", str(jobs), "-q"], input=BIG)
    assert res.returncode == 0, res.stderr
    assert _starts_urns(out) == reference[1]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("jobs", [1, 2])
def test_process_substitution_scans_completely(tmp_path, reference, jobs):
    src, rows = reference
    out = tmp_path / "out.jsonl"
    cmd = " ".join([*URNSCAN, "scan", f"<(cat {src})", str(src), "-o", str(out), "--jobs", str(jobs), "-q"])
    res = subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=120)
    assert res.returncode == 0, res.stderr
    got = _jsonl_rows(out)
    piped = [r[1:5] for r in got if r[0] != str(src)]
    assert piped == rows
    assert [r[1:5] for r in got if r[0] == str(src)] == rows


# --- the same rows at every --jobs -------------------------------------------

def _corpus(root):
    """Tiny files, empty and binary files, a gzip file, dangling links
    among them (rows reported, not scanned), a large file with URNs
    crossing every byte-range boundary (ranges of 64 KiB), and over-long
    runs longer than a range."""
    import gzip

    root.mkdir()
    for i in range(300):
        (root / f"a{i:03d}.txt").write_bytes(_text(i % 7, i))
    for name in ("a000-gone.txt", "a150-gone.txt", "m-gone.txt"):
        (root / name).symlink_to(root / "nowhere")
    (root / "empty.txt").write_bytes(b"")
    (root / "bin.dat").write_bytes(bytes(range(256)) * 64)
    (root / "z.txt.gz").write_bytes(gzip.compress(_text(500)))
    # dense: long URNs end to end, so hits straddle range boundaries
    dense = b"".join(b"urn:example:%s%d urn:x-y:%d\r\n" % (b"q" * (i % 300), i, i) for i in range(20000))
    (root / "m-dense.txt").write_bytes(dense)
    (root / "n-crlf.txt").write_bytes(_text(3000).replace(b"\n", b"\r\n"))
    # over-long runs: one with no token stop (one range), one through ')'
    # (cut, every range after the first inside the run), both then text
    (root / "o-run.txt").write_bytes(b"urn:a:" * 40000 + b" " + _text(100))
    (root / "p-run.txt").write_bytes(b"urn:a:b)" * 30000 + b" " + _text(100))
    # an mbox archive of twice the split: its messages go to tasks in batches
    (root / "l-archive.mbox").write_bytes(_archive(400))


def _archive(messages: int) -> bytes:
    """An mbox archive: messages with and without a Message-ID, multipart
    ones with a binary attachment, latin-1 and quoted-printable parts,
    mboxrd-quoted From lines."""
    import base64
    import quopri

    out = []
    for i in range(messages):
        head = b"From s%d@example.org Mon Jan  1 00:00:00 2001\nFrom: s@example.org\nSubject: urn:x-s:%d\n" % (i, i)
        if i % 3:
            head += b"Message-ID: <%d@example.org>\n" % i
        text = _text(5, i) + b">From the quoted line urn:x-q:%d\n" % i
        if i % 4 == 0:
            out.append(head + b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b%d\"\n\n"
                       b"--b%d\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: "
                       b"quoted-printable\n\n%scaf\xe9 urn:x-l:%d\n--b%d\nContent-Type: application/octet-stream\n"
                       b"Content-Transfer-Encoding: base64\n\n%s--b%d--\n\n"
                       % (i, i, quopri.encodestring(text), i, i, base64.encodebytes(bytes(range(256))), i))
        else:
            out.append(head + b"\n" + text + b"\n")
    return b"".join(out)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("jobs") / "corpus"
    _corpus(root)
    return root


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_same_rows_at_every_jobs(tmp_path, corpus, fmt):
    env = dict(os.environ, URNSCAN_SPLIT_BYTES=str(64 << 10))
    results = {}
    for jobs in (1, 2, 3):
        out = tmp_path / f"out{jobs}.{fmt}"
        res = _run(["scan", str(corpus), "-o", str(out), "--jobs", str(jobs), "-q"], env=env)
        assert res.returncode == 0, res.stderr
        if fmt == "jsonl":
            rows = _jsonl_rows(out)
            files = (tmp_path / f"out{jobs}.files.jsonl").read_text()
        else:
            rows = pq.read_table(out).to_pylist()
            files = pq.read_table(tmp_path / f"out{jobs}.files.parquet").to_pylist()
        results[jobs] = (rows, files)
    assert len(results[1][0]) > 40000
    files = results[1][1]
    gone = ([r for r in map(json.loads, files.splitlines()) if r["source"].endswith("-gone.txt")] if fmt == "jsonl"
            else [r for r in files if r["source"].endswith("-gone.txt")])
    assert [r["status"] for r in gone] == ["skipped"] * 3
    assert results[1] == results[2] == results[3]


def test_an_archive_s_messages_are_scanned_by_tasks_in_batches(tmp_path, monkeypatch):
    """A large mbox archive is split into its messages in this process and
    scanned by tasks a batch at a time, with the rows of a scan in one
    process: the same hits, and one row in the files table."""
    from urnscan import runner

    path = tmp_path / "archive.mbox"
    path.write_bytes(_archive(200))
    assert runner._plan(next(iter_inputs([str(path)])), ScanConfig(jobs=2, split_bytes=SPLIT))[0].kind == "mail"
    assert runner._plan(next(iter_inputs([str(path)])), ScanConfig(jobs=2, split_bytes=SPLIT, max_ratio=2))[0].kind \
        == "files"  # (a ratio limit under what mail decodes to: the archive is scanned whole)
    given = []
    submit = runner.WorkerPool.submit
    monkeypatch.setattr(runner.WorkerPool, "submit", lambda self, fn, *args: given.append((fn, args)) or
                        submit(self, fn, *args))
    results = {}
    for jobs in (1, 2):
        hits, statuses = [], []
        run_scan(iter_inputs([str(path)]), ScanConfig(jobs=jobs, split_bytes=SPLIT), hits.extend, statuses.append)
        results[jobs] = ([h._replace(findings=()) for h in hits], statuses)
    assert results[1] == results[2]
    batches = [args[1] for fn, args in given if fn is runner._task_messages]
    assert [index for batch in batches for index, _ in batch] == list(range(1, 201)) and len(batches) > 3
    [status] = results[2][1]
    assert (status.status, status.container, status.skipped_documents) == ("scanned", "mbox", 50)
    assert {h.document for h in results[2][0]} >= {"#1/1", "<1@example.org>/header", "#13/1", "#199/header"}


def _dies_at_message_100(send, path, batch, *args):
    """``_task_messages``, but a worker given message 100 dies."""
    from urnscan import runner

    if any(index == 100 for index, _ in batch):
        os._exit(3)
    runner._SCAN_MESSAGES(send, path, batch, *args)


def test_an_archive_whose_task_fails_ends_where_it_failed(tmp_path, monkeypatch):
    """A batch whose worker dies ends the archive: the hits of the batches
    before it are kept, none after, and the archive's row says why."""
    from urnscan import runner

    path = tmp_path / "archive.mbox"
    path.write_bytes(_archive(200))
    monkeypatch.setattr(runner, "_SCAN_MESSAGES", runner._task_messages, raising=False)
    monkeypatch.setattr(runner, "_task_messages", _dies_at_message_100)
    hits, statuses = [], []
    run_scan(iter_inputs([str(path)]), ScanConfig(jobs=2, split_bytes=SPLIT), hits.extend, statuses.append)
    [status] = statuses
    assert status.status == "error" and "worker process" in status.reason
    numbers = [int(h.document.split("@")[0].strip("<#").split("/")[0]) for h in hits]
    assert numbers and max(numbers) < 100 and numbers == sorted(numbers)
    assert status.hits == len(hits)


def test_truncated_file_reports_bytes_read(tmp_path):
    """A file that shrinks between listing and scanning (ranges planned on
    the old size) reports the bytes actually read."""
    path = tmp_path / "shrinks.txt"
    path.write_bytes(_text(10000))
    refs = list(iter_inputs([str(path)]))
    path.write_bytes(_text(3000))  # truncated after listing: the planned size is stale
    statuses, hits = [], []
    config = ScanConfig(jobs=2, split_bytes=64 << 10)
    run_scan(refs, config, hits.extend, statuses.append)
    assert statuses[0].bytes == len(_text(3000)) and statuses[0].status == "scanned"
    assert len(hits) == 9000


# --- a file that changes while its ranges are scanned -------------------------

SPLIT = 64 << 10
BIG_TEXT = _text(6000)  # about 450 KB: seven ranges of SPLIT


def _changed_run(tmp_path, monkeypatch, change, jobs=2):
    """Scan big.txt (cut into ranges) and small.txt, ``change(path)``
    applied to big.txt once its ranges are planned, before any is read;
    the statuses by name and the hits."""
    from urnscan import runner

    big, small = tmp_path / "big.txt", tmp_path / "small.txt"
    big.write_bytes(BIG_TEXT)
    small.write_bytes(_text(3))
    real_plan = runner.plan_file

    def plan_then_change(path, size, split_bytes):
        planned = real_plan(path, size, split_bytes)
        if path == str(big):
            change(path)
        return planned

    monkeypatch.setattr(runner, "plan_file", plan_then_change)
    statuses, hits = [], []
    summary = run_scan(iter_inputs([str(tmp_path)]), ScanConfig(jobs=jobs, split_bytes=SPLIT), hits.extend,
                       statuses.append)
    return {os.path.basename(s.source): s for s in statuses}, hits, summary


def _make_directory(path):
    os.remove(path)
    os.mkdir(path)


def _truncate(path):
    os.truncate(path, len(BIG_TEXT) // 3)


def _unreadable(monkeypatch):
    """A change making big.txt unreadable to the range scans: opening it
    fails with EACCES (a mode of 000 would not stop the superuser the tests
    may run as)."""
    import builtins
    import errno

    from urnscan import ranges

    def open_denied(path, *args, **kw):
        if str(path).endswith("big.txt"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return builtins.open(path, *args, **kw)

    return lambda path: monkeypatch.setattr(ranges, "open", open_denied, raising=False)


@pytest.mark.parametrize("change, reason", [
    (os.remove, "no such file or directory"),
    (_make_directory, "is a directory"),
    ("unreadable", "permission denied"),
])
def test_a_file_changed_after_planning_is_its_error_row(tmp_path, monkeypatch, change, reason):
    """Removed, replaced by a directory or unreadable once its ranges are
    planned: the file's row says why, as a scan in one process says it,
    and the run goes on."""
    if change == "unreadable":
        change = _unreadable(monkeypatch)
    rows, hits, summary = _changed_run(tmp_path, monkeypatch, change)
    assert rows["big.txt"] == FileStatus(str(tmp_path / "big.txt"), "error", reason)
    assert rows["small.txt"].status == "scanned" and len(hits) == rows["small.txt"].hits == 9
    assert summary.errors == 1 and summary.files == 2


def test_a_file_removed_while_planned_is_its_error_row(tmp_path, monkeypatch):
    """Removed between the look at its head and the cutting into ranges:
    planned whole, and its scan reports it gone."""
    from urnscan import planning

    real_ranges = planning.plan_ranges

    def remove_then_cut(path, *args):
        os.remove(path)
        return real_ranges(path, *args)

    monkeypatch.setattr(planning, "plan_ranges", remove_then_cut)
    (tmp_path / "big.txt").write_bytes(BIG_TEXT)
    (tmp_path / "small.txt").write_bytes(_text(3))
    statuses, hits = [], []
    run_scan(iter_inputs([str(tmp_path)]), ScanConfig(jobs=2, split_bytes=SPLIT), hits.extend, statuses.append)
    assert [(os.path.basename(s.source), s.status, s.reason) for s in statuses] == [
        ("big.txt", "error", "no such file or directory"), ("small.txt", "scanned", None)]
    assert len(hits) == 9


def test_a_file_truncated_after_planning_reports_what_was_read(tmp_path, monkeypatch):
    """Ranges planned on the old size read to the new end: the row and the
    hits are those a scan in one process gives the truncated file."""
    rows, hits, _ = _changed_run(tmp_path, monkeypatch, _truncate)
    expected, expected_hits = [], []
    run_scan(iter_inputs([str(tmp_path)]), ScanConfig(jobs=1), expected_hits.extend, expected.append)
    assert rows["big.txt"].bytes == len(BIG_TEXT) // 3 and rows["big.txt"].status == "scanned"
    assert list(rows.values()) == expected and hits == expected_hits


def test_a_file_that_shrinks_between_the_reads_of_its_ranges(tmp_path, monkeypatch):
    """Range 2 is read whole, then the file is cut inside range 1, whose
    worker then reads short: what the ranges read is no one version of the
    file, and the row says so, with the hits and bytes of the part before
    the cut (those a scan of the shortened file finds there)."""
    from urnscan import ranges

    big, done = tmp_path / "big.txt", tmp_path / "range-2-read"
    big.write_bytes(BIG_TEXT[:2 * SPLIT + SPLIT // 2])  # two ranges
    cut = 20_000
    real_count = ranges._BreakCounter.__call__
    main = os.getpid()

    def count_then_cut(self, offset, chunk):
        real_count(self, offset, chunk)
        if os.getpid() == main:
            return
        if self.start > 0 and self.read == self.stop - self.start:
            done.touch()
        elif self.start == 0 and self.read == ranges.READ_SIZE:  # range 1, after its first read
            deadline = time.monotonic() + 60
            while not done.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            os.truncate(big, cut)

    monkeypatch.setattr(ranges, "READ_SIZE", 4096)
    monkeypatch.setattr(ranges._BreakCounter, "__call__", count_then_cut)
    statuses, hits = [], []
    run_scan(iter_inputs([str(big)]), ScanConfig(jobs=2, split_bytes=SPLIT), hits.extend, statuses.append)
    assert done.exists()
    expected = list(scan_bytes([BIG_TEXT[:cut]], source=str(big)))
    assert statuses == [FileStatus(str(big), "error", "file shrank while it was read", cut, None, None,
                                   len(expected), len(expected), documents=1)]
    assert hits == expected


def test_a_rescan_that_finds_the_file_gone_keeps_the_hits_before(tmp_path, monkeypatch):
    """The main process rescans a range after a hit that crossed into it
    (an over-long run through ')' token stops); when the file is gone by
    then, the row says so, the hits stitched before are kept and the run
    goes on."""
    import errno

    from urnscan import ranges, runner
    from urnscan.sources.reader import open_error

    big = tmp_path / "big.txt"
    run = b"urn:a:b)" * (3 * SPLIT // 2 // 8)  # from range 1 well into range 2
    big.write_bytes(run + b" " + _text(4000))
    (tmp_path / "small.txt").write_bytes(_text(3))
    main, armed = os.getpid(), []
    real_open, real_plan = ranges._open, runner.plan_file

    def gone_here(path):
        if armed and os.getpid() == main:
            raise open_error(path, FileNotFoundError(errno.ENOENT, "No such file or directory", path))
        return real_open(path)

    def plan_then_arm(*args):
        planned = real_plan(*args)
        armed.append(planned.layout)
        return planned

    monkeypatch.setattr(ranges, "_open", gone_here)
    monkeypatch.setattr(runner, "plan_file", plan_then_arm)
    statuses, hits = [], []
    for codec_arrow in (False, True):
        del statuses[:], hits[:], armed[:]
        batches = []
        summary = run_scan(iter_inputs([str(tmp_path)]), ScanConfig(jobs=2, split_bytes=SPLIT), hits.extend,
                           statuses.append, write_batch=batches.append if codec_arrow else None)
        assert armed[0] == "ranges"
        big_row, small_row = statuses
        assert (big_row.status, big_row.reason) == ("error", "no such file or directory")
        assert big_row.hits == 1  # the run, found before the rescan
        assert len(hits) + sum(b.num_rows for b in batches) == big_row.hits + small_row.hits
        assert 0 < big_row.bytes < len(run) and big_row.documents == 1
        assert small_row.status == "scanned" and summary.errors == 1


# --- killed runs ------------------------------------------------------------

def _children(pid):
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as fh:  # a zombie is not running
        return fh.read().split(") ")[1][0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and ps")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_killed_run_leaves_no_worker_and_no_temp_file(tmp_path, corpus, sig):
    # the files go to the workers; the FIFO (read in the main process, its
    # writer silent) keeps the run going until it is killed
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    keep = os.open(fifo, os.O_RDWR)  # a writer that never writes
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "index.parquet"
    probe = PendingFile(str(out_dir / "probe"))
    named = probe.named  # (whether this file system has files without a name)
    probe.discard()
    proc = subprocess.Popen([*URNSCAN, "scan", str(corpus), str(fifo), "-o", str(out), "--jobs", "2", "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        workers = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.1)
            workers = _children(proc.pid)
        assert len(workers) == 2, "the workers did not start"
        time.sleep(0.5)
        if named:
            assert [n for n in os.listdir(out_dir) if n.endswith(".tmp")], "no temporary file while running"
        else:  # the files being written have no name (urnscan.tempfiles)
            assert os.listdir(out_dir) == []
            held = [link for link in os.listdir(f"/proc/{proc.pid}/fd")
                    if "(deleted)" in os.readlink(f"/proc/{proc.pid}/fd/{link}")
                    and os.readlink(f"/proc/{proc.pid}/fd/{link}").startswith(str(out_dir))]
            assert held, "the run holds no file in the output's directory"
        os.kill(proc.pid, sig)
        proc.wait(30)
    finally:
        os.close(keep)
        if proc.poll() is None:
            proc.kill()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    assert not [w for w in workers if _alive(w)]
    left = [n for n in os.listdir(out_dir) if n.endswith(".tmp")]
    if sig == signal.SIGKILL:
        if named:
            assert left  # nobody could remove them ...
            res = _run(["scan", str(corpus / "a001.txt"), "-o", str(out), "--jobs", "2", "-q"])
            assert res.returncode == 0
            left = [n for n in os.listdir(out_dir) if n.endswith(".tmp")]  # ... the next run does
        else:
            assert os.listdir(out_dir) == []  # the system freed the files without a name
    else:
        assert proc.returncode == (130 if sig == signal.SIGINT else 143)
        assert b"Traceback" not in proc.stderr.read()
    assert left == []
    assert not out.exists() or sig == signal.SIGKILL


def test_stale_temp_files_of_dead_processes_only(tmp_path):
    target = str(tmp_path / "x.parquet")
    mine = reserve(target)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".x.parquet.{dead.pid}.0123abcd.tmp"
    stale.write_bytes(b"")
    other = tmp_path / f".y.parquet.{dead.pid}.0123abcd.tmp"
    other.write_bytes(b"")
    assert remove_stale(target) == 1
    assert os.path.exists(mine) and not stale.exists() and other.exists()


# --- bounded pieces ---------------------------------------------------------

@pytest.mark.parametrize("codec", [HIT_PIECES, ARROW_PIECES])
def test_hits_come_back_in_bounded_pieces(tmp_path, codec):
    """However dense the hits, the main process gets pieces of at most
    PIECE_ROWS hits, and they add up to a one-process scan."""
    from urnscan.pieces import PIECE_ROWS

    path = tmp_path / "dense.txt"
    path.write_bytes(b"urn:a:b " * 60000)
    pieces = []

    def write_batch(batch):
        pieces.append(batch.num_rows)

    def write_hits(hits):
        pieces.append(len(hits))

    statuses = []
    run_scan(iter_inputs([str(path)]), ScanConfig(jobs=2, split_bytes=128 << 10), write_hits, statuses.append,
             write_batch=write_batch if codec.arrow else None)
    assert sum(pieces) == 60000 == statuses[0].hits
    assert max(pieces) <= PIECE_ROWS


@pytest.mark.parametrize("text", [
    "urn:isbn:0451450523",
    "see urn:ietf:rfc:2141 and <urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6>, urn:isbn:123 (bad)",
    " ".join(f"urn:example:{i}:caf\u00e9" for i in range(3000)),
], ids=["one", "mixed", "many"])
def test_a_piece_crosses_processes_as_it_left(text):
    """A record batch sent by a worker (``wire``) is unpickled as the same
    batch, schema and its documentation included; a list of hits as it is."""
    import pickle

    from urnscan import scan_text
    from urnscan.pieces import STREAMED_ROWS

    hits = list(scan_text(text))
    batch = ARROW_PIECES.encode(hits)
    wired = ARROW_PIECES.wire(batch)
    back = pickle.loads(pickle.dumps(wired, pickle.HIGHEST_PROTOCOL))
    assert type(back) is type(batch) and back.equals(batch)
    assert back.schema.equals(batch.schema, check_metadata=True)
    assert ARROW_PIECES.rows(back) == len(hits) and ARROW_PIECES.valid(back) == sum(h.valid for h in hits)
    # a small piece pickled as its IPC stream, not column by column
    streamed = b"_batch_of_stream" in pickle.dumps(wired, pickle.HIGHEST_PROTOCOL)
    assert streamed == (len(hits) < STREAMED_ROWS)
    assert pickle.loads(pickle.dumps(HIT_PIECES.wire(list(hits)))) == list(hits)


def _long_urns(n, first=0):
    return b"".join(b"see urn:example:%06d:" % i + b"abcdefghij" * 400 + b"\n" for i in range(first, first + n))


@pytest.mark.parametrize("codec", [HIT_PIECES, ARROW_PIECES])
def test_pieces_of_long_urns_are_bounded_by_their_text(tmp_path, monkeypatch, codec):
    """Pieces are cut by the text they hold as well as by rows: here ten
    4 KB URNs a piece, from byte ranges and from batches of files alike
    (the workers are forked with the smaller bound)."""
    from urnscan import pieces as pieces_module
    from urnscan.model import TEXT_PER_URN_BYTE

    urn_length = len("urn:example:000000:") + 4000
    monkeypatch.setattr(pieces_module, "PIECE_TEXT", 10 * urn_length * TEXT_PER_URN_BYTE)
    (tmp_path / "a-ranges.txt").write_bytes(_long_urns(300))
    for i in range(4):
        (tmp_path / f"b{i}.txt").write_bytes(_long_urns(25, 1000 * i))
    sizes, statuses, hits = [], [], []

    def write_batch(batch):
        sizes.append(batch.num_rows)

    def write_hits(found):
        sizes.append(len(found))
        hits.extend(found)

    run_scan(iter_inputs([str(tmp_path)]), ScanConfig(jobs=2, split_bytes=128 << 10), write_hits, statuses.append,
             write_batch=write_batch if codec.arrow else None)
    assert [s.hits for s in statuses] == [300, 25, 25, 25, 25] and sum(sizes) == 400
    assert max(sizes) == 10


# --- small files read in one call ---------------------------------------------

@pytest.mark.parametrize("name, content", [
    ("plain.txt", _text(50)),
    ("empty.txt", b""),
    ("crlf.txt", _text(20).replace(b"\n", b"\r\n")),
    ("binary.dat", bytes(range(256)) * 8),
    ("packed.gz", __import__("gzip").compress(_text(30), mtime=0)),  # (mtime: the same test id in every run)
    ("nul-once.txt", b"urn:a:b\x00 urn:c:d"),
])
def test_small_file_read_whole_matches_the_chunk_reader(tmp_path, name, content):
    from urnscan.runner import scan_input

    path = tmp_path / name
    path.write_bytes(content)
    ref = next(iter_inputs([str(path)]))
    results = []
    for chunk_size in (1 << 20, 7):  # whole (when plain), then through the chunk reader
        hits = []
        status = scan_input(ref, ScanConfig(chunk_size=chunk_size), hits.extend)
        results.append((status, hits))
    assert results[0] == results[1]


# --- a worker that dies -------------------------------------------------------

def _echo(send, value):
    send(value)


def _die(send, value):
    send(value)
    os.kill(os.getpid(), signal.SIGKILL)


def _raise(send):
    raise ValueError("broken task")


def test_worker_pool_reports_a_dead_worker_and_goes_on():
    from urnscan.workers import WorkerDied, WorkerPool

    pool = WorkerPool(1)
    try:
        assert list(pool.messages(pool.submit(_echo, 1))) == [1]
        dying, queued = pool.submit(_die, 2), pool.submit(_echo, 3)
        with pytest.raises(WorkerDied, match="SIGKILL"):
            list(pool.messages(dying))  # (what it sent before dying may be lost with it)
        with pytest.raises(WorkerDied, match="died"):  # queued to the worker that died
            list(pool.messages(queued))
        with pytest.raises(WorkerDied, match="broken task"):
            list(pool.messages(pool.submit(_raise)))
        assert list(pool.messages(pool.submit(_echo, 4))) == [4]  # a fresh worker took over
    finally:
        pool.close()


def _blob(send, size):
    send(b"x" * size)


@pytest.mark.skipif(not hasattr(__import__("fcntl"), "F_GETPIPE_SZ"), reason="pipe capacity is Linux's")
def test_results_come_through_a_pipe_of_a_megabyte():
    """A piece of a few MB crosses the pipe in reads of its capacity: the
    pool asks for 1 MiB (RESULT_PIPE_BYTES), and what crosses is whole."""
    import fcntl

    from urnscan.workers import RESULT_PIPE_BYTES, WorkerPool

    pool = WorkerPool(1)
    try:
        assert [len(m) for m in pool.messages(pool.submit(_blob, 3 << 20))] == [3 << 20]
        pipe = pool._workers[0].results._reader.fileno()
        with open("/proc/sys/fs/pipe-max-size") as f:
            if int(f.read()) < RESULT_PIPE_BYTES and os.geteuid() != 0:
                pytest.skip("this system lets no user have a pipe of 1 MiB")
        assert fcntl.fcntl(pipe, fcntl.F_GETPIPE_SZ) == RESULT_PIPE_BYTES
    finally:
        pool.close()


_PREPARED = []


def _prepare():
    _PREPARED.append(os.getpid())


def _prepared(send):
    send(list(_PREPARED))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_what_the_pool_prepares_runs_once_here_before_the_workers_fork():
    from urnscan.workers import WorkerPool

    _PREPARED.clear()
    pool = WorkerPool(2, prepare=_prepare)
    try:
        tickets = [pool.submit(_prepared) for _ in range(4)]
        assert {t.worker for t in tickets} == {0, 1}
        assert [list(pool.messages(t)) for t in tickets] == [[[os.getpid()]]] * 4
        assert _PREPARED == [os.getpid()]
    finally:
        pool.close()


def test_a_scan_with_workers_loads_the_namespace_rules_before_they_fork(tmp_path):
    """The workers judge every URN; the rules they judge with were loaded
    once, in the process that forked them (which judged none itself)."""
    for i in range(400):
        (tmp_path / f"f{i:03d}.txt").write_bytes(b"see urn:isbn:978-3-16-148410-%d\n" % (i % 10))
    code = ("import sys; from urnscan.cli import main; from urnscan import runner, judge\n"
            "seen = []\n"
            "runner.namespace_rules = lambda: seen.append(judge._RULES is None) or judge.namespace_rules()\n"
            f"code = main(['scan', {str(tmp_path)!r}, '-o', {str(tmp_path / 'x.jsonl')!r}, '-q', '--jobs', '2'])\n"
            "print(seen, 'urnscan.namespaces.heuristic' in sys.modules, code)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["[True]", "True", "0"], out.stderr
    assert len(_jsonl_rows(tmp_path / "x.jsonl")) == 400


def _slow(send, value):
    time.sleep(0.6)
    send(value)


def _many(send, count):
    for i in range(count):
        send((i, time.monotonic()))
    send(("end", time.monotonic()))


def test_a_worker_ahead_of_the_reader_goes_on_working():
    """With room for one message in its queue, a worker whose task the
    reader takes second still finishes it while the reader waits for the
    first one: its messages wait in its outbox, and come in order."""
    from urnscan.workers import WorkerPool

    pool = WorkerPool(2, max_messages=1)
    results = {}

    def read() -> None:
        first = pool.submit(_slow, "first")
        second = pool.submit(_many, 200)
        results["workers"] = (first.worker, second.worker)
        results["first"] = list(pool.messages(first))
        results["read_first"] = time.monotonic()
        # the second worker is idle by now, its messages in its outbox: it
        # must forward them, not wait for a task the reader would never send
        results["second"] = list(pool.messages(second))
        results["third"] = list(pool.messages(pool.submit(_many, 3)))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(60)
    try:
        assert not reader.is_alive(), "the reader waited for ever"
        assert results["workers"][0] != results["workers"][1]
        assert results["first"] == ["first"]
        got = results["second"]
        assert [m[0] for m in got] == list(range(200)) + ["end"]
        assert got[-1][1] < results["read_first"]  # done before the reader came to it
        assert results["third"][-1][0] == "end"  # and goes on
    finally:
        pool.close(terminate=reader.is_alive())


def test_a_worker_done_with_its_tasks_gets_more_while_the_other_runs_a_slow_one():
    """While the reader waits for a slow task, it gives tasks to the worker
    that is idle (``idle``); the slow worker gets at most the one it takes
    next, and the tasks the other one ran wait, done, to be read in order."""
    from urnscan.workers import DEFAULT_QUEUED

    _give_while_a_task_is_slow(DEFAULT_QUEUED)


def test_giving_tasks_to_a_busy_worker_is_what_the_test_above_catches():
    with pytest.raises(AssertionError):
        _give_while_a_task_is_slow(max_queued=100)


def _give_while_a_task_is_slow(max_queued: int) -> None:
    from urnscan.workers import DEFAULT_QUEUED, WorkerPool

    pool = WorkerPool(2, max_queued=max_queued)
    results = {}

    def read() -> None:
        slow = pool.submit(_slow, "slow")
        given = []

        def idle() -> None:
            while pool.has_room() and len(given) < 8:
                given.append(pool.submit(_many, 1))

        results["slow"] = list(pool.messages(slow, idle))
        results["read_slow"] = time.monotonic()
        results["behind_slow"] = sum(1 for t in given if t.worker == slow.worker)
        results["given"] = [(t.worker != slow.worker, list(pool.messages(t))) for t in given]

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(60)
    try:
        assert not reader.is_alive(), "the reader waited for ever"
        assert results["slow"] == ["slow"]
        assert len(results["given"]) == 8
        assert results["behind_slow"] <= DEFAULT_QUEUED - 1
        for other, got in results["given"]:
            assert [m[0] for m in got] == [0, "end"]
            if other:
                assert got[-1][1] < results["read_slow"]
    finally:
        pool.close(terminate=reader.is_alive())


class _FullQueue:
    """A bounded queue whose room the test gives and takes."""

    def __init__(self, room):
        self.room, self.items = room, []

    def full(self):
        return self.room == 0

    def put(self, item):
        if self.room == 0:
            raise AssertionError("a put would block for ever")
        self.room -= 1
        self.items.append(item)


def test_outbox_keeps_order_through_its_file():
    from urnscan.workers import _Outbox

    q = _FullQueue(2)
    box = _Outbox(q)
    for i in range(6):
        box.send(i)
    assert q.items == [0, 1] and box.waiting == 4 and box.spilled == 4
    q.room = 1
    box.send(6)  # the oldest waiting message goes first, 6 waits behind the rest
    assert q.items == [0, 1, 2] and box.waiting == 4 and box.spilled == 5
    q.room = 100
    box.flush()
    assert q.items == list(range(7)) and box.waiting == 0
    box.send(7)  # an empty outbox sends straight on
    assert q.items[-1] == 7 and box.spilled == 5


def test_outbox_without_a_file_waits_for_room(monkeypatch):
    """Where no temporary file can be written, the message waits for room
    after the ones already waiting (here the queue has room again)."""
    import tempfile as tempfile_module

    from urnscan.workers import _Outbox

    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile_module, "TemporaryFile", no_space)
    q = _FullQueue(0)
    box = _Outbox(q)

    def room_comes(item, put=q.put):
        q.room = max(q.room, 1)
        put(item)

    q.put = room_comes
    box.send("a")
    assert q.items == ["a"] and box.spilled == 0


def _die_on_b(send, refs, config, arrow):
    from urnscan import runner

    if any(r[0].endswith("b.txt") for r in refs):  # (InputRef fields: the path first)
        os.kill(os.getpid(), signal.SIGKILL)
    runner._task_files.__wrapped__(send, refs, config, arrow)


def test_files_of_a_dead_worker_are_reported_as_errors(tmp_path, monkeypatch):
    from urnscan import runner

    for name in ("a.txt", "b.txt", "c.txt"):
        (tmp_path / name).write_bytes(_text(3))
    monkeypatch.setattr(runner, "BATCH_FILES", 1)
    _die_on_b.__wrapped__ = runner._task_files
    monkeypatch.setattr(runner, "_task_files", _die_on_b)
    statuses, hits = [], []
    summary = run_scan(iter_inputs([str(tmp_path)]), ScanConfig(jobs=2), hits.extend, statuses.append)
    assert [(os.path.basename(s.source), s.status) for s in statuses] == [
        ("a.txt", "scanned"), ("b.txt", "error"), ("c.txt", "scanned")]
    assert "worker process killed" in statuses[1].reason
    assert summary.errors == 1 and len(hits) == 18


def test_atomic_file_replaces_only_on_success(tmp_path):
    from urnscan.tempfiles import atomic_file

    target = tmp_path / "out.txt"
    target.write_text("before")
    with pytest.raises(RuntimeError):
        with atomic_file(str(target)) as tmp:
            with open(tmp, "w") as fh:
                fh.write("half")
            raise RuntimeError("stop")
    assert target.read_text() == "before" and os.listdir(tmp_path) == ["out.txt"]
    with atomic_file(str(target)) as tmp:
        # without a name while written where the system allows (urnscan.tempfiles)
        assert (os.path.basename(tmp).startswith(".out.txt.") and tmp.endswith(".tmp")) or tmp.startswith("/proc/")
        with open(tmp, "w") as fh:
            fh.write("after")
        assert target.read_text() == "before"
    assert target.read_text() == "after" and os.listdir(tmp_path) == ["out.txt"]


@pytest.mark.parametrize("tasks, max_bytes, max_files", [
    (0, (8 << 20) >> 6, 1024 >> 6),  # the first task is small: the workers start at once
    (1, (8 << 20) >> 5, 1024 >> 5),
    (5, (8 << 20) >> 1, 1024 >> 1),
    (6, 8 << 20, 1024),
    (60, 8 << 20, 1024),  # then every task is the largest
])
def test_batches_grow_to_their_size(tasks, max_bytes, max_files):
    from urnscan import runner

    assert (runner.BATCH_BYTES, runner.BATCH_FILES) == (8 << 20, 1024)
    batch = runner._new_batch(tasks)
    assert (batch.max_bytes, batch.max_files) == (max_bytes, max_files)


@pytest.mark.parametrize("content, limit, listed, expected", [
    (b"0123456789", 100, 10, b"0123456789"),
    (b"0123456789", 100, 4, b"0123456789"),  # grew since it was listed
    (b"0123456789", 100, 50, b"0123456789"),  # shrank since it was listed
    (b"0123456789", 4, 10, b"0123"),  # never more than the limit
    (b"0123456789", 4, 2, b"0123"),
    (b"", 100, 0, b""),
    (b"x" * 3_000_000, 2_500_000, 10, b"x" * 2_500_000),  # read on past a short first read
])
def test_read_at_most(tmp_path, content, limit, listed, expected):
    from urnscan.runner import _read_at_most

    path = tmp_path / "f"
    path.write_bytes(content)
    assert _read_at_most(str(path), limit, listed) == expected


def _container_fixtures():
    """One input of each kind the reader tells by its first bytes."""
    import gzip
    import io
    import tarfile
    import zipfile

    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr(zipfile.ZipInfo("a.txt", date_time=(2024, 1, 1, 0, 0, 0)), "urn:isbn:0451450523")
    tarred = io.BytesIO()
    with tarfile.open(fileobj=tarred, mode="w", format=tarfile.USTAR_FORMAT) as t:
        info = tarfile.TarInfo("a.txt")
        info.size = 19
        t.addfile(info, io.BytesIO(b"urn:isbn:0451450523"))
    return [gzip.compress(b"urn:a:b", mtime=0), zipped.getvalue(), tarred.getvalue(), b"%PDF-1.4\n1 0 obj\n",
            b"junk\n%PDF-1.7\n1 0 obj urn:a:b", b"WARC/1.0\r\n", b"!<arch>\n", "urn:a:b".encode("utf-16"),
            '<?xml version="1.0"?><a>urn:a:b</a>'.encode("utf-16-le"), "<a>urn:a:b</a>".encode("utf-32-be"),
            b"From a@b Mon Jan  1 00:00:00 2024\nSubject: urn:a:b\n\nx\n"]


_PIECES = [b"urn:isbn:0451450523 ", b"text ", b"\n", b"%PDF-", b"1.4", b"obj", b"ustar", b"PK", b"From ",
           b"\x1f\x8b", b"BZh", b"\xff\xfe", b"WARC/", b" " * 200, b"From: a@b\n", b"Date: x\n", b"X-A: 1\n"]


@pytest.mark.parametrize("data", _container_fixtures())
def test_what_is_plain_at_a_glance_needs_none_of_the_tests(data):
    from urnscan.runner import _plain_at_a_glance

    assert not _plain_at_a_glance(data)


@given(st.lists(st.sampled_from(_PIECES), max_size=30))
@settings(max_examples=300, deadline=None)
def test_plain_at_a_glance_holds_only_where_every_test_finds_plain_text(pieces):
    from urnscan.runner import _plain_at_a_glance
    from urnscan.sources.charsets import bom_encoding
    from urnscan.sources.codecs import detect_compression
    from urnscan.sources.documents import container_kind

    data = b"".join(pieces)
    if _plain_at_a_glance(data):
        assert detect_compression(data) is None
        assert container_kind(data, "notes.txt") is None
        assert bom_encoding(data) is None


def _failing_reader(monkeypatch):
    """Mail reading that fails, as a library's bug would, after the first
    document of a message."""
    from urnscan.sources import mail

    real = mail.message_documents

    def failing(message, index):
        for n, doc in enumerate(real(message, index)):
            if n == 1:
                raise ValueError("a reader's fault")
            yield doc

    monkeypatch.setattr(mail, "message_documents", failing)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_unexpected_reader_error_is_the_input_s_error_and_the_run_goes_on(tmp_path, monkeypatch, jobs):
    _failing_reader(monkeypatch)
    (tmp_path / "a.txt").write_bytes(b"urn:isbn:0451450523\n")
    (tmp_path / "b.mbox").write_bytes(b"From a@b Mon Jan  1 00:00:00 2024\nSubject: urn:example:kept\n\n"
                                      b"body urn:example:lost\n")
    (tmp_path / "c.txt").write_bytes(b"urn:ietf:rfc:8141\n")
    hits, statuses = [], []
    run_scan(iter_inputs([str(tmp_path)]), ScanConfig(jobs=jobs), hits.extend, statuses.append)
    assert [(h.source.rsplit("/", 1)[1], h.urn) for h in hits] == [
        ("a.txt", "urn:isbn:0451450523"), ("b.mbox", "urn:example:kept"), ("c.txt", "urn:ietf:rfc:8141")]
    by_name = {s.source.rsplit("/", 1)[1]: s for s in statuses}
    assert by_name["b.mbox"].status == "error"
    assert by_name["b.mbox"].reason == "internal error: ValueError: a reader's fault"
    assert (by_name["b.mbox"].hits, by_name["b.mbox"].valid_hits) == (1, 1)
    assert by_name["a.txt"].status == by_name["c.txt"].status == "scanned"


def test_an_error_of_the_output_is_raised_not_turned_into_a_status(tmp_path):
    from urnscan.runner import scan_input
    from urnscan.sources import expand_inputs

    (tmp_path / "a.txt").write_bytes(b"urn:isbn:0451450523\n")

    def full_disk(hits):
        raise OSError(28, "No space left on device")

    [ref] = expand_inputs([str(tmp_path / "a.txt")])
    with pytest.raises(OSError, match="No space"):
        scan_input(ref, ScanConfig(), full_disk)
