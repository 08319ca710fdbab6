"""`urnscan scan` as a ripgrep user drives it: a subprocess of the real CLI."""
import json
import os
import re
import resource
import signal
import subprocess
import sys
import threading

import pyarrow.parquet as pq
import pytest

URNSCAN = [sys.executable, "-m", "urnscan"]


def run(*args, stdin=b"", cwd=None, **kw):
    return subprocess.run([*URNSCAN, *args], capture_output=True, input=stdin, cwd=cwd, **kw)


def out_lines(res):
    return res.stdout.decode("utf-8", "surrogateescape").splitlines()


@pytest.fixture()
def tree(tmp_path, monkeypatch):
    root = tmp_path / "d"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("see urn:isbn:0451450523 and URN:ISBN:0-451-45052-3.\nbad urn:ab-:x here\n")
    (root / "sub" / "b.txt").write_text("urn:ietf:rfc:2141 twice: urn:ietf:rfc:2141\n")
    (root / "none.txt").write_text("no URN in here\n")
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    monkeypatch.chdir(tmp_path)
    return root


# ---------------------------------------------------------------------------
# What goes to stdout: hit lines, -c, -l, --unique, -C, --color
# ---------------------------------------------------------------------------

HITS = ["d/a.txt:1:5:urn:isbn:0451450523", "d/a.txt:1:29:URN:ISBN:0-451-45052-3",
        "d/a.txt:2:5:urn:ab-:x", "d/sub/b.txt:1:1:urn:ietf:rfc:2141", "d/sub/b.txt:1:26:urn:ietf:rfc:2141"]

# (arguments, stdout lines)
STDOUT_CASES = [
    ((), HITS),
    (("--valid-only",), [h for h in HITS if "ab-" not in h]),
    (("-c",), ["d/a.txt:3", "d/sub/b.txt:2"]),
    (("--count", "--valid-only"), ["d/a.txt:2", "d/sub/b.txt:2"]),
    (("-l",), ["d/a.txt", "d/sub/b.txt"]),
    (("--unique",), ["2\turn:ietf:rfc:2141", "1\tURN:ISBN:0-451-45052-3", "1\turn:ab-:x",
                     "1\turn:isbn:0451450523"]),
    (("--unique=key",), ["2\turn:ietf:rfc:2141", "1\turn:isbn:0-451-45052-3", "1\turn:isbn:0451450523"]),
    (("--unique=ns",), ["2\turn:ietf:rfc:2141", "2\turn:isbn:9780451450524"]),
    (("-q",), []),
    (("-q", "-c"), []),
]


@pytest.mark.parametrize("args,expected", STDOUT_CASES)
def test_stdout(tree, args, expected):
    res = run("scan", "d", "-j", "1", *args)
    assert res.returncode == 0, res.stderr
    assert out_lines(res) == expected


def test_cut_gives_the_urn_of_every_line(tree):
    lines = out_lines(run("scan", "d"))
    assert [line.split(":", 3)[3] for line in lines] == [h.split(":", 3)[3] for h in HITS]


def test_context_lines_in_text_output(tree):
    lines = out_lines(run("scan", "d/a.txt", "-C", "8"))
    assert lines == ["d/a.txt:1:5:urn:isbn:0451450523", "d/a.txt-1-5-see urn:isbn:0451450523 and URN",
                     "d/a.txt:1:29:URN:ISBN:0-451-45052-3", "d/a.txt-1-29-523 and URN:ISBN:0-451-45052-3. bad ur",
                     "d/a.txt:2:5:urn:ab-:x", "d/a.txt-2-5--3. bad urn:ab-:x here"]


@pytest.mark.parametrize("color,styled", [("always", True), ("never", False), ("auto", False)])
def test_color(tree, color, styled):
    text = run("scan", "d/a.txt", "--color", color).stdout.decode()
    assert ("\033[" in text) is styled
    if styled:
        assert "\033[1;31murn:isbn:0451450523\033[0m" in text      # a valid URN: coloured
        assert "\033[2murn:ab-:x\033[0m" in text                     # an invalid one: dimmed
        assert re.sub(r"\033\[[0-9;]*m", "", text).splitlines() == HITS[:3]


# ---------------------------------------------------------------------------
# stderr: notes, errors, summary, statistics; -q and -s
# ---------------------------------------------------------------------------


