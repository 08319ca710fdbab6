"""Scan speed on inputs crafted against each reading rule, beside plain
prose measured in the same run.

    python3 benchmarks/bench_crafted.py [--size-mb 1] [--repeat 3]

Every reading rule is bounded, so each family should scan at no less than
1 MB/s.  Prints MB/s per family (CPU time of this process, the best of the
repeats, so other work on the machine does not count), the hits per MB
(a dense family costs its hits, not its rules) and the ratio to the prose
baseline.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from crafted import FAMILIES, prose  # noqa: E402

from urnscan import scan_bytes  # noqa: E402

CHUNK = 1 << 16


def best_time(data: bytes, repeat: int):
    """``(best CPU seconds, hits)`` of ``repeat`` scans."""
    best = float("inf")
    hits = 0
    for _ in range(repeat):
        t = time.process_time()
        hits = sum(1 for _hit in scan_bytes(data[i:i + CHUNK] for i in range(0, len(data), CHUNK)))
        best = min(best, time.process_time() - t)
    return best, hits


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    size = int(args.size_mb * (1 << 20))
    base = prose(size)
    seconds, hits = best_time(base, args.repeat)
    base_rate = len(base) / seconds / 1e6
    print(f"{'family':30} {'MB/s':>8} {'hits/MB':>9} {'x prose':>8}")
    print(f"{'prose (baseline)':30} {base_rate:8.1f} {hits / len(base) * 1e6:9.0f} {1.0:8.2f}")
    slowest = float("inf")
    for name, build in FAMILIES.items():
        data = build(size)
        seconds, hits = best_time(data, args.repeat)
        rate = len(data) / seconds / 1e6
        slowest = min(slowest, rate)
        print(f"{name:30} {rate:8.1f} {hits / len(data) * 1e6:9.0f} {rate / base_rate:8.2f}")
    print(f"slowest family: {slowest:.1f} MB/s (target >= 1 MB/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
