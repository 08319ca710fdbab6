"""The directory walk alone: ``expand_inputs`` over a tree, per entry.

    python3 benchmarks/bench_walk.py DIR [--repeat 5]

Times ``list(expand_inputs([DIR], ...))`` with the walking options of
``urnscan scan`` (the default: hidden files skipped, .ignore / .gitignore
rules on, links not followed; ``-u``; ``-uu``; ``-L``), the ``skip`` of a
Parquet output included, and prints microseconds per entry listed beside
the time ``rg --files`` takes to list the same tree (when installed).
Every time is the quickest of ``--repeat`` runs, in the same process after
one warm-up run (the file system cache is warm); the CPU time per entry
(user + system of this process) moves less with the machine's load.

On the real corpus (9,605 entries listed, 9,447 of them files to read; a
shared 2-core virtual machine, load average about 2.5, where a ``stat``
system call costs 2-4 us), CPU microseconds per entry listed, the walk
that took one ``os.stat`` by path, one ``os.access`` and a few generator
layers per entry beside the one that takes the listing's file types, one
``lstat`` by name in a directory descriptor, and access(2) only when the
owner's bits do not grant reading:

    mode        before   after
    default      15.1     7.8
    -u           12.8     7.8
    -uu          12.7     7.5
    -L           16.2     9.4

``rg --files -j1`` lists the same tree in 80-110 ms wall (8-11 us per
entry, process start-up included) on the same machine.

Later, listing each directory in one compiled call (``sources.listing``:
the names and the ``lstat`` of every plain file and directory, without an
``os.DirEntry`` and an ``os.stat_result`` per entry), load about 0.3, wall
microseconds per entry listed:

    mode        before   after
    default      5.89     4.83
    -u           5.70     4.77
    -uu          5.90     4.77
    -L           7.16     5.93
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from urnscan.cli.outputs import _OwnOutputs  # noqa: E402
from urnscan.sources import expand_inputs  # noqa: E402

#: (label, options of expand_inputs, rg flags that list the same)
MODES = [
    ("default", dict(hidden=False, ignore_files=True, follow_symlinks=False), []),
    ("-u", dict(hidden=False, ignore_files=False, follow_symlinks=False), ["-u"]),
    ("-uu", dict(hidden=True, ignore_files=False, follow_symlinks=False), ["-uu"]),
    ("-L", dict(hidden=False, ignore_files=True, follow_symlinks=True), ["-L"]),
]


def best(repeat, run, clock=time.perf_counter):
    run()
    times = []
    for _ in range(repeat):
        t0 = clock()
        result = run()
        times.append(clock() - t0)
    return min(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rg = shutil.which("rg")
    out = os.path.join(tempfile.gettempdir(), "bench-walk.parquet")
    skip = _OwnOutputs.of_files(out, out.replace(".parquet", ".files.parquet"))
    print(f"{'mode':8} {'inputs':>7} {'listed':>7} {'ms':>8} {'us/entry':>9} {'CPU us':>7} {'rg ms':>7}")
    for label, options, rg_flags in MODES:
        def walk():
            return list(expand_inputs([args.dir], skip=skip, **options))

        seconds, refs = best(args.repeat, walk)
        cpu, _ = best(args.repeat, walk, time.process_time)
        ok = sum(1 for r in refs if r.ok)
        rg_ms = ""
        if rg:
            rg_s, _ = best(args.repeat, lambda: subprocess.run(
                [rg, "--files", "-j1", *rg_flags, args.dir], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, check=False))
            rg_ms = f"{rg_s * 1e3:7.1f}"
        print(f"{label:8} {ok:7d} {len(refs):7d} {seconds * 1e3:8.1f} {seconds / max(len(refs), 1) * 1e6:9.2f} "
              f"{cpu / max(len(refs), 1) * 1e6:7.2f} {rg_ms:>7}")


if __name__ == "__main__":
    main()