def test_quiet_never_hides_errors(tree):
    missing = str(tree.parent / "no-such-input")  # (a fixed path such as /nonexistent may come to exist)
    res = run("scan", missing, "-q")
    assert res.returncode == 1
    assert res.stderr.decode() == f"urnscan: {missing}: error: no such file or directory\n"
    res = run("scan", "d", missing, "-q", "-s")
    assert res.returncode == 1 and b"no such file" in res.stderr and b"binary" not in res.stderr


def test_no_messages_silences_the_notes_not_the_summary(tree):
    loud = run("scan", "d/logo.png", "d/a.txt").stderr.decode()
    assert "urnscan: d/logo.png: skipped (binary)\n" in loud
    quiet = run("scan", "d/logo.png", "d/a.txt", "-s").stderr.decode()
    assert "skipped (binary)" not in quiet and "urnscan: 2 inputs (1 scanned, 1 binary skipped" in quiet


@pytest.mark.parametrize("args", [["d"], ["d/*.png"], ["d", "-j", "2"]])
def test_binary_files_met_while_walking_are_counted_not_noted(tree, args):
    res = run("scan", *args)
    err = res.stderr.decode()
    assert res.returncode == 0 and "logo.png" not in err and " 1 binary skipped" in err


@pytest.mark.parametrize("args,summary", [
    (("d/a.txt",), "urnscan: 1 input (1 scanned, 0 binary skipped, 0 errors), 0.0 MB, 3 hits (2 valid)"),
    (("d/sub/b.txt", "d/none.txt"), "urnscan: 2 inputs (2 scanned, 0 binary skipped, 0 errors), 0.0 MB, "
                                    "2 hits (2 valid)"),
    (("d/a.txt", "nope"), "urnscan: 2 inputs (1 scanned, 0 binary skipped, 1 error), 0.0 MB, 3 hits (2 valid)"),
])
def test_summary_grammar(tree, args, summary):
    assert run("scan", *args).stderr.decode().splitlines()[-1] == summary


def test_stats(tree):
    res = run("scan", "d", "--stats", "-q")
    stats = dict(re.match(r"urnscan: (.+?)\s{2,}(.+)", line).groups() for line in res.stderr.decode().splitlines())
    assert stats["inputs"] == "4" and stats["hits"] == "5" and stats["valid hits"] == "4"
    assert stats["skipped (binary)"] == "1" and stats["errors"] == "0" and float(stats["seconds"]) > 0


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version(flag):
    from urnscan import __version__

    from urnscan.accel import in_use

    res = run(flag)
    assert res.returncode == 0 and res.stdout.decode().strip() == f"urnscan {__version__} ({in_use()})"


@pytest.mark.parametrize("value, compiled", [("1", False), ("0", True)])
def test_version_and_stats_say_which_code_runs(value, compiled, tree):
    """A run without the compiled accelerator is several times slower: -V
    and --stats say which code runs (URNSCAN_PURE_PYTHON turns it off)."""
    from urnscan.accel import COMPILED

    if compiled and COMPILED is None:
        pytest.skip("the compiled accelerator is not built here")
    env = {**os.environ, "URNSCAN_PURE_PYTHON": value}
    version = run("-V", env=env).stdout.decode().strip()
    stats = run("scan", "d", "--stats", "-q", env=env).stderr.decode()
    if compiled:
        assert version.endswith("(compiled accelerator)") and "scanner           compiled accelerator" in stats
    else:
        assert version.endswith("(pure Python: URNSCAN_PURE_PYTHON is set)")
        assert "scanner           pure Python: URNSCAN_PURE_PYTHON is set" in stats


# ---------------------------------------------------------------------------
# Standard input
# ---------------------------------------------------------------------------


def test_stdin_is_read_when_no_path_is_given(tree):
    res = run("scan", stdin=b"x urn:isbn:0451450523\n")
    assert out_lines(res) == ["-:1:3:urn:isbn:0451450523"]
    assert res.stderr.decode().startswith("urnscan: 1 input (1 scanned")


