"""The local scan beside the same scan on a Dask LocalCluster, in one run.

    python3 benchmarks/bench_dask.py [--files 6] [--file-mb 8] [--big-mb 32] [--split-mb 8]
                                     [--workers N] [--repeat 2] [--keep]

Generates (once, cached under benchmarks/_corpus/) a deterministic corpus
with benchmarks/corpus.py: ``--files`` files of ``--file-mb`` MiB and one of
``--big-mb`` MiB, which is scanned in byte ranges of ``--split-mb`` MiB
(URNs at one per 2 KB).  Then times, best of ``--repeat``:

* the local scan (``urnscan.runner.run_scan``) with one process and with
  ``--workers`` processes;
* the same scan on a ``distributed.LocalCluster`` of ``--workers``
  single-threaded worker processes (``urnscan.distributed``), started and
  warmed up before timing (its start-up time is printed apart);

each twice: counting the hits (no output), and writing the Parquet dataset
(``ParquetSink`` locally, ``write_dataset`` on Dask).  Prints MB/s (10^6
bytes per second) and each one's ratio to the one-process local scan, and
first the parallel capacity of the machine at that moment: how much faster
``--workers`` processes spinning a pure-Python loop get through the work
than one (on a shared machine, other load shows here).
Needs ``pip install '.[dask]'``.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import generate  # noqa: E402

import urnscan  # noqa: E402
from urnscan.runner import ScanConfig, default_jobs, iter_inputs, run_scan  # noqa: E402
from urnscan.sinks.parquet import ParquetSink  # noqa: E402

EVERY = 2048
MiB = 1 << 20


def make_corpus(root: Path, files: int, file_mb: float, big_mb: float) -> int:
    root.mkdir(parents=True, exist_ok=True)
    wanted = [(f"doc-{i:02d}.txt", file_mb, i + 1) for i in range(files)] + [("big.txt", big_mb, 0)]
    for name, mb, seed in wanted:
        path = root / name
        if not path.exists():
            generate(str(path), mb, EVERY, seed=seed)
            side = Path(str(path) + ".json")
            if side.exists():
                side.unlink()
    return sum((root / name).stat().st_size for name, _, _ in wanted)


def _spin(n):
    t0 = time.perf_counter()
    s = 0
    for i in range(n):
        s += i
    return time.perf_counter() - t0


def parallel_capacity(workers, n=5_000_000):
    """Work rate of ``workers`` processes over that of one (ideally ``workers``)."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_spin, [1000] * workers))  # start the processes
        one = pool.submit(_spin, n).result()
        t0 = time.perf_counter()
        list(pool.map(_spin, [n] * workers))
        return workers * one / (time.perf_counter() - t0)


def best_of(repeat, fn):
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def local_count(root, config):
    counted = [0]
    run_scan(iter_inputs([str(root)]), config, lambda hits: counted.__setitem__(0, counted[0] + len(hits)),
             lambda status: None)
    return counted[0]


def local_parquet(root, config, out):
    with ParquetSink(out, force=True) as sink:
        run_scan(iter_inputs([str(root)]), config, sink.write_hits, sink.add_file_status)
    return sink.rows_written


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=6, help="number of small files (default 6)")
    ap.add_argument("--file-mb", type=float, default=8, help="size of each small file in MiB (default 8)")
    ap.add_argument("--big-mb", type=float, default=32, help="size of the large file in MiB (default 32)")
    ap.add_argument("--split-mb", type=float, default=8, help="byte-range size for the large file (default 8)")
    ap.add_argument("--workers", type=int, default=default_jobs(), help="processes / Dask workers (default: all cores)")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--dir", default=str(HERE / "_corpus"))
    ap.add_argument("--keep", action="store_true", help="keep the generated corpus")
    args = ap.parse_args()
    try:
        import dask
        from distributed import Client, LocalCluster

        from urnscan import distributed as ud
    except ImportError as exc:
        sys.exit(f"bench_dask: {exc}: pip install '.[dask]'")

    root = Path(args.dir) / f"dask-{args.files}x{args.file_mb:g}mb-{args.big_mb:g}mb"
    size = make_corpus(root, args.files, args.file_mb, args.big_mb)
    split = int(args.split_mb * MiB)
    out_dir = tempfile.mkdtemp(prefix="bench-dask-")
    print(f"urnscan {urnscan.__version__}; dask {dask.__version__}; corpus {size / 1e6:.0f} MB in "
          f"{args.files + 1} files (the large one in {args.split_mb:g} MiB ranges); {args.workers} workers; "
          f"best of {args.repeat}")
    print(f"parallel capacity: {args.workers} processes do {parallel_capacity(args.workers):.2f}x the work of one")
    rows = []
    try:
        for jobs in sorted({1, args.workers}):
            config = ScanConfig(jobs=jobs, split_bytes=split)
            t, hits = best_of(args.repeat, lambda: local_count(root, config))
            rows.append((f"local run_scan, {jobs} process{'es' if jobs > 1 else ''}", "count", t, hits))
            t, hits = best_of(args.repeat, lambda: local_parquet(root, config, os.path.join(out_dir, "local/")))
            rows.append((f"local run_scan, {jobs} process{'es' if jobs > 1 else ''}", "Parquet", t, hits))

        t0 = time.perf_counter()
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=40) as cluster, Client(cluster):
            started = time.perf_counter() - t0
            warm = ud.scan_paths([str(root / "doc-00.txt")], split_bytes=split)
            dask.compute(warm.hits.map_partitions(len))  # imports and first-use set-up on the workers

            def dask_count():
                scan = ud.scan_paths([str(root)], split_bytes=split)
                return int(scan.hits.map_partitions(len).compute().sum())

            def dask_parquet():
                scan = ud.scan_paths([str(root)], split_bytes=split)
                return ud.write_dataset(scan, os.path.join(out_dir, "dask"), force=True).rows

            label = f"Dask LocalCluster, {args.workers} workers"
            t, hits = best_of(args.repeat, dask_count)
            rows.append((label, "count", t, hits))
            t, hits = best_of(args.repeat, dask_parquet)
            rows.append((label, "Parquet", t, hits))
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)

    print(f"LocalCluster start-up: {started:.1f} s (not counted)")
    print(f"{'engine':36} {'output':8} {'MB/s':>8} {'hits':>9} {'vs 1 process':>13}")
    base = {out: size / t for name, out, t, _ in rows if name.endswith(" 1 process")}
    for name, out, t, hits in rows:
        rate = size / t
        print(f"{name:36} {out:8} {rate / 1e6:8.1f} {hits:9d} {rate / base[out]:12.2f}x")


if __name__ == "__main__":
    main()
