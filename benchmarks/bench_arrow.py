"""The output side: hits to Arrow record batches, and context snippets.

    python3 benchmarks/bench_arrow.py [--dense-mb 50] [--real DIR] [--repeat 5]

Scans a dense generated file (benchmarks/corpus.py, one URN per 2 KB) and,
with ``--real``, a directory of real files, with ``--context 64`` as
``urnscan scan`` does; then times, on the hits found:

* ``hits_to_record_batch`` of all of them at once and in pieces of
  ``PIECE_ROWS`` (as worker processes send them), in microseconds per hit;
* ``context_snippet`` over the same spans, in microseconds per snippet.

CPU time of the quickest of ``--repeat`` runs.  The hits are kept in memory
(about 1 KB each): 50 MiB of the dense file is about 25,000 hits.
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

from corpus import generate  # noqa: E402

from urnscan.context import context_snippet  # noqa: E402
from urnscan.pieces import PIECE_ROWS  # noqa: E402
from urnscan.scanner import scan_bytes  # noqa: E402
from urnscan.sinks.schema import hits_to_record_batch  # noqa: E402
from urnscan.sources import open_chunks  # noqa: E402


def files_under(directory):
    for root, _, names in os.walk(directory):
        for name in sorted(names):
            path = os.path.join(root, name)
            if os.path.isfile(path) and not os.path.islink(path):
                yield path


def hits_of(paths):
    hits, spans = [], []
    for path in paths:
        try:
            with open_chunks(path) as reader:
                data = b"".join(reader)
        except Exception:  # unreadable or binary inputs do not matter here
            continue
        found = list(scan_bytes([data], source=path, context=64))
        hits += found
        spans += [(data, h.start, h.end) for h in found if h.document is None]
    return hits, spans


def best(repeat, run):
    times = []
    for _ in range(repeat):
        t = time.process_time()
        run()
        times.append(time.process_time() - t)
    return min(times)


def report(label, hits, spans, repeat):
    if not hits:
        print(f"{label}: no hits")
        return
    whole = best(repeat, lambda: hits_to_record_batch(hits))
    pieces = best(repeat, lambda: [hits_to_record_batch(hits[i:i + PIECE_ROWS])
                                   for i in range(0, len(hits), PIECE_ROWS)])
    snippets = best(repeat, lambda: [context_snippet(data, a, b, 64) for data, a, b in spans])
    print(f"{label}: {len(hits)} hits ({len({h.urn for h in hits})} distinct URNs)\n"
          f"  hits_to_record_batch: {whole / len(hits) * 1e6:.2f} us/hit at once, "
          f"{pieces / len(hits) * 1e6:.2f} us/hit in pieces of {PIECE_ROWS}\n"
          f"  context_snippet: {snippets / max(1, len(spans)) * 1e6:.2f} us/snippet", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dense-mb", type=float, default=50, help="size of the dense generated file (MiB)")
    ap.add_argument("--real", metavar="DIR", help="a directory of real files (skipped when not given)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="urnscan-arrow-") as work:
        dense = os.path.join(work, "dense.txt")
        generate(dense, args.dense_mb, 2048, seed=11)
        report(f"dense file ({args.dense_mb:g} MiB, 1 URN / 2 KB)", *hits_of([dense]), args.repeat)
    if args.real:
        report(f"real files ({args.real})", *hits_of(files_under(args.real)), args.repeat)


if __name__ == "__main__":
    main()