def test_no_path_and_a_terminal_on_stdin_scans_the_current_directory(tree):
    import pty

    master, slave = pty.openpty()
    try:
        res = subprocess.run([*URNSCAN, "scan", "-l"], stdin=slave, capture_output=True, timeout=120)
    finally:
        os.close(slave)
        os.close(master)
    assert res.returncode == 0, res.stderr
    assert out_lines(res) == ["./d/a.txt", "./d/sub/b.txt"]


def test_stdin_is_named_dash_everywhere(tree, tmp_path):
    data = b"x urn:isbn:0451450523\n"
    assert out_lines(run("scan", "-", stdin=data))[0].startswith("-:")
    jsonl = json.loads(run("scan", "--format", "jsonl", stdin=data).stdout)
    assert jsonl["source"] == "-"
    assert run("scan", "-o", str(tmp_path / "s.parquet"), stdin=data).returncode == 0
    assert pq.read_table(tmp_path / "s.parquet").column("source").to_pylist() == ["-"]
    assert pq.read_table(tmp_path / "s.files.parquet").column("source").to_pylist() == ["-"]
    assert run("scan", "-c", stdin=data).stdout == b"-:1\n"


# ---------------------------------------------------------------------------
# Walking: hidden files, ignore files, symbolic links, odd names
# ---------------------------------------------------------------------------


@pytest.fixture()
def repo(tree):
    (tree / ".git").mkdir()
    (tree / ".gitignore").write_text("sub/\n")
    (tree / ".hidden.txt").write_text("urn:example:hidden\n")
    return tree


@pytest.mark.parametrize("args,sources", [
    ((), ["d/a.txt"]),
    (("--no-ignore",), ["d/a.txt", "d/sub/b.txt"]),
    (("-u",), ["d/a.txt", "d/sub/b.txt"]),
    (("--hidden",), ["d/.hidden.txt", "d/a.txt"]),
    (("-uu",), ["d/.hidden.txt", "d/a.txt", "d/sub/b.txt"]),
])
def test_hidden_and_ignore_files(repo, args, sources):
    assert out_lines(run("scan", "d", "-l", *args)) == sources


