"""`urnscan scan --jobs N`: one process against all cores, on many files and
on one large file, into Parquet.

    python3 benchmarks/bench_jobs.py [--size-mb 256] [--files 128] [--repeat 2]

Generates (benchmarks/corpus.py, deterministic) a corpus of FILES files and
one file of the same total size, then times the real command line writing a
Parquet index with ``--jobs 1`` and with ``--jobs N`` (N = the cores), and
prints MB/s and the speed-up.  The rows are checked to be the same.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import generate  # noqa: E402
from measured import OUTSIDE, URNSCAN, describe  # noqa: E402


def timed_scan(paths, out, jobs):
    t0 = time.perf_counter()
    subprocess.run([*URNSCAN, "scan", *paths, "-o", out, "--force", "-q", "--jobs", str(jobs)], check=True,
                   cwd=OUTSIDE)
    return time.perf_counter() - t0


def rows(out):
    import pyarrow.parquet as pq

    table = pq.read_table(out, columns=["source", "start", "urn", "valid"])
    return sorted(zip(*(table.column(c).to_pylist() for c in table.column_names)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=512)
    ap.add_argument("--files", type=int, default=128)
    ap.add_argument("--every", type=int, default=20480)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0))
    work = tempfile.mkdtemp(prefix="urnscan-bench-")
    try:
        many = os.path.join(work, "many")
        os.makedirs(many)
        for i in range(args.files):
            generate(os.path.join(many, f"doc-{i:04d}.txt"), args.size_mb / args.files, args.every, seed=i)
        big = os.path.join(work, "big.txt")
        generate(big, args.size_mb, args.every, seed=10_000)
        for side in Path(work).rglob("*.json"):
            side.unlink()
        size = sum(p.stat().st_size for p in Path(many).iterdir())
        print(f"{cores} cores; corpus {size / 1e6:.0f} MB as {args.files} files and as one file; "
              f"1 URN per {args.every} bytes; best of {args.repeat}")
        print(describe())
        print(f"{'input':>18} {'--jobs':>7} {'MB/s':>8} {'speed-up':>9}")
        for label, paths in (("many files", [many]), ("one large file", [big])):
            results = {}
            for jobs in (1, cores):
                out = os.path.join(work, f"out-{jobs}.parquet")
                best = min(timed_scan(paths, out, jobs) for _ in range(args.repeat))
                results[jobs] = (best, rows(out))
            base = results[1][0]
            assert results[1][1] == results[cores][1], "rows differ between --jobs 1 and --jobs N"
            for jobs, (t, _) in results.items():
                print(f"{label:>18} {jobs:>7} {size / t / 1e6:8.0f} {base / t:8.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
