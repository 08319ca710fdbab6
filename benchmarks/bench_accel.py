"""The compiled byte loops (urnscan/_accel.c) beside their Python references.

    python3 benchmarks/bench_accel.py --real DIR [--dense-mb 50] [--repeat 3]

Two parts, both measured in the same run:

* the pieces: ``urn_positions`` over every file of DIR and over the dense
  generated file (benchmarks/corpus.py, one URN per 2 KB), each file one
  buffer, ``looks_binary`` on the first block of every file,
  ``count_breaks`` over every file, and
  ``context_snippet`` (64 bytes each side, as ``urnscan scan`` keeps) of
  40 bytes at every "urn:"; best of ``--repeat``, MB/s of the bytes looked
  at (of the snippets: their bytes);
* end to end: ``urnscan scan DIR -o x.parquet --jobs 1`` with the extension
  and with ``URNSCAN_PURE_PYTHON=1``, runs alternated, quickest wall time
  and its CPU seconds.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_e2e import best, urnscan_cmd  # noqa: E402
from corpus import generate  # noqa: E402

from urnscan import accel  # noqa: E402
from urnscan.context import DEFAULT_CONTEXT, context_snippet, context_snippet_py  # noqa: E402
from urnscan.scanner import count_breaks, count_breaks_py, urn_positions, urn_positions_py  # noqa: E402
from urnscan.sources.reader import BINARY_BLOCK_SIZE, looks_binary, looks_binary_py  # noqa: E402


def read_all(directory):
    out = []
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as fh:
                    out.append(fh.read())
    return out


def quickest(repeat, function, buffers):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for buf in buffers:
            function(buf)
        times.append(time.perf_counter() - t0)
    return min(times)


def pieces(label, buffers, repeat):
    size = sum(map(len, buffers))
    head = sum(min(len(b), BINARY_BLOCK_SIZE) for b in buffers)
    hits = [(b, urn_positions_py(b, 0, len(b))) for b in buffers]
    spans = sum(len(context_snippet_py(b, p, p + 40, DEFAULT_CONTEXT).encode()) for b, ps in hits for p in ps)

    def snippets(function):
        return lambda pair: [function(pair[0], p, p + 40, DEFAULT_CONTEXT) for p in pair[1]]

    rows = [
        ("urn_positions", size, lambda b: urn_positions_py(b, 0, len(b)), lambda b: urn_positions(b, 0, len(b))),
        ("looks_binary", head, looks_binary_py, looks_binary),
        ("count_breaks", size, lambda b: count_breaks_py(b, 0, len(b)), lambda b: count_breaks(b, 0, len(b))),
        ("context_snippet", spans, snippets(context_snippet_py), snippets(context_snippet)),
    ]
    for name, nbytes, python, compiled in rows:
        inputs = hits if name == "context_snippet" else buffers
        t_py = quickest(repeat, python, inputs)
        t_c = quickest(repeat, compiled, inputs)
        print(f"{label:28} {name:15} {nbytes / 1e6:8.1f} {t_py * 1e3:9.1f} {t_c * 1e3:9.1f} "
              f"{nbytes / t_py / 1e6:9.0f} {nbytes / t_c / 1e6:9.0f} {t_py / t_c:7.1f}x", flush=True)


def end_to_end(label, paths, work, repeat):
    out = os.path.join(work, "out.parquet")
    compiled_env = {k: v for k, v in os.environ.items() if k != accel.PURE_PYTHON_VARIABLE}
    pure_env = dict(compiled_env, **{accel.PURE_PYTHON_VARIABLE: "1"})
    runs = {"compiled": [], "python": []}
    for _ in range(repeat):  # alternated, so a change of load hits both
        runs["compiled"].append(best(1, urnscan_cmd(paths, out, 1), compiled_env))
        runs["python"].append(best(1, urnscan_cmd(paths, out, 1), pure_env))
    (c_wall, c_cpu), (p_wall, p_cpu) = min(runs["compiled"]), min(runs["python"])
    print(f"{label:28} {'-j1':>4} wall {p_wall:6.2f} s -> {c_wall:6.2f} s ({p_wall / c_wall:.2f}x); "
          f"cpu {p_cpu:6.2f} s -> {c_cpu:6.2f} s ({p_cpu / c_cpu:.2f}x)", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", metavar="DIR", help="a directory of real files (skipped when not given)")
    ap.add_argument("--dense-mb", type=float, default=50, help="size of the dense generated file (MiB)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=str(HERE / "_corpus"), help="where the generated file is cached")
    args = ap.parse_args()
    if accel.COMPILED is None:
        raise SystemExit(f"the extension is not in use (not built, or {accel.PURE_PYTHON_VARIABLE} is set)")
    print(f"python reference vs compiled; best of {args.repeat}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'input':28} {'function':15} {'MB':>8} {'py ms':>9} {'C ms':>9} {'py MB/s':>9} {'C MB/s':>9} "
          f"{'speed-up':>8}")
    os.makedirs(args.dir, exist_ok=True)
    dense = os.path.join(args.dir, f"dense-{int(args.dense_mb)}mb-every2048.txt")
    if not os.path.exists(dense):
        generate(dense, args.dense_mb, 2048, seed=11)
        os.remove(dense + ".json")
    inputs = [("dense file (1 URN / 2 KB)", [dense])]
    if args.real:
        buffers = read_all(args.real)
        pieces(f"real corpus ({len(buffers)} files)", buffers, args.repeat)
        inputs.insert(0, (f"real corpus ({len(buffers)} files)", [args.real]))
    pieces("dense file (1 URN / 2 KB)", [Path(dense).read_bytes()], args.repeat)
    with tempfile.TemporaryDirectory(prefix="urnscan-accel-") as work:
        for label, paths in inputs:
            end_to_end(label, paths, work, args.repeat)


if __name__ == "__main__":
    main()