@pytest.fixture()
def linked(tmp_path, monkeypatch):
    a = tmp_path / "t" / "a"
    a.mkdir(parents=True)
    (a / "one.txt").write_text("urn:isbn:0451450523\n")
    (a / "loop").symlink_to("..")
    (a / "alias.txt").symlink_to("one.txt")
    (a / "dangling").symlink_to("nowhere")
    (tmp_path / "t" / "b").symlink_to("a")
    (tmp_path / "t" / "outside.txt").write_text("urn:ietf:rfc:2141\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "t"


def test_links_are_not_followed_without_L(linked):
    res = run("scan", "t/b", "-o", "x.parquet")
    assert res.returncode == 0, res.stderr
    files = pq.read_table("x.files.parquet").to_pylist()
    assert [(f["source"], f["status"], f["reason"]) for f in files] == [
        ("t/b/alias.txt", "skipped", "symbolic link (not followed)"),
        ("t/b/dangling", "skipped", "symbolic link (not followed)"),
        ("t/b/loop", "skipped", "symbolic link (not followed)"),
        ("t/b/one.txt", "scanned", None)]
    assert "skipped (" not in res.stderr.decode()   # the walking rules: in the files table, no notes


def test_follow_lists_loops_and_dangling_links_as_skipped_and_never_leaves_the_tree(linked):
    res = run("scan", "t/b", "-L", "-o", "x.parquet")
    assert res.returncode == 0, res.stderr
    files = {f["source"]: (f["status"], f["reason"]) for f in pq.read_table("x.files.parquet").to_pylist()}
    assert files == {"t/b/dangling": ("skipped", "dangling symbolic link"),
                     "t/b/loop": ("skipped", "symbolic link loop"),
                     "t/b/one.txt": ("scanned", None)}     # alias.txt: the same file, scanned once
    assert "urnscan: t/b/loop: skipped (symbolic link loop)" in res.stderr.decode()
    assert b"skipped (" not in run("scan", "t/b", "-L", "-s").stderr


def test_odd_file_names_never_break_a_line(tree, tmp_path):
    odd = [os.fsencode(tree) + b"/caf\xe9.txt", os.fsencode(tree) + b"/two\nlines.txt"]
    for name in odd:
        with open(name, "wb") as fh:
            fh.write(b"urn:isbn:0451450523\n")
    res = run("scan", "d", "-o", str(tmp_path / "out.txt"))
    assert res.returncode == 0 and b"Traceback" not in res.stderr
    lines = (tmp_path / "out.txt").read_text(encoding="utf-8").splitlines()
    assert "d/caf\\xe9.txt:1:1:urn:isbn:0451450523" in lines
    assert "d/two\\nlines.txt:1:1:urn:isbn:0451450523" in lines
    files = (tmp_path / "out.files.txt").read_text(encoding="utf-8").splitlines()
    assert len(files) == 6 and all(line.count("\t") == 3 for line in files)
    stdout = run("scan", "d")
    assert stdout.returncode == 0 and b"d/caf\\xe9.txt:1:1:" in stdout.stdout
    for fmt in ("jsonl", "parquet"):
        res = run("scan", "d", "-o", str(tmp_path / f"all.{fmt}"))
        assert res.returncode == 0 and b"Traceback" not in res.stderr


# ---------------------------------------------------------------------------
# Outputs: never read back, errors name the output
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("out", ["d/z/out.jsonl", "d/out.txt", "d/z/index.parquet", "d/ds/"])
def test_the_run_never_reads_its_own_output(tree, out):
    expected = len(HITS)
    for extra in ((), ("--force",), ("--force", "--hidden")):
        res = run("scan", "d", "-o", out, "-j", "1", *extra, timeout=120)
        assert res.returncode == 0, res.stderr
        assert f"{len(HITS)} hits" in res.stderr.decode()
    if out.endswith(".parquet") or out.endswith("/"):
        assert pq.read_table(out if not out.endswith("/") else out + "hits-00000.parquet").num_rows == expected
    else:
        assert len(open(out, encoding="utf-8").read().splitlines()) == expected


def _files_table_sources(out):
    if out.endswith("/"):
        return pq.read_table(out + "_files.pq").column("source").to_pylist()
    stem, ext = os.path.splitext(out)
    files = f"{stem}.files{ext}"
    if ext == ".parquet":
        return pq.read_table(files).column("source").to_pylist()
    lines = open(files, encoding="utf-8").read().splitlines()
    return [json.loads(line)["source"] if ext == ".jsonl" else line.split("\t")[0] for line in lines]


# (-o OUT, an .ignore file in d): the output, its files table, their
# temporary files and a dataset directory are no rows of the files table,
# even where the walk would list them as passed over (hidden, ignored)
OWN_OUTPUT_ROWS_CASES = [
    ("d/out.jsonl", None),
    ("d/out.txt", None),
    ("d/z/index.parquet", None),
    ("d/ds/", None),
    ("d/.ds/", None),
    ("d/out.jsonl", "*.jsonl\n"),
    ("d/z/index.parquet", "*.parquet\n"),
    ("d/ds/", "ds/\n"),
]


@pytest.mark.parametrize("out,ignore", OWN_OUTPUT_ROWS_CASES)
def test_the_run_never_lists_its_own_output(tree, out, ignore):
    expected = {"d/a.txt", "d/sub/b.txt", "d/none.txt", "d/logo.png"}
    if ignore is not None:
        (tree / ".ignore").write_text(ignore)
        expected.add("d/.ignore")  # hidden: passed over, and listed
    for extra in ((), ("--force",)):
        res = run("scan", "d", "-o", out, "-j", "1", *extra, timeout=120)
        assert res.returncode == 0, res.stderr
        assert sorted(_files_table_sources(out)) == sorted(expected)


def _limit_file_size():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.mark.parametrize("name", ["big.jsonl", "big.txt", "big.parquet"])
def test_a_failed_write_names_the_output_not_its_temporary_file(tmp_path, name):
    text = tmp_path / "in.txt"
    text.write_text("".join(f"urn:example:n{i} " for i in range(20000)))
    out = tmp_path / name
    res = subprocess.run([*URNSCAN, "scan", str(text), "-o", str(out), "-C", "0"], capture_output=True,
                         preexec_fn=_limit_file_size)
    err = res.stderr.decode()
    assert res.returncode == 1 and "Traceback" not in err
    assert f"urnscan: error: {out}" in err and ".tmp" not in err, err
    assert not out.exists() and not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


# ---------------------------------------------------------------------------
# dedupe
# ---------------------------------------------------------------------------


def test_dedupe_on_what_is_not_an_index(tmp_path):
    import pandas as pd

    pd.DataFrame({"a": [1, 2]}).to_parquet(tmp_path / "other.parquet")
    (tmp_path / "text.parquet").write_text("not parquet")
    (tmp_path / "empty").mkdir()
    for name, message in [("other.parquet", "not an urnscan index (no column 'source'"),
                          ("text.parquet", "not a Parquet file"),
                          ("empty", "no hits-*.parquet"),
                          ("missing.parquet", "no such file")]:
        res = run("dedupe", str(tmp_path / name))
        err = res.stderr.decode()
        assert res.returncode == 1 and message in err and "Traceback" not in err and "arrow" not in err.lower()


def test_scan_and_import_never_load_pandas_and_dedupe_works(tree, tmp_path):
    # (writing Parquet, pyarrow itself loads pandas at its first pa.array when it is installed)
    probe = ("import sys, urnscan, urnscan.cli as c\n"
             "assert 'pandas' not in sys.modules\n"
             f"c.main(['scan', 'd', '-q', '-o', {str(tmp_path / 'i.jsonl')!r}])\n"
             "assert 'pandas' not in sys.modules, 'scan imported pandas'\n")
    probe_run = subprocess.run([sys.executable, "-c", probe], capture_output=True)
    assert probe_run.returncode == 0, probe_run.stderr
    assert run("scan", "d", "-q", "-o", str(tmp_path / "i.parquet")).returncode == 0
    res = run("dedupe", str(tmp_path / "i.parquet"))
    assert res.returncode == 0 and "urn:isbn:9780451450524" in res.stdout.decode()
    assert res.stderr.decode() == "urnscan dedupe: 1 group at level 'ns' (2 citations)\n"


@pytest.mark.parametrize("level", ["ns", "heuristic"])
def test_dedupe_uses_the_stored_keys_and_reads_older_indexes(tree, tmp_path, capsys, monkeypatch, level):
    """The keys the scan stored are the ones grouped by (the heuristic level
    runs no namespace rule); an index without them (an older scan) gives
    the same groups."""
    from urnscan import cli, frame

    (tree / "c.txt").write_text("urn:oid:1.02.3 and urn:oid:1.2.3\n")
    assert cli.main(["scan", "d", "-q", "-o", str(tmp_path / "i.parquet")]) == 0
    table = pq.read_table(tmp_path / "i.parquet")
    assert {"ns_key", "dedup_key", "dedup_rules"} <= set(table.column_names)
    pq.write_table(table.drop(["ns_key", "dedup_key", "dedup_rules"]), tmp_path / "old.parquet")
    capsys.readouterr()

    def dedupe(index):
        assert cli.main(["dedupe", "--all", "--level", level, str(tmp_path / index)]) == 0
        return capsys.readouterr()

    computed = dedupe("old.parquet")
    assert "urn:isbn:9780451450524" in computed.out
    assert ("h:oid-leading-zeros" in computed.out) == (level == "heuristic")
    calls = []
    monkeypatch.setattr(frame, "namespace_keys", lambda key: calls.append(key))
    assert dedupe("i.parquet") == computed
    assert level == "ns" or calls == []


def test_pandas_is_a_dependency():
    import tomllib
    from pathlib import Path

    meta = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    assert any(d.startswith("pandas") for d in meta["project"]["dependencies"])


# ---------------------------------------------------------------------------
# The progress line and the hit lines share one terminal
# ---------------------------------------------------------------------------


def _render(raw: str):
    """The lines a terminal shows for ``raw`` (CR, LF, erase-line, SGR)."""
    lines, line, col = [], [], 0
    for token in re.findall(r"\033\[[0-9;]*[A-Za-z]|\r|\n|[^\033\r\n]+", raw):
        if token == "\r":
            col = 0
        elif token == "\n":
            lines.append("".join(line))
            line, col = [], 0
        elif token.startswith("\033["):
            if token.endswith("K"):
                del line[col:]
        else:
            for ch in token:
                if col < len(line):
                    line[col] = ch
                else:
                    line.append(ch)
                col += 1
    if line:
        lines.append("".join(line))
    return lines


@pytest.mark.parametrize("mode", [(), ("-c",)])
def test_progress_never_garbles_hit_lines_on_a_terminal(tmp_path, mode):
    import pty

    corpus = tmp_path / "big"
    corpus.mkdir()
    filler = ("lorem ipsum dolor sit amet " * 40 + "\n").encode()
    for i in range(40):
        body = filler * 500
        (corpus / f"f{i:02d}.txt").write_bytes(
            f"urn:example:first-{i}\n".encode() + body + f"end urn:example:last-{i}\n".encode())
    expected = out_lines(run("scan", str(corpus), "-j", "1", *mode))
    assert len(expected) == (40 if mode else 80)
    master, slave = pty.openpty()
    chunks = []

    def pump():
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=pump)
    reader.start()
    try:
        # the progress line at every step, however fast the scan runs
        env = {**os.environ, "URNSCAN_PROGRESS_INTERVAL": "0"}
        proc = subprocess.Popen([*URNSCAN, "scan", str(corpus), "-j", "1", "--color", "never", *mode],
                                stdout=slave, stderr=slave, stdin=subprocess.DEVNULL, env=env)
        proc.wait(timeout=300)
    finally:
        os.close(slave)
        reader.join(timeout=30)
        os.close(master)
    raw = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0
    # the progress line is drawn at once, then at most ten times a second: it
    # shows before hit lines are printed, however fast the scan
    drawn = raw.find("\rurnscan: ")
    assert 0 <= drawn < raw.rfind(expected[-1]), "the progress line never showed before a hit line"
    shown = _render(raw)
    hit_lines = [line for line in shown if line.startswith(str(corpus))]
    assert hit_lines == expected          # every hit line intact, in order, none garbled
    assert shown[-1].startswith("urnscan: 40 inputs")


