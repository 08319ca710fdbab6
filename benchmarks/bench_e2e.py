"""End to end: ``urnscan scan DIR -o x.parquet`` beside ripgrep, same run.

    python3 benchmarks/bench_e2e.py --real DIR [--dense-mb 200] [--tiny 50000] [--repeat 3]

Times the real command line (process start-up, walking, reading, judging,
writing Parquet) against ripgrep 14 counting the bare+wrapped pattern
(``rg -U -c -i -uu``, the same pattern as benchmarks/bench_scan.py) over
the same inputs, and prints ``ratio = rg time / urnscan time`` (1.0: as
fast as ripgrep; above: faster):

* ``--real DIR``: a directory of real files (e.g. text, XML, code, mail),
  at ``--jobs 1`` vs ``rg -j1`` and ``--jobs 2`` vs ``rg -j2``;
* a dense generated file (benchmarks/corpus.py, one URN per 2 KB: 102,420
  hits of 4,636 distinct URNs in 200 MiB), cached under benchmarks/_corpus/;
* a dense file of mostly distinct URNs (one per 2 KB of prose, each drawn
  afresh: about 76% of the hits a URN of their own), cached there too;
* a catalogue file (one distinct ISBN URN a line, 40 MiB, run once: every
  hit is judged afresh, and the file is cut into byte ranges at ``--jobs 2``);
* many tiny files (one short paragraph each), per-file cost;
* start-up: ``urnscan scan`` of an empty file to Parquet, beside
  ``python -c pass``;
* the machine's own two-core scaling: a CPU-bound loop run alone, then
  twice at once (:func:`measured.two_process_scaling`), the most that
  ``--jobs 2`` can gain over ``--jobs 1`` on work that keeps a core busy.

The commands run from outside the checkout (benchmarks/measured.py), so
that ``python -m urnscan`` is the installed package, and the first lines
name it and say whether its compiled accelerator ran.

Every time is the wall time of the quickest of ``--repeat`` runs; the CPU
seconds (user + system, the process and its workers) of that run are
printed beside it, as the machine's load average: on a shared machine the
wall-time ratios, and ``--jobs 2`` most of all, move with what else runs.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_scan import RG_PATTERN  # noqa: E402
from corpus import _make_urn, _paragraph, generate  # noqa: E402
from measured import OUTSIDE, URNSCAN, describe, two_process_scaling  # noqa: E402

#: the commands run as an installed package runs: with its bytecode cached
#: (PYTHONDONTWRITEBYTECODE would have every run compile urnscan again)
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def best(repeat, args, env=None):
    """(wall seconds, CPU seconds of the command and its children) of the
    quickest of ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env or CHILD_ENV,
                              cwd=OUTSIDE)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(map(str, args))} failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
        runs.append((wall, cpu))
    return min(runs)


def urnscan_cmd(paths, out, jobs):
    return [*URNSCAN, "scan", *paths, "-o", out, "--force", "-q", "--jobs", str(jobs)]


def rg_cmd(rg, paths, jobs):
    return [rg, "-U", "-c", "-i", "-uu", "-j", str(jobs), RG_PATTERN, *paths]


def size_of(paths):
    total = 0
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                total += sum(os.path.getsize(os.path.join(root, f)) for f in files
                             if os.path.isfile(os.path.join(root, f)))
        else:
            total += os.path.getsize(p)
    return total


def count_files(paths):
    return sum(len(files) for p in paths for _, _, files in os.walk(p)) if all(os.path.isdir(p) for p in paths) \
        else len(paths)


def compare(label, rg, paths, work, repeat, jobs_list=(1, 2)):
    size = size_of(paths)
    walls, rg_walls = {}, {}
    for jobs in jobs_list:
        out = os.path.join(work, "out.parquet")
        ours, ours_cpu = best(repeat, urnscan_cmd(paths, out, jobs))
        theirs, theirs_cpu = best(repeat, rg_cmd(rg, paths, jobs))
        walls[jobs], rg_walls[jobs] = ours, theirs
        print(f"{label:28} {'-j' + str(jobs):>4} {size / 1e6:8.1f} {ours:9.2f} {theirs:9.2f} "
              f"{size / ours / 1e6:9.0f} {theirs / ours:7.2f} {ours_cpu:9.2f} {theirs_cpu:9.2f}", flush=True)
        yield jobs, ours, theirs
    if len(walls) > 1:
        first, last = min(walls), max(walls)
        print(f"{'':28} {'':>4} --jobs {last} is {walls[first] / walls[last]:.2f}x --jobs {first} "
              f"(rg -j{last} is {rg_walls[first] / rg_walls[last]:.2f}x rg -j{first}: the cores free meanwhile)",
              flush=True)


def make_tiny(directory, n):
    os.makedirs(directory, exist_ok=True)
    body = ("A short note citing urn:isbn:978-0-306-40615-7 and <urn:ietf:rfc:%d>;\n"
            "see also urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66 for the record %d.\n")
    for i in range(n):
        sub = os.path.join(directory, f"d{i // 1000:03d}")
        if i % 1000 == 0:
            os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"note-{i:06d}.txt"), "w") as fh:
            fh.write(body % (i % 9000 + 1, i))


