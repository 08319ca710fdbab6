"""Scanner throughput beside ripgrep and cat, measured in the same run.

    python3 benchmarks/bench_scan.py [--size-mb 1024] [--repeat 3] [--keep]

Generates (once, cached under benchmarks/_corpus/) two deterministic corpora
of prose, XML and code with URNs at one per 2 KB and one per 20 KB
(benchmarks/corpus.py: bare, wrapped, folded and embedded forms, decoys
such as ``return:``), then times on each:

* ``urnscan.scan_file`` -- candidates plus validation, no output, one process
  (once with the process-wide judgement cache empty, then best of the
  repeats);
* ripgrep 14 counting the equivalent bare-plus-wrapped pattern (``rg -c``);
* ripgrep with a bare-only pattern;
* ``cat > /dev/null``.

Prints MB/s (10^6 bytes per second) and urnscan's ratio to each baseline.
ripgrep comes from the ``ripgrep`` PyPI package (``pip install '.[bench]'``);
without it those rows are skipped.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import generate  # noqa: E402

import urnscan  # noqa: E402

# the bare rule (token boundary, NID-shaped token, ':', RFC 8141 repertoire)
# or the 1995 wrapper -- what urnscan looks for, in ripgrep's syntax
RG_PATTERN = r'(?:^|[^A-Za-z0-9+.\-])urn:[a-z0-9][a-z0-9-]*:[^\s"<>\\^`{|}]+|<urn:[^>]{1,2048}>'
RG_BARE = r'urn:[a-z0-9][a-z0-9-]*:[^\s"<>\\^`{|}]+'


def best_of(repeat, fn):
    best = float("inf")
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def clear_judgement_cache():
    from urnscan.judge import forget_judgements

    forget_judgements()


def run_urnscan(path):
    return sum(1 for _ in urnscan.scan_file(path))


def run_cmd(args):
    def go():
        out = subprocess.run(args, capture_output=True, text=True)
        return out.stdout.strip()
    return go


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=1024, help="size of each corpus in MiB (default 1024)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=str(HERE / "_corpus"))
    ap.add_argument("--keep", action="store_true", help="keep the generated corpora")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    rg = shutil.which("rg")
    list(urnscan.scan_text("imports urn:example:a"))  # NumPy and the registry are loaded on first use
    print(f"urnscan {urnscan.__version__}; ripgrep: {rg or 'not installed'}; best of {args.repeat}")
    print(f"{'corpus':>12} {'tool':42} {'MB/s':>8} {'hits':>9} {'urnscan ratio':>14}")
    for every in (2048, 20480):
        path = os.path.join(args.dir, f"corpus-{int(args.size_mb)}mb-every{every}.txt")
        if not os.path.exists(path):
            generate(path, args.size_mb, every, seed=0)
        size = os.path.getsize(path)
        label = f"1/{every // 1024}KB"
        rows = []
        # judgements are cached for the whole process (a scan of many files
        # meets the same URNs again): time one run with the cache empty, then
        # the best of the repeats
        clear_judgement_cache()
        t, hits = best_of(1, lambda: run_urnscan(path))
        rows.append(("urnscan.scan_file, first run (cold cache)", size / t / 1e6, hits))
        t, hits = best_of(args.repeat, lambda: run_urnscan(path))
        ours = size / t / 1e6
        rows.append(("urnscan.scan_file (validate, no output)", ours, hits))
        if rg:
            for name, pattern in (("ripgrep -c, bare+wrapped pattern", RG_PATTERN), ("ripgrep -c, bare-only pattern", RG_BARE)):
                t, out = best_of(args.repeat, run_cmd([rg, "-c", "-i", pattern, path]))
                rows.append((name, size / t / 1e6, out))
        t, _ = best_of(args.repeat, run_cmd(["sh", "-c", f"cat '{path}' > /dev/null"]))
        rows.append(("cat > /dev/null", size / t / 1e6, ""))
        for name, rate, count in rows:
            ratio = "" if name.startswith("urnscan") else f"{ours / rate:.2f}x"
            print(f"{label:>12} {name:42} {rate:8.0f} {count!s:>9} {ratio:>14}")
        if not args.keep:
            os.remove(path)
            side = path + ".json"
            if os.path.exists(side):
                os.remove(side)


if __name__ == "__main__":
    main()