def _groups_printed(res):
    return [line.split()[0] for line in out_lines(res) if line and not line.startswith(" ")]


# (options, groups printed; None: a usage error)
DEDUPE_LIMIT_CASES = [
    ((), 2),
    (("--limit", "5"), 2),
    (("--limit", "1"), 1),
    (("--limit", "0"), 0),      # none printed: the summary and -o still have them all
    (("--limit", "-1"), None),
    (("--limit=-3",), None),
    (("--limit", "x"), None),
]


@pytest.mark.parametrize("options,printed", DEDUPE_LIMIT_CASES)
def test_dedupe_limit(tree, tmp_path, options, printed):
    assert run("scan", "d", "-q", "-o", "i.parquet").returncode == 0
    res = run("dedupe", "i.parquet", "--all", *options)
    err = res.stderr.decode()
    if printed is None:
        assert res.returncode == 2 and "argument --limit:" in err and res.stdout == b""
        return
    assert res.returncode == 0 and len(_groups_printed(res)) == printed
    assert err.startswith("urnscan dedupe: 2 groups ")
    assert (f", {printed} printed" in err) == (printed < 2)


# (what is at OUT before, -o OUT, options, exit status, message)
DEDUPE_OUTPUT_CASES = [
    (None, "nodir/dd.jsonl", (), 1, "urnscan dedupe: error: nodir/dd.jsonl: cannot write: nodir does not exist"),
    (None, "d/a.txt/dd.jsonl", (), 1, "urnscan dedupe: error: d/a.txt/dd.jsonl: cannot write: d/a.txt is not a"),
    ("file", "dd.jsonl", (), 2, "urnscan dedupe: error: dd.jsonl: already exists; use --force to overwrite"),
    ("fifo", "dd.jsonl", ("--force",), 2, "urnscan dedupe: error: dd.jsonl: is a FIFO, not a regular file"),
    ("dir", "dd.csv", ("--force",), 2, "urnscan dedupe: error: dd.csv: is a directory"),
    (None, "i.parquet", ("--force",), 2, "urnscan dedupe: error: i.parquet: is the index read"),
]