def make_distinct(path, mb, every=2048, seed=5):
    """Prose paragraphs with one URN every ``every`` bytes, each drawn afresh
    (benchmarks/corpus.py's namespaces and forms): ``mb`` MiB whose URNs
    are mostly distinct, so most hits are judged once each."""
    rng = random.Random(seed)
    size = int(mb * (1 << 20))
    written = 0
    with open(path, "w") as fh:
        while written < size:
            lines, length = [], 0
            while length < every - 100:
                line = _paragraph(rng, "plain")[0]
                lines.append(line)
                length += len(line)
            urn = _make_urn(rng)[0]
            lines.insert(rng.randrange(len(lines) + 1), f"See {urn} for the record.\n")
            text = "".join(lines)
            fh.write(text)
            written += len(text)


def make_catalog(path, mb):
    """A catalogue dump: one distinct ISBN URN per line, ``mb`` MiB (every
    hit a URN judged afresh; large enough to be cut into byte ranges)."""
    count = int(mb * (1 << 20)) // 23
    with open(path, "w") as fh:
        for i in range(count):
            fh.write(f"urn:isbn:978{i:010d}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", metavar="DIR", help="a directory of real files (skipped when not given)")
    ap.add_argument("--dense-mb", type=float, default=200, help="size of the dense generated file (MiB; 0 skips it)")
    ap.add_argument("--distinct-mb", type=float, default=200,
                    help="size of the dense file whose URNs are mostly distinct (MiB; 0 skips it)")
    ap.add_argument("--tiny", type=int, default=50000, help="number of tiny files (0 skips them)")
    ap.add_argument("--catalog-mb", type=float, default=40,
                    help="size of the catalogue file of distinct URNs, run once (MiB; 0 skips it)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=str(HERE / "_corpus"), help="where the generated file is cached")
    args = ap.parse_args()
    args.dir = os.path.abspath(args.dir)  # (the commands run elsewhere: measured.OUTSIDE)
    if args.real:
        args.real = os.path.abspath(args.real)
    rg = shutil.which("rg")
    if rg is None:
        raise SystemExit("ripgrep (rg) is not installed: pip install '.[bench]'")
    version = subprocess.run([rg, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    cores = len(os.sched_getaffinity(0))
    print(f"urnscan scan DIR -o x.parquet vs {version} -U -c -i (bare+wrapped); {cores} cores; "
          f"best of {args.repeat}; ratio = rg time / urnscan time")
    print(describe())
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          "(other work on the machine slows both tools, and --jobs 2 most)")
    if cores >= 2:
        print(f"two CPU-bound processes do {two_process_scaling():.2f}x the work of one on this machine "
              "(2.00: two free cores; the ceiling of --jobs 2 over --jobs 1 where the scan is CPU-bound)",
              flush=True)
    print(f"{'input':28} {'jobs':>4} {'MB':>8} {'urnscan s':>9} {'rg s':>9} {'MB/s':>9} {'ratio':>7} "
          f"{'cpu ours':>9} {'cpu rg':>9}")
    work = tempfile.mkdtemp(prefix="urnscan-e2e-")
    try:
        if args.real:
            n = count_files([args.real])
            list(compare(f"real corpus ({n} files)", rg, [args.real], work, args.repeat))
        os.makedirs(args.dir, exist_ok=True)
        if args.dense_mb:
            dense = os.path.join(args.dir, f"dense-{int(args.dense_mb)}mb-every2048.txt")
            if not os.path.exists(dense):
                generate(dense, args.dense_mb, 2048, seed=11)
                os.remove(dense + ".json")
            list(compare("dense file (1 URN / 2 KB)", rg, [dense], work, args.repeat))
        if args.distinct_mb:
            distinct = os.path.join(args.dir, f"distinct-{int(args.distinct_mb)}mb-every2048.txt")
            if not os.path.exists(distinct):
                make_distinct(distinct, args.distinct_mb)
            list(compare("dense, mostly distinct URNs", rg, [distinct], work, args.repeat))
        if args.catalog_mb:
            catalog = os.path.join(args.dir, f"catalog-{int(args.catalog_mb)}mb-isbn.txt")
            if not os.path.exists(catalog):
                make_catalog(catalog, args.catalog_mb)
            list(compare("catalog (1 distinct URN/line)", rg, [catalog], work, 1))
        if args.tiny:
            tiny = os.path.join(work, "tiny")
            make_tiny(tiny, args.tiny)
            for jobs, ours, theirs in compare(f"{args.tiny} tiny files", rg, [tiny], work, args.repeat):
                print(f"{'':28} {'':>4} per file: urnscan {ours / args.tiny * 1e6:.0f} us, "
                      f"rg {theirs / args.tiny * 1e6:.0f} us", flush=True)
        empty = os.path.join(work, "empty.txt")
        open(empty, "w").close()
        out = os.path.join(work, "empty.parquet")
        start = best(max(5, args.repeat), urnscan_cmd([empty], out, 1))[0]
        python = best(max(5, args.repeat), [sys.executable, "-P", "-c", "pass"])[0]
        floor = best(max(5, args.repeat), [sys.executable, "-P", "-c", "import pyarrow.parquet"])[0]
        rg_start = best(max(5, args.repeat), rg_cmd(rg, [empty], 1))[0]
        print(f"start-up: urnscan scan of an empty file to Parquet {start:.3f} s "
              f"(python -c pass {python:.3f} s; python importing pyarrow.parquet {floor:.3f} s; rg {rg_start:.3f} s)")
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