@pytest.mark.parametrize("before,out,options,status,message", DEDUPE_OUTPUT_CASES)
def test_dedupe_checks_its_output_before_the_work(tree, tmp_path, before, out, options, status, message):
    assert run("scan", "d", "-q", "-o", "i.parquet").returncode == 0
    {"file": lambda p: open(p, "w").close(), "fifo": os.mkfifo, "dir": os.mkdir, None: lambda p: None}[before](out)
    listing = sorted(os.listdir(tmp_path))
    index = (tmp_path / "i.parquet").read_bytes()
    res = run("dedupe", "i.parquet", *options, "-o", out)
    err = res.stderr.decode()
    assert res.returncode == status and err.startswith(message) and err.count("\n") == 1, err
    assert res.stdout == b""                                   # refused before the work
    assert sorted(os.listdir(tmp_path)) == listing and (tmp_path / "i.parquet").read_bytes() == index


def test_dedupe_writes_through_a_symbolic_link(tree, tmp_path):
    assert run("scan", "d", "-q", "-o", "i.parquet").returncode == 0
    os.symlink("real.jsonl", "dd.jsonl")
    assert run("dedupe", "i.parquet", "-o", "dd.jsonl").returncode == 2       # a dangling link exists
    res = run("dedupe", "i.parquet", "-o", "dd.jsonl", "--force")
    assert res.returncode == 0, res.stderr
    assert os.readlink("dd.jsonl") == "real.jsonl" and len(open("real.jsonl").read().splitlines()) == 1


# (-o OUT, what is made before: a symbolic link NAME -> TARGET, or none)
DEDUPE_INTO_THE_DATASET_CASES = [
    ("ds/hits-00000.parquet", None),  # a part of the dataset (was overwritten with --force)
    ("ds/groups.csv", None),  # a new file in the dataset directory
    ("d/../ds/./groups.jsonl", None),
    ("link/groups.jsonl", ("link", "ds")),  # through a link to the dataset
    ("out.parquet", ("out.parquet", "ds/hits-00000.parquet")),  # a link to one of its parts
    ("out.csv", ("out.csv", "ds/new.csv")),  # a dangling link into it
]


@pytest.mark.parametrize("out,link", DEDUPE_INTO_THE_DATASET_CASES)
def test_dedupe_refuses_to_write_into_the_dataset_it_reads(tree, tmp_path, out, link):
    assert run("scan", "d", "-q", "-o", "ds/").returncode == 0
    if link:
        os.symlink(link[1], link[0])
    parts = {p: (tmp_path / "ds" / p).read_bytes() for p in os.listdir(tmp_path / "ds")}
    res = run("dedupe", "ds", "--all", "--force", "-o", out)
    assert (res.returncode, res.stdout, res.stderr.decode()) == (
        2, b"", f"urnscan dedupe: error: {out}: is in the dataset read (ds); write the groups elsewhere\n")
    assert {p: (tmp_path / "ds" / p).read_bytes() for p in os.listdir(tmp_path / "ds")} == parts


# (the columns of a foreign Parquet file, what the message says of them)
DEDUPE_WRONG_TYPES_CASES = [
    ({"source": [1], "urn": [2], "key": [3], "nid": [4]},
     "column 'source' holds int64, 'urn' holds int64, 'key' holds int64, 'nid' holds int64, not text"),
    ({"source": ["a"], "urn": ["urn:a:b"], "key": [3.5], "nid": ["a"]}, "column 'key' holds double, not text"),
    ({"source": ["a"], "urn": ["urn:ab:c"], "key": ["urn:ab:c"], "nid": ["ab"], "ns_key": [True]},
     "column 'ns_key' holds bool, not text"),
    ({"source": ["a"], "urn": [["urn:ab:c"]], "key": ["urn:ab:c"], "nid": ["ab"]},
     "column 'urn' holds list<element: string>, not text"),
]


@pytest.mark.parametrize("columns,says", DEDUPE_WRONG_TYPES_CASES)
def test_dedupe_on_a_parquet_file_whose_columns_have_other_types(tmp_path, columns, says):
    """The column names of an index with other types were an internal error
    (pandas: "Can only use .str accessor...")."""
    import pyarrow as pa

    pq.write_table(pa.table(columns), tmp_path / "foreign.parquet")
    res = run("dedupe", "foreign.parquet", "--all", cwd=tmp_path)
    assert (res.returncode, res.stdout, res.stderr.decode()) == (
        1, b"", f"urnscan dedupe: error: foreign.parquet: a Parquet file, but not an urnscan index ({says}); "
                "give the output of 'urnscan scan -o FILE.parquet'\n")
